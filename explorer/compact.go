package explorer

import (
	"encoding/binary"

	"github.com/rmacheck/rmacheck/model"
)

// compact stores states by collapse compression (model.StateParts): each part of a
// state (a process's, a window's, the rest) is interned once in a table of its
// own, and the visited set stores the tuple of the parts' indices, 4 bytes a part.
// Equal states have equal tuples and unequal ones unequal tuples (a part's index
// names its bytes exactly), so the visited set, its hash and its equality work on
// the tuples unchanged, and the search is as exact as with whole states. A step
// changes one or two parts: encode compares each part with its parent's and
// interns only those that differ.
//
// One goroutine encodes (the search, or the merge of a parallel level); workers
// may find (lookup, read-only) and decode at the same time: the part tables are
// visited sets, one writer and lock-free readers.
type compact struct {
	parts  [][]model.Span
	sizes  []int      // bytes of each part
	tables []*visited // per part: its distinct contents
	width  int        // bytes of a whole state
}

func newCompact(p *model.Program, budget *Budget) *compact {
	c := &compact{parts: p.StateParts(), width: p.StateSize()}
	for _, part := range c.parts {
		n := 0
		for _, sp := range part {
			n += sp.Len
		}
		c.sizes = append(c.sizes, n)
		c.tables = append(c.tables, newVisited(n, budget))
	}
	return c
}

// tupleWidth is the bytes of an encoded state.
func (c *compact) tupleWidth() int { return 4 * len(c.parts) }

// quiesce ends a level: no reader probes the part tables' replaced tables (nil: none).
func (c *compact) quiesce() {
	if c == nil {
		return
	}
	for _, t := range c.tables {
		t.quiesce()
	}
}

// release gives the part tables back.
func (c *compact) release() {
	for _, t := range c.tables {
		t.release()
	}
}

// bytes is the memory the part tables hold (nil: none).
func (c *compact) bytes() int {
	if c == nil {
		return 0
	}
	n := 0
	for _, t := range c.tables {
		n += t.bytes()
	}
	return n
}

// gather copies part k of state s into buf (len sizes[k]).
func (c *compact) gather(s []byte, k int, buf []byte) []byte {
	buf = buf[:0]
	for _, sp := range c.parts[k] {
		buf = append(buf, s[sp.Off:sp.Off+sp.Len]...)
	}
	return buf
}

// samePart: part k of s equals part k of t.
func (c *compact) samePart(s, t []byte, k int) bool {
	for _, sp := range c.parts[k] {
		if string(s[sp.Off:sp.Off+sp.Len]) != string(t[sp.Off:sp.Off+sp.Len]) {
			return false
		}
	}
	return true
}

// encode writes s's tuple into out (len tupleWidth), interning the parts not yet
// stored; parent and parentTuple, when parent is not nil, are a state and its
// tuple whose equal parts s takes without a lookup. It fails when the memory
// budget cannot cover a part table's growth.
func (c *compact) encode(s, parent, parentTuple, out, buf []byte) error {
	for k := range c.parts {
		if parent != nil && c.samePart(s, parent, k) {
			copy(out[4*k:4*k+4], parentTuple[4*k:4*k+4])
			continue
		}
		buf = c.gather(s, k, buf)
		idx, _, err := c.tables[k].insert(buf, 0, 0)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint32(out[4*k:], uint32(idx))
	}
	return nil
}

// lookup is encode without interning, for the workers of a parallel level: false
// when some part of s is not stored yet (s is then new).
func (c *compact) lookup(s, parent, parentTuple, out, buf []byte) bool {
	for k := range c.parts {
		if parent != nil && c.samePart(s, parent, k) {
			copy(out[4*k:4*k+4], parentTuple[4*k:4*k+4])
			continue
		}
		buf = c.gather(s, k, buf)
		idx := c.tables[k].index(buf, c.tables[k].hash(buf))
		if idx < 0 {
			return false
		}
		binary.LittleEndian.PutUint32(out[4*k:], uint32(idx))
	}
	return true
}

// decode writes the state of tuple into out (len width), whose block of zeros
// (model.Program.ZeroBlock) is zero already: no part covers it.
func (c *compact) decode(tuple, out []byte) {
	for k, part := range c.parts {
		b := c.tables[k].state(int(binary.LittleEndian.Uint32(tuple[4*k:])))
		for _, sp := range part {
			copy(out[sp.Off:sp.Off+sp.Len], b[:sp.Len])
			b = b[sp.Len:]
		}
	}
}

// load is state idx as the search expands it: the stored bytes themselves (they
// never move), or its tuple decoded into the worker's buffer.
func (e *search) load(w *worker, idx int) model.State {
	if e.parts == nil {
		return model.State(e.seen.state(idx))
	}
	e.parts.decode(e.seen.state(idx), w.cur)
	return w.cur
}

// storeState stores a state reached from state parent (-1: the initial state) by
// step, stopping the search at the state or memory bound; cur, when not nil, is
// parent's state decoded, whose parts the new state's encoding may take as they are.
func (e *search) storeState(w *worker, next model.State, parent int, step uint32, cur model.State) error {
	if e.parts == nil {
		return e.insert(next, parent, step, e.seen.hash(next))
	}
	var parentTuple []byte
	if cur != nil {
		parentTuple = e.seen.state(parent)
	}
	if err := e.parts.encode(next, cur, parentTuple, w.tuple, w.part); err != nil {
		e.halt(err)
		return err
	}
	return e.insert(w.tuple, parent, step, e.seen.hash(w.tuple))
}

// stored is, for a worker of a parallel level, whether a successor of state idx
// (decoded in w.cur) is stored already, and its hash (of the state, or of its
// tuple) when it might not be.
func (e *search) stored(w *worker, next model.State, idx int) (uint64, bool) {
	if e.parts == nil {
		h := e.seen.hash(next)
		return h, e.seen.contains(next, h)
	}
	if !e.parts.lookup(next, w.cur, e.seen.state(idx), w.tuple, w.part) {
		return 0, false // a part never stored: a new state
	}
	h := e.seen.hash(w.tuple)
	return h, e.seen.contains(w.tuple, h)
}

// mergeState is the merge of a parallel level storing a worker's successor: the
// merge's goroutine encodes it, with buffers of its own.
func (e *search) mergeState(next []byte, parent int, step uint32, hash uint64) {
	if e.parts == nil {
		e.insert(next, parent, step, hash)
		return
	}
	if e.merger == nil {
		e.merger = e.newWorker()
	}
	e.storeState(e.merger, next, parent, step, nil)
}
