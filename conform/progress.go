package conform

import (
	"errors"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// A library run that stops waiting (at its spin limit, or at the timeout) is a
// defect only if the standard promises it ends. MPI-4.1's Progress section (node340)
// does not promise that an RMA operation completes while its target makes no MPI
// call, and the model reads that fuzziness as the weak_progress switch (SEMANTICS.md
// §4): a hang that the model finds as LIVELOCK under weak_progress=on, and not
// without it, is one the standard allows.

// Hang says what the model makes of a library run that did not finish.
type Hang int

const (
	// HangDefect: no LIVELOCK with or without weak progress: the library hangs where
	// every reading of the standard says the test ends.
	HangDefect Hang = iota
	// HangWeakProgress: LIVELOCK only under weak_progress=on: the test needs the
	// target's progress, which MPI-4.1 leaves to the implementation (allowed).
	HangWeakProgress
	// HangLivelock: LIVELOCK without weak progress too: the test can spin forever on
	// any implementation (the model finds it erroneous).
	HangLivelock
)

// Allowed: the standard lets a library hang on the test.
func (h Hang) Allowed() bool { return h != HangDefect }

// String says, for a user, what the model makes of the hang (after "it" when allowed).
func (h Hang) String() string {
	switch h {
	case HangWeakProgress:
		return "needs the target's progress: LIVELOCK under weak_progress=on, none without (weak progress, which MPI-4.1 Progress, node340, leaves open: allowed)"
	case HangLivelock:
		return "spins forever on any implementation: LIVELOCK without weak_progress too"
	}
	return "no LIVELOCK with or without weak_progress: weak progress does not explain this hang"
}

// ClassifyHang explores t under sem, with weak_progress off and on, on hardware
// model hw, and says whether a library that did not finish the test was allowed to.
func ClassifyHang(t *litmus.Test, sem spec.Semantics, hw spec.HW, search explorer.Options) (Hang, error) {
	strong, weak := sem.With(spec.WeakProgress, false), sem.With(spec.WeakProgress, true)
	livelocks := func(s spec.Semantics) (bool, error) {
		jr := explorer.Job{Test: t, Sem: s, HW: hw}.Run(search)
		if jr.Err != nil {
			return false, jr.Err
		}
		for _, f := range jr.Result.Flags {
			if f.Rule == spec.Livelock {
				return true, nil
			}
		}
		return false, nil
	}
	if ll, err := livelocks(strong); err != nil || ll {
		return HangLivelock, err
	}
	ll, err := livelocks(weak)
	if err != nil || !ll {
		return HangDefect, err
	}
	return HangWeakProgress, nil
}

// TimedOut reports whether err is a run stopped at the timeout (a hang, or a slow
// machine: RunError.Starved says which is likelier).
func TimedOut(err error) bool {
	var re *RunError
	return errors.As(err, &re) && re.TimedOut
}
