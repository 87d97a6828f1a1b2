package explorer

import (
	"sync"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/model"
)

// levelBlock is how many states of a level a worker expands at a time: enough to
// make handing out blocks cheap, few enough that the merge keeps up.
const levelBlock = 128

// pending is a successor a worker found that the visited set did not hold: the
// merge stores it, unless an earlier block found it too.
type pending struct {
	parent int32
	step   uint32
	hash   uint64
}

// blockOut is what a worker found expanding one block: the successors not yet
// stored, their bytes one after the other.
type blockOut struct {
	states []byte
	meta   []pending
}

var blockPool = sync.Pool{New: func() any { return &blockOut{} }}

// expandLevel expands the states lo..hi-1 with the workers, a block at a time;
// this goroutine merges the blocks' successors into the visited set in block
// order, so that states are numbered as a sequential search numbers them. At most
// a few blocks per worker wait for the merge: memory stays bounded however large
// the level.
func (e *search) expandLevel(workers []*worker, lo, hi int) {
	nb := (hi - lo + levelBlock - 1) / levelBlock
	results := make([]chan *blockOut, nb)
	for i := range results {
		results[i] = make(chan *blockOut, 1)
	}
	tokens := make(chan struct{}, 4*len(workers)) // blocks claimed and not yet merged
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				tokens <- struct{}{}
				b := int(next.Add(1) - 1)
				if b >= nb {
					<-tokens
					return
				}
				results[b] <- e.expandBlock(w, lo+b*levelBlock, min(lo+(b+1)*levelBlock, hi))
			}
		}()
	}
	width := e.p.StateSize()
	for _, ch := range results {
		out := <-ch
		for i, m := range out.meta {
			if e.stop.Load() == nil {
				e.mergeState(out.states[i*width:(i+1)*width], int(m.parent), m.step, m.hash)
			}
		}
		out.states, out.meta = out.states[:0], out.meta[:0]
		blockPool.Put(out)
		<-tokens
	}
	wg.Wait()
}

// expandBlock expands states lo..hi-1, keeping the successors the visited set
// does not hold yet (the merge looks again: another block may have stored them).
func (e *search) expandBlock(w *worker, lo, hi int) *blockOut {
	out := blockPool.Get().(*blockOut)
	for idx := lo; idx < hi && e.stop.Load() == nil; idx++ {
		e.expand(w, idx, func(st model.Step, next model.State) {
			h, known := e.stored(w, next, idx)
			if known {
				return
			}
			out.states = append(out.states, next...)
			out.meta = append(out.meta, pending{parent: int32(idx), step: st.Encode(), hash: h})
		})
	}
	return out
}

// cpus are the CPUs of a run (Stream) that no goroutine of it is using: each of
// Stream's workers holds one while it has jobs, and a search expands a large
// level with more goroutines only when some are free. A level split while every
// CPU is busy with another search is done no sooner and costs more CPU (each
// successor is hashed and looked up twice, once by its worker and once by the
// merge: 16% more for the plain family's largest test), so a run of many tests
// splits only its last searches, when workers have run out of jobs. The zero
// value has none free.
type cpus struct{ free atomic.Int64 }

// take takes up to n free CPUs and returns how many it took.
func (c *cpus) take(n int) int {
	for {
		f := c.free.Load()
		k := min(f, int64(n))
		if k <= 0 {
			return 0
		}
		if c.free.CompareAndSwap(f, f-k) {
			return int(k)
		}
	}
}

// give returns n CPUs taken.
func (c *cpus) give(n int) { c.free.Add(int64(n)) }

// helpers is how many goroutines besides its own a search takes to expand a level
// of n states: none below parallelLevel, else up to Options.Workers - 1, as many
// as the run has CPUs free (any number when the search is not part of a run).
// The caller gives them back (Options.cpus.give) when the level is done.
func (e *search) helpers(n int) int {
	if e.opt.Workers <= 1 || n < e.parallelLevel() {
		return 0
	}
	if e.opt.cpus == nil {
		return e.opt.Workers - 1
	}
	return e.opt.cpus.take(e.opt.Workers - 1)
}

// release gives back the helpers of a level.
func (e *search) release(helpers int) {
	if e.opt.cpus != nil {
		e.opt.cpus.give(helpers)
	}
}
