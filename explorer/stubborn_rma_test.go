package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStubbornRandomRMA: on random programs under ls_is_rma (preset A: remote loads
// and stores on shared windows are RMA operations, issued and then performed,
// model/stubborn_rma.go), lock_all epochs or none, up to four processes, the
// reduced search finds what the plain one finds (outcomes, flags, pair flags) and
// its witnesses replay; and the stubborn sets fire on a program with remote stores
// (fewer states than the search without them) in at least one draw in ten.
func TestStubbornRandomRMA(t *testing.T) {
	checkStubbornRandom(t, stubbornDraws{sems: lsIsRMASemantics(), syncs: []string{"none", "lock_all"}, share: 10,
		what: " on remote stores", counts: func(r *explorer.Result) bool { return len(r.Program.Slots) > 0 }})
}

// rmaPairTests are hand-written programs under ls_is_rma where the stubborn sets,
// without their visibility rule for the RMA pairs (model/stubborn_rma.go), would
// complete a remote store before a conflicting access became enabled, and so lose
// the concurrency flag.
var rmaPairTests = []string{
	`MPI pairA
{
  win W allocate_shared size=1;
  x = W@1[0]; y = W@0[0];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 1    | r0 = load y  ;
 store y 1    | store x 2    ;
 unlock_all W | unlock_all W ;
exists (1:r0=0)
`,
	`MPI pairB
{
  win W allocate_shared size=1;
  x = W@1[0]; y = W@2[0]; z = W@0[0];
}
 P0           | P1           | P2           ;
 lock_all W   | lock_all W   | lock_all W   ;
 store x 1    | r0 = load z  | store y 1    ;
 flush_all W  | r1 = load y  | r0 = load z  ;
 store z 1    | store x 2    | unlock_all W ;
 unlock_all W | unlock_all W |              ;
exists (1:r0=0)
`,
}

// TestStubbornRMAPairs: on rmaPairTests, the reduced search gives the plain one's
// verdict, flags included, under every hw model.
func TestStubbornRMAPairs(t *testing.T) {
	sem, _ := spec.Preset("A")
	for _, src := range rmaPairTests {
		lt, err := litmus.Parse("pair.lit", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := litmus.Validate(lt); err != nil {
			t.Fatal(err)
		}
		for _, hw := range spec.HWModels {
			reduced, plain, err := exploreBoth(lt, sem, hw)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameVerdict(plain, reduced); d != "" {
				t.Errorf("%s %s: reduced search differs from plain (-plain +reduced):\n%s", lt.Name, hw, d)
			}
			checkReplays(t, reduced.Program, reduced)
		}
	}
}

// TestStubbornRMARingStates: under preset A (remote loads and stores as RMA
// operations) and tso, the stubborn sets cover the remote accesses of the
// thread-scaling shapes (every process in lock_all, remote stores issued and
// performed, remote loads; gen.Scaling): with 6 processes SB and MPC store at
// most 20,000 states, IRIW at most 12,000 (SB 13,750, MPC 15,764, IRIW 10,289;
// before the sets covered them: 53,535, 81,302 and 26,870). States are
// deterministic: this is no timing.
func TestStubbornRMARingStates(t *testing.T) {
	semA, _ := spec.Preset("A")
	for _, c := range []struct {
		shape string
		max   int
	}{{"SB", 20_000}, {"MPC", 20_000}, {"IRIW", 12_000}} {
		shape := c.shape
		ft, err := gen.Scaling(shape, 6)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(ft.Name+".lit", ft.Source)
		if err != nil {
			t.Fatal(err)
		}
		p, err := model.Compile(lt, semA, spec.TSO)
		if err != nil {
			t.Fatal(err)
		}
		r, err := explorer.Explore(p, explorer.Options{MaxStates: 1_000_000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s6 under A, tso: %d states", shape, r.States)
		if r.States > c.max {
			t.Errorf("%s6 under A, tso: %d states, want at most %d", shape, r.States, c.max)
		}
	}
}
