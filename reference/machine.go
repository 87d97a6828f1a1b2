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

// machine is the shared state of one run. It holds batch copies of the test (memory,
// registers, engine state), so that the ranks meet once a batch, not once an
// iteration (batch.go).
type machine struct {
	p       *model.Program
	words   int     // memory words of one copy
	mem     []int64 // memory word i of copy c at mem[(c*words+i)*lineWords]
	initMem []int64
	engs    []engine // one a copy; nil when the program makes no MPI call
	procs   []*rank
	batch   int // copies: iterations a batch
	// oversubscribed: more ranks than CPUs, so spinning must yield.
	oversubscribed bool
	breakStale     bool // Options.BreakStaleLoads
	stallRounds    int  // Options.StallRounds
	spin           spinBound
	// first[c] is 1 + the rank that began copy c of this batch first, when
	// Options.countFirst is set (fairness.go).
	first []atomic.Int32

	// Each word the ranks share sits on a cache line of its own: one that two
	// ranks write moves between their cores at every write, and a word read beside
	// it moves with it.
	_ [64]byte
	// gen is the batch generation: rank 0 releases batch g by setting gen to g;
	// each rank then counts itself in arrived, and once all have, rank 0 sets the
	// start and ready to g.
	gen, ready atomic.Int64
	// start is when the batch's first iteration begins, in cycles(): rank 0 sets it
	// a little ahead (lead), so that every rank has seen ready by then.
	start atomic.Int64
	// spread is the window after an iteration's start in which each rank starts at
	// random; period is the time between the starts of two iterations of a batch.
	spread, period atomic.Int64
	_              [24]byte
	arrived        atomic.Int64
	_              [56]byte
	// finished counts the ranks done with the current batch.
	finished atomic.Int64
	_        [56]byte
	// stuck is set when the program blocks (one the model would call DEADLOCK) or
	// a spin loop can never exit (LIVELOCK, when some rank spins in a loop then):
	// every wait then gives up.
	stuck atomic.Bool
	_     [63]byte
	// lead is how far ahead of its release rank 0 sets a batch's start, in
	// cycles(): about the time the release takes to reach the other ranks, learnt
	// from their lateness (rank 0's alone). pace is rank 0's period (period.go).
	lead, pace int64
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

// stepCount is the steps all ranks and the engines have made, what a waiting rank
// watches: each rank counts its own (rank.steps, and the iterations it finished),
// so that counting costs no cache line shared by all.
func (m *machine) stepCount() int64 {
	var n int64
	for _, r := range m.procs {
		n += r.steps.Load() + r.finished.Load()
	}
	for c := range m.engs {
		n += m.engs[c].version.Load()
	}
	return n
}

// newMachine makes the machine of a run of p with opt (its Runs and Progress are
// the loop's).
func newMachine(p *model.Program, opt Options) *machine {
	m := &machine{p: p, breakStale: opt.BreakStaleLoads, stallRounds: opt.StallRounds, batch: batchSize(p, opt)}
	if m.stallRounds == 0 {
		m.stallRounds = DefaultStallRounds
	}
	m.spin.limit = opt.SpinLimit
	seed := opt.Seed
	init := p.Initial()
	m.words = p.MemWords()
	m.mem = make([]int64, (m.batch*m.words+1)*lineWords)
	m.initMem = make([]int64, m.words)
	for i := 0; i < m.words; i++ {
		m.initMem[i] = p.MemWord(init, i)
	}
	if hasMPI(p) {
		m.engs = newEngines(p, m, m.batch)
	}
	if opt.countFirst {
		m.first = make([]atomic.Int32, m.batch)
	}
	m.oversubscribed = p.NProcs > runtime.NumCPU()
	for i := range p.Procs {
		m.procs = append(m.procs, newRank(p, i, init, seed, m.batch))
	}
	for i := 0; i < m.words; i++ {
		owner := p.Cells[i%len(p.Cells)].Rank
		if owner < 0 || owner >= len(m.procs) {
			owner = 0
		}
		m.procs[owner].own = append(m.procs[owner].own, i)
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

// word is memory word i of copy c.
func (m *machine) word(c, i int) *int64 { return &m.mem[(c*m.words+i)*lineWords] }

// reset puts the engine state of copy c back to the initial state (each rank resets
// the memory it owns, resetOwn, and its registers as it begins a copy). Only rank 0
// calls it, between batches, while the others wait.
func (m *machine) reset(c int) {
	if m.engs != nil {
		m.engs[c].reset()
	}
}

// learnLead moves rank 0's lead towards the time the release of this batch took to
// reach the latest rank (a running average), leaving out a rank that was off its
// CPU.
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

// outcome reads the values the test shows in copy c: registers, and cells as their
// owner sees them.
func (m *machine) outcome(c int, vals []int64) []int64 {
	p := m.p
	if len(vals) != len(p.Out) {
		vals = make([]int64, len(p.Out))
	}
	for i, o := range p.Out {
		if o.Proc >= 0 {
			vals[i] = m.procs[o.Proc].copyRegs(c)[o.Reg]
		} else {
			vals[i] = load(m.word(c, p.LocalWord(o.Cell)))
		}
	}
	return vals
}
