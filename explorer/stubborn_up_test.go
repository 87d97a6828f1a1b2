package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
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
	fam, err := gen.PlainFamily(40, 7)
	if err != nil {
		t.Fatal(err)
	}
	checkStubbornRandom(t, stubbornDraws{sems: lsIsRMASemantics(), syncs: []string{"lock_all"}, family: fam, share: 5,
		what: " with remote stores", counts: func(r *explorer.Result) bool { return len(r.Program.Slots) > 0 }})
}
