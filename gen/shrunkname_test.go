package gen

import (
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// A shrunk test is named after the synchronization left in it, not the candidate's:
// the +flush of MP+sync+flush is gone when the flush is.
func TestShrunkNameSaysWhatIsLeft(t *testing.T) {
	src := `MPI MP+sync+flush+shared+remote
{
  win W allocate_shared size=[2,0];
  x = W@0[0];
  y = W@0[1];
}
 P0           | P1          ;
 lock_all W   | lock_all W  ;
 store x 1    | r0 = load y ;
 sync W       | r1 = load x ;
 store y 1    |             ;
 unlock_all W | unlock_all W ;
exists (1:r0=1 /\ 1:r1=0)
`
	tst, err := litmus.Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shrunkName(tst.Name, tst), "MP+sync+shared+remote-min"; got != want {
		t.Errorf("shrunkName = %q, want %q", got, want)
	}
	tst.Procs[0].Code[2] = nil // the sync dropped too
	if got, want := shrunkName(tst.Name, tst), "MP+po+shared+remote-min"; got != want {
		t.Errorf("without the sync: shrunkName = %q, want %q", got, want)
	}
	names := map[string]bool{}
	a, b := &litmus.Test{Name: "X-min"}, &litmus.Test{Name: "X-min"}
	uniqueName(a, names)
	uniqueName(b, names)
	if a.Name != "X-min" || b.Name != "X-min-2" {
		t.Errorf("two tests named alike became %q and %q, want X-min and X-min-2", a.Name, b.Name)
	}
}
