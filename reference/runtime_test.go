package reference

import (
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

func compile(t testing.TB, src, sem string) *model.Program {
	t.Helper()
	lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.ParseSemantics(sem)
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Compile(lt, s, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSmoke(t *testing.T) {
	p := compile(t, `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | store y 1   ;
 r0 = load y | r0 = load x ;
exists (0:r0=0 /\ 1:r0=0)
`, "mpi-4.1")
	r, err := Run(p, Options{Runs: 200000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs in %v (%.0f/s): %v", r.Runs, r.Elapsed, r.Rate(), r.Bins)
}

func TestSmokeMPI(t *testing.T) {
	p := compile(t, `{ win W allocate size=1; x = W@1[0]; }
 P0      | P1          ;
 fence W | fence W     ;
 put x 1 |             ;
 fence W | fence W     ;
         | r0 = load x ;
exists (1:r0=0)
`, "mpi-4.1")
	r, err := Run(p, Options{Runs: 20000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs in %v (%.0f/s): %v", r.Runs, r.Elapsed, r.Rate(), r.Bins)
	p = compile(t, `{ win W allocate size=1; c = W@0[0]; }
 P0            | P1            ;
 lock W 0 excl | lock W 0 excl ;
 r0 = get c    | r0 = get c    ;
 flush W 0     | flush W 0     ;
 r1 = r0 + 1   | r1 = r0 + 1   ;
 put c r1      | put c r1      ;
 unlock W 0    | unlock W 0    ;
exists (c=1)
`, "mpi-4.1")
	r, err = Run(p, Options{Runs: 20000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs in %v (%.0f/s): %v", r.Runs, r.Elapsed, r.Rate(), r.Bins)
}
