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

// TestRandomRangeProgramsConform: for random programs whose put, get and acc calls
// move two elements with one call, every outcome the reference runtime shows (its
// engine performs each element on its own) is one the model allows.
func TestRandomRangeProgramsConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 4, Ranges: true,
			Syncs: []string{rapid.SampledFrom([]string{"fence", "lock_all", "pscw"}).Draw(t, "sync")}}
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
