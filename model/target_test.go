package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestComputedTargets: computed and null targets (docs/language.md#computed-and-null-targets;
// docs/rules.md#e-target), one row per behaviour.
func TestComputedTargets(t *testing.T) {
	two := `{ win W allocate size=2; x = W@1[0]; y = W@1[1]; z = W@0[0]; 0:r1 = 1; 0:r2 = 1; 0:r9 = -1; }
 P0 | P1 ;
`
	runCases(t, []ruleCase{
		{"rank-register", "computed rank: the put lands in rank r1's cell", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[0] 5 | ;\n fence W | fence W ;\nexists (x=5)\n", []string{"x=5;"}, nil},
		{"displacement-register", "computed displacement with an offset: r2-1 is 0", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@1[r2-1] 5 | ;\n fence W | fence W ;\nexists (x=5 /\\ y=0)\n", []string{"x=5; y=0;"}, nil},
		{"rank-and-displacement", "both computed", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[r2] 5 | ;\n fence W | fence W ;\nexists (y=5)\n", []string{"y=5;"}, nil},
		{"computed-at-issue", "the register's value at issue, not a later one", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[r2] 5 | ;\n r2 = 0 | ;\n fence W | fence W ;\nexists (y=5 /\\ x=0)\n", []string{"y=5; x=0;"}, nil},
		{"displacement-out-of-range", "E-TARGET: displacement outside the target's segment", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@1[r2+1] 5 | ;\n fence W | fence W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ETarget}},
		{"rank-out-of-group", "E-TARGET: rank 5 is no rank of the group", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n r3 = 5 | ;\n put W@r3[0] 5 | ;\n fence W | fence W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ETarget}},
		{"null-get-unchanged", "MPI_PROC_NULL: a get leaves its result register unchanged", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n r4 = 7 | ;\n r4 = get W@r9[0] | ;\n fence W | fence W ;\nlocations [0:r4;]\nexists (0:r4=7)\n", []string{"0:r4=7;"}, nil},
		{"null-no-epoch", "E-EPOCH: a put to null outside any epoch", "mpi-4.1", spec.Relaxed,
			two + " put W@null[0] 1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"lock-register", "lock, flush and unlock of a register's rank", "mpi-4.1", spec.Relaxed,
			two + " lock W r1 excl | ;\n put W@r1[0] 3 | ;\n unlock W r1 | ;\nexists (x=3)\n", []string{"x=3;"}, nil},
		{"lock-register-out-of-group", "E-TARGET: a lock of rank 5", "mpi-4.1", spec.Relaxed,
			two + " r3 = 5 | ;\n lock W r3 excl | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ETarget}},
		{"null-conflicts-with-nothing", "a null put next to a store conflicts with nothing", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r9[0] 7 | store x 5 ;\n fence W | fence W ;\nexists (x=5)\n", []string{"x=5;"}, nil},
		{"computed-conflict", "C-CONFLICT: two puts that compute the same cell", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[0] 1 | put x 2 ;\n fence W | fence W ;\nexists (x=1)\n", []string{"x=1;", "x=2;"}, []spec.RuleID{spec.CConflict}},
		{"computed-no-conflict", "two puts that compute different cells do not conflict", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[r2] 1 | put x 2 ;\n fence W | fence W ;\nexists (x=2 /\\ y=1)\n", []string{"x=2; y=1;"}, nil},
		{"computed-U1", "U1/U5: the owner's store against a computed put to its cell", "mpi-4.1", spec.Relaxed,
			two + " fence W | fence W ;\n put W@r1[0] 1 | store x 2 ;\n fence W | fence W ;\nexists (x=1)\n", []string{"x=1;", "x=2;"}, []spec.RuleID{spec.U1, spec.U5}},
		{"lock-register-not-unlocked", "E-EPOCH-END: a lock of a register's rank left open", "mpi-4.1", spec.Relaxed,
			two + " lock W r1 excl | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochEnd}},
		{"received-rank", "a rank received at run time: the put lands where the message says", "mpi-4.1", spec.Relaxed,
			two + " r5 = recv 1 | send 0 0 ;\n fence W | fence W ;\n put W@r5[1] 4 | ;\n fence W | fence W ;\nexists (z=0)\n", []string{"z=0;"}, nil},
		{"null-in-spin-loop", "LIVELOCK: polling MPI_PROC_NULL never changes the register", "mpi-4.1", spec.Relaxed,
			two + " lock_all W | ;\n repeat | ;\n r4 = fop W@r9[0] no_op 0 | ;\n flush_all W | ;\n until r4 == 1 | ;\n unlock_all W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.Livelock}},
	})
}

// TestSharedQueryNull: shared_query of MPI_PROC_NULL answers for the lowest rank
// whose segment is not empty (MPI-4.1 MPI_WIN_SHARED_QUERY), and a register target
// for the rank it holds.
func TestSharedQueryNull(t *testing.T) {
	runCases(t, []ruleCase{
		{"shared-query-null", "shared_query W null: rank 1's size, rank 0's is empty", "mpi-4.1", spec.Relaxed,
			"{ win W allocate_shared size=[0,2]; }\n P0 | P1 ;\n r0 = shared_query W null | ;\nlocations [0:r0;]\nexists (0:r0=2)\n", []string{"0:r0=2;"}, nil},
		{"shared-query-register", "shared_query W r1 with r1 = 0: rank 0's size", "mpi-4.1", spec.Relaxed,
			"{ win W allocate_shared size=[0,2]; 0:r1 = 0; }\n P0 | P1 ;\n r0 = shared_query W r1 | ;\nlocations [0:r0;]\nexists (0:r0=0)\n", []string{"0:r0=0;"}, nil},
	})
}

// TestSyncCallsOfProcNull: lock, unlock, flush and flush_local of MPI_PROC_NULL are
// E-TARGET and have no effect: MPI_PROC_NULL is a valid target rank of the RMA
// communication calls (node316), and MPI_WIN_LOCK's, MPI_WIN_UNLOCK's and
// MPI_WIN_FLUSH's rank is the "rank of locked window (non-negative integer)"
// (MPI-4.1 node330, node331): Open MPI 4.1 refuses MPI_Win_lock(MPI_PROC_NULL) with
// MPI_ERR_RANK. Before the rule `lock W null` opened an access epoch that touched no
// process, and the first program was clean.
func TestSyncCallsOfProcNull(t *testing.T) {
	two := `{ win W allocate size=2; x = W@1[0]; 0:r1 = -1; }
 P0 | P1 ;
`
	runCases(t, []ruleCase{
		{"lock-null", "E-TARGET: lock W null opens no epoch, so the null put after it has none (E-EPOCH)", "mpi-4.1", spec.Relaxed,
			two + " lock W null | ;\n put W@null[1] 1 | ;\n unlock W null | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch, spec.ETarget}},
		{"lock-register-null", "E-TARGET: a rank register holding -1 is MPI_PROC_NULL too", "mpi-3.0", spec.Relaxed,
			two + " lock W r1 shared | ;\n unlock W r1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ETarget}},
		{"flush-null", "E-TARGET: flush and flush_local of MPI_PROC_NULL, inside a lock_all epoch", "mpi-4.1", spec.Relaxed,
			two + " lock_all W | ;\n put W@null[1] 1 | ;\n flush W null | ;\n flush_local W r1 | ;\n unlock_all W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ETarget}},
		{"null-put-in-lock-all", "control: MPI_PROC_NULL as the target of an RMA call in a lock_all epoch", "mpi-4.1", spec.Relaxed,
			two + " lock_all W | ;\n put W@null[1] 1 | ;\n unlock_all W | ;\nexists (x=0)\n", []string{"x=0;"}, nil},
	})
}
