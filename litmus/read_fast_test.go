package litmus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadFileFastPath: ReadFile, with its fast path for regular files
// (read_unix.go), gives what readFile (package os alone) gives, bytes or error, for
// files within, at and over the limit, an empty file, a directory and a missing file.
func TestReadFileFastPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name  string
		path  string
		limit int64
	}{
		{"small", write("small.lit", 700), 1 << 20},
		{"default limit", write("default.lit", 700), 0},
		{"at the limit", write("at.lit", 4096), 4096},
		{"over the limit", write("over.lit", 4097), 4096},
		{"empty", write("empty.lit", 0), 1 << 20},
		{"large", write("large.lit", 300<<10), 1 << 20},
		{"directory", dir, 1 << 20},
		{"missing", filepath.Join(dir, "missing.lit"), 1 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, gerr := ReadFile(c.path, c.limit)
			want, werr := readFile(c.path, c.limit)
			if string(got) != string(want) {
				t.Errorf("read %d bytes, readFile %d", len(got), len(want))
			}
			if d := cmp.Diff(errText(werr), errText(gerr)); d != "" {
				t.Errorf("error differs from readFile's (-want +got):\n%s", d)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
