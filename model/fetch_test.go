package model_test

import (
	"github.com/rmacheck/rmacheck/spec"
	"testing"
)

// lockEpoch is body in P0's shared lock epoch on P1, whose cell x starts at 5.
func lockEpoch(body string) string {
	return `{ win W allocate size=1; x = W@1[0]; x = 5; }
 P0              | P1 ;
 lock W 1 shared |    ;
` + body + ` unlock W 1      |    ;
exists (x=1)
`
}

// TestCompletedFetches: a read-only fetch (get, rget, gacc/fop with no_op) whose
// result is available at the origin is complete at the target as well (docs/semantics.md#rma-operations): it conflicts with no later access of its cells. Before the rule each program but the controls raised
// C-CONFLICT (or U3), the fetch staying live until the epoch ended.
func TestCompletedFetches(t *testing.T) {
	runCases(t, []ruleCase{
		{"rget-waitreq-put", "§3: waitreq of a fetch completes it at the target", "mpi-4.1", spec.Relaxed,
			lockEpoch(" r0 = rget x @q |    ;\n waitreq q      |    ;\n put x 1        |    ;\n"), []string{"x=1;"}, nil},
		{"get-flush-local-put", "§3: flush_local covering the target completes the fetch", "mpi-4.1", spec.Relaxed,
			lockEpoch(" r0 = get x       |    ;\n flush_local W 1  |    ;\n put x 1          |    ;\n"), []string{"x=1;"}, nil},
		{"fop-no-op-flush-local-all-put", "§3: flush_local_all completes every read-only fetch of the caller", "mpi-3.0", spec.Relaxed,
			lockEpoch(" r0 = fop x no_op 1 |    ;\n flush_local_all W  |    ;\n put x 1            |    ;\n"), []string{"x=1;"}, nil},
		{"rget-put-before-waitreq", "control: a put issued before the waitreq is concurrent with the get", "mpi-4.1", spec.Relaxed,
			lockEpoch(" r0 = rget x @q |    ;\n put x 1        |    ;\n waitreq q      |    ;\n"), []string{"x=1;"}, []spec.RuleID{spec.CConflict}},
		{"put-flush-local-put", "control: flush_local completes a put only locally, not at the target", "mpi-4.1", spec.Relaxed,
			lockEpoch(" put x 2          |    ;\n flush_local W 1  |    ;\n put x 1          |    ;\n"), []string{"x=1;", "x=2;"}, []spec.RuleID{spec.CConflict}},
		{"pscw-get-complete-store", "§3: complete (R1) completes the fetch at the target before the owner's wait", "mpi-3.0", spec.Relaxed,
			`{ win W allocate_shared size=1; x = W@1[0]; }
 P0          | P1          ;
 start W {1} | post W {0}  ;
 r0 = get x  |             ;
 complete W  |             ;
 send 1 1    | r1 = recv 0 ;
             | [r1 == 1] store x 1 ;
             | wait W      ;
exists (0:r0=0)
`, []string{"0:r0=0;"}, nil},
	})
}

// TestUpdatingFetchesCompleteAtTarget: docs/semantics.md#rma-operations, an updating fetch (gacc,
// rgacc or fop with an op other than no_op, cas) read its value when it performed,
// but its update is complete at the target only after R2-R4, as a put or acc's:
// MPI_RGET_ACCUMULATE's completion "does not indicate that the operation has been
// completed at the target window" (MPI-4.1). Before the rule its local completion
// (waitreq, flush_local) completed it at the target, and these programs were clean
// but the controls.
func TestUpdatingFetchesCompleteAtTarget(t *testing.T) {
	// acceptance 59: the waitreq of an rgacc, then a message to a reader under a
	// shared lock of its own, while the writer's lock_all epoch is still open.
	told := func(call string) string {
		return `{ win W allocate size=1; x = W@1[0]; }
 P0                    | P1 | P2              ;
 lock_all W            |    | recv 0          ;
 ` + call + ` |    | lock W 1 shared ;
 waitreq q             |    | r1 = get x      ;
 send 2                |    | unlock W 1      ;
 unlock_all W          |    |                 ;
exists (2:r1=0)
`
	}
	runCases(t, []ruleCase{
		{"fop-flush-local-all-put", "§3: flush_local_all does not complete a fop's update at the target", "mpi-3.0", spec.Relaxed,
			lockEpoch(" r0 = fop x sum 1   |    ;\n flush_local_all W  |    ;\n put x 1            |    ;\n"), []string{"x=1;"}, []spec.RuleID{spec.CConflict}},
		{"cas-flush-local-put", "§3: nor flush_local a cas's", "mpi-3.0", spec.Relaxed,
			lockEpoch(" r0 = cas x 5 7   |    ;\n flush_local W 1  |    ;\n put x 1          |    ;\n"), []string{"x=1;"}, []spec.RuleID{spec.CConflict}},
		{"rgacc-waitreq-get", "§3: the waitreq of an rgacc leaves its update live beside a later get (acceptance 59)", "mpi-4.1", spec.Relaxed,
			told("r0 = rgacc x sum 1 @q"), []string{"2:r1=1;"}, []spec.RuleID{spec.CConflict}},
		{"rgacc-no-op-waitreq-get", "control: a no_op rgacc only reads, and its waitreq completes it at the target", "mpi-4.1", spec.Relaxed,
			told("r0 = rgacc x no_op 1 @q"), []string{"2:r1=0;"}, nil},
		{"cas-flush-put", "control: flush (R4) completes the cas at the target", "mpi-3.0", spec.Relaxed,
			lockEpoch(" r0 = cas x 5 7   |    ;\n flush W 1        |    ;\n put x 1          |    ;\n"), []string{"x=1;"}, nil},
	})
}
