// Package reference runs a compiled litmus program on real shared memory: one OS
// thread per rank, plain loads and stores as plain machine instructions (so the
// processor's memory model shows), and every MPI call carried out by the model's
// own step function under a lock, with the choices the semantics leaves open (when
// a pending operation is performed, in which order, which shared_query answer)
// made at random from a seed. Only what the chosen semantics allows can happen.
package reference

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
)

// Options of a run.
type Options struct {
	Runs int
	Seed int64
	// Progress, when not nil, is called now and then with the iterations done.
	Progress func(done int)
	// BreakStaleLoads is a test-only switch that breaks the runtime on purpose, for
	// testing tools that hunt non-conformance (gen.Fuzz): a plain load of a word the
	// loading rank has not stored in this iteration returns the word's initial value,
	// as a library that never made other ranks' stores or puts visible would. Never
	// set it outside such tests.
	BreakStaleLoads bool
}

// Bin is one outcome and how often it was observed.
type Bin struct {
	Values []int64 // in the order of Program.Out
	Count  int
}

// Result is the histogram of a run.
type Result struct {
	Runs    int
	Bins    []Bin // sorted by values
	Elapsed time.Duration
	Seed    int64
	Procs   int           // ranks (threads)
	RunWait time.Duration // time the ranks' threads were ready to run but had no CPU, summed (0 where unknown)
}

// Rate is iterations per second.
func (r *Result) Rate() float64 { return float64(r.Runs) / r.Elapsed.Seconds() }

// Starvation is the part of the run the ranks spent ready to run but off a CPU
// (RunWait over elapsed time times the ranks): near 0 on an idle machine; on a loaded
// one the ranks rarely run side by side, so outcomes that need them to are rare.
// 0 when unknown (not Linux).
func (r *Result) Starvation() float64 {
	if r.RunWait <= 0 || r.Procs == 0 || r.Elapsed <= 0 {
		return 0
	}
	return min(1, r.RunWait.Seconds()/(r.Elapsed.Seconds()*float64(r.Procs)))
}

// Starved reports whether the ranks spent over a quarter of the run waiting for a
// CPU beyond what more ranks than CPUs costs by itself: a loaded machine, not a
// property of the program.
func (r *Result) Starved() bool {
	inherent := max(0, 1-float64(runtime.NumCPU())/float64(max(1, r.Procs)))
	return r.Starvation()-inherent > 0.25
}

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

// StallRounds decides when a run is blocked, by counting steps, never wall time: when
// every rank has looked at least StallRounds times at what it waits for, found it
// unchanged, and no rank made a step in between, no rank can ever move again. A rank
// that is off its CPU (a loaded machine) looks no more, so a starved run goes slowly
// but is never called blocked.
var StallRounds = 2000

const (
	spinsBeforeYield = 1 << 12 // spins before a waiting rank first gives its CPU away
	yieldRounds      = 1 << 10 // looks with a yield before it sleeps between looks
	napTime          = 100 * time.Microsecond
)

// rank is one process's thread state. It is padded to whole cache lines: the
// allocator may put two ranks side by side, and what one writes would then slow
// the other's reads.
type rank struct {
	_ [64]byte
	// steps counts the steps of this rank (machine.stepCount).
	steps atomic.Int64
	_     [56]byte
	id    int
	code  []model.Instr
	regs  []int64
	init  []int64
	dirty uint64 // registers written since the last MPI call
	wrote []bool // words stored in this iteration (only with Options.BreakStaleLoads)
	rnd   uint64 // xorshift state for startTogether's jitter
	// late is how long after the iteration's start this rank saw it begin, in
	// cycles() (rank 0 reads it to set its lead).
	late atomic.Int64
	// looks counts this rank's unsuccessful looks, in the slow phases of spinUntil,
	// at what it waits for: the evidence that it is waiting, not off its CPU.
	looks atomic.Int64
	// finished is the last iteration this rank has executed to its end.
	finished atomic.Int64
	// a spin loop's state (spinAgain): its failed exit tests in a row, those that
	// read what the previous one read, those registers, and how many of the same
	// tests ran a body that began after every other rank had finished (quiet).
	spins, same, quiet int
	loopRegs           []int64
	// bodyAfterOthers: the body being run began after every other rank had
	// finished the iteration, so nothing but this rank could change what it read.
	bodyAfterOthers bool
	stall           stallWatch
	// looping is 1 + the row index of the until whose loop the rank is spinning in
	// (0: none), for the report of a blocked run.
	looping atomic.Int32
	_       [64]byte
}

// Run executes the program opt.Runs times and returns the histogram of outcomes.
func Run(p *model.Program, opt Options) (*Result, error) {
	if p.NProcs > runtime.NumCPU()*4 {
		return nil, fmt.Errorf("%d processes on %d CPUs: too many for spinning threads", p.NProcs, runtime.NumCPU())
	}
	m := newMachine(p, opt.Seed)
	m.breakStale = opt.BreakStaleLoads
	if runtime.GOMAXPROCS(0) < p.NProcs {
		old := runtime.GOMAXPROCS(p.NProcs)
		defer runtime.GOMAXPROCS(old)
	}
	h := &histogram{index: map[string]int{}}
	start := time.Now()
	wait := make([]time.Duration, len(m.procs))
	var wg sync.WaitGroup
	for i := range m.procs {
		wg.Add(1)
		go func(r *rank) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w0 := threadRunWait()
			m.loop(r, opt, h)
			wait[r.id] = threadRunWait() - w0
		}(m.procs[i])
	}
	wg.Wait()
	if l := m.spinning(); l != "" {
		return nil, fmt.Errorf("LIVELOCK: %s (SEMANTICS.md §2; rmacheck explain LIVELOCK)", l)
	}
	if m.stuck.Load() {
		return nil, fmt.Errorf("the program blocks: every rank waits for another and none can make a step (a deadlock)")
	}
	res := &Result{Runs: opt.Runs, Elapsed: time.Since(start), Seed: opt.Seed, Procs: len(m.procs)}
	for _, w := range wait {
		res.RunWait += w
	}
	for i, vals := range h.values {
		res.Bins = append(res.Bins, Bin{Values: vals, Count: h.counts[i]})
	}
	slices.SortFunc(res.Bins, func(a, b Bin) int { return slices.Compare(a.Values, b.Values) })
	return res, nil
}

func newMachine(p *model.Program, seed int64) *machine {
	m := &machine{p: p}
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

// histogram counts outcomes; only rank 0 touches it.
type histogram struct {
	index  map[string]int
	values [][]int64
	counts []int
	buf    []byte
	vals   []int64
}

func (h *histogram) add(vals []int64) {
	h.buf = encode(h.buf[:0], vals)
	i, ok := h.index[string(h.buf)]
	if !ok {
		i = len(h.counts)
		h.index[string(h.buf)] = i
		h.values = append(h.values, append([]int64(nil), vals...))
		h.counts = append(h.counts, 0)
	}
	h.counts[i]++
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

// spinUntil waits for cond: it busy-waits first (the ranks of an iteration meet within
// nanoseconds, and the interleavings of interest need them to), then yields every 256
// spins, then sleeps napTime between looks. A rank that waits that long waits for one
// that is off its CPU (a loaded machine, or more ranks than CPUs: then it yields from
// the start), and spinning on would keep that rank off longer. It yields through the
// Go scheduler, which parks the locked thread: on a loaded machine sched_yield here
// kept the waiter on the CPU the other rank needed (9 runs/s of MP+fence against 4,980).
//
// Each look of the slow phases counts in r.looks; the run is blocked (stuck) when
// every rank has looked StallRounds times since the last step of any rank.
func (m *machine) spinUntil(r *rank, cond func() bool) {
	var stall stallWatch
	rounds := 0
	for spins := 1; !cond(); spins++ {
		if spins&255 != 0 {
			continue
		}
		if m.stuck.Load() {
			return
		}
		if !m.oversubscribed && spins < spinsBeforeYield {
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
// count last seen, and every rank's looks then.
type stallWatch struct {
	seen int64
	base []int64
}

// stalled counts one unsuccessful look of r and reports whether every rank has
// looked StallRounds times since any rank last made a step.
func (w *stallWatch) stalled(m *machine, r *rank) bool {
	if now := m.stepCount(); w.base == nil || now != w.seen {
		w.seen = now
		w.base = w.base[:0]
		for _, o := range m.procs {
			w.base = append(w.base, o.looks.Load())
		}
	}
	r.looks.Add(1)
	return m.allWaited(w.base) && m.stepCount() == w.seen
}

// allWaited reports whether every rank has looked StallRounds times since base.
func (m *machine) allWaited(base []int64) bool {
	for i, o := range m.procs {
		if o.looks.Load()-base[i] < int64(StallRounds) {
			return false
		}
	}
	return true
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

// execute runs one rank's program once (iteration it), in program order: plain
// accesses on the machine, MPI calls through the engine, and a spin loop's body again
// while its exit test is false.
func (m *machine) execute(r *rank, it int64) {
	p := m.p
	if m.breakStale {
		r.wrote = make([]bool, len(m.initMem))
	}
	r.spins = 0
	r.looping.Store(0)
	for j := 0; j < len(r.code); j++ {
		in := &r.code[j]
		if in.IsMPI {
			m.eng.call(r, j)
			continue
		}
		if in.GuardReg >= 0 && !guard(r, in) {
			continue
		}
		switch in.Kind {
		case model.KPlainLoad:
			word := p.LocalWord(int(in.Cell))
			if m.breakStale && !r.wrote[word] {
				r.set(int(in.Dst), m.initMem[word]) // broken on purpose: see Options.BreakStaleLoads
				continue
			}
			r.set(int(in.Dst), load(m.word(word)))
		case model.KPlainStore:
			word := p.LocalWord(int(in.Cell))
			if m.breakStale {
				r.wrote[word] = true
			}
			store(m.word(word), r.val(in.Args[0]))
		case model.KArith:
			v := r.val(in.Args[0])
			switch in.Op {
			case litmus.OpAdd:
				v += r.val(in.Args[1])
			case litmus.OpSub:
				v -= r.val(in.Args[1])
			}
			r.set(int(in.Dst), v)
		case model.KUntil:
			if p.UntilHolds(r.id, in, r.regs) {
				r.spins = 0
				r.looping.Store(0)
				continue
			}
			r.looping.Store(int32(j + 1))
			if !m.spinAgain(r, it, j) {
				return // stuck: the run is over
			}
			if m.eng != nil {
				m.eng.restartLoop(r, j)
			}
			j = bits.TrailingZeros64(in.LoopBody) - 1 // the body again
		}
	}
}

// loopGiveUp bounds the failed exit tests in a row of one loop that read the same
// values, when LIVELOCK cannot be shown otherwise (another rank waits forever in an
// MPI call that this loop's own calls keep waking): a count of tests, never wall
// time, so a starved rank only goes slower.
const loopGiveUp = 1 << 20

// spinAgain is a failed exit test of the loop ending at row j: it backs off as
// spinUntil does (spin, then yield, then nap) and reports whether to run the body
// again. A loop can never exit (LIVELOCK, SEMANTICS.md §5) when it keeps reading the
// same values while nothing else can change them: StallRounds tests in a row whose
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
		r.stall = stallWatch{}
	} else {
		r.same++
		if r.bodyAfterOthers {
			r.quiet++
		}
	}
	r.spins++
	slow := m.oversubscribed || r.spins >= spinsBeforeYield
	if r.quiet >= StallRounds || r.same >= loopGiveUp || slow && r.same > 0 && r.stall.stalled(m, r) {
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
	case r.spins < spinsBeforeYield+yieldRounds:
		runtime.Gosched()
	default:
		time.Sleep(napTime)
	}
	return true
}

// spinning describes the loops the ranks of a blocked run spin in ("" when the run
// is not blocked, or blocked in MPI calls only: a deadlock).
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
	return strings.Join(loops, "; ") + ": the loop reads the same values again and again, and nothing left can change them: it never exits"
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

func guard(r *rank, in *model.Instr) bool {
	return (r.regs[in.GuardReg] == r.val(in.GuardVal)) == in.GuardEq
}

func (r *rank) val(o model.Operand) int64 {
	if o.Reg < 0 {
		return o.Imm
	}
	return r.regs[o.Reg]
}

func (r *rank) set(reg int, v int64) {
	r.regs[reg] = v
	r.dirty |= 1 << uint(reg)
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

func encode(buf []byte, vals []int64) []byte {
	for _, v := range vals {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	return buf
}

// ----- the engine: MPI calls carried out by the model -----

// engine holds the model state of the synchronization objects and pending RMA
// operations. Memory and registers live outside it (on the machine, in the ranks)
// and are brought in for each step and written back after.
type engine struct {
	mu      spinLock
	version atomic.Int64 // counts the steps applied, so a blocked call waits for a change
	p       *model.Program
	m       *machine
	init    model.State
	s, tmp  model.State
	rng     *rand.Rand
	snap    []int64
}

func newEngine(p *model.Program, m *machine, seed int64) *engine {
	e := &engine{p: p, m: m, init: p.Initial(), rng: rand.New(rand.NewSource(seed))}
	e.s = e.init.Clone()
	e.tmp = make(model.State, len(e.s))
	e.snap = make([]int64, p.MemWords())
	return e
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
		done := e.try(r, j)
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
func (e *engine) try(r *rank, j int) bool {
	p := e.p
	e.syncIn(r)
	e.performSome(0.25)
	st := model.Step{Kind: model.StepExec, Proc: int8(r.id), Index: int8(j)}
	if p.InCall(e.s, r.id) == j {
		st.Kind = model.StepReturn
	} else if p.Choices(e.s, r.id, j) == 2 {
		st.Choice = int8(1 + e.rng.Intn(2))
	}
	if !e.apply(st) {
		e.performSome(1) // a blocked call waits for operations to be performed
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
		e.snap[i] = atomic.LoadInt64(e.m.word(i))
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
			atomic.StoreInt64(e.m.word(i), v)
		}
	}
	return true
}

// performSome performs each enabled pending operation with probability q.
func (e *engine) performSome(q float64) {
	for k := range e.p.Slots {
		if e.p.SlotPendingIn(e.s, k) && e.rng.Float64() < q {
			e.apply(model.Step{Kind: model.StepPerform, Index: int8(k)})
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
	e.performSome(0.25)
	e.mu.Unlock()
}

// drain performs what is still pending once every rank has finished, in random order.
func (e *engine) drain() {
	for progress := true; progress; {
		progress = false
		for _, k := range e.rng.Perm(len(e.p.Slots)) {
			if e.p.SlotPendingIn(e.s, k) && e.apply(model.Step{Kind: model.StepPerform, Index: int8(k)}) {
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

// spinLock is a test-and-test-and-set lock around one model step. A rank that waits
// for it spins on a load, and every 4096 spins (some microseconds, a few model steps:
// the holder is then likely off its CPU) yields its CPU to the OS (sched_yield)
// without going through the Go scheduler: parking a locked thread there costs more
// than the step it waits for (MP+fence ran 2-4 times slower that way). Yielding every
// 256 spins, shorter than one step, made the yield syscall 20% of MP+fence's time.
type spinLock struct{ state atomic.Int32 }

func (l *spinLock) Lock() {
	for spins := 0; !l.state.CompareAndSwap(0, 1); {
		// Test before test-and-set: spinning on a load leaves the line shared, so the
		// holder's unlock does not wait for it.
		for ; l.state.Load() != 0; spins++ {
			if spins&4095 == 4095 {
				yield()
			}
		}
	}
}

func (l *spinLock) Unlock() { l.state.Store(0) }
