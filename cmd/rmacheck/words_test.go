package main

import (
	"slices"
	"testing"
)

// TestSplitWords: --launcher and --mpiexec-args are split as a shell splits words,
// quotes included (they were split at every space: an argument could not hold one).
func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"srun -N 2  --ntasks-per-node 1", []string{"srun", "-N", "2", "--ntasks-per-node", "1"}},
		{`srun --export='A=1 B=2' -N 2`, []string{"srun", "--export=A=1 B=2", "-N", "2"}},
		{`mpiexec -genv X "a \"b\" c"`, []string{"mpiexec", "-genv", "X", `a "b" c`}},
		{`a\ b c ''`, []string{"a b", "c", ""}},
		{"  ", nil},
	} {
		got, err := splitWords(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{`srun 'x`, `srun "x`, `srun x\`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q): no error", bad)
		}
	}
}
