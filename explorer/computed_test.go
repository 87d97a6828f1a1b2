package explorer_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/gen"
)

// TestReductionComputedTargets: the reduced search finds what the plain one finds
// on programs whose RMA calls take their target rank and displacement from
// registers (MPI_PROC_NULL among them), in every epoch that allows RMA: the
// conflict pairs of a computed call are checked on the cell it resolves to, and
// its perform is never taken alone by the independence reduction (model/target.go).
func TestReductionComputedTargets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MinProcs: 2, MaxProcs: 3, MaxInstrs: 4, Computed: true,
			Syncs:         []string{"fence", "lock_all", "pscw"},
			Loops:         rapid.Bool().Draw(t, "loops"),
			ConditionOnly: rapid.Bool().Draw(t, "condition-only")})
	})
}
