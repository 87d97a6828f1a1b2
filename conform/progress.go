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
// call, and the model reads that fuzziness as the weak_progress switch (docs/semantics.md#progress): a hang that the model finds as LIVELOCK under weak_progress=on, and not
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

// String says, for a user, what the model makes of the hang, in the words run uses
// for the same verdict (output.VerdictWords): conform's report and its messages say
// it alike.
func (h Hang) String() string {
	switch h {
	case HangWeakProgress:
		return "the test may hang without asynchronous progress (allowed: MPI-4.1 leaves progress to the implementation, " +
			"Progress, node340): LIVELOCK under weak_progress=on, none without"
	case HangLivelock:
		return "the test spins forever on any implementation (erroneous: LIVELOCK without weak_progress too), so the hang is no failure of the target"
	}
	return "no LIVELOCK with or without weak_progress, so the standard does not allow this hang: the library hangs on this test"
}

// ClassifyHang explores t under sem, with weak_progress off and on, on hardware
// model hw, and says whether a library that did not finish the test was allowed to
// (HangOf).
func ClassifyHang(t *litmus.Test, sem spec.Semantics, hw spec.HW, search explorer.Options) (Hang, error) {
	var res [2]*explorer.Result
	for i, s := range HangSemantics(sem) {
		jr := explorer.Job{Test: t, Sem: s, HW: hw}.Run(search)
		if jr.Err != nil {
			return HangDefect, jr.Err
		}
		res[i] = jr.Result
	}
	return HangOf(res[0], res[1]), nil
}

// HangSemantics are the two readings of sem that tell a hang apart: weak_progress
// off, then on.
func HangSemantics(sem spec.Semantics) [2]spec.Semantics {
	return [2]spec.Semantics{sem.With(spec.WeakProgress, false), sem.With(spec.WeakProgress, true)}
}

// HangOf says what a hang is from the test's results under HangSemantics: a LIVELOCK
// without weak progress is the test's own; one only with it is weak progress.
func HangOf(strong, weak *explorer.Result) Hang {
	switch {
	case livelocks(strong):
		return HangLivelock
	case livelocks(weak):
		return HangWeakProgress
	}
	return HangDefect
}

func livelocks(r *explorer.Result) bool {
	for _, f := range r.Flags {
		if f.Rule == spec.Livelock {
			return true
		}
	}
	return false
}

// TimedOut reports whether err is a run stopped at the timeout (a hang, or a slow
// machine: RunError.Starved says which is likelier).
func TimedOut(err error) bool {
	var re *RunError
	return errors.As(err, &re) && re.TimedOut
}
