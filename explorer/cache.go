package explorer

import (
	"sync"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
)

// Cache shares searches between the jobs of one run: a search whose program has the
// fingerprint of one already run (model.Program.Fingerprint: the presets of a test
// often compile alike, and a tso and an sc job of one preset need the same relaxed
// search for their pair flags) is run once. Entries belong to a test and are
// dropped with Forget when its jobs are done, so a long run holds only the tests
// in flight. A Cache is safe for concurrent use; the zero value is ready.
type Cache struct {
	mu    sync.Mutex
	tests map[*litmus.Test]map[string][]*cached
	// Searches and Shared count the searches run and those served by another's.
	Searches, Shared int
}

type cached struct {
	progs []*model.Program // what the search is for (SameBehaviour decides a match)
	done  chan struct{}
	r     *Result
	err   error
}

// get returns the result for programs that behave as progs (one, or a tso program
// and the relaxed one its pairs come from), computing it with search the first
// time; a concurrent caller waits for the first.
func (c *Cache) get(t *litmus.Test, progs []*model.Program, search func() (*Result, error)) (*Result, error) {
	if c == nil {
		return search()
	}
	var key string
	for _, p := range progs {
		key += p.Fingerprint() + "|"
	}
	c.mu.Lock()
	if c.tests == nil {
		c.tests = map[*litmus.Test]map[string][]*cached{}
	}
	m := c.tests[t]
	if m == nil {
		m = map[string][]*cached{}
		c.tests[t] = m
	}
	for _, e := range m[key] {
		if sameBehaviour(e.progs, progs) {
			c.Shared++
			c.mu.Unlock()
			<-e.done
			return e.r, e.err
		}
	}
	e := &cached{progs: progs, done: make(chan struct{})}
	m[key] = append(m[key], e)
	c.Searches++
	c.mu.Unlock()
	e.r, e.err = search()
	close(e.done)
	return e.r, e.err
}

func sameBehaviour(a, b []*model.Program) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].SameBehaviour(b[i]) {
			return false
		}
	}
	return true
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

// explore is Explore through the cache.
func (c *Cache) explore(t *litmus.Test, p *model.Program, opt Options) (*Result, error) {
	return c.get(t, []*model.Program{p}, func() (*Result, error) { return Explore(p, opt) })
}
