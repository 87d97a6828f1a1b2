package model_test

import (
	"github.com/rmacheck/rmacheck/spec"
	"testing"
)

// TestFenceExposureLock: E-EPOCH-MIX (SEMANTICS.md §5) for a lock held on a target
// in a fence exposure epoch, from a fence of the target's without nosucceed,
// noprecede or not, until its next fence. Before the rule only post/wait exposure
// epochs were checked, and the first two programs were clean.
func TestFenceExposureLock(t *testing.T) {
	src := func(first, between, second string) string {
		return `{ win W allocate size=1; x = W@1[0]; }
 P0              | P1              ;
 fence W ` + first + ` | fence W ` + first + ` ;
` + between + ` fence W ` + second + ` | fence W ` + second + ` ;
exists (0:r0=0)
`
	}
	lockGet := " lock W 1 shared | ;\n r0 = get x | ;\n unlock W 1 | ;\n"
	runCases(t, []ruleCase{
		{"lock-after-noprecede-fence", "E-EPOCH-MIX: a noprecede fence opens an exposure epoch too", "mpi-4.1", spec.Relaxed,
			src("noprecede", lockGet, "nosucceed"), []string{"0:r0=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-after-fence", "E-EPOCH-MIX: a lock of a target between its fences", "mpi-3.0", spec.Relaxed,
			src("", lockGet, "nosucceed"), []string{"0:r0=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-after-nosucceed", "control: a fence with nosucceed opens no exposure epoch", "mpi-4.1", spec.Relaxed,
			src("nosucceed", lockGet, "noprecede"), []string{"0:r0=0;"}, nil},
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
