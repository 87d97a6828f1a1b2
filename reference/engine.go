package reference

// The engine: MPI calls carried out by the model.

import (
	"math/bits"
	"math/rand"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/model"
)

// engine holds the model state of the synchronization objects and pending RMA
// operations of one copy of the test (machine.batch copies run side by side).
// Memory and registers live outside it (on the machine, in the ranks) and are
// brought in for each step and written back after. The random choices are the
// calling rank's (rank.rng): the ranks run different copies at once, and a rank
// only ever calls into one copy at a time.
type engine struct {
	_       [64]byte
	mu      spinLock
	_       [60]byte
	version atomic.Int64 // counts the steps applied, so a blocked call waits for a change
	_       [56]byte
	p       *model.Program
	m       *machine
	copy    int // the copy of the test whose memory this engine steps
	init    model.State
	s, tmp  model.State
	snap    []int64
	slots   []int // drain's order of the slots, shuffled in place
	_       [64]byte
}

// newEngines makes the engines of copies 0..n-1 of a run of p on m.
func newEngines(p *model.Program, m *machine, n int) []engine {
	es := make([]engine, n)
	init := p.Initial()
	for c := range es {
		e := &es[c]
		e.p, e.m, e.copy, e.init = p, m, c, init
		e.s = init.Clone()
		e.tmp = make(model.State, len(e.s))
		e.snap = make([]int64, p.MemWords())
		e.slots = make([]int, len(p.Slots))
	}
	return es
}

func (e *engine) reset() { copy(e.s, e.init) }

// call carries out MPI call j of rank r: it retries the model's step until it is
// enabled (a blocking call), and for a two-phase call (fence, barrier, free) until
// it has returned. While a call waits, pending operations get performed.
func (e *engine) call(r *rank, j int) {
	in := &r.code[j]
	if in.MBScope != 0 {
		fence() // the MB's release half, on the machine
	}
	for !e.m.stuck.Load() {
		e.mu.Lock()
		before := e.version.Load()
		done := e.try(r, j, r.rng)
		after := e.version.Load()
		e.mu.Unlock()
		if done {
			break
		}
		if after == before { // nothing moved: wait until another rank changes something
			e.m.spinUntil(r, func() bool { return e.version.Load() != after })
		}
	}
	if in.MBScope != 0 {
		fence() // the acquire half
	}
}

// try attempts the next step of call j of rank r; it reports whether the call is over.
func (e *engine) try(r *rank, j int, rng *rand.Rand) bool {
	p := e.p
	e.syncIn(r)
	e.performSome(0.25, rng)
	st := model.Step{Kind: model.StepExec, Proc: int8(r.id), Index: int8(j)}
	if p.InCall(e.s, r.id) == j {
		st.Kind = model.StepReturn
	} else if p.Choices(e.s, r.id, j) == 2 {
		st.Choice = int8(1 + rng.Intn(2))
	}
	if !e.apply(st) {
		e.performSome(1, rng) // a blocked call waits for operations to be performed
		return false
	}
	e.syncOut(r)
	return p.InCall(e.s, r.id) != j // a two-phase call that arrived still has to return
}

// apply runs a model step on the engine state, with memory brought in from the
// machine; it writes back the words the step changed.
func (e *engine) apply(st model.Step) bool {
	p := e.p
	cells := len(p.Cells)
	for i := range e.snap {
		e.snap[i] = atomic.LoadInt64(e.m.word(e.copy, i))
		if i >= cells && e.snap[i] != p.MemWord(e.s, i) {
			p.NoteLocalStore(e.s, i-cells) // the owner stored to its private copy
		}
		p.SetMemWord(e.s, i, e.snap[i])
	}
	copy(e.tmp, e.s)
	if !p.Apply(e.tmp, st, nil) {
		return false
	}
	e.s, e.tmp = e.tmp, e.s
	e.version.Add(1)
	for i := range e.snap {
		if v := p.MemWord(e.s, i); v != e.snap[i] {
			atomic.StoreInt64(e.m.word(e.copy, i), v)
		}
	}
	return true
}

// performSome performs each enabled pending operation with probability q, and
// completes each request-based operation that may complete locally with the same
// probability (the model's StepLocal: a library copies an origin buffer, or an
// rget's data arrives, when it does).
func (e *engine) performSome(q float64, rng *rand.Rand) {
	for k := range e.p.Slots {
		for m := e.p.ElemsPending(e.s, k); m != 0; m &= m - 1 { // each element of a multi-element call on its own
			if rng.Float64() < q {
				e.apply(model.PerformStep(k, bits.TrailingZeros8(m)))
			}
		}
		if e.p.LocalPending(e.s, k) && rng.Float64() < q {
			e.apply(e.p.LocalStep(k))
		}
	}
}

// restartLoop makes the engine run the MPI calls of the body of the loop ending at
// row j of rank r again (model.Program.RestartLoop), and performs some pending RMA
// operations, as the model may at any step: a rank that polls with plain loads
// makes no MPI call, and an operation only the engine can perform (its put to the
// polled cell, issued before the loop, with every other rank finished) would
// otherwise never land, and the loop be called a LIVELOCK the model does not have.
func (e *engine) restartLoop(r *rank, j int) {
	e.mu.Lock()
	e.p.RestartLoop(e.s, r.id, j)
	e.performSome(0.25, r.rng)
	e.mu.Unlock()
}

// drain performs what is still pending once every rank has finished, in random order
// (rng's), without allocating: it runs for every copy of every batch.
func (e *engine) drain(rng *rand.Rand) {
	for progress := true; progress; {
		progress = false
		for i := range e.slots {
			e.slots[i] = i
		}
		rng.Shuffle(len(e.slots), func(i, j int) { e.slots[i], e.slots[j] = e.slots[j], e.slots[i] })
		for _, k := range e.slots {
			var elems [8]int
			pend := elems[:0]
			for m := e.p.ElemsPending(e.s, k); m != 0; m &= m - 1 {
				pend = append(pend, bits.TrailingZeros8(m))
			}
			rng.Shuffle(len(pend), func(i, j int) { pend[i], pend[j] = pend[j], pend[i] })
			for _, el := range pend {
				if e.apply(model.PerformStep(k, el)) {
					progress = true
				}
			}
			if e.p.LocalPending(e.s, k) && e.apply(e.p.LocalStep(k)) {
				progress = true
			}
		}
	}
	for _, r := range e.m.procs {
		e.syncIn(r) // registers the rank wrote after its last call, then results that came later
		e.syncOut(r)
	}
}

// syncIn copies the registers the rank wrote since its last call into the state.
func (e *engine) syncIn(r *rank) {
	for d := r.dirty; d != 0; d &= d - 1 {
		reg := bits.TrailingZeros64(d)
		e.p.SetReg(e.s, r.id, reg, r.regs[reg])
	}
	r.dirty = 0
}

// syncOut copies the state's registers (results of gets, receives, queries) to the rank.
func (e *engine) syncOut(r *rank) {
	for k := range r.regs {
		r.regs[k] = e.p.Reg(e.s, r.id, k)
	}
}
