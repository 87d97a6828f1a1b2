package reference

import (
	"errors"
	"testing"
)

// TestSpinLimitStopsLoopsThatChangeRegisters: a loop whose registers change on every
// pass and that never exits stops the run at the spin bound with a *SpinError naming
// the loop (issue 25 row 10: LIVELOCK detection needs a loop that reads the same values
// again and again, so this one ran forever); a body that calls MPI has the lower
// default bound, and a loop that exits within the bound is no error however long it
// spins.
func TestSpinLimitStopsLoopsThatChangeRegisters(t *testing.T) {
	toggle := compile(t, `{ win W allocate size=1; }
 P0            | P1     ;
 r0 = 0        | r1 = 1 ;
 repeat        |        ;
 r0 = 1 - r0   |        ;
 until r0 == 2 |        ;
exists (0:r0=0)
`, "mpi-4.1")
	_, err := Run(toggle, Options{Runs: 5, Seed: 1, SpinLimit: 1 << 12})
	var se *SpinError
	if !errors.As(err, &se) || se.Limit != 1<<12 || se.Line() != "SPIN-LIMIT P0 row 2: the loop did not exit after 4096 iterations (until r0 == 2)" {
		t.Errorf("a loop toggling r0: %v; want the SPIN-LIMIT of P0 row 2 after 4096 iterations", err)
	}

	counting := compile(t, `{ win W allocate size=1; }
 P0            | P1     ;
 r0 = 0        | r1 = 1 ;
 repeat        |        ;
 r0 = r0 + 1   |        ;
 until r0 == 3000 |     ;
exists (0:r0=3000)
`, "mpi-4.1")
	if res, err := Run(counting, Options{Runs: 5, Seed: 1, SpinLimit: 1 << 12}); err != nil || count(res, 3000) != 5 {
		t.Errorf("a loop that exits after 2999 failed tests, bound 4096: %v, %+v", err, res)
	}

	// The MPI body's default bound, 2^21 passes (a few seconds): its counter r1 is
	// new on every pass, so no LIVELOCK can be shown.
	polling := compile(t, `{ win W allocate size=1; c = W@1[0]; }
 P0                  | P1           ;
 lock_all W          | lock_all W   ;
 repeat              |              ;
 r0 = fop c no_op 0  |              ;
 flush_all W         |              ;
 r1 = r1 + 1         |              ;
 until r0 == 1       |              ;
 unlock_all W        | unlock_all W ;
exists (0:r0=0)
`, "mpi-4.1")
	if testing.Short() {
		t.Skip("-short: the default bound of an MPI body takes seconds")
	}
	_, err = Run(polling, Options{Runs: 1, Seed: 1})
	if !errors.As(err, &se) || se.Limit != SpinLimitMPI || se.Loops != "P0 row 2" {
		t.Errorf("a fop loop that never exits: %v; want the SPIN-LIMIT of P0 row 2 after %d iterations", err, SpinLimitMPI)
	}
}
