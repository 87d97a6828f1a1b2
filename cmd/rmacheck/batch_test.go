package main

import (
	"strings"
	"testing"
)

// TestConformBatch: --batch sets the reference runtime's iterations a batch (a run
// of fewer runs than a batch, or not a multiple of it, counts every run); a negative
// batch, and --batch given to a library, are refused.
func TestConformBatch(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string // in stdout for exit 0, else in stderr
	}{
		{[]string{"--batch", "3", "--runs", "10"}, 0, "(10 runs, seed 1)"},
		{[]string{"--batch", "1", "--runs", "5"}, 0, "(5 runs, seed 1)"},
		{[]string{"--runs", "7"}, 0, "(7 runs, seed 1)"},
		{[]string{"--batch", "-1"}, exitBadInput, "--batch -1: must be at least 0"},
		{[]string{"--mpi", fakeMPI, "--batch", "4"}, exitBadInput, "--batch is for the reference runtime"},
	} {
		code, stdout, stderr := runCLI(append(append([]string{"conform"}, c.args...), "testdata/sb.lit")...)
		out := stderr
		if c.code == 0 {
			out = stdout
		}
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("conform %s: exit %d\n%s%s\nwant %d and %q", strings.Join(c.args, " "), code, stdout, stderr, c.code, c.want)
		}
	}
}
