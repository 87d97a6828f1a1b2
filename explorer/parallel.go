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
				e.insert(out.states[i*width:(i+1)*width], int(m.parent), m.step, m.hash)
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
			h := e.seen.hash(next)
			if e.seen.contains(next, h) {
				return
			}
			out.states = append(out.states, next...)
			out.meta = append(out.meta, pending{parent: int32(idx), step: st.Encode(), hash: h})
		})
	}
	return out
}
