package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestRequestOpsPassiveOnly: docs/semantics.md#rma-operations, a request-based operation (rput, rget,
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

// TestRequestLocalCompletion: docs/semantics.md#rma-operations, a request-based operation completes
// locally at a step of its own, anywhere between its issue and its completion at
// the target: testreq returns 0 before it and 1 after; waitreq, and the calls that
// complete the operation (flush, unlock), wait for it. Before the rule an rput's
// request was complete at issue, so testreq always returned 1, and a request tested
// once and never waited for went unseen (MPICH's nb_test; acceptance 61).
func TestRequestLocalCompletion(t *testing.T) {
	src := func(body string) string {
		return `{ win W create size=1; }
 P0            | P1 ;
 lock W 1 excl |    ;
 rput W@1[0] 5 @q0 | ;
` + body + `exists (0:r0=0)
`
	}
	runCases(t, []ruleCase{
		{"testreq-right-after", "§3: the first MPI_Test may find the rput's request not complete (acceptance 61)", "mpi-4.1", spec.Relaxed,
			src(" r0 = testreq q0 |  ;\n unlock W 1 |    ;\n [r0 == 0] waitreq q0 | ;\n"), []string{"0:r0=0;", "0:r0=1;"}, nil},
		{"testreq-never-waited", "§3, §5 E-EPOCH-END: tested once and never waited for, the request may stay pending (nb_test)", "mpi-3.0", spec.Relaxed,
			src(" r0 = testreq q0 |  ;\n unlock W 1 |    ;\n"), []string{"0:r0=0;", "0:r0=1;"}, []spec.RuleID{spec.EEpochEnd}},
		{"testreq-after-flush", "§3: flush completes the rput at the target, so after its local completion", "mpi-4.1", spec.TSO,
			src(" flush W 1 |    ;\n r0 = testreq q0 |  ;\n unlock W 1 |    ;\n"), []string{"0:r0=1;"}, nil},
		{"testreq-after-unlock", "§3: the same for unlock", "A", spec.Relaxed,
			src(" unlock W 1 |    ;\n r0 = testreq q0 |  ;\n"), []string{"0:r0=1;"}, nil},
		{"testreq-after-waitreq", "control: waitreq waits for the local completion", "mpi-4.1", spec.SC,
			src(" waitreq q0 |    ;\n r0 = testreq q0 |  ;\n unlock W 1 |    ;\n"), []string{"0:r0=1;"}, nil},
		{"testreq-null", "control: an rput to MPI_PROC_NULL moves nothing and completes when issued", "mpi-4.1", spec.Relaxed,
			`{ win W create size=1; }
 P0                   | P1 ;
 lock W 1 excl        |    ;
 rput W@null[0] 5 @q0 |    ;
 r0 = testreq q0      |    ;
 unlock W 1           |    ;
exists (0:r0=0)
`, []string{"0:r0=1;"}, nil},
	})
}
