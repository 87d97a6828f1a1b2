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

// TestStubbornRandomNoPairs: a program compiled without candidate pairs
// (model.WithoutPairChecks: the tso and sc searches of a run, whose pair flags come
// from the relaxed search) lets the stubborn sets drop what they keep for the pairs
// only. On programs in the stubborn sets' scope — random ones
// (plain accesses, lock_all epochs or none, 2-4 processes) and tests of the plain
// family (gen.PlainFamily: diy7's shapes in lock_all), under every preset, ls_is_rma
// (remote loads and stores as RMA) among them, and every hw — that search finds
// what the plain search without checks finds (outcomes with their flags, the flags
// raised by steps with their sites, the verdict) and its witnesses replay. So that
// the property speaks of the rule, among the draws with candidate pairs the sets
// fire (fewer states than without them) in at least one in ten, and dropping the
// pairs changes the states in at least one in fifty (most often fewer; not
// always: each state takes the smallest set it sees, which a rule dropped may
// change for a set that leads to more states further on).
func TestStubbornRandomNoPairs(t *testing.T) {
	sems := propSemantics()
	for _, name := range []string{"A", "mpi-4.1"} {
		s, _ := spec.Preset(name)
		sems = append(sems, s.With(spec.LsIsRMA, true))
	}
	fam, err := gen.PlainFamily(40, 5)
	if err != nil {
		t.Fatal(err)
	}
	checks, fired, changed := 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var lt *litmus.Test
		if rapid.Bool().Draw(t, "family") {
			lt = rapid.SampledFrom(fam).Draw(t, "family-test").Test
		} else {
			cfg := gen.Config{MinProcs: 2, MaxProcs: 4, MaxInstrs: 4, Syncs: []string{"none", "lock_all"}, NoRMA: true,
				ConditionOnly: rapid.Bool().Draw(t, "condition-only")}
			lt = gen.Program(cfg).Draw(t, "program")
		}
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		noPairs, err := model.Compile(lt, sem, hw, model.WithoutPairChecks())
		if err != nil {
			t.Fatal(err)
		}
		explore := func(p *model.Program, opt explorer.Options) *explorer.Result {
			opt.MaxStates = 2_000_000
			r, err := explorer.Explore(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		plain, err := explorer.Explore(p, explorer.Options{NoConflicts: true, NoReduce: true, MaxStates: 30_000})
		if _, big := err.(*explorer.ErrStateLimit); big {
			t.Skip("too big for the plain search") // a family test under a weak hw
		} else if err != nil {
			t.Fatal(err)
		}
		reduced := explore(noPairs, explorer.Options{NoConflicts: true})
		if d := sameVerdict(plain, reduced); d != "" {
			t.Fatalf("reduced search without checks differs from plain (-plain +reduced):\n%s\n%s", d, litmus.Format(lt))
		}
		for _, f := range reduced.Flags {
			if f.Pair {
				t.Fatalf("a search without checks reports pair %s", f.Rule)
			}
		}
		checkReplays(t, noPairs, reduced)
		if len(p.Candidates) == 0 {
			return // no pair to drop
		}
		checks++
		if reduced.States < explore(noPairs, explorer.Options{NoConflicts: true, NoStubborn: true}).States {
			fired++
		}
		if reduced.States != explore(p, explorer.Options{NoConflicts: true}).States {
			changed++
		}
	})
	t.Logf("of %d programs with pairs, the stubborn sets without the pairs fired in %d, and dropping the pairs changed the states in %d", checks, fired, changed)
	if checks >= 50 && (fired*10 < checks || changed*50 < checks) {
		t.Errorf("of %d programs with pairs, the stubborn sets without the pairs fired in %d (want one in ten), and dropping the pairs changed the states in %d (want one in fifty): the property hardly tests them", checks, fired, changed)
	}
}
