package gen

import (
	"github.com/rmacheck/rmacheck/litmus"
)

// Shrink minimizes a test by delta debugging over its AST: it drops processes (the
// last column), whole rows, single instructions, entries of the locations line and the
// filter, one at a time, keeping a change when the result still parses and validates
// (it is printed with litmus.Format and parsed again) and keep still holds, until no
// change is kept. A condition on a register no instruction writes any more is replaced
// by its value (dropUnwritten), so a shrunk test names no register it does not use. keep is never called on a test that does not validate; the result is
// t itself when nothing can be dropped. budget bounds the calls of keep (0: no bound).
func Shrink(t *litmus.Test, keep func(*litmus.Test) bool, budget int) *litmus.Test {
	calls := 0
	try := func(c *litmus.Test) *litmus.Test {
		if budget > 0 && calls >= budget {
			return nil
		}
		compact(c)
		dropUnwritten(c)
		p, err := litmus.Parse(c.File, litmus.Format(c))
		if err != nil {
			return nil
		}
		calls++
		if !keep(p) {
			return nil
		}
		return p
	}
	cur := t
	for changed := true; changed && (budget == 0 || calls < budget); {
		changed = false
		// a whole process: the last one (ranks keep their numbers)
		if len(cur.Procs) > 1 {
			c := clone(cur)
			c.Procs = c.Procs[:len(c.Procs)-1]
			if n := try(c); n != nil {
				cur, changed = n, true
				continue
			}
		}
		// whole rows, then single instructions, from the bottom
		for r := cur.Rows - 1; r >= 0; r-- {
			if r >= cur.Rows {
				continue
			}
			c := clone(cur)
			for _, p := range c.Procs {
				p.Code[r] = nil
			}
			if n := try(c); n != nil {
				cur, changed = n, true
			}
		}
		for pi := range cur.Procs {
			for r := cur.Rows - 1; r >= 0; r-- {
				if pi >= len(cur.Procs) || r >= cur.Rows || cur.Procs[pi].Code[r] == nil {
					continue
				}
				c := clone(cur)
				c.Procs[pi].Code[r] = nil
				if n := try(c); n != nil {
					cur, changed = n, true
				}
			}
		}
		// the k-th collective call (fence of a window, barrier) of every process at once
		for _, key := range collectiveKeys(cur) {
			for k := 0; ; k++ {
				c := clone(cur)
				if !dropCollective(c, key, k) {
					break
				}
				if n := try(c); n != nil {
					cur, changed = n, true
					k--
				}
			}
		}
		for i := len(cur.Locations) - 1; i >= 0; i-- {
			if i >= len(cur.Locations) {
				continue
			}
			c := clone(cur)
			c.Locations = append(append([]*litmus.Ref(nil), cur.Locations[:i]...), cur.Locations[i+1:]...)
			if n := try(c); n != nil {
				cur, changed = n, true
			}
		}
		if cur.Filter != nil {
			c := clone(cur)
			c.Filter = nil
			if n := try(c); n != nil {
				cur, changed = n, true
			}
		}
	}
	return cur
}

// collectiveKeys names the collective calls of t: "fence W" per window, "barrier".
func collectiveKeys(t *litmus.Test) []string {
	seen := map[string]bool{}
	var keys []string
	for _, p := range t.Procs {
		for _, in := range p.Code {
			if k := collectiveKey(in); k != "" && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

func collectiveKey(in *litmus.Instr) string {
	switch {
	case in == nil:
		return ""
	case in.Op == litmus.OpFence:
		return "fence " + in.Win
	case in.Op == litmus.OpBarrier:
		return "barrier"
	}
	return ""
}

// dropCollective removes the k-th call named key from every process that has one; it
// reports whether some process had one.
func dropCollective(t *litmus.Test, key string, k int) bool {
	any := false
	for _, p := range t.Procs {
		n := 0
		for r, in := range p.Code {
			if collectiveKey(in) != key {
				continue
			}
			if n == k {
				p.Code[r] = nil
				any = true
				break
			}
			n++
		}
	}
	return any
}

// clone copies the parts of a test Shrink changes (processes, their code, locations).
func clone(t *litmus.Test) *litmus.Test {
	c := *t
	c.Procs = make([]*litmus.Proc, len(t.Procs))
	for i, p := range t.Procs {
		cp := *p
		cp.Code = append([]*litmus.Instr(nil), p.Code...)
		c.Procs[i] = &cp
	}
	c.Locations = append([]*litmus.Ref(nil), t.Locations...)
	c.RowComments = nil
	return &c
}

// compact drops the rows that are empty in every column.
func compact(t *litmus.Test) {
	rows := 0
	for r := 0; r < t.Rows; r++ {
		empty := true
		for _, p := range t.Procs {
			empty = empty && (r >= len(p.Code) || p.Code[r] == nil)
		}
		if empty {
			continue
		}
		for _, p := range t.Procs {
			if r < len(p.Code) {
				p.Code[rows] = p.Code[r]
			}
		}
		rows++
	}
	for _, p := range t.Procs {
		p.Code = p.Code[:rows]
	}
	t.Rows = rows
	t.RowComments = nil
}

// Instrs is the largest number of instructions of a process of t.
func Instrs(t *litmus.Test) int {
	m := 0
	for _, p := range t.Procs {
		n := 0
		for _, in := range p.Code {
			if in != nil {
				n++
			}
		}
		m = max(m, n)
	}
	return m
}

// dropUnwritten replaces each atom of the condition and the filter that names a
// register no instruction of t writes by its truth value on the register's initial
// value (it cannot change), simplifies what that leaves, and drops such registers
// from the locations line: the observations are the same, and the test no longer
// reads as if the register mattered.
func dropUnwritten(t *litmus.Test) {
	written := map[litmus.RegRef]bool{}
	for pi, p := range t.Procs {
		for _, in := range p.Code {
			if in == nil {
				continue
			}
			if in.Dst != "" {
				written[litmus.RegRef{Proc: pi, Reg: in.Dst}] = true
			}
			for _, d := range in.Dsts {
				written[litmus.RegRef{Proc: pi, Reg: d}] = true
			}
		}
	}
	initial := map[litmus.RegRef]int64{}
	for _, in := range t.Inits {
		if in.Reg != nil {
			initial[litmus.RegRef{Proc: in.Reg.Proc, Reg: in.Reg.Reg}] = in.Value
		}
	}
	unwritten := func(r *litmus.RegRef) bool {
		return r != nil && !written[litmus.RegRef{Proc: r.Proc, Reg: r.Reg}]
	}
	var fold func(c litmus.Cond) litmus.Cond
	fold = func(c litmus.Cond) litmus.Cond {
		switch c := c.(type) {
		case *litmus.Atom:
			if unwritten(c.Ref.Reg) {
				return &litmus.Bool{Pos: c.Pos, V: initial[litmus.RegRef{Proc: c.Ref.Reg.Proc, Reg: c.Ref.Reg.Reg}] == c.Value}
			}
		case *litmus.Not:
			inner := fold(c.C)
			if b, ok := inner.(*litmus.Bool); ok {
				return &litmus.Bool{Pos: c.Pos, V: !b.V}
			}
			return &litmus.Not{Pos: c.Pos, C: inner}
		case *litmus.And:
			return simplify(fold(c.L), fold(c.R), false)
		case *litmus.Or:
			return simplify(fold(c.L), fold(c.R), true)
		case *litmus.Implies:
			l, r := fold(c.L), fold(c.R)
			if b, ok := l.(*litmus.Bool); ok {
				if !b.V {
					return &litmus.Bool{Pos: b.Pos, V: true}
				}
				return r
			}
			if b, ok := r.(*litmus.Bool); ok && b.V {
				return b
			}
			return &litmus.Implies{L: l, R: r}
		}
		return c
	}
	if t.Cond != nil {
		t.Cond = fold(t.Cond)
	}
	if t.Filter != nil {
		t.Filter = fold(t.Filter)
	}
	var locs []*litmus.Ref
	for _, l := range t.Locations {
		if !unwritten(l.Reg) {
			locs = append(locs, l)
		}
	}
	if len(locs) < len(t.Locations) {
		t.Locations = locs
	}
}

// simplify joins l and r with \/ (or) or /\ (and), folding a constant side.
func simplify(l, r litmus.Cond, or bool) litmus.Cond {
	for _, side := range [2][2]litmus.Cond{{l, r}, {r, l}} {
		if b, ok := side[0].(*litmus.Bool); ok {
			if b.V == or { // true \/ X, false /\ X
				return b
			}
			return side[1]
		}
	}
	if or {
		return &litmus.Or{L: l, R: r}
	}
	return &litmus.And{L: l, R: r}
}
