package litmus

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// moduleRoot walks up from the package directory to the folder holding go.mod.
func moduleRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the litmus package")
		}
		dir = parent
	}
}

// litFiles lists the acceptance files and the corpus beside this package.
func acceptanceFiles(t testing.TB) []string { return corpus.Acceptance(t) }

func corpusFiles(t testing.TB) []string {
	var files []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".lit" {
			files = append(files, path)
		}
		return nil
	})
	return files
}

// astOpts compare tests ignoring positions and comments: where Format puts a comment can
// differ from where the source had it (see Format), the bytes Format prints cannot.
var astOpts = cmp.Options{
	cmpopts.IgnoreTypes(Pos{}, []Pos(nil), Comments{}, []Comments(nil), []Comment(nil)),
	cmpopts.IgnoreFields(Test{}, "File"),
}

// roundTrip checks that Format re-parses to an equal AST and that printing is idempotent.
func roundTrip(t *testing.T, name string, tst *Test) {
	t.Helper()
	out := Format(tst)
	t2, err := Parse(name, out)
	if err != nil {
		t.Fatalf("%s: formatted output does not parse: %v\n%s", name, err, out)
	}
	if d := cmp.Diff(tst, t2, astOpts); d != "" {
		t.Fatalf("%s: AST changed through Format (-before +after):\n%s\n%s", name, d, out)
	}
	if out2 := Format(t2); !bytes.Equal(out, out2) {
		t.Fatalf("%s: Format is not idempotent:\n%s\n----\n%s", name, out, out2)
	}
}

func TestAcceptance(t *testing.T) {
	files := acceptanceFiles(t)
	if len(files) == 0 {
		t.Skip("../shared/acceptance is absent")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tst, err := ParseFile(f)
			if err != nil {
				t.Fatalf("%v", err)
			}
			roundTrip(t, f, tst)
		})
	}
}

// TestCorpus parses the .lit files in the litmus subfolders. Files under an "errors"
// folder are meant to be refused and only have to parse without panicking.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Skip("no corpus files yet")
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			tst, err := ParseFile(f)
			if filepath.Base(filepath.Dir(f)) == "errors" || bytes.Contains([]byte(f), []byte("/errors/")) {
				return
			}
			if err != nil {
				t.Fatalf("%v", err)
			}
			roundTrip(t, f, tst)
		})
	}
}
