package main

import (
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
