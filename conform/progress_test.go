package conform_test

import (
	"fmt"
	"testing"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestClassifyHang: a library run that did not finish is allowed when the model finds
// LIVELOCK under weak_progress=on (and not without: MPI-4.1 Progress leaves it open)
// or without it too (the test spins forever anyway); otherwise it is a real hang.
// Before weak_progress every such run was "the library hangs on this test", exit 3.
func TestClassifyHang(t *testing.T) {
	const poll = `{ win W allocate size=2; data = W@1[0]; flag = W@1[1]; }
 P0           | P1             ;
 lock_all W   | lock_all W     ;
 put data 42  | repeat         ;
 flush W 1    | r0 = load flag ;
 put flag 1   | %s
 flush W 1    | until r0 == 1  ;
 unlock_all W | r1 = load data ;
              | unlock_all W   ;
exists (1:r1=0)
`
	cases := []struct {
		name string
		src  string
		want conform.Hang
	}{
		{"plain-load poll", fmt.Sprintf(poll, "               ;"), conform.HangWeakProgress},
		{"sync in the loop", fmt.Sprintf(poll, "sync W         ;"), conform.HangDefect},
		{"recv with no send", `{ win W allocate size=1; x = W@1[0]; }
 P0          | P1        ;
 r0 = recv 1 | store x 1 ;
exists (0:r0=0)
`, conform.HangDefect},
		{"flag never set", `{ win W allocate size=1; flag = W@1[0]; }
 P0 | P1                   ;
    | r0 = await flag == 1 ;
exists (1:r0=1)
`, conform.HangLivelock},
	}
	sem, _ := spec.Preset("mpi-4.1")
	for _, c := range cases {
		lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := conform.ClassifyHang(lt, sem, spec.TSO, explorer.Options{MaxStates: 1_000_000})
		if err != nil || got != c.want {
			t.Errorf("%s: %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}
