package gen

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// TestShrinkDropsUnwrittenRegisters: once shrinking drops the instruction that
// writes a register, the condition no longer names it (its atom is replaced by its
// value on the register's initial value and folded away).
func TestShrinkDropsUnwrittenRegisters(t *testing.T) {
	src := `MPI SB
{
  win W allocate_shared size=1;
  x = W@0[0];
  y = W@1[0];
  1:r5 = 3;
}
 P0          | P1          ;
 store x 1   | store y 1   ;
 r0 = load y | r0 = load x ;
locations [0:r0; 1:r0;]
exists (0:r0=0 /\ 1:r0=0 /\ 1:r5=3)
`
	for _, tc := range []struct {
		name, cond string
	}{
		{"and", `exists (0:r0=0 /\ 1:r0=0 /\ 1:r5=3)`},
		{"or", `exists (0:r0=0 /\ (1:r0=0 \/ 1:r5=4))`},
		{"not", `exists (0:r0=0 /\ ~(1:r0=1))`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := litmus.Parse("t.lit", []byte(strings.Replace(src, `exists (0:r0=0 /\ 1:r0=0 /\ 1:r5=3)`, tc.cond, 1)))
			if err != nil {
				t.Fatal(err)
			}
			// keep: P0 still loads into r0 (so everything of P1 may go)
			keep := func(c *litmus.Test) bool {
				for _, ins := range c.Procs[0].Code {
					if ins != nil && ins.Dst == "r0" {
						return true
					}
				}
				return false
			}
			out := string(litmus.Format(Shrink(in, keep, 0)))
			for _, reg := range []string{"1:r0", "1:r5="} {
				if i := strings.Index(out, "exists"); strings.Contains(out[i:], reg) {
					t.Errorf("the shrunk test's condition still names %s, which nothing writes:\n%s", reg, out)
				}
			}
			if !strings.Contains(out, "0:r0=0") {
				t.Errorf("the shrunk test lost the condition on 0:r0:\n%s", out)
			}
		})
	}
}
