package gen_test

import (
	"fmt"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Example draws well-formed programs from gen.Program and uses the explorer as the
// oracle: under option B, every outcome a fence-synchronized program has on sc
// hardware it also has on relaxed hardware (sc ⊆ relaxed). In a property-based test,
// call gen.Program(cfg).Draw(t, "program") inside rapid.Check instead of Example.
func Example() {
	programs := gen.Program(gen.Config{MaxProcs: 2, MaxInstrs: 3, Syncs: []string{"fence"}})
	sem, _ := spec.Preset("B")
	explore := func(lt *litmus.Test, hw spec.HW) *explorer.Result {
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			panic(err)
		}
		r, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			panic(err)
		}
		return r
	}
	included := 0
	for seed := 0; seed < 20; seed++ {
		lt := programs.Example(seed)
		sc, relaxed := explore(lt, spec.SC), explore(lt, spec.Relaxed)
		if only := explorer.Compare(sc, relaxed).OnlyX; len(only) > 0 {
			fmt.Printf("seed %d: sc allows %s, relaxed does not\n", seed, sc.Program.OutcomeString(only[0].Values))
			continue
		}
		included++
	}
	fmt.Printf("sc ⊆ relaxed for %d of 20 programs\n", included)
	// Output: sc ⊆ relaxed for 20 of 20 programs
}
