package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestReductionStates: programs whose reduced search must store exactly so many
// states, each a reduction that once did not run (the count before in the comment),
// with the plain search's verdict.
func TestReductionStates(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sem       string
		hw        model.HW
		states    int
	}{
		// The perform of a put that nothing else touches is taken alone (42 states
		// while independenceReduction skipped every access of a local instruction,
		// and the issue of an RMA call is local).
		{"perform-alone", `MPI perform-alone
{
  win W allocate size=3;
  x = W@1[0]; y = W@1[1]; z = W@1[2];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 put x 1      | store y 1    ;
 put z 2      | r0 = load y  ;
 unlock_all W | store y 2    ;
              | unlock_all W ;
exists (x=1)
`, "mpi-4.1", model.Relaxed, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			lt, err := litmus.Parse(c.name+".lit", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			sem, _ := spec.Preset(c.sem)
			p, err := model.Compile(lt, sem, c.hw)
			if err != nil {
				t.Fatal(err)
			}
			reduced, err := explorer.Explore(p, explorer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := explorer.Explore(p, explorer.Options{NoReduce: true})
			if err != nil {
				t.Fatal(err)
			}
			if reduced.States != c.states {
				t.Errorf("reduced search: %d states, want %d (plain: %d)", reduced.States, c.states, plain.States)
			}
			if d := sameVerdict(plain, reduced); d != "" {
				t.Errorf("reduced search differs from plain (-plain +reduced):\n%s", d)
			}
		})
	}
}
