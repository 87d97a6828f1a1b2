package explorer_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestCompactExact: storing states by their parts (collapse compression,
// explorer/compact.go), from a random number of states on, changes nothing a search finds: the same states and
// transitions, outcomes, flags and witnesses as storing them whole, sequential
// and with parallel levels, on random programs with every feature that has state
// of its own, under every preset and hw model.
func TestCompactExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MaxProcs: 3, Loops: true, Asserts: rapid.Bool().Draw(t, "asserts"), Separate: true,
			Tests: rapid.Bool().Draw(t, "tests"), Ranges: rapid.Bool().Draw(t, "ranges"),
			Syncs: []string{"none", "fence", "lock_all", "pscw", "barrier", "lock"}}
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(propSemantics()).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		opt := explorer.Options{MaxStates: 500_000}
		if rapid.Bool().Draw(t, "no-reduce") {
			opt.NoReduce = true
		}
		flat, err := explorer.Explore(p, explorer.FlatStates(opt))
		if err != nil {
			t.Skip(err)
		}
		opt = explorer.CompactAt(opt, rapid.IntRange(1, 40).Draw(t, "compact-at"))
		parallel := explorer.ParallelFrom(opt, 2)
		parallel.Workers = 2
		for _, o := range []explorer.Options{opt, parallel} {
			got, err := explorer.Explore(p, o)
			if err != nil {
				t.Fatal(err)
			}
			summary := func(r *explorer.Result) any {
				return []any{r.States, r.Transitions, r.Finals, r.Outcomes, r.Flags, r.Observation}
			}
			if d := cmp.Diff(summary(flat), summary(got), ignoreWitnessProgram); d != "" {
				t.Fatalf("by parts (workers %d) differs from whole states (-whole +parts):\n%s", o.Workers, d)
			}
		}
	})
}
