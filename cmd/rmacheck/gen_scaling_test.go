package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
)

// TestGenScaling: gen --scaling writes SHAPE-nNN.lit for each shape and n, in
// canonical form, and with --herd the x86 twin of each beside it.
func TestGenScaling(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"gen", "--scaling", "SB,iriw", "--procs", "4-5", "--herd", "--out", dir}, &out, &errb)
	if code != 0 || out.String() != "wrote 4 tests and their x86 twins to "+dir+"\n" {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
	wantFiles(t, dir, "*", "IRIW-n04.lit IRIW-n04.litmus IRIW-n05.lit IRIW-n05.litmus SB-n04.lit SB-n04.litmus SB-n05.lit SB-n05.litmus")
	src, _ := os.ReadFile(filepath.Join(dir, "SB-n05.lit"))
	lt, err := litmus.Parse("SB-n05.lit", src)
	if err != nil || !bytes.Equal(litmus.Format(lt), src) || len(lt.Procs) != 5 {
		t.Fatalf("SB-n05.lit not canonical, or not 5 processes: %v\n%s", err, src)
	}
	twin, _ := os.ReadFile(filepath.Join(dir, "SB-n05.litmus"))
	tw, err := output.HerdX86(lt)
	if err != nil || !bytes.Equal(twin, tw.Source) || !bytes.HasPrefix(twin, []byte("X86 SB-n05\n")) {
		t.Errorf("SB-n05.litmus is not the twin of SB-n05.lit: %v\n%s", err, twin)
	}
}

// TestGenScalingSyncs: --sync with --scaling writes each shape in each variant,
// named SHAPE+SYNC-nNN but for lock_all.
func TestGenScalingSyncs(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"gen", "--scaling", "SB,RING", "--sync", "lock_all,nocheck,fence", "--procs", "3", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
	wantFiles(t, dir, "*.lit", "RING+fence-n03.lit RING+nocheck-n03.lit RING-n03.lit SB+fence-n03.lit SB+nocheck-n03.lit SB-n03.lit")
	src, _ := os.ReadFile(filepath.Join(dir, "SB+nocheck-n03.lit"))
	if !bytes.Contains(src, []byte("lock_all W nocheck")) {
		t.Errorf("SB+nocheck-n03.lit has no lock_all W nocheck:\n%s", src)
	}
}

// wantFiles fails t unless the files of dir matching glob are want (names, in order).
func wantFiles(t *testing.T, dir, glob, want string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, glob))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("files %s, want %s", got, want)
	}
}

// TestGenPlain: gen --plain N writes the first N tests of the plain family of
// --seed (the benchmark's family with seed 1), and --herd their twins; without
// --out each test is printed, then its twin.
func TestGenPlain(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"gen", "--plain", "20", "--seed", "1", "--herd", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
	}
	fam, _ := gen.PlainFamily(20, 1)
	for _, ft := range fam {
		src, err := os.ReadFile(filepath.Join(dir, ft.Name+".lit"))
		if err != nil || !bytes.Equal(src, ft.Source) {
			t.Fatalf("%s.lit: %v", ft.Name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, ft.Name+".litmus")); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	if code := run([]string{"gen", "--plain", "1", "--herd"}, &out, &errb); code != 0 ||
		!strings.HasPrefix(out.String(), string(fam[0].Source)+"\nX86 "+fam[0].Name+"\n") {
		t.Errorf("exit %d, printed:\n%s", code, out.String())
	}
}

// TestGenScalingRefuses: flags that do not go together, bad --procs, and --herd on a
// test with no x86 twin are bad input, each with a message saying why.
func TestGenScalingRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--procs", "4"}, "give --scaling too"},
		{[]string{"--scaling", "SB", "--plain", "3"}, "give one"},
		{[]string{"--scaling", "SB", "--shape", "MP"}, "--shape chooses tests of the diy7-style family"},
		{[]string{"--scaling", "SB", "--sync", "fences"}, `unknown scaling sync "fences"`},
		{[]string{"--scaling", "SB", "--sync", "pscw", "--herd"}, "no x86 twin"},
		{[]string{"--plain", "3", "--max", "2"}, "--max chooses tests"},
		{[]string{"--scaling", "SB", "--procs", "1-3"}, `--procs "1-3": want LO-HI or N with 2 <= LO <= HI <= 64`},
		{[]string{"--scaling", "SB", "--procs", "6-4"}, `--procs "6-4"`},
		{[]string{"--scaling", "SB", "--procs", "x"}, `--procs "x"`},
		{[]string{"--scaling", "XX"}, `unknown scaling shape "XX"`},
		{[]string{"--plain", "-1"}, "--plain"},
		{[]string{"--shape", "SB", "--sync", "fence", "--flavor", "allocate_shared", "--locality", "remote", "--herd"},
			"--herd: SB+fence+shared+remote.lit:10:2: no x86 twin: fence"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"gen"}, c.args...), &out, &errb)
		if code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("gen %s: exit %d, %q; want exit %d and %q", strings.Join(c.args, " "), code, errb.String(), exitBadInput, c.want)
		}
	}
	// A family test of plain accesses and no epoch has a twin.
	var out, errb bytes.Buffer
	if code := run([]string{"gen", "--shape", "SB", "--sync", "none", "--flavor", "allocate_shared", "--locality", "remote", "--herd"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "\nX86 SB+po+shared+remote\n") {
		t.Errorf("exit %d: %s%s", code, out.String(), errb.String())
	}
}
