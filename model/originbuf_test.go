package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestGuardCancelsOriginBufferUse: docs/semantics.md#hardware-models, "a guard found false cancels
// it" (the instruction and any flag it raises), and §3 E-ORIGIN-BUF, an instruction
// that uses the origin buffer. Before the rule a guarded instruction writing a
// pending rput's source register raised E-ORIGIN-BUF though its guard was never
// true (MPICH's req_example; acceptance 62). A guard that reads a pending get's
// result register uses the buffer whatever it finds: that stays flagged.
func TestGuardCancelsOriginBufferUse(t *testing.T) {
	src := func(guard, body string) string {
		return `{ win W create size=2; 0:r1 = 7; }
 P0                  | P1 ;
 lock_all W          |    ;
 rput W@1[0] r1 @q1  |    ;
 r8 = 1              |    ;
 [r8 == ` + guard + `] ` + body + ` |    ;
 waitreq q1          |    ;
 unlock_all W        |    ;
exists (W@1[0]=7)
`
	}
	runCases(t, []ruleCase{
		{"get-guard-false", "§2: a false guard cancels the get and its E-ORIGIN-BUF", "mpi-4.1", spec.Relaxed,
			src("0", "r1 = get W@1[1]"), []string{"W@1[0]=7;"}, nil},
		{"get-guard-false-sc", "§2: the same under sc", "mpi-3.0", spec.SC,
			src("0", "r1 = get W@1[1]"), []string{"W@1[0]=7;"}, nil},
		{"arith-guard-false", "§2: a false guard cancels register arithmetic's use of the buffer", "mpi-4.1", spec.Relaxed,
			src("0", "r1 = 3"), []string{"W@1[0]=7;"}, nil},
		{"load-guard-false", "§2: a guarded load speculates and commits nothing when its guard is false", "A", spec.Relaxed,
			src("0", "r1 = load W@0[0]"), []string{"W@1[0]=7;"}, nil},
		{"get-guard-true", "control: with the guard true the get writes the source register before the rput completes", "mpi-4.1", spec.Relaxed,
			src("1", "r1 = get W@1[1]"), []string{"W@1[0]=7;"}, []spec.RuleID{spec.EOriginBuf}},
		{"guard-reads-result", "control: a guard on a pending rget's result register reads the buffer, true or not", "mpi-4.1", spec.Relaxed,
			`{ win W create size=2; }
 P0                  | P1 ;
 lock_all W          |    ;
 r1 = rget W@1[0] @q1 |   ;
 [r1 == 5] r2 = 1    |    ;
 waitreq q1          |    ;
 unlock_all W        |    ;
exists (0:r2=0)
`, []string{"0:r2=0;"}, []spec.RuleID{spec.EOriginBuf}},
	})
}
