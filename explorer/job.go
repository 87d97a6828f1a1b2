package explorer

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Job is one search: a test under one semantics and one hardware model.
type Job struct {
	Test *litmus.Test
	Sem  spec.Semantics
	HW   spec.HW
	// Exploit: the model acts on the test's assertions (model.ExploitAssertions);
	// expect lines describe the default mode and are not checked then.
	Exploit bool
}

// JobsFor lists the searches of a test: each semantics under each of hws, or, when
// none is given, under relaxed and every hw model the test's expect lines name.
func JobsFor(t *litmus.Test, sems []spec.Semantics, hws ...spec.HW) []Job {
	if len(hws) == 0 {
		hws = []spec.HW{spec.Relaxed}
		for _, e := range t.Expects {
			if !slices.Contains(hws, e.HW) {
				hws = append(hws, e.HW)
			}
		}
	}
	var jobs []Job
	for _, h := range hws {
		for _, s := range sems {
			jobs = append(jobs, Job{Test: t, Sem: s, HW: h})
		}
	}
	return jobs
}

// JobResult is the result of a Job, or why there is none.
type JobResult struct {
	Job
	Result *Result
	Err    error
	// Expect is the expectation of the test's expect lines for this preset and hw,
	// when there is one.
	Expect *litmus.ExpectItem
}

// ExpectStatus says whether the expectation was met.
func (jr *JobResult) ExpectStatus() litmus.ExpectStatus {
	switch {
	case jr.Expect == nil:
		return litmus.NoExpect
	case jr.Result != nil && jr.Result.Meets(*jr.Expect):
		return litmus.ExpectMet
	}
	return litmus.ExpectBroken
}

// Run compiles and explores one job.
func (j Job) Run(opt Options) JobResult {
	jr := JobResult{Job: j}
	var opts []model.Option
	if opt.ABI.Name != "" {
		opts = append(opts, model.WithABI(opt.ABI))
	}
	switch {
	case j.Exploit:
		opts = append(opts, model.ExploitAssertions())
	case opt.ABI.Name != "" && opt.ABI.Name != model.X8664.Name:
		// expect lines describe the default ABI, x86-64
	default:
		jr.Expect = FindExpect(j.Test, j.Sem, j.HW)
	}
	hwOpts := opts
	if j.HW != spec.Relaxed {
		// tso and sc: the search runs without the concurrency checks, and the
		// conflict and race flags come from the relaxed model's (docs/semantics.md#concurrency);
		// its program has no pairs to keep visible (model.WithoutPairChecks)
		hwOpts = append(slices.Clip(opts), model.WithoutPairChecks())
	}
	p, err := opt.Cache.compile(j, j.HW, hwOpts)
	if err != nil {
		jr.Err = err
		return jr
	}
	if j.HW == spec.Relaxed {
		r, err := opt.Cache.explore(j.Test, p, opt)
		if err != nil {
			jr.Err = err
			return jr
		}
		jr.Result = r.of(p)
		return jr
	}
	own, err := opt.Cache.exploreExecutions(j.Test, p, opt)
	if err != nil {
		jr.Err = err
		return jr
	}
	pairs, err := opt.Cache.pairs(j, opts, opt)
	if err != nil {
		jr.Err = err
		return jr
	}
	jr.Result = withRelaxedPairs(own.of(p), pairs)
	return jr
}

// of is a shared result as the result of p, a program with its executions (the
// search may have run on another preset's program): its witnesses replay on p.
func (r *Result) of(p *model.Program) *Result {
	if r.Program == p {
		return r
	}
	c := *r
	c.Program = p
	c.Outcomes = slices.Clone(r.Outcomes)
	for i := range c.Outcomes {
		c.Outcomes[i].Witness.Program, c.Outcomes[i].Replay = p, &Replay{}
	}
	c.Flags = slices.Clone(r.Flags)
	for i := range c.Flags {
		if w := &c.Flags[i].Witness; w.Program == r.Program {
			w.Program, c.Flags[i].Replay = p, &Replay{}
		}
	}
	return &c
}

// withRelaxedPairs is a tso or sc result with the conflict and race flags of the
// relaxed model's. Concurrency is a property of the MPI program (docs/semantics.md#concurrency),
// not of the hardware: sc and tso also order plain accesses around a barrier, which
// MPI does not, so their own executions would hide races. The relaxed search is
// part of the verdict's cost: PairTime and PairStates say it. Neither search's
// result is changed (a cache may share them).
func withRelaxedPairs(own *Result, pairs *pairSearch) *Result {
	if pairs == nil {
		return own // the relaxed program has no pair to check
	}
	r := *own // own may be shared: r is a copy
	r.Flags = nil
	for _, f := range own.Flags {
		if !f.Pair {
			r.Flags = append(r.Flags, f)
		}
	}
	for _, f := range pairs.r.Flags {
		if f.Pair {
			f.Witness.Program, f.Replay = pairs.replay, &Replay{}
			r.Flags = append(r.Flags, f)
		}
	}
	sortFlags(r.Flags)
	r.PairTime, r.PairStates = pairs.r.Time, pairs.r.States
	return &r
}

// FindExpect returns the expect item for a semantics and hw model (nil when none):
// the item of sem's preset on a line whose switches (docs/language.md#expect-lines), applied to
// that preset, give sem's switches. A semantics with other switches changed has none.
func FindExpect(t *litmus.Test, sem spec.Semantics, hw spec.HW) *litmus.ExpectItem {
	for _, e := range t.Expects {
		if e.HW != hw {
			continue
		}
		for i := range e.Items {
			if es, err := e.Semantics(e.Items[i]); err == nil && es.Preset == sem.Preset && es.Switches == sem.Switches {
				return &e.Items[i]
			}
		}
	}
	return nil
}

// RunAll runs jobs on workers goroutines (0: one per CPU) and returns the results
// in the order of jobs.
func RunAll(jobs []Job, workers int, opt Options) []JobResult {
	results := make([]JobResult, len(jobs))
	Stream(jobs, workers, opt, func(i int, jr *JobResult) { results[i] = *jr })
	return results
}

// Stream runs jobs on workers goroutines (0: one per CPU) and hands each result to
// deliver in the order of jobs, as soon as it and every earlier one are done: a
// caller can print a long run as it goes and keep nothing it has printed. deliver
// runs on one goroutine at a time, the caller's, and no worker waits for it.
//
// The jobs share searches (Cache) unless opt.Cache is set by the caller; a test's
// searches are dropped once its last job is delivered. Which worker runs which job
// is the queue's choice (see queue): the output does not depend on it.
func Stream(jobs []Job, workers int, opt Options, deliver func(i int, jr *JobResult)) {
	if workers <= 0 {
		// GOMAXPROCS, not NumCPU: the CPUs this process may use (Go counts a
		// cgroup's CPU quota in it), where NumCPU counts the whole machine's.
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Cache == nil {
		opt.Cache = &Cache{}
	}
	opt.Cache.Plan(jobs)
	left := map[*litmus.Test]int{} // jobs of each test not yet delivered
	for _, j := range jobs {
		left[j.Test]++
	}
	first := workers // the largest tests, one a worker, start first
	if workers == 1 {
		first = 0 // one worker ends when the work does, in any order: keep the file order
	}
	q := newQueue(jobs, first)
	results := make([]JobResult, len(jobs))
	// finished has room for every job: a worker hands a result over and goes on
	// to its next job while the caller prints (a worker blocked on the printer
	// left its CPU idle).
	finished := make(chan int, len(jobs))
	// The collector is left as it is (GOGC 100; LimitHeap sets a memory limit
	// under an address-space or cgroup limit only): over bench/generated it takes
	// about 3% of the CPU at -j 1 and -j 2 alike (20 cycles; the live heap, 22 MB,
	// is mostly the parsed tests), and GOGC=400 at -j 2 took no less CPU (2.08 s
	// against 2.00) for twice the peak memory (143 MiB against 69).
	//
	// Each worker holds a CPU while it has jobs, and gives it to the searches
	// still running when it has none: the last large searches of a run split
	// their levels over the CPUs the finished workers left.
	started := min(workers, len(jobs))
	opt.cpus = &cpus{}
	opt.cpus.give(workers - started)
	for range started {
		go func() {
			defer opt.cpus.give(1)
			own := -1
			for i, ok := q.claim(&own); ok; i, ok = q.claim(&own) {
				results[i] = runSafely(jobs[i], opt)
				finished <- i
			}
		}()
	}
	ready := make([]bool, len(jobs))
	turn := 0
	for n := range jobs {
		ready[<-finished] = true
		if n == len(jobs)-1 {
			trimBlocks() // every search is over: what is left is printing
		}
		for turn < len(jobs) && ready[turn] {
			deliver(turn, &results[turn])
			results[turn] = JobResult{} // delivered: kept no longer
			t := jobs[turn].Test
			if left[t]--; left[t] == 0 {
				opt.Cache.Forget(t)
			}
			turn++
		}
	}
}

// queue hands out the jobs of a Stream. The jobs of one test share searches
// (Cache): two workers on one test would often run a search and wait for it, one
// idle. So a worker keeps to one test's jobs, in order, and takes the next test
// not yet started when they are all taken; only when every test has started does
// it help another test, taking the next untaken job of the test with the most
// left. A run of many tests thus shares without waiting, and one test's searches
// (run FILE) still spread over the workers. The next job rather than the last:
// mpi-3.0 and B share their search on nearly every test (all of the plain family's
// 1,000, 1,932 of bench/generated's 1,980), and from the back a helper took B while
// the owner ran mpi-3.0 and waited for it, where A, next after mpi-3.0, is the
// preset that shares least.
//
// The tests start in the order of jobs, except that the few that look largest
// (first of them, by interleavings) start before the others: a run whose largest
// test came last ended with one worker on it and the others idle, or splitting
// its levels at little gain (parallel.go). The plain family's WRC+plain0815, test
// 978 of 1,000, takes 1.4 s of its four presets' searches against 3-5 ms for most
// tests; started first, it runs beside the rest. Results are still delivered in
// the order of jobs: those of the tests after a large one wait for it.
type queue struct {
	mu      sync.Mutex
	tests   []span // per test, in the order of jobs: its untaken jobs
	order   []int  // the tests in the order they start (indexes into tests)
	started int    // tests handed out: order[:started]
}

// span is the untaken jobs next..end-1 of one test.
type span struct{ next, end int }

// newQueue is the queue of jobs for a run whose first tests to start are the
// first largest ones (by interleavings; on a tie, the earlier).
func newQueue(jobs []Job, first int) *queue {
	q := &queue{}
	var size []interleaving
	for i, j := range jobs {
		if i == 0 || j.Test != jobs[i-1].Test {
			q.tests = append(q.tests, span{i, i})
			size = append(size, interleavings(j.Test))
		}
		q.tests[len(q.tests)-1].end = i + 1
	}
	early := make([]bool, len(q.tests))
	for range min(max(first, 0), len(q.tests)) {
		best := -1
		for k := range q.tests {
			if !early[k] && (best < 0 || size[best].less(size[k])) {
				best = k
			}
		}
		early[best] = true
		q.order = append(q.order, best)
	}
	for k := range q.tests {
		if !early[k] {
			q.order = append(q.order, k)
		}
	}
	return q
}

// interleavings is the number of ways to interleave the processes'
// instructions, n! / (n_1! ... n_p!) for n_i instructions of process i and n their
// sum: a guess at the size of a test's searches, made before compiling it. It is
// rough (the model's performs, reductions and loops count too) but ranks the
// largest apart: over the plain family it puts WRC+plain0815 (1.4 s) first and
// IRIW+plain0239 (0.35 s) second, of 1,000 tests of 3-5 ms. It is computed for
// every test before the first starts, so it is cheap: exact in 64 bits (equal
// counts tie), and a log-gamma sum only when the computation passes them.
func interleavings(t *litmus.Test) interleaving {
	counts := instrCounts(t)
	r, total := uint64(1), uint64(0)
	for _, n := range counts {
		for i := uint64(1); i <= uint64(n); i++ {
			total++
			hi, lo := bits.Mul64(r, total)
			if hi != 0 {
				return interleaving{big: true, log: logMultinomial(counts)}
			}
			r = lo / i // r stays a multinomial, so i divides r * total
		}
	}
	return interleaving{n: r}
}

// instrCounts is the number of instructions of each process of t.
func instrCounts(t *litmus.Test) []int {
	counts := make([]int, len(t.Procs))
	for k, p := range t.Procs {
		for _, in := range p.Code {
			if in != nil {
				counts[k]++
			}
		}
	}
	return counts
}

// interleaving is a count of interleavings: n, or when its computation passes 64
// bits its natural log.
type interleaving struct {
	big bool
	n   uint64
	log float64
}

func (a interleaving) less(b interleaving) bool {
	if !a.big && !b.big {
		return a.n < b.n
	}
	return a.ln() < b.ln()
}

func (a interleaving) ln() float64 {
	if a.big {
		return a.log
	}
	return math.Log(float64(a.n))
}

// logMultinomial is the natural log of (sum of counts)! / (counts[0]! ...).
func logMultinomial(counts []int) float64 {
	total, sum := 0, 0.0
	for _, n := range counts {
		total += n
		sum -= lgamma(n + 1)
	}
	return sum + lgamma(total+1)
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// claim returns the next job for a worker whose test is tests[*own] (-1: none
// yet), and false when no job is left.
func (q *queue) claim(own *int) (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if *own >= 0 {
		if s := &q.tests[*own]; s.next < s.end {
			s.next++
			return s.next - 1, true
		}
	}
	if q.started < len(q.order) {
		*own = q.order[q.started]
		q.started++
		s := &q.tests[*own]
		s.next++
		return s.next - 1, true
	}
	most := -1
	for k, s := range q.tests {
		if s.next < s.end && (most < 0 || s.end-s.next > q.tests[most].end-q.tests[most].next) {
			most = k
		}
	}
	if most < 0 {
		return 0, false
	}
	q.tests[most].next++
	return q.tests[most].next - 1, true
}

// runSafely turns a panic of the model into an error for that job alone: one
// broken test must not take down a run over a whole corpus.
func runSafely(j Job, opt Options) (jr JobResult) {
	defer func() {
		if r := recover(); r != nil {
			jr = JobResult{Job: j, Err: fmt.Errorf("%s: internal error in the model: %v", j.Test.Name, r)}
		}
	}()
	return j.Run(opt)
}
