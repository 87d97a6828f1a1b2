package model

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// Outcomes: the values a test's final condition, filter and locations line name,
// in one order fixed at compile time (Out), and the condition and filter compiled
// against that order, so that every driver (explorer, reference runtime, real-MPI
// histograms) judges an outcome the same way.

// OutItem is one value shown in an outcome: a register or a cell.
type OutItem struct {
	Name string // "1:r0" or "x" or "W@1[0]"
	Ref  litmus.Ref
	Proc int // register: rank; cell: -1
	Reg  int // register index
	Cell int
}

// OutcomeKey identifies an outcome (its values in the order of Out) as a map key.
type OutcomeKey string

// KeyOf is the key of outcome values.
func KeyOf(vals []int64) OutcomeKey {
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	return OutcomeKey(b)
}

// compiledCond is a condition whose atoms' items are resolved to indexes of Out.
type compiledCond struct {
	c     litmus.Cond // nil: holds for every outcome
	index map[*litmus.Ref]int
}

func (cc *compiledCond) holds(vals []int64) bool {
	if cc.c == nil {
		return true
	}
	val := func(r *litmus.Ref) int64 { return vals[cc.index[r]] }
	return litmus.Eval(cc.c, func(a *litmus.Atom) bool { return a.Holds(val) })
}

// Sat reports whether outcome values satisfy the test's condition (before its quantifier).
func (p *Program) Sat(vals []int64) bool { return p.cond.holds(vals) }

// Keep reports whether outcome values pass the test's filter (true without one).
func (p *Program) Keep(vals []int64) bool { return p.filter.holds(vals) }

// Condition compiles another condition over this program's outcome items (replay
// --outcome); an atom naming an item the outcomes do not show is an error.
func (p *Program) Condition(c litmus.Cond) (func([]int64) bool, error) {
	cc := compiledCond{c: c, index: map[*litmus.Ref]int{}}
	for _, r := range litmus.CondRefs(c) {
		i := p.outIndex(outName(*r))
		if i < 0 {
			var names []string
			for _, o := range p.Out {
				names = append(names, o.Name)
			}
			return nil, fmt.Errorf("%s is not shown in this test's outcomes (shown: %s; add it to a locations line)",
				outName(*r), strings.Join(names, " "))
		}
		cc.index[r] = i
	}
	return cc.holds, nil
}

func (p *Program) outIndex(name string) int {
	for i, o := range p.Out {
		if o.Name == name {
			return i
		}
	}
	return -1
}

// outName is the name an outcome shows for a reference: "1:r0", "x", "W@1[0]".
func outName(r litmus.Ref) string {
	if r.Reg != nil {
		return fmt.Sprintf("%d:%s", r.Reg.Proc, r.Reg.Reg)
	}
	return litmus.RefString(r)
}

// OutcomeValues returns the values of the outcome items (Out) in s.
func (p *Program) OutcomeValues(s State) []int64 { return p.OutcomeValuesTo(s, nil) }

// OutcomeValuesTo is OutcomeValues into buf's memory when it is large enough.
func (p *Program) OutcomeValuesTo(s State, buf []int64) []int64 {
	vals := buf[:0]
	if cap(vals) < len(p.Out) {
		vals = make([]int64, len(p.Out))
	}
	vals = vals[:len(p.Out)]
	for i, o := range p.Out {
		if o.Proc >= 0 {
			vals[i] = p.Reg(s, o.Proc, o.Reg)
		} else {
			vals[i] = p.CellValue(s, o.Cell)
		}
	}
	return vals
}

// OutcomeString prints outcome values (in the order of Out) as herd7 does: "0:r0=0; x=1;".
func (p *Program) OutcomeString(vals []int64) string {
	var b strings.Builder
	for i, o := range p.Out {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s;", o.Name, p.valueString(vals[i]))
	}
	return b.String()
}

// outcomeItems lists the values an outcome shows: the condition's and the filter's
// atoms, then the locations line, each name once; and compiles the condition and
// the filter against that list.
func (c *compiler) outcomeItems() {
	t, p := c.t, c.p
	add := func(r *litmus.Ref) int {
		name := outName(*r)
		if i := p.outIndex(name); i >= 0 {
			return i
		}
		item := OutItem{Name: name, Ref: *r, Proc: -1, Cell: -1}
		if r.Reg != nil {
			item.Proc, item.Reg = r.Reg.Proc, int(c.reg(r.Reg.Proc, r.Reg.Reg))
		} else {
			item.Cell, _, _, _ = c.cell(*r.Loc)
		}
		p.Out = append(p.Out, item)
		return len(p.Out) - 1
	}
	compile := func(cd litmus.Cond) compiledCond {
		cc := compiledCond{c: cd, index: map[*litmus.Ref]int{}}
		for _, r := range litmus.CondRefs(cd) {
			cc.index[r] = add(r)
		}
		return cc
	}
	p.cond = compile(t.Cond)
	p.filter = compile(t.Filter)
	for _, r := range t.Locations {
		add(r)
	}
	// Cells only initialised still need a cell, so every location is known.
	for _, in := range t.Inits {
		if in.Loc != nil {
			c.cell(*in.Loc)
		}
	}
}
