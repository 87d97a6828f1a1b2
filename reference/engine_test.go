package reference

import (
	"math/rand"
	"testing"

	"github.com/rmacheck/rmacheck/model"
)

// TestPerformSomeAllocatesNothing: the engine looks for pending operations under
// its lock on every call and at every restart of a spin loop; an allocation there
// (a list of pending elements) brought the collector into the spinning ranks' way,
// and on a loaded machine a poll test of 200 runs did not end in minutes.
func TestPerformSomeAllocatesNothing(t *testing.T) {
	p := compile(t, `{ win W allocate size=[2,2]; }
 P0                   | P1           ;
 lock_all W           | lock_all W   ;
 put W@1[0] 1         | r0 = get W@0[0] ;
 put W@1[0..1] (1,2)  |              ;
 unlock_all W         | unlock_all W ;
exists (1:r0=0)
`, "mpi-4.1")
	e := &newEngines(p, nil, 1)[0]
	// walk to a state where some operation is pending
	for pending := false; !pending; {
		var next model.State
		p.Successors(e.s, e.tmp, false, nil, func(_ model.Step, s model.State) {
			if next == nil {
				next = s.Clone()
			}
		})
		if next == nil {
			t.Fatal("no state with a pending operation")
		}
		e.s = next
		for k := range p.Slots {
			pending = pending || p.ElemsPending(e.s, k) != 0
		}
	}
	rng := rand.New(rand.NewSource(1))
	if n := testing.AllocsPerRun(100, func() { e.performSome(0, rng) }); n != 0 {
		t.Errorf("performSome allocates %.1f times a call", n)
	}
}
