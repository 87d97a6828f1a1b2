package conform_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/gen"
)

// TestRandomRangeProgramsConform: for random programs whose put, get and acc calls
// move two elements with one call, every outcome the reference runtime shows (its
// engine performs each element on its own) is one the model allows.
func TestRandomRangeProgramsConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 4, Ranges: true,
			Syncs: []string{rapid.SampledFrom([]string{"fence", "lock_all", "pscw"}).Draw(t, "sync")}}
		checkRuntimeWithinModel(t, cfg)
	})
}

// TestRandomComputedRangesConform: the same with ranges at computed targets and at
// MPI_PROC_NULL (gen.Config.Computed with Ranges): the runtime's engine resolves
// them through the model, each element performing on its own.
func TestRandomComputedRangesConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 4, Ranges: true, Computed: true,
			Syncs: []string{rapid.SampledFrom([]string{"fence", "lock_all", "pscw"}).Draw(t, "sync")}}
		checkRuntimeWithinModel(t, cfg)
	})
}
