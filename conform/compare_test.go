package conform

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

// TestCompareFlagsForbiddenOutcomes: an outcome the model does not allow counts as
// non-conforming, and an allowed one never seen is listed as unseen.
func TestCompareFlagsForbiddenOutcomes(t *testing.T) {
	lt, err := litmus.Parse("sb.lit", []byte(`MPI SB
{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0 | P1 ;
 store x 1 | store y 1 ;
 r0 = load y | r0 = load x ;
exists (0:r0=0 /\ 1:r0=0)
`))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset(spec.DefaultPreset)
	p, _ := model.Compile(lt, sem, spec.SC)
	allowed, err := explorer.Explore(p, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{}
	rep.compare(&Histogram{Runs: 10, Elapsed: 1, Bins: []reference.Bin{
		{Values: []int64{0, 0}, Count: 3}, {Values: []int64{0, 1}, Count: 7}}}, allowed)
	if rep.NonConforming != 3 || rep.Positive != 3 || rep.Negative != 7 || len(rep.Unseen) != 2 {
		t.Errorf("sc forbids 0:r0=0 /\\ 1:r0=0: got nonconforming %d, positive %d, negative %d, unseen %v",
			rep.NonConforming, rep.Positive, rep.Negative, rep.Unseen)
	}
}
