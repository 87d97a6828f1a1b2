package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// fenceLockSrc is a three-process program: P0 fences around put0 (its fence epoch's
// RMA, or nothing), P1 is the target that only fences, and P2 fences around a lock
// epoch on P1 (lock2, then rma2 in P2's own fence epoch). Cells: x = W@1[0] for the
// fence epoch's RMA, y = W@1[1] for the lock epoch's get.
func fenceLockSrc(first, put0, lock2, rma2 string) string {
	return `{ win W allocate size=2; x = W@1[0]; y = W@1[1]; }
 P0          | P1          | P2          ;
 fence W ` + first + ` | fence W ` + first + ` | fence W ` + first + ` ;
 ` + put0 + ` |             | ` + lock2 + ` ;
             |             | ` + rma2 + ` ;
 fence W     | fence W     | fence W     ;
exists (x=0)
`
}

// lockRows are P2's lock epoch on P1, over the two rows of its fence epoch.
func lockRows() (string, string) { return "lock W 1 shared", "unlock W 1" }

// TestFenceExposureLock: E-EPOCH-MIX (docs/rules.md#e-epoch-mix) for a lock held on a target
// in a fence exposure epoch: from a fence of the target's without nosucceed,
// noprecede or not, until it calls its next fence, when RMA of that fence epoch
// targets it.
func TestFenceExposureLock(t *testing.T) {
	lock, unlock := lockRows()
	runCases(t, []ruleCase{
		{"lock-after-noprecede-fence", "E-EPOCH-MIX: a noprecede fence opens an exposure epoch too", "mpi-4.1", spec.Relaxed,
			fenceLockSrc("noprecede", "put x 1    ", lock, unlock), []string{"x=1;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-after-fence", "E-EPOCH-MIX: a lock of a target during its fence exposure epoch", "mpi-3.0", spec.Relaxed,
			fenceLockSrc("", "put x 1    ", lock, unlock), []string{"x=1;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-after-nosucceed", "control: a fence with nosucceed opens no exposure epoch", "mpi-4.1", spec.Relaxed,
			fenceLockSrc("nosucceed", "           ", lock, unlock), []string{"x=0;"}, nil},
		{"lock-after-last-fence", "control: after the target's last fence there is no exposure epoch", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; }
 P0              | P1      ;
 fence W         | fence W ;
 lock W 1 shared |         ;
 r0 = get x      |         ;
 unlock W 1      |         ;
exists (0:r0=0)
`, []string{"0:r0=0;"}, nil},
	})
}

// TestFenceExposureEndsAtCall: docs/rules.md#e-epoch-mix, a fence exposure epoch ends when the
// target calls its next fence, not when it returns from it (MPICH's rmazero,
// strided_getacc_indexed_shared, strided_putget_indexed_shared). Before the rule a
// lock taken after the target's last fence, while it was still inside that fence,
// was E-EPOCH-MIX.
func TestFenceExposureEndsAtCall(t *testing.T) {
	lock, unlock := lockRows()
	runCases(t, []ruleCase{
		{"lock-after-closing-fence", "§5: P0 returns from the closing fence only once P1 has called it; the epoch ended there", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=2; x = W@1[0]; y = W@1[1]; }
 P0              | P1      ;
 fence W         | fence W ;
 put x 1         |         ;
 fence W         | fence W ;
 lock W 1 shared |         ;
 r0 = get y      |         ;
 unlock W 1      |         ;
exists (x=1)
`, []string{"x=1;"}, nil},
		{"lock-after-closing-fence-three", "§5: the same with a third process locking after its own closing fence", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=2; x = W@1[0]; y = W@1[1]; }
 P0      | P1      | P2              ;
 fence W | fence W | fence W         ;
 put x 1 |         |                 ;
 fence W | fence W | fence W         ;
         |         | lock W 1 shared ;
         |         | r0 = get y      ;
         |         | unlock W 1      ;
exists (x=1)
`, []string{"x=1;"}, nil},
		{"lock-before-closing-fence", "control: a lock held while the target is still between its fences", "mpi-3.0", spec.Relaxed,
			fenceLockSrc("", "put x 1    ", lock, unlock), []string{"x=1;"}, []spec.RuleID{spec.EEpochMix}},
	})
}

// TestFenceExposureNeedsRMA: docs/rules.md#e-epoch-mix, a fence opens an exposure epoch only
// when its window is the target of RMA between that fence and the next
// (MPI_WIN_FENCE: "starts an exposure epoch if it is followed by another fence call
// and if the local window is the target of RMA accesses between these two fence
// calls"). Fences used as barriers, with a lock epoch between them, are no mix
// (MPICH's fence_shm, manyrma2); RMA that makes the interval an exposure epoch
// counts whether it comes before or after the lock. Before the rule every lock
// between the target's fences was E-EPOCH-MIX.
func TestFenceExposureNeedsRMA(t *testing.T) {
	lock, unlock := lockRows()
	runCases(t, []ruleCase{
		{"no-rma-between", "§5: no RMA of the fence epoch: the fences are barriers, the lock is no mix", "mpi-4.1", spec.Relaxed,
			fenceLockSrc("", "           ", lock, unlock), []string{"x=0;"}, nil},
		{"rma-to-another-target", "§5: RMA of the fence epoch targets P0, not the locked P1", "mpi-3.0", spec.Relaxed,
			fenceLockSrc("", "put W@0[0] 1", lock, unlock), []string{"x=0;"}, nil},
		{"fences-around-shm-stores", "§5: fence_shm: fences order load/store on a shared window around a lock epoch", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=1; x = W@1[0]; }
 P0              | P1          ;
 fence W         | fence W     ;
 lock W 1 excl   |             ;
 store x 1       |             ;
 unlock W 1      |             ;
 fence W         | fence W     ;
                 | r0 = load x ;
exists (1:r0=1)
`, []string{"1:r0=1;"}, nil},
		{"rma-after-the-lock", "§5: the lock comes first, the RMA that makes the exposure epoch later in it", "mpi-4.1", spec.Relaxed,
			fenceLockSrc("", "           ", "lock W 1 shared", "put x 1   "), []string{"x=1;"}, []spec.RuleID{spec.EEpochMix, spec.EEpochEnd}},
		{"rma-before-the-lock", "control: the RMA first, the lock later in the same interval", "mpi-4.1", spec.Relaxed,
			fenceLockSrc("", "put x 1    ", lock, unlock), []string{"x=1;"}, []spec.RuleID{spec.EEpochMix}},
	})
}
