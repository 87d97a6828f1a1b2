package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// Ranges at computed and null targets (docs/language.md#computed-and-null-targets): a range
// relative to a register, W@1[r5+0..3] or W@1[r5+{0,2}] (an address of a dynamic
// window, or a displacement), a range at a rank register, W@r1[0..3], and a range at
// MPI_PROC_NULL, W@null[0..3]. The call resolves its rank and base displacement when
// it is issued, as a one-element computed call does (target.go), and then every
// element's cell: the base plus the element's offset. An element outside the
// target's memory makes the whole call E-TARGET (MPI-4.1 node337: the target
// buffer must lie in the target window) and it moves nothing; at MPI_PROC_NULL it
// moves nothing and leaves its result registers unchanged.
//
// At compile time the registers' possible values give the resolutions a call may
// have (rangeCand: a rank and one cell per element). The base determines every
// element, so the first element's cell determines the resolution: the variant of
// the instruction for it is found by that cell (byCell), as a one-element call's
// by its cell, and the slot keeps it. A zero-element range (W@r1[{}]) resolves its
// rank only (byRank).

// rangeCand is one resolution of a computed range: its target and element cells.
type rangeCand struct {
	rank  int
	cells []int8
}

// computedRange completes the compile of an RMA call whose computed location names
// a range: the elements' origin values and result registers, their offsets, and
// the resolutions the registers may give (ranks and disps: what they may hold, nil
// for anything).
func (c *compiler) computedRange(proc int, ci *Instr, in *litmus.Instr, ranks, disps map[int64]bool) {
	p := c.p
	cmp := ci.Computed
	l := in.Loc
	elems := c.t.Elems(*l)
	cmp.Range = true
	cmp.Offs = []int{}
	for _, e := range elems {
		cmp.Offs = append(cmp.Offs, e.Disp-l.Disp)
	}
	ci.Elems = c.rangeElems(proc, in, len(elems))
	if len(ci.Elems) > 0 && ci.Elems[0].Dst >= 0 {
		ci.Dst = ci.Elems[0].Dst
	}
	ci.NArgs = 0
	cmp.ElemMay = make([]uint64, len(cmp.Offs))
	cmp.MayCells = 0
	if l.Null {
		return
	}
	cmp.MayTargets = 0 // from the resolutions, below
	w := &p.Wins[ci.Win]
	for r := 0; r < p.NProcs; r++ {
		if w.Group&(1<<uint(r)) == 0 || l.RankReg == "" && r != l.Rank || ranks != nil && !ranks[int64(r)] {
			continue
		}
		if len(cmp.Offs) == 0 {
			cmp.MayTargets |= 1 << uint(r) // no element: the rank alone
			continue
		}
		for _, base := range c.rangeBases(ci, r, disps) {
			cand, ok := p.rangeCells(ci, r, base)
			if !ok {
				continue
			}
			cmp.cands = append(cmp.cands, cand)
			for k, cell := range cand.cells {
				cmp.ElemMay[k] |= 1 << uint(cell)
				cmp.MayCells |= 1 << uint(cell)
			}
			cmp.MayTargets |= 1 << uint(r)
		}
	}
}

// rangeBases are the base displacements a computed range at rank r may have: its
// literal one, the values its register may hold (disps), or any that puts the
// first element on a cell of r's memory.
func (c *compiler) rangeBases(ci *Instr, r int, disps map[int64]bool) []int64 {
	p, cmp := c.p, ci.Computed
	if cmp.DispReg < 0 {
		return []int64{int64(cmp.Disp)}
	}
	seen := map[int64]bool{}
	if disps != nil {
		seen = disps
	} else {
		for _, cell := range p.Cells {
			if cell.Rank == r && cell.Win == p.Wins[ci.Win].Base {
				seen[int64(cell.Disp)-int64(cmp.Offs[0])] = true
			}
		}
	}
	out := make([]int64, 0, len(seen))
	for b := range seen {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// rangeCells resolves every element of computed range in at rank and base (ok
// false when one names no memory).
func (p *Program) rangeCells(in *Instr, rank int, base int64) (rangeCand, bool) {
	cand := rangeCand{rank: rank}
	for _, off := range in.Computed.Offs {
		cell, ok := p.cellOf(in, rank, base+int64(off))
		if !ok {
			return rangeCand{}, false
		}
		cand.cells = append(cand.cells, int8(cell))
	}
	return cand, true
}

// resolveRange resolves a computed range at rank with base displacement disp: its
// first element's cell keys the variant (-1 for a zero-element range); E-TARGET
// when an element names no memory of rank.
func (p *Program) resolveRange(in *Instr, rank int, disp int64) (int, int, badTarget, bool) {
	first := -1
	for k, off := range in.Computed.Offs {
		cell, ok := p.cellOf(in, rank, disp+int64(off))
		if !ok {
			return 0, 0, badTarget{disp: true, v: disp + int64(off), rank: rank}, false
		}
		if k == 0 {
			first = cell
		}
	}
	return rank, first, badTarget{}, true
}

// rangeVariants makes the variants of a computed range: one per resolution, found
// by its first element's cell, and one per rank for a zero-element range.
func (c *compiler) rangeVariants(in *Instr) {
	p, cmp := c.p, in.Computed
	resolved := func(rank int, cells []int8) int16 {
		v := *in
		v.Computed, v.Target, v.Cell = nil, int8(rank), -1
		v.Elems = make([]Elem, len(in.Elems))
		for k := range in.Elems {
			v.Elems[k] = in.Elems[k]
			v.Elems[k].Cell = cells[k]
		}
		cmp.variants = append(cmp.variants, v)
		return int16(len(cmp.variants) - 1)
	}
	cmp.byCell = make([]int16, len(p.Cells))
	for i := range cmp.byCell {
		cmp.byCell[i] = -1
	}
	for _, cand := range cmp.cands {
		cmp.byCell[cand.cells[0]] = resolved(cand.rank, cand.cells)
	}
	if len(cmp.Offs) == 0 {
		cmp.byRank = make([]int16, p.NProcs)
		for r := range cmp.byRank {
			cmp.byRank[r] = resolved(r, nil)
		}
	}
}

// rangeElems is the elements of a range call of n elements, with their origin
// values and result registers, their cells not yet known (-1).
func (c *compiler) rangeElems(proc int, in *litmus.Instr, n int) []Elem {
	regs := in.FetchRegs()
	out := make([]Elem, 0, n)
	for k := 0; k < n; k++ {
		el := Elem{Cell: -1, Arg: c.rangeArg(proc, in, k), Dst: -1}
		if k < len(regs) {
			el.Dst = c.reg(proc, regs[k])
		}
		out = append(out, el)
	}
	return out
}

// rangeArg is the origin value of element k of a range call: its tuple's k-th
// value, or the one value of "put v 7" in every element.
func (c *compiler) rangeArg(proc int, in *litmus.Instr, k int) Operand {
	switch {
	case in.ArgTuple && k < len(in.Args):
		return c.operand(proc, in.Args[k])
	case !in.ArgTuple && len(in.Args) > 0:
		return c.operand(proc, in.Args[0])
	}
	return Operand{Reg: -1}
}

// elemCell is the cell element e of a resolved call names (its only cell when e is
// -1 or the call has no elements).
func elemCell(in *Instr, e int8) int {
	switch {
	case e < 0 || in.Elems == nil:
		return int(in.Cell)
	case int(e) >= len(in.Elems):
		return -1 // a zero-element range names no cell
	}
	return int(in.Elems[e].Cell)
}

// mustVariant panics on a resolution no variant was made for: the compile's
// candidates are every resolution the registers may give.
func mustVariant(i int16, what string) int16 {
	if i < 0 {
		panic(fmt.Sprintf("model: no variant for %s", what))
	}
	return i
}

// cellsName names the cells a resolved call touches: its cell, or its elements'
// ("W@0[1], W@0[3]"; "no cell" for zero elements).
func (p *Program) cellsName(in *Instr) string {
	if in.Elems == nil {
		return p.Cells[in.Cell].Name
	}
	if len(in.Elems) == 0 {
		return "no cell"
	}
	names := make([]string, 0, len(in.Elems))
	for _, el := range in.Elems {
		names = append(names, p.Cells[el.Cell].Name)
	}
	return strings.Join(names, ", ")
}
