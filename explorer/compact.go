package explorer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/rmacheck/rmacheck/model"
)

// compact stores states by collapse compression (model.StateParts), in two
// levels: each part of a state (a process's, a window's, the rest) is interned
// once in a table of its own; the parts are grouped (about the square root of
// their number a group), and each group's tuple of part indices is interned once
// too; the visited set stores the tuple of the groups' indices, 4 bytes a group
// (16 bytes for 12 processes, against 56 with one level and about 200 for the
// whole state). Equal states have equal tuples and unequal ones unequal tuples (an
// index names its bytes exactly, at both levels), so the visited set, its hash
// and its equality work on the tuples unchanged, and the search is as exact as
// with whole states. A step changes one or two parts: encode compares each part
// with its parent's and takes the parent's indices for the parts and groups that
// did not change, interning only those that did.
//
// One goroutine encodes (the search, or the merge of a parallel level); workers
// may find (lookup, read-only) and decode at the same time: the tables are visited
// sets, one writer and lock-free readers.
type compact struct {
	parts  [][]model.Span
	tables []*visited // per part: its distinct contents
	groups [][]int    // the parts of each group, consecutive
	gtabs  []*visited // per group: its distinct tuples of part indices
}

func newCompact(p *model.Program, budget *Budget) *compact {
	c := &compact{parts: p.StateParts()}
	for _, part := range c.parts {
		n := 0
		for _, sp := range part {
			n += sp.Len
		}
		c.tables = append(c.tables, newVisited(n, budget))
	}
	size := min(int(math.Ceil(math.Sqrt(float64(len(c.parts))))), maxGroup)
	for k := 0; k < len(c.parts); k += size {
		var g []int
		for i := k; i < min(k+size, len(c.parts)); i++ {
			g = append(g, i)
		}
		c.groups = append(c.groups, g)
		c.gtabs = append(c.gtabs, newVisited(4*len(g), budget))
	}
	return c
}

// tupleWidth is the bytes of an encoded state.
func (c *compact) tupleWidth() int { return 4 * len(c.groups) }

// tables are all the part and group tables.
func (c *compact) all() []*visited { return append(append([]*visited(nil), c.tables...), c.gtabs...) }

// quiesce ends a level: no reader probes the tables' replaced tables (nil: none).
func (c *compact) quiesce() {
	if c == nil {
		return
	}
	for _, t := range c.all() {
		t.quiesce()
	}
}

// release gives the tables back (nil: none).
func (c *compact) release() {
	if c == nil {
		return
	}
	for _, t := range c.all() {
		t.release()
	}
}

// bytes is the memory the tables hold (nil: none).
func (c *compact) bytes() int {
	if c == nil {
		return 0
	}
	n := 0
	for _, t := range c.all() {
		n += t.bytes()
	}
	return n
}

// gather copies part k of state s into buf.
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

// maxGroup bounds the parts of a group (a buffer on the stack holds its tuple).
const maxGroup = 16

// errUnstored: lookup met a part or group never stored (the state is new).
var errUnstored = errors.New("not stored")

// put is the index of b in t: interned when intern (the one writer), else found
// (errUnstored when absent). Not a function value: b, on code's stack, then
// stays there.
func put(t *visited, b []byte, intern bool) (int, error) {
	if intern {
		idx, _, err := t.insert(b, 0, 0)
		return idx, err
	}
	if idx := t.index(b, t.hash(b)); idx >= 0 {
		return idx, nil
	}
	return -1, errUnstored
}

// code writes s's tuple into out (len tupleWidth), interning or finding (put); parent and
// parentTuple, when parent is not nil, are a state and its tuple whose equal
// parts and groups s takes without a lookup; buf is scratch of a state's width.
func (c *compact) code(intern bool, s, parent, parentTuple, out, buf []byte) error {
	var gtuple [4 * maxGroup]byte
	for g, parts := range c.groups {
		var pg []byte // the parent's tuple of this group's part indices
		if parent != nil {
			pg = c.gtabs[g].state(int(binary.LittleEndian.Uint32(parentTuple[4*g:])))
		}
		changed := false
		for i, k := range parts {
			if pg != nil && c.samePart(s, parent, k) {
				copy(gtuple[4*i:4*i+4], pg[4*i:4*i+4])
				continue
			}
			changed = true
			idx, err := put(c.tables[k], c.gather(s, k, buf), intern)
			if err != nil {
				return err
			}
			binary.LittleEndian.PutUint32(gtuple[4*i:], uint32(idx))
		}
		if !changed {
			copy(out[4*g:4*g+4], parentTuple[4*g:4*g+4])
			continue
		}
		idx, err := put(c.gtabs[g], gtuple[:4*len(parts)], intern)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint32(out[4*g:], uint32(idx))
	}
	return nil
}

// encode writes s's tuple into out, interning the parts and groups not yet stored
// (see code). It fails when the memory budget cannot cover a table's growth.
func (c *compact) encode(s, parent, parentTuple, out, buf []byte) error {
	return c.code(true, s, parent, parentTuple, out, buf)
}

// lookup is encode without interning, for the workers of a parallel level: false
// when some part or group of s is not stored yet (s is then new).
func (c *compact) lookup(s, parent, parentTuple, out, buf []byte) bool {
	return c.code(false, s, parent, parentTuple, out, buf) == nil
}

// decode writes the state of tuple into out (len StateSize), whose block of zeros
// (model.Program.ZeroBlock) is zero already: no part covers it.
func (c *compact) decode(tuple, out []byte) {
	for g, parts := range c.groups {
		gt := c.gtabs[g].state(int(binary.LittleEndian.Uint32(tuple[4*g:])))
		for i, k := range parts {
			b := c.tables[k].state(int(binary.LittleEndian.Uint32(gt[4*i:])))
			for _, sp := range c.parts[k] {
				copy(out[sp.Off:sp.Off+sp.Len], b[:sp.Len])
				b = b[sp.Len:]
			}
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

// compactFrom is the number of stored states from which a search stores them by
// their parts: a smaller search (most litmus tests: bench/generated's median
// stores 222 states) stores them whole, which costs it no encoding and no part
// tables. Measured on the plain family's preset ratio: compressing every search
// from its first state cost its 8,000 small searches 4% more CPU.
const compactFrom = 1 << 15

// compactFrom switches the search to storing states by their parts (compact.go)
// at the end of a level once it stores compactFrom states: each stored state is
// encoded and stored again in a new visited set, in index order, so that every
// index, parent link and step stays as it was.
func (e *search) compactFrom(workers []*worker) error {
	from := compactFrom
	if e.opt.compactAt > 0 {
		from = e.opt.compactAt
	}
	if e.parts != nil || e.opt.flatStates || e.seen.size() < from {
		return nil
	}
	c := newCompact(e.p, e.opt.Memory)
	tuples := newVisited(c.tupleWidth(), e.opt.Memory)
	tuple, part := make([]byte, c.tupleWidth()), make([]byte, 0, e.p.StateSize())
	for i := 0; i < e.seen.size(); i++ {
		err := c.encode(e.seen.state(i), nil, nil, tuple, part)
		if err == nil {
			var idx int
			if idx, _, err = tuples.insert(tuple, e.seen.parent(i), e.seen.step(i)); err == nil && idx != i {
				panic(fmt.Sprintf("explorer: state %d stored again as %d: two states with one tuple", i, idx))
			}
		}
		if err != nil {
			c.release()
			tuples.release()
			return err
		}
	}
	e.seen.release()
	e.seen, e.parts = tuples, c
	for _, w := range workers {
		w.cur, w.tuple, w.part = make(model.State, e.p.StateSize()), make([]byte, c.tupleWidth()), make([]byte, 0, e.p.StateSize())
	}
	return nil
}
