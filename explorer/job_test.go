package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestJobsFor: without hw models, a test is searched under relaxed and each hw model
// its expect lines name, once each; with some, under those alone; every semantics
// under each.
func TestJobsFor(t *testing.T) {
	lt, err := litmus.Parse("sb.lit", []byte(`MPI SB
{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | store y 1   ;
 r0 = load y | r0 = load x ;
exists (0:r0=0 /\ 1:r0=0)
expect mpi-4.1=Sometimes
expect hw=sc: mpi-4.1=Never
expect hw=sc: mpi-3.0=Never
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := spec.Preset("mpi-3.0")
	b, _ := spec.Preset("mpi-4.1")
	sems := []spec.Semantics{a, b}
	type key struct {
		sem string
		hw  spec.HW
	}
	keys := func(jobs []explorer.Job) []key {
		var ks []key
		for _, j := range jobs {
			ks = append(ks, key{j.Sem.Name, j.HW})
		}
		return ks
	}
	got := keys(explorer.JobsFor(lt, sems))
	want := []key{{"mpi-3.0", spec.Relaxed}, {"mpi-4.1", spec.Relaxed}, {"mpi-3.0", spec.SC}, {"mpi-4.1", spec.SC}}
	if len(got) != len(want) {
		t.Fatalf("jobs %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("jobs %v; want %v", got, want)
			break
		}
	}
	if got := keys(explorer.JobsFor(lt, sems[1:], spec.TSO)); len(got) != 1 || got[0] != (key{"mpi-4.1", spec.TSO}) {
		t.Errorf("jobs under tso alone: %v", got)
	}
}
