package explorer_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStubbornRandomNoPairs: a search that checks no candidate pairs
// (Options.NoConflicts: the tso and sc searches of a run, whose pair flags come from
// the relaxed search) lets the stubborn sets drop what they keep for the pairs only
// (model.ReduceNoPairs). On random programs in the stubborn sets' scope (plain
// accesses, and remote loads and stores as RMA under ls_is_rma; lock_all epochs or
// none; 2-4 processes; every preset and hw), that search finds what the plain
// search without checks finds (outcomes with their flags, the flags raised by
// steps with their sites, the verdict) and its witnesses replay. It stores fewer
// states than the reduced search with the checks in at least one draw in twenty,
// so that the property speaks of the rule (not in every draw: each state takes
// the smallest set it sees, which a rule dropped may change for a set that leads
// to more states further on).
func TestStubbornRandomNoPairs(t *testing.T) {
	sems := propSemantics()
	for _, name := range []string{"A", "mpi-4.1"} {
		s, _ := spec.Preset(name)
		sems = append(sems, s.With(spec.LsIsRMA, true))
	}
	checks, fewer := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MinProcs: 2, MaxProcs: 4, MaxInstrs: 4, Syncs: []string{"none", "lock_all", "lock_all", "lock_all"}, NoRMA: true,
			ConditionOnly: rapid.Bool().Draw(t, "condition-only")}
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		explore := func(opt explorer.Options) *explorer.Result {
			opt.MaxStates = 2_000_000
			r, err := explorer.Explore(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		reduced := explore(explorer.Options{NoConflicts: true})
		plain := explore(explorer.Options{NoConflicts: true, NoReduce: true})
		if d := sameVerdict(plain, reduced); d != "" {
			t.Fatalf("reduced search without checks differs from plain (-plain +reduced):\n%s\n%s", d, litmus.Format(lt))
		}
		for _, f := range reduced.Flags {
			if f.Pair {
				t.Fatalf("a search without checks reports pair %s", f.Rule)
			}
		}
		checkReplays(t, p, reduced)
		withPairs := explore(explorer.Options{})
		if len(p.Candidates) == 0 || reduced.States == plain.States {
			return // no pair to drop, or no stubborn set (nor singleton) to drop it from
		}
		checks++
		if reduced.States < withPairs.States {
			fewer++
		}
	})
	t.Logf("dropping the pairs saved states in %d of %d programs", fewer, checks)
	if checks >= 50 && fewer*20 < checks {
		t.Errorf("dropping the pairs saved states in %d of %d programs: the property hardly tests it", fewer, checks)
	}
}
