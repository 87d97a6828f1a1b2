package conform_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestRandomCompletionTestsConform: for random programs with completion tests
// (test ending a PSCW exposure epoch, once or in a spin loop; requests completed
// by waitreq or testreq), every outcome the reference runtime shows is one the
// model allows for the same preset and this machine's hw. The runtime runs the
// test loops for real (a failed test, then another), the model by spin-assume.
func TestRandomCompletionTestsConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 3, Syncs: []string{"pscw", "lock_all"}, Loops: true, Tests: true}
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		rep, err := conform.Reference{}.Run(lt, sem, conform.Options{Runs: propertyRuns(), Seed: 7, Search: explorer.Options{MaxStates: 1_000_000}})
		if err != nil {
			t.Fatalf("%v\n%s", err, litmus.Format(lt))
		}
		if rep.NonConforming > 0 {
			t.Fatalf("%s: the runtime shows outcomes the model forbids: %s\n%s", sem.Name, describe(rep), litmus.Format(lt))
		}
	})
}

// TestRandomDynamicConform: the same for random programs on a dynamic window
// (gen.Config.Dynamic); the runtime prints the addresses the outcomes hold as the
// model's symbols, so the two histograms compare value for value.
func TestRandomDynamicConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lt := gen.Program(gen.Config{MaxProcs: 3, MaxInstrs: 4, Dynamic: true}).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		rep, err := conform.Reference{}.Run(lt, sem, conform.Options{Runs: propertyRuns(), Seed: 7, Search: explorer.Options{MaxStates: 1_000_000}})
		if err != nil {
			t.Fatalf("%v\n%s", err, litmus.Format(lt))
		}
		if rep.NonConforming > 0 {
			t.Fatalf("%s: the runtime shows outcomes the model forbids: %s\n%s", sem.Name, describe(rep), litmus.Format(lt))
		}
	})
}
