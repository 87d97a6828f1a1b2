package reference

// The machine: shared memory, the ranks, and the iteration loop that starts them
// together and records each outcome.

import (
	"math"
	"runtime"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/model"
)

// lineWords spaces memory words a cache line apart, as separate variables are.
const lineWords = 8

// machine is the shared state of one run.
type machine struct {
	p       *model.Program
	mem     []int64 // memory word i at mem[i*lineWords]
	initMem []int64
	eng     *engine // nil when the program makes no MPI call
	procs   []*rank
	// oversubscribed: more ranks than CPUs, so spinning must yield.
	oversubscribed bool
	breakStale     bool // Options.BreakStaleLoads
	stallRounds    int  // Options.StallRounds
	spin           spinBound

	// Each word the ranks share sits on a cache line of its own: one that two
	// ranks write moves between their cores at every write, and a word read beside
	// it moves with it.
	_   [64]byte
	gen atomic.Int64 // iteration generation: ranks start iteration g when gen reaches g
	// start is when iteration gen begins, in cycles(): rank 0 sets it a little
	// ahead (lead), so that every rank has seen gen by then (startTogether).
	start atomic.Int64
	// spread is the window after start in which each rank starts at random.
	spread atomic.Int64
	_      [40]byte
	// finished counts the ranks done with the current iteration.
	finished atomic.Int64
	_        [56]byte
	// stuck is set when the program blocks (one the model would call DEADLOCK) or
	// a spin loop can never exit (LIVELOCK, when some rank spins in a loop then):
	// every wait then gives up.
	stuck atomic.Bool
	_     [63]byte
	// lead is how far ahead of its release rank 0 sets an iteration's start, in
	// cycles(): about the time the release takes to reach the other ranks, learnt
	// from their lateness (rank 0's alone).
	lead int64
}

const (
	// maxLead bounds lead; a rank later than that was off its CPU (a loaded
	// machine), and its lateness is not the release's.
	maxLead = 1 << 13
	// minSpread is the least window in which each rank starts at random after the
	// iteration's start, as litmus7 does: the ranks' first instructions then meet
	// in every relative timing. The window grows with the lead: a rank's first
	// access to a line the releasing rank has just reset waits for the line about
	// as long as the release took to arrive, so the releasing rank is that much
	// ahead at its first accesses. Measured on SB (400,000 runs, three times): a
	// window of minSpread alone gave 1,066-9,030 relaxed outcomes and P1 first in
	// 10-36% of the runs; minSpread + lead 3,197-4,100 and 33-39%, at 75% of the
	// speed; minSpread + 2 lead 2,106-2,582 and 42-47%, at 60%.
	minSpread = 1 << 8
	// leadMargin is how long before the start the latest rank should see the
	// release.
	leadMargin = 32
)

// stepCount is the steps all ranks and the engine have made, what a waiting rank
// watches: each rank counts its own (rank.steps), so that counting costs no
// cache line shared by all.
func (m *machine) stepCount() int64 {
	var n int64
	for _, r := range m.procs {
		n += r.steps.Load()
	}
	if m.eng != nil {
		n += m.eng.version.Load()
	}
	return n
}

// newMachine makes the machine of a run of p with opt (its Runs and Progress are
// the loop's).
func newMachine(p *model.Program, opt Options) *machine {
	m := &machine{p: p, breakStale: opt.BreakStaleLoads, stallRounds: opt.StallRounds}
	if m.stallRounds == 0 {
		m.stallRounds = DefaultStallRounds
	}
	m.spin.limit = opt.SpinLimit
	seed := opt.Seed
	init := p.Initial()
	words := p.MemWords()
	m.mem = make([]int64, words*lineWords)
	m.initMem = make([]int64, words)
	for i := 0; i < words; i++ {
		m.initMem[i] = p.MemWord(init, i)
	}
	if hasMPI(p) {
		m.eng = newEngine(p, m, seed)
	}
	m.oversubscribed = p.NProcs > runtime.NumCPU()
	for i := range p.Procs {
		r := &rank{id: i, code: p.Procs[i].Code, regs: make([]int64, len(p.Procs[i].Regs))}
		for k := range r.regs {
			r.regs[k] = p.Reg(init, i, k)
		}
		r.init = append([]int64(nil), r.regs...)
		r.rnd = uint64(seed)*2654435761 + uint64(i)*40503 + 1
		m.procs = append(m.procs, r)
	}
	return m
}

func hasMPI(p *model.Program) bool {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			if p.Procs[i].Code[k].IsMPI {
				return true
			}
		}
	}
	return false
}

func (m *machine) word(i int) *int64 { return &m.mem[i*lineWords] }

// reset puts memory, registers and the engine back to the initial state. Only rank
// 0 calls it, between iterations, while the others wait.
func (m *machine) reset() {
	for i, v := range m.initMem {
		*m.word(i) = v
	}
	for _, r := range m.procs {
		copy(r.regs, r.init)
		r.dirty = 0
	}
	if m.eng != nil {
		m.eng.reset()
	}
}

// loop runs every iteration on one rank. Rank 0 also resets the machine and records
// each outcome; the ranks meet at a spin barrier in shared memory, not through the
// Go scheduler, so that they start each iteration together.
func (m *machine) loop(r *rank, opt Options, h *histogram) {
	n := int64(len(m.procs))
	for it := 1; it <= opt.Runs && !m.stuck.Load(); it++ {
		r.steps.Add(1)
		if r.id == 0 {
			m.reset()
			m.finished.Store(0)
			m.start.Store(cycles() + m.lead)
			m.spread.Store(minSpread + m.lead)
			m.gen.Store(int64(it))
		} else {
			m.spinUntil(r, func() bool { return m.gen.Load() >= int64(it) })
		}
		m.startTogether(r)
		m.execute(r, int64(it))
		r.finished.Store(int64(it))
		m.finished.Add(1)
		r.steps.Add(1)
		if r.id != 0 {
			continue
		}
		m.spinUntil(r, func() bool { return m.finished.Load() == n })
		if m.stuck.Load() {
			return // a blocked run: the other ranks may still be running; no outcome
		}
		m.learnLead()
		if m.eng != nil {
			m.eng.drain()
		}
		h.vals = m.outcome(h.vals)
		h.add(h.vals)
		if opt.Progress != nil && it%65536 == 0 {
			opt.Progress(it)
		}
	}
}

// startTogether makes the ranks' first instructions meet in every relative timing,
// as litmus7 does: each rank waits for the iteration's start time plus a random
// jitter within its spread. Without a common start, the rank that releases the
// iteration ran its whole program before the others had seen the release (of 2
// million runs of SB, 99.9% had P0 first throughout). Ranks that share CPUs
// (oversubscribed) only jitter: waiting for a time would keep the others off.
func (m *machine) startTogether(r *rank) {
	start := m.start.Load()
	now := cycles()
	if r.id != 0 {
		r.late.Store(now - start)
	}
	r.rnd ^= r.rnd << 13
	r.rnd ^= r.rnd >> 7
	r.rnd ^= r.rnd << 17
	spread := m.spread.Load()
	at := start + int64(r.rnd%uint64(spread))
	if m.oversubscribed || at-now > maxLead+spread {
		return
	}
	for cycles() < at {
	}
}

// learnLead moves rank 0's lead towards the time the release of this iteration
// took to reach the latest rank (a running average), leaving out a rank that was
// off its CPU.
func (m *machine) learnLead() {
	if len(m.procs) < 2 {
		return // no one to wait for
	}
	late := int64(math.MinInt64)
	for _, o := range m.procs[1:] {
		late = max(late, o.late.Load())
	}
	if late > maxLead {
		return
	}
	// late = seen - start = seen - release - lead: the lead that makes every rank
	// see the release leadMargin before the start is lead + late + leadMargin.
	m.lead = min(maxLead, max(0, m.lead+(late+leadMargin)/8))
}

// outcome reads the values the test shows: registers, and cells as their owner sees them.
func (m *machine) outcome(vals []int64) []int64 {
	p := m.p
	if len(vals) != len(p.Out) {
		vals = make([]int64, len(p.Out))
	}
	for i, o := range p.Out {
		if o.Proc >= 0 {
			vals[i] = m.procs[o.Proc].regs[o.Reg]
		} else {
			vals[i] = load(m.word(p.LocalWord(o.Cell)))
		}
	}
	return vals
}
