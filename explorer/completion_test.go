package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/gen"
	"pgregory.net/rapid"
)

// TestReductionCompletionTests: the reduced search finds what the plain one finds
// in programs with completion tests (gen.Config.Tests): PSCW exposure epochs that
// a test ends, once or in a spin loop, and requests that waitreq, testreq or
// nothing completes, every preset and hw model. A test reads what completes and
// performs did, so the reduction must not take those alone past it.
func TestReductionCompletionTests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MinProcs: 2, MaxProcs: 3, MaxInstrs: 3, Syncs: []string{"pscw", "lock_all"}, Loops: true, Tests: true})
	})
}

// TestReductionDynamic: the same for programs on a dynamic window (gen.Config.
// Dynamic): a region attached, its address sent, accessed through it with offsets
// (some past the region), detached after the others' messages or at once, where a
// perform may find it detached (E-TARGET) depending on its order with the detach.
func TestReductionDynamic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MaxProcs: 3, MaxInstrs: 4, Dynamic: true})
	})
}
