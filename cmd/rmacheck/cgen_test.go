package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCgenCLI(t *testing.T) {
	code, out, errs := runCLI("cgen", "testdata/sb.lit")
	if code != 0 {
		t.Fatalf("cgen: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"#include <mpi.h>", "spin_barrier(); /* start */", "/* row 1: ", "OUTCOME %lld"} {
		if !strings.Contains(out, want) {
			t.Errorf("cgen output lacks %q", want)
		}
	}
	if code, _, _ := runCLI("cgen", "testdata/nonexistent.lit"); code != 2 {
		t.Errorf("cgen of a missing file: exit %d, want 2", code)
	}
	if code, _, errs := runCLI("probe", "--target", "reference"); code != 2 || !strings.Contains(errs, "expected mpich or openmpi") {
		t.Errorf("probe --target reference: exit %d, %s", code, errs)
	}
}

// TestCgenRefusalNamesTheFile: what cgen cannot translate is reported as FILE:LINE:COL,
// like every error about a file, exit 2.
func TestCgenRefusalNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cas.lit")
	src := "MPI bad\n{\n  win W allocate size=1 type=double;\n  x = W@1[0];\n}\n P0 | P1 ;\n lock W 1 excl | ;\n r0 = cas x 0 1 | ;\n unlock W 1 | ;\nexists (0:r0=0)\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + ":8:2: cgen: r0 = cas x 0 1: MPI_Compare_and_swap takes integer types only\n"
	if code, _, stderr := runCLI("cgen", path); code != exitBadInput || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}
