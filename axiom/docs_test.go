package axiom

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/axioms.md")

// TestDocsUpToDate: docs/axioms.md is what the model files say (Markdown).
func TestDocsUpToDate(t *testing.T) {
	got, err := Markdown()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "axioms.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("docs/axioms.md is out of date (go test ./axiom -run DocsUpToDate -update):\n%s", d)
	}
}
