package conform

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEndlessOutputIsStopped: a launcher that prints without end (and a compiler
// wrapper that does) is stopped once its output passes OutputCap, and the run is a
// RunError that says so, with the start and the end of the output; the process never
// holds more than the cap (it ran out of memory before).
func TestEndlessOutputIsStopped(t *testing.T) {
	lib, err := Install{Prefix: fakePrefix(t)}.Library()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	endless := filepath.Join(dir, "endless")
	if err := os.WriteFile(endless, []byte("#!/bin/sh\necho first line\nexec yes 'OUTCOME 1 0 0 and on and on'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := acceptance(t, "01-SB.lit")
	check := func(what string, err error) {
		t.Helper()
		var re *RunError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, "printed more than 16 MiB") || re.Test != "SB" ||
			!strings.Contains(re.Output, "first line") || !strings.Contains(re.Output, "and on and on") {
			t.Errorf("%s: %v; want a RunError of SB naming the cap, with the output's head and tail", what, err)
		}
		if re != nil && len(re.Output) > 16<<10 {
			t.Errorf("%s: the error holds %d bytes of output", what, len(re.Output))
		}
	}
	_, err = Check(MPI{Lib: lib, Launch: LaunchOptions{Launcher: []string{endless}}}, sb, mpi41(t), Options{Runs: 10, Seed: 1})
	check("an endless launcher", err)
	lib.CC = endless
	_, err = Check(MPI{Lib: lib}, sb, mpi41(t), Options{Runs: 10, Seed: 1})
	check("an endless compiler wrapper", err)
}
