package litmus

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

// FuzzParse checks that no input panics or hangs the parser, that every error carries a
// position inside the file, and that whatever parses cleanly round-trips through Format with
// its comments.
func FuzzParse(f *testing.F) {
	for _, file := range append(acceptanceFiles(f), corpusFiles(f)...) {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("MPI x\n{ (* \n"))
	f.Add([]byte("MPI x\n{\n}\n P0 ;\n [r0 == 1] r0 = r0 - -1 ;\nexists (~(0:r0=1 => true))\n"))
	for _, c := range commentCases {
		f.Add([]byte(c.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tst, err := Parse("f.lit", src)
		if err != nil {
			lines := bytes.Count(src, []byte("\n")) + 1
			for _, e := range err.(ErrorList) {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Fatalf("error outside the file: %v", e)
				}
			}
		}
		if tst == nil {
			return
		}
		out := Format(tst)
		if err != nil {
			return
		}
		t2, err := Parse("f.lit", out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if a, b := commentTexts(testComments(tst)), commentTexts(testComments(t2)); !slices.Equal(a, b) {
			t.Fatalf("comments changed through Format:\n%q\n%q\n%s", a, b, out)
		}
		if out2 := Format(t2); !bytes.Equal(out, out2) {
			t.Fatalf("Format not idempotent:\n%s\n---\n%s", out, out2)
		}
	})
}
