package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/gen"
)

// TestGenPlain: gen --plain N writes the plain family of the benchmarks (the files
// gen.PlainFamily makes, with the same seed), and refuses the shapes family's
// choices beside it.
func TestGenPlain(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"gen", "--plain", "12", "--seed", "3", "--out", dir}, &out, &errb); code != 0 || out.String() != "wrote 12 tests to "+dir+"\n" {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
	fam, err := gen.PlainFamily(12, 3)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.lit"))
	if len(files) != len(fam) {
		t.Fatalf("%d files written, want %d", len(files), len(fam))
	}
	for _, ft := range fam {
		src, err := os.ReadFile(filepath.Join(dir, ft.Name+".lit"))
		if err != nil || !bytes.Equal(src, ft.Source) {
			t.Errorf("%s: %v, or not the family's test:\n%s", ft.Name, err, src)
		}
	}
	for _, bad := range [][]string{{"--mix"}, {"--shape", "SB"}, {"--max", "3"}} {
		errb.Reset()
		args := append([]string{"gen", "--plain", "3"}, bad...)
		if code := run(args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "--plain: "+bad[0]+" is a choice of the shapes family") {
			t.Errorf("%v: exit %d, %s", args, code, errb.String())
		}
	}
	errb.Reset()
	if code := run([]string{"gen", "--plain", "-1"}, &out, &errb); code != exitBadInput {
		t.Errorf("--plain -1: exit %d, %s", code, errb.String())
	}
}
