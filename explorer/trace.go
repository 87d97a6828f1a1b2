package explorer

import (
	"sync"

	"github.com/rmacheck/rmacheck/model"
)

// Replay is a witness's trace (model.Witness.Replay), replayed the first time a
// printer asks for it (Outcome.Trace, Flag.Trace) and kept: a result carries its
// traces, so the text, the JSON record, a report's list and its diagram read one
// replay. Copies of an outcome or a flag (a comparison's, a shared result's) share
// it; a copy whose witness replays on another program gets one of its own
// (Result.of, withRelaxedPairs). It is a cache, so any two are Equal (go-cmp
// compares results without it).
type Replay struct {
	once  sync.Once
	trace model.Trace
}

// Equal is true: a cache says nothing a result does not.
func (*Replay) Equal(*Replay) bool { return true }

// of is w's trace, replayed once (every time, for an outcome or flag made without
// one).
func (r *Replay) of(w *model.Witness) *model.Trace {
	if r == nil {
		r = &Replay{}
	}
	r.once.Do(func() { r.trace = w.Replay() })
	return &r.trace
}

// Trace is the replay of the outcome's witness, made once.
func (o *Outcome) Trace() *model.Trace { return o.Replay.of(&o.Witness) }

// Trace is the replay of the flag's witness, made once.
func (f *Flag) Trace() *model.Trace { return f.Replay.of(&f.Witness) }
