package reference

// Waiting: how a rank waits for others, and when a run is blocked (a deadlock) or a
// spin loop can never exit (LIVELOCK), counted in steps, never wall time.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"
)

// DefaultStallRounds is Options.StallRounds when it is 0.
const DefaultStallRounds = 2000

const (
	spinsBeforeYield = 1 << 12 // spins before a waiting rank first gives its CPU away
	yieldRounds      = 1 << 10 // looks with a yield before it sleeps between looks
	napTime          = 100 * time.Microsecond
)

// spinUntil waits for cond: it busy-waits first (the ranks of an iteration meet within
// nanoseconds, and the interleavings of interest need them to), then yields every 256
// spins, then sleeps napTime between looks. A rank that waits that long waits for one
// that is off its CPU (a loaded machine, or more ranks than CPUs: then it yields from
// the start), and spinning on would keep that rank off longer. It yields through the
// Go scheduler, which parks the locked thread: on a loaded machine sched_yield here
// kept the waiter on the CPU the other rank needed (9 runs/s of MP+fence against 4,980).
//
// Each look of the slow phases counts in r.looks; the run is blocked (stuck) when
// every rank has looked Options.StallRounds times since the last step of any rank.
func (m *machine) spinUntil(r *rank, cond func() bool) {
	m.spinUntilFor(r, spinsBeforeYield, cond)
}

// spinUntilFor is spinUntil with busy spins before the first yield: a rank waiting
// for the end of a batch's record (batch.go) waits longer than a call does, and a
// yield there made the rank begin the next batch behind, every batch.
func (m *machine) spinUntilFor(r *rank, busy int, cond func() bool) {
	stall := &r.wait
	stall.reset()
	rounds := 0
	for spins := 1; !cond(); spins++ {
		if spins&255 != 0 {
			continue
		}
		if m.stuck.Load() {
			return
		}
		if !m.oversubscribed && spins < busy {
			continue
		}
		if stall.stalled(m, r) {
			m.stuck.Store(true)
			return
		}
		if rounds++; rounds <= yieldRounds {
			runtime.Gosched()
		} else {
			time.Sleep(napTime)
		}
	}
}

// stallWatch is what a waiting rank remembers to tell a blocked run: the progress
// count last seen, and every rank's looks then. A rank keeps two, one for its waits
// and one for its spin loops, and reuses their buffers: a wait on a loaded machine
// begins its slow phase at every batch, and an allocation there is the collector's
// work in the spinning ranks' way.
type stallWatch struct {
	armed bool // seen and base are set
	seen  int64
	base  []int64
}

// reset forgets what the watch saw, keeping its buffer.
func (w *stallWatch) reset() { w.armed, w.base = false, w.base[:0] }

// stalled counts one unsuccessful look of r and reports whether every rank has
// looked stallRounds times since any rank last made a step.
func (w *stallWatch) stalled(m *machine, r *rank) bool {
	if now := m.stepCount(); !w.armed || now != w.seen {
		w.armed, w.seen = true, now
		w.base = w.base[:0]
		for _, o := range m.procs {
			w.base = append(w.base, o.looks.Load())
		}
	}
	r.looks.Add(1)
	return m.allWaited(w.base) && m.stepCount() == w.seen
}

// allWaited reports whether every rank has looked stallRounds times since base.
func (m *machine) allWaited(base []int64) bool {
	for i, o := range m.procs {
		if o.looks.Load()-base[i] < int64(m.stallRounds) {
			return false
		}
	}
	return true
}

// loopGiveUp bounds the failed exit tests in a row of one loop that read the same
// values, when LIVELOCK cannot be shown otherwise (another rank waits forever in an
// MPI call that this loop's own calls keep waking): a count of tests, never wall
// time, so a starved rank only goes slower.
const loopGiveUp = 1 << 20

// spinAgain is a failed exit test of the loop ending at row j: it backs off as
// spinUntil does (spin, then yield, then nap) and reports whether to run the body
// again. A loop can never exit (docs/rules.md#livelock) when it keeps reading the
// same values while nothing else can change them: stallRounds tests in a row whose
// bodies all began after every other rank had finished the iteration, or every rank
// waits (this loop's tests count as looks of spinUntil's stall rule, and no step was
// made meanwhile).
func (m *machine) spinAgain(r *rank, it int64, j int) bool {
	if m.stuck.Load() {
		return false
	}
	if r.spins == 0 || !slices.Equal(r.regs, r.loopRegs) {
		r.loopRegs = append(r.loopRegs[:0], r.regs...)
		r.same, r.quiet = 0, 0
		r.stall.reset()
	} else {
		r.same++
		if r.bodyAfterOthers {
			r.quiet++
		}
	}
	r.spins++
	// The back-off counts the tests that read the same values (a loop that waits for
	// another rank); a body that computes new values on each pass waits for no one,
	// and sleeping between its passes would keep it from its spin bound for hours.
	slow := m.oversubscribed || r.same >= spinsBeforeYield
	if r.quiet >= m.stallRounds || r.same >= loopGiveUp || slow && r.same > 0 && r.stall.stalled(m, r) || m.pastSpinLimit(r, j) {
		m.stuck.Store(true)
		return false
	}
	// Whether the others had finished is read before the body runs again, never
	// after: a body that read memory before the last store of another rank, tested
	// after that rank finished, proves nothing (under load the test may come long
	// after the read).
	defer func() { r.bodyAfterOthers = m.othersFinished(r, it) }()
	switch {
	case !slow:
	case r.same == 0: // new values: yield now and then only (more ranks than CPUs)
		if r.spins&255 == 0 {
			runtime.Gosched()
		}
	case r.same < spinsBeforeYield+yieldRounds:
		runtime.Gosched()
	default:
		time.Sleep(napTime)
	}
	return true
}

// spinning lists the loops the ranks of a blocked run spin in ("" when the run is not
// blocked, or blocked in MPI calls only: a deadlock), for its SpinError.
func (m *machine) spinning() string {
	if !m.stuck.Load() {
		return ""
	}
	var loops []string
	for _, r := range m.procs {
		if j := int(r.looping.Load()) - 1; j >= 0 {
			in := &r.code[j]
			loops = append(loops, fmt.Sprintf("P%d row %d: %s", r.id, in.Row, in.Text))
		}
	}
	if len(loops) == 0 {
		return ""
	}
	return strings.Join(loops, "; ")
}

// othersFinished reports whether every other rank has executed iteration it to its end.
func (m *machine) othersFinished(r *rank, it int64) bool {
	for _, o := range m.procs {
		if o != r && o.finished.Load() < it {
			return false
		}
	}
	return true
}
