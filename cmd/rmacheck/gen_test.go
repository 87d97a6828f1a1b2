package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// TestGenCommand: gen writes parseable files in canonical form, named as documented.
func TestGenCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"gen", "--shape", "SB,MP", "--sync", "fence,pscw", "--flavor", "allocate_shared",
		"--locality", "remote", "--out", dir}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "wrote 4 tests") {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, "SB+fence+shared+remote.lit"))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse("x.lit", src)
	if err != nil || !bytes.Equal(litmus.Format(lt), src) {
		t.Fatalf("not canonical or bad: %v\n%s", err, src)
	}
	if code := run([]string{"gen", "--shape", "XX"}, &out, &errb); code != exitBadInput {
		t.Errorf("unknown shape: exit %d", code)
	}
}

// TestDistinguishCommand: A and B differ (exit 1, SB among the tests); B and B do not.
func TestDistinguishCommand(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	code := run([]string{"distinguish", "--sem", "A", "--sem", "B", "--max-procs", "2", "--limit", "3", "--out", dir}, &out, &errb)
	if code != exitFailed || !strings.Contains(out.String(), "B: allows") || !strings.Contains(out.String(), "  1  P") ||
		!strings.Contains(out.String(), "; showing the smallest test of 3 classes (--limit 3)\n") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.lit"))
	if len(files) != 3 {
		t.Errorf("%d files written, want 3", len(files))
	}
	out.Reset()
	if code := run([]string{"distinguish", "--sem", "B", "--sem", "B", "--max-procs", "2"}, &out, &errb); code != 0 ||
		!regexp.MustCompile(`: 0 of \d+ candidates tell them apart \(shrunk to at most 2 processes of at most 4 instructions each\)\n`).MatchString(out.String()) {
		t.Errorf("B vs B: exit %d\n%s", code, out.String())
	}
	if code := run([]string{"distinguish", "--sem", "A"}, &out, &errb); code != exitBadInput {
		t.Errorf("one --sem: exit %d", code)
	}
}

// TestFuzzCommand: a short campaign on the reference target finds nothing; unknown
// targets are refused.
func TestFuzzCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"fuzz", "--programs", "10", "--runs", "100", "--max-procs", "2"}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "10 programs") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	if code := run([]string{"fuzz", "--target", "cray"}, &out, &errb); code != exitBadInput {
		t.Errorf("--target cray: exit %d", code)
	}
}

// TestFuzzOutCheckedFirst: fuzz --out that cannot be written is refused before the
// programs run, exit 2 (issue 38: it said so only after finding a reproducer).
func TestFuzzOutCheckedFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"fuzz", "--programs", "5", "--runs", "100", "--max-procs", "2", "--out", filepath.Join(file, "repro")}, &out, &errb)
	if code != exitBadInput || !strings.Contains(errb.String(), "--out: ") || strings.Contains(out.String(), "programs") {
		t.Errorf("an --out under a file: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
