package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestRequestOpsPassiveOnly: SEMANTICS.md §3, a request-based operation (rput, rget,
// racc, rgacc) is valid only in a passive-target epoch (MPI-4.1 §12.3.5, "only valid
// within a passive target epoch"); in a fence or PSCW epoch it is E-EPOCH and moves
// nothing. Before the rule every program here but the controls was clean.
func TestRequestOpsPassiveOnly(t *testing.T) {
	fence := func(call string) string {
		return `{ win W allocate size=1; x = W@1[0]; x = 3; }
 P0          | P1      ;
 fence W     | fence W ;
 ` + call + ` |         ;
 waitreq q   |         ;
 fence W     | fence W ;
exists (x=3)
`
	}
	runCases(t, []ruleCase{
		{"rget-fence", "§3: rget in a fence epoch", "mpi-4.1", spec.Relaxed,
			fence("r0 = rget x @q"), []string{"x=3;"}, []spec.RuleID{spec.EEpoch}},
		{"rput-fence", "§3: rput in a fence epoch moves nothing", "mpi-3.0", spec.Relaxed,
			fence("rput x 5 @q"), []string{"x=3;"}, []spec.RuleID{spec.EEpoch}},
		{"racc-null-fence", "§3: racc to MPI_PROC_NULL in a fence epoch needs a passive one too", "B", spec.Relaxed,
			fence("racc W@null[0] sum 1 @q"), []string{"x=3;"}, []spec.RuleID{spec.EEpoch}},
		{"rgacc-pscw", "§3: rgacc in a start epoch", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; x = 3; }
 P0                    | P1         ;
 start W {1}           | post W {0} ;
 r0 = rgacc x sum 1 @q | wait W     ;
 waitreq q             |            ;
 complete W            |            ;
exists (x=3)
`, []string{"x=3;"}, []spec.RuleID{spec.EEpoch}},
		{"rput-lock", "control: rput in a lock epoch", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; x = 3; }
 P0            | P1 ;
 lock W 1 excl |    ;
 rput x 5 @q   |    ;
 waitreq q     |    ;
 unlock W 1    |    ;
exists (x=3)
`, []string{"x=5;"}, nil},
		{"rput-null-lock-other", "control: rput to MPI_PROC_NULL inside a lock of another target", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; x = 3; }
 P0                | P1 ;
 lock W 0 shared   |    ;
 rput W@null[0] 5 @q |  ;
 waitreq q         |    ;
 unlock W 0        |    ;
exists (x=3)
`, []string{"x=3;"}, nil},
	})
}
