// Command gendocs writes the reference pages made from package spec: docs/rules.md,
// and the generated sections of docs/semantics.md. `go generate ./spec` runs it in
// spec/, so the repository's root is the parent directory (or the first argument).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/spec"
)

func main() {
	root := ".."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	if err := write(root); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// write replaces both pages, or neither (one atomicfile batch).
func write(root string) error {
	path := filepath.Join(root, spec.SemanticsPage)
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	filled, err := spec.FillGenerated(string(page))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var b atomicfile.Batch
	b.Add(filepath.Join(root, spec.RulesPage), []byte(spec.RulesMarkdown()), 0o644)
	b.Add(path, []byte(filled), 0o644)
	return b.Commit()
}
