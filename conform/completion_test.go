package conform_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/gen"
)

// TestRandomCompletionTestsConform: for random programs with completion tests
// (test ending a PSCW exposure epoch, once or in a spin loop; requests completed
// by waitreq or testreq), every outcome the reference runtime shows is one the
// model allows for the same preset and this machine's hw. The runtime runs the
// test loops for real (a failed test, then another), the model by spin-assume.
func TestRandomCompletionTestsConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 3, Syncs: []string{"pscw", "lock_all"}, Loops: true, Tests: true}
		checkRuntimeWithinModel(t, cfg)
	})
}

// TestRandomDynamicConform: the same for random programs on a dynamic window
// (gen.Config.Dynamic); the runtime prints the addresses the outcomes hold as the
// model's symbols, so the two histograms compare value for value.
func TestRandomDynamicConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkRuntimeWithinModel(t, gen.Config{MaxProcs: 3, MaxInstrs: 4, Dynamic: true})
	})
}
