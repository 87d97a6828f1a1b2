package explorer

import (
	"sync"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Cache shares searches between the jobs of one run. The presets of a test often
// compile alike (model.Program.Fingerprint; a lock_all program does not care
// whether fence_ls is on), more often still when the concurrency checks are left
// out (a tso or sc search, whose pair flags come from the relaxed model), and the
// tso and sc jobs of one preset need the same relaxed pair search: each is run once.
// Entries belong to a test and are dropped with Forget when its jobs are done, so a
// long run holds only the tests in flight. A Cache is safe for concurrent use; the
// zero value is ready. Each test has a lock of its own (perTest): the workers of a
// run are on different tests (Stream), and comparing programs (SameBehaviour)
// under one lock for all made them wait for each other.
type Cache struct {
	mu    sync.Mutex
	tests map[*litmus.Test]*perTest
	// relaxed: the (test, semantics) whose relaxed job is part of the run (Plan):
	// their tso and sc jobs take the pairs from its full search.
	relaxed map[relaxedKey]bool
	// Searches and Shared count the searches run and those served by another's,
	// States the states the searches run stored; Compiles the programs compiled
	// (the others are shared: Cache.compile).
	Searches, Shared, States, Compiles int
}

// perTest is what the cache holds of one test, under its own lock.
type perTest struct {
	mu       sync.Mutex
	searches map[string][]*cached
	programs []compiled
}

// of returns the test's entry, made when missing.
func (c *Cache) of(t *litmus.Test) *perTest {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tests == nil {
		c.tests = map[*litmus.Test]*perTest{}
	}
	pt := c.tests[t]
	if pt == nil {
		pt = &perTest{searches: map[string][]*cached{}}
		c.tests[t] = pt
	}
	return pt
}

type relaxedKey struct {
	t   *litmus.Test
	sem spec.Semantics
}

type cached struct {
	p    *model.Program
	same func(p, q *model.Program) bool
	done chan struct{}
	r    *Result
	err  error
}

// Plan tells the cache which jobs a run has: a tso or sc job whose relaxed job is
// among them takes its pair flags from that job's search; the others run a
// smaller search for the pairs alone (model.ForgetValues).
func (c *Cache) Plan(jobs []Job) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.relaxed == nil {
		c.relaxed = map[relaxedKey]bool{}
	}
	for _, j := range jobs {
		if j.HW == spec.Relaxed {
			c.relaxed[relaxedKey{j.Test, j.Sem}] = true
		}
	}
}

// get returns the result of search for a program that behaves as p by same, under
// key; a concurrent caller waits for the first.
func (c *Cache) get(t *litmus.Test, key string, p *model.Program, same func(p, q *model.Program) bool, search func() (*Result, error)) (*Result, error) {
	if c == nil {
		return search()
	}
	pt := c.of(t)
	pt.mu.Lock()
	for _, e := range pt.searches[key] {
		if same(e.p, p) {
			pt.mu.Unlock()
			c.count(&c.Shared)
			<-e.done
			return e.r, e.err
		}
	}
	e := &cached{p: p, same: same, done: make(chan struct{})}
	pt.searches[key] = append(pt.searches[key], e)
	pt.mu.Unlock()
	c.count(&c.Searches)
	e.r, e.err = search()
	if e.r != nil {
		c.add(&c.States, e.r.States)
	}
	close(e.done)
	return e.r, e.err
}

// Forget drops the searches of a test.
func (c *Cache) Forget(t *litmus.Test) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.tests, t)
	c.mu.Unlock()
}

// count adds one to a counter of c.
func (c *Cache) count(n *int) { c.add(n, 1) }

// add adds k to one of the cache's counters.
func (c *Cache) add(n *int, k int) {
	c.mu.Lock()
	*n += k
	c.mu.Unlock()
}

// explore is Explore through the cache.
func (c *Cache) explore(t *litmus.Test, p *model.Program, opt Options) (*Result, error) {
	return c.get(t, "full|"+p.Fingerprint(), p, (*model.Program).SameBehaviour, func() (*Result, error) { return Explore(p, opt) })
}

// exploreExecutions is Explore without the concurrency checks, through the cache.
func (c *Cache) exploreExecutions(t *litmus.Test, p *model.Program, opt Options) (*Result, error) {
	opt.NoConflicts = true
	return c.get(t, "exec|"+p.ExecutionsFingerprint(), p, (*model.Program).SameExecutions, func() (*Result, error) { return Explore(p, opt) })
}

// pairSearch is the relaxed search a tso or sc job takes its pair flags from, and
// the program their traces replay on (the full relaxed one, also when the search
// forgot values).
type pairSearch struct {
	r      *Result
	replay *model.Program
}

// pairs runs (or shares) the relaxed search of a tso or sc job's pair flags: the
// full one when the run has the relaxed job too, else one that forgets values
// when the program's control reads none (model.Program.WithoutValues); none (nil)
// when the relaxed program has no pair to check.
func (c *Cache) pairs(j Job, opts []model.Option, opt Options) (*pairSearch, error) {
	rel, err := c.compile(j, spec.Relaxed, opts)
	if err != nil || !rel.HasConflictChecks() {
		return nil, err
	}
	search := rel
	full := false // no cache: no relaxed search to share
	if c != nil {
		c.mu.Lock()
		full = c.relaxed[relaxedKey{j.Test, j.Sem}]
		c.mu.Unlock()
	}
	if abs := rel.WithoutValues(); !full && abs != nil {
		search = abs
	}
	r, err := c.explore(j.Test, search, opt)
	if err != nil {
		return nil, err
	}
	return &pairSearch{r: r, replay: rel}, nil
}

// compiled is a program the run compiled for a test (under one hw and Exploit).
type compiled struct {
	hw      spec.HW
	exploit bool
	p       *model.Program
}

// compile is model.Compile, shared by the jobs of a test: a program serves every
// semantics that agrees with its own on the switches it read (model.Program.Under;
// on sc and tso, the switches that widen MB scopes aside: ExecutionsUnder), so the
// four presets of a test often compile once or twice, and a tso job and the
// relaxed job of its preset share the relaxed program.
func (c *Cache) compile(j Job, hw spec.HW, opts []model.Option) (*model.Program, error) {
	if c == nil {
		return model.Compile(j.Test, j.Sem, hw, opts...)
	}
	pt := c.of(j.Test)
	pt.mu.Lock()
	for _, e := range pt.programs {
		if e.hw == hw && e.exploit == j.Exploit {
			if p := e.p.ExecutionsUnder(j.Sem); p != nil {
				pt.mu.Unlock()
				return p, nil
			}
		}
	}
	pt.mu.Unlock()
	p, err := model.Compile(j.Test, j.Sem, hw, opts...)
	if err != nil {
		return nil, err
	}
	pt.mu.Lock()
	pt.programs = append(pt.programs, compiled{hw, j.Exploit, p})
	pt.mu.Unlock()
	c.count(&c.Compiles)
	return p, nil
}
