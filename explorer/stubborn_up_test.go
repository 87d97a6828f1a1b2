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

// TestStubbornRandomUpSets: the RMA pairs' up sets (model/stubborn_up.go) on the
// programs they are for. On tests of the plain family (gen.PlainFamily: diy7's
// shapes in lock_all, where every remote store is an RMA pair's side) and random
// programs of plain accesses, under ls_is_rma (preset A, mpi-4.1 with it) and every
// hw, the reduced search with the checks finds what the plain one finds (outcomes,
// flags with sites, pair flags, verdict) and its witnesses replay; and the stubborn
// sets fire (fewer states than without them) in at least one draw in five with
// remote stores, so that the property speaks of them.
func TestStubbornRandomUpSets(t *testing.T) {
	var sems []spec.Semantics
	for _, name := range []string{"A", "mpi-4.1"} {
		s, _ := spec.Preset(name)
		sems = append(sems, s.With(spec.LsIsRMA, true))
	}
	fam, err := gen.PlainFamily(40, 7)
	if err != nil {
		t.Fatal(err)
	}
	checks, fired := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var lt *litmus.Test
		if rapid.IntRange(0, 3).Draw(t, "kind") > 0 {
			lt = rapid.SampledFrom(fam).Draw(t, "family-test").Test
		} else {
			cfg := gen.Config{MinProcs: 2, MaxProcs: 4, MaxInstrs: 4, Syncs: []string{"lock_all"}, NoRMA: true,
				ConditionOnly: rapid.Bool().Draw(t, "condition-only")}
			lt = gen.Program(cfg).Draw(t, "program")
		}
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := explorer.Explore(p, explorer.Options{NoReduce: true, MaxStates: 30_000})
		if _, big := err.(*explorer.ErrStateLimit); big {
			t.Skip("too big for the plain search")
		} else if err != nil {
			t.Fatal(err)
		}
		reduced, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := sameVerdict(plain, reduced); d != "" {
			t.Fatalf("reduced search differs from plain (-plain +reduced):\n%s\n%s", d, litmus.Format(lt))
		}
		checkReplays(t, p, reduced)
		if len(p.Slots) == 0 {
			return
		}
		checks++
		without, err := explorer.Explore(p, explorer.Options{NoStubborn: true})
		if err != nil {
			t.Fatal(err)
		}
		if reduced.States < without.States {
			fired++
		}
	})
	t.Logf("stubborn sets fired in %d of %d programs with remote stores", fired, checks)
	if checks >= 50 && fired*5 < checks {
		t.Errorf("stubborn sets fired in %d of %d programs with remote stores: the property hardly tests them", fired, checks)
	}
}
