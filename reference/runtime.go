// Package reference runs a compiled litmus program on real shared memory: one OS
// thread per rank, plain loads and stores as plain machine instructions (so the
// processor's memory model shows), and every MPI call carried out by the model's
// own step function under a lock, with the choices the semantics leaves open (when
// a pending operation is performed, in which order, which shared_query answer)
// made at random from a seed. Only what the chosen semantics allows can happen.
package reference

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

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
	// StallRounds decides when a run is blocked, by counting steps, never wall time:
	// when every rank has looked at least StallRounds times at what it waits for,
	// found it unchanged, and no rank made a step in between, no rank can ever move
	// again. A rank that is off its CPU (a loaded machine) looks no more, so a starved
	// run goes slowly but is never called blocked. 0: DefaultStallRounds.
	StallRounds int
	// SpinLimit bounds the failed exit tests in a row of one loop in one iteration; a
	// loop past it stops the run with a *SpinError (0: SpinLimitPlain, or
	// SpinLimitMPI for a body that calls MPI).
	SpinLimit int
	// Batch is the number of iterations the ranks run between two meetings, each on
	// its own copy of the test (batch.go; 0: DefaultBatch, fewer when the copies
	// would not fit batchBytes or there are fewer runs). 1 meets at every iteration.
	Batch int
	// countFirst (tests) counts, for each rank, the iterations it began before every
	// other rank (Result.first).
	countFirst bool
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
	Batch   int           // iterations a batch (Options.Batch as the run chose it)
	// behind: iterations a rank began later than its time in the batch (off its
	// CPU, or the period too short), summed over the ranks; first: iterations each
	// rank began first (Options.countFirst only).
	behind int
	first  []int
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

// Run executes the program opt.Runs times and returns the histogram of outcomes.
func Run(p *model.Program, opt Options) (*Result, error) {
	if p.NProcs > runtime.NumCPU()*4 {
		return nil, fmt.Errorf("%d processes on %d CPUs: too many for spinning threads", p.NProcs, runtime.NumCPU())
	}
	// Elapsed is the whole run's, set-up included, as an MPI target's is its launch's.
	start := time.Now()
	m := newMachine(p, opt)
	if runtime.GOMAXPROCS(0) < p.NProcs {
		old := runtime.GOMAXPROCS(p.NProcs)
		defer runtime.GOMAXPROCS(old)
	}
	h := &histogram{index: map[string]int{}}
	st := &batchStats{first: make([]int, len(m.procs))}
	wait := make([]time.Duration, len(m.procs))
	var wg sync.WaitGroup
	for i := range m.procs {
		wg.Add(1)
		go func(r *rank) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w0 := threadRunWait()
			m.loop(r, opt, h, st)
			wait[r.id] = threadRunWait() - w0
		}(m.procs[i])
	}
	wg.Wait()
	if e := m.spinError(); e != nil {
		return nil, e
	}
	if m.stuck.Load() {
		return nil, fmt.Errorf("the program blocks: every rank waits for another and none can make a step (a deadlock)")
	}
	res := &Result{Runs: opt.Runs, Elapsed: time.Since(start), Seed: opt.Seed, Procs: len(m.procs), Batch: m.batch,
		behind: st.behind, first: st.first}
	for _, w := range wait {
		res.RunWait += w
	}
	for i, vals := range h.values {
		res.Bins = append(res.Bins, Bin{Values: vals, Count: h.counts[i]})
	}
	slices.SortFunc(res.Bins, func(a, b Bin) int { return slices.Compare(a.Values, b.Values) })
	return res, nil
}
