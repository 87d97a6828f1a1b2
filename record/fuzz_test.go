package record

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecoders: no input makes a record decoder panic, and a conformance record that
// reads is consistent (Check held) and reads back the same after writing it again.
func FuzzDecoders(f *testing.F) {
	for _, pattern := range []string{"../reports/*/mpich.json", "../reports/*/reference.json", "../reports/*/probe-*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"format":1,"test":"SB","runs":1,"positive":1,"histogram":[{"values":{"0:r0":1},"count":1,"allowed":true}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseProbe("p.json", data)
		decodeLines[Run]("r.json", bytes.NewReader(data), 1<<20)
		recs, err := decodeLines[Conform]("c.json", bytes.NewReader(data), 1<<20)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			if err := r.Check(); err != nil {
				t.Fatalf("a record that read fails Check: %v", err)
			}
			WriteLine(&buf, r)
		}
		again, err := decodeLines[Conform]("c.json", &buf, 1<<20)
		if err != nil || len(again) != len(recs) {
			t.Fatalf("records written again do not read back: %v", err)
		}
	})
}
