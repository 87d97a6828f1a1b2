package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
)

// Multi-element operations (docs/language.md#ranges-and-tuples). A put, get or accumulate of a range is one call: one slot, issued at
// once with its whole origin buffer, completed at once by whatever completes it.
// Its elements perform as steps of their own, in no fixed order (MPI-4.1 node337:
// the order of the target's updates is not specified; node338: an accumulate is
// "atomic ... per basic datatype element"), so the slot holds one origin value per
// element and a byte of the elements performed; the slot's status turns performed
// when the last element has. A perform step names its element in Step.Choice.
// Conflicts, flags and the reduction's independence are per element: each element
// is an access of its own cell (conflict.go's access.elem).

// Elem is one element of a multi-element call.
type Elem struct {
	Cell int8    // the element's cell
	Arg  Operand // its origin value (put, acc, gacc)
	Dst  int8    // its result register (get, gacc), -1 none
}

// A slot is slotBytes long (target.go): status, epoch kind, epoch index, two int64
// values at +3 and +11 (a cas takes two; a multi-element operation's elements 0 and
// 1), the resolved cell and target of a computed call. A multi-element slot goes on
// with the values of its elements 2, 3, .. and a byte of the elements performed.

// extraValBytes is the room of a slot's values past the first two.
func (p *Program) extraValBytes(k int) int { return 8 * max(0, p.Slots[k].Elems-2) }

// slotLayoutBytes is the width of slot k in the state.
func (p *Program) slotLayoutBytes(k int) int {
	if p.Slots[k].Multi {
		return slotBytes + p.extraValBytes(k) + 1
	}
	return slotBytes
}

// elemValOff is the offset of the origin value of element e of slot k.
func (p *Program) elemValOff(k, e int) int {
	if e < 2 {
		return p.Layout.Slot[k] + 3 + 8*e
	}
	return p.Layout.Slot[k] + slotBytes + 8*(e-2)
}

// maskOff is the offset of a multi-element slot's performed-elements byte.
func (p *Program) maskOff(k int) int { return p.Layout.Slot[k] + slotBytes + p.extraValBytes(k) }

// slotValueSpans are the value fields of slot k: [off, off+n) pairs.
func (p *Program) slotValueSpans(k int) []span {
	out := []span{{p.Layout.Slot[k] + 3, 16}}
	if n := p.extraValBytes(k); n > 0 {
		out = append(out, span{p.Layout.Slot[k] + slotBytes, n})
	}
	return out
}

// clearSlotValues zeroes the value fields of slot k (the live-variable quotient).
func (p *Program) clearSlotValues(s State, k int) {
	off := p.Layout.Slot[k]
	clear(s[off+3 : off+19])
	if n := p.extraValBytes(k); n > 0 {
		clear(s[off+slotBytes : off+slotBytes+n])
	}
}

// elemPerformed reports whether element e of multi-element slot k has performed.
func (p *Program) elemPerformed(s State, k, e int) bool {
	switch s[p.Layout.Slot[k]] {
	case SlotPerformed, SlotCompleted:
		return true
	case SlotPending:
		return s[p.maskOff(k)]&(1<<uint(e)) != 0
	}
	return false
}

// ElemsPending is the mask of the elements of slot k not yet performed (bit e:
// element e; a one-element call has element 0), 0 when the slot is not pending. A
// mask, not a list: the reference runtime asks under its lock, where an allocation
// on every call brought the collector into its spinning ranks' way.
func (p *Program) ElemsPending(s State, k int) uint8 {
	if s[p.Layout.Slot[k]] != SlotPending {
		return 0
	}
	if !p.Slots[k].Multi {
		return 1
	}
	all := uint8(1<<uint(p.Slots[k].Elems) - 1)
	return all &^ s[p.maskOff(k)]
}

// PerformStep is the step that performs element e of slot k.
func PerformStep(k, e int) Step { return Step{Kind: StepPerform, Index: int8(k), Choice: int8(e)} }

// rangeInstr compiles the location of an RMA call that names a range. It reports
// false for a one-location call, which the caller compiles as before. A range of
// one element compiles as a one-element call (its Dst the tuple's register).
func (c *compiler) rangeInstr(proc int, ci *Instr, in *litmus.Instr) bool {
	if in.Loc == nil || c.t.RangeOf(*in.Loc) == nil {
		return false
	}
	elems := c.t.Elems(*in.Loc)
	regs := in.FetchRegs()
	if len(elems) == 1 {
		cell, win, rank, _ := c.cell(elems[0])
		ci.Cell, ci.Win, ci.Target = int8(cell), int8(win), int8(rank)
		ci.Remote = rank != proc
		ci.Args[0] = c.rangeArg(proc, in, 0)
		if len(regs) == 1 {
			ci.Dst = c.reg(proc, regs[0])
		}
		return true
	}
	ci.Cell, ci.Elems = -1, c.rangeElems(proc, in, len(elems)) // range_target.go
	w, rank, _, _, _ := c.t.ResolveLoc(*in.Loc)
	ci.Win, ci.Target = int8(c.winIndex(w.Name)), int8(rank)
	ci.Remote = rank != proc
	for k, e := range elems {
		cell, _, _, _ := c.cell(e)
		ci.Elems[k].Cell = int8(cell)
	}
	if len(ci.Elems) > 0 && ci.Elems[0].Dst >= 0 {
		ci.Dst = ci.Elems[0].Dst
	}
	ci.NArgs = 0
	return true
}

// elemCells is the set of cells a multi-element call touches (none at
// MPI_PROC_NULL, whose elements name no cell).
func elemCells(in *Instr) uint64 {
	var m uint64
	for _, e := range in.Elems {
		if e.Cell >= 0 {
			m |= 1 << uint(e.Cell)
		}
	}
	return m
}

// elemRegs are the registers a multi-element call reads (its origin buffer) and
// writes (its results).
func elemRegs(in *Instr) (reads, writes uint32) {
	for _, e := range in.Elems {
		if e.Arg.Reg >= 0 {
			reads |= 1 << uint(e.Arg.Reg)
		}
		if e.Dst >= 0 {
			writes |= 1 << uint(e.Dst)
		}
	}
	return reads, writes
}

// issueElems fills a multi-element slot at issue: one origin value per element, no
// element performed. A zero-element call (W@1[{}]) moves nothing: it needed its
// epoch, and is complete at once.
func (p *Program) issueElems(s State, proc int, in *Instr, off int) {
	for e, el := range in.Elems {
		s.setI64(p.elemValOff(int(in.Slot), e), p.val(s, proc, el.Arg))
	}
	s[p.maskOff(int(in.Slot))] = 0
	if len(in.Elems) == 0 {
		s[off] = SlotCompleted
	}
}

// accHeld: an earlier accumulate of the same origin to cell c is not yet
// performed there, and accumulate_ordering keeps in's perform on c after it
// (node338): per element, for multi-element accumulates.
func (p *Program) accHeld(s State, k, c int, in *Instr) bool {
	sl := p.Slots[k]
	order := p.Wins[in.Win].AccOrder
	for e := k - 1; e >= 0 && p.Slots[e].Proc == sl.Proc; e-- {
		prev := p.slotOp(s, e)
		if s[p.Layout.Slot[e]] != SlotPending || !isAccumulate(prev) || !accOrdered(order, prev, in) {
			continue
		}
		if prev.Elems == nil {
			if int(prev.Cell) == c {
				return true
			}
			continue
		}
		for x, el := range prev.Elems {
			if int(el.Cell) == c && !p.elemPerformed(s, e, x) {
				return true
			}
		}
	}
	return false
}

// performElem performs element e of multi-element slot k at its target: one
// element's put, read or atomic update (docs/semantics.md#rma-operations; node338 per element).
func (p *Program) performElem(s State, k, e int, rec *Record) bool {
	sl := p.Slots[k]
	in := p.slotOp(s, k) // resolved, for a computed range (range_target.go)
	off := p.Layout.Slot[k]
	if e < 0 || e >= sl.Elems || p.elemPerformed(s, k, e) {
		return false
	}
	if !p.exposed(s, int(in.Win), sl.Proc, int(in.Target), int(s[off+1]), int(s[off+2])) || p.awaitsProgress(s, in) {
		return false
	}
	el := in.Elems[e]
	c := int(el.Cell)
	if isAccumulate(in) && p.accHeld(s, k, c, in) {
		return false
	}
	old := p.pub(s, c)
	a := s.i64(p.elemValOff(k, e))
	nv, writes := performedValue(in, old, a, 0) // a multi-element call is never a cas
	if el.Dst >= 0 {
		p.setReg(s, sl.Proc, int(el.Dst), old)
	}
	if writes {
		p.writePublic(s, c, nv)
	}
	mo := p.maskOff(k)
	s[mo] |= 1 << uint(e)
	if int(s[mo]) == 1<<uint(sl.Elems)-1 {
		s[off], s[mo] = SlotPerformed, 0 // every element performed: the call has
	}
	if rec.full() {
		if el.Dst >= 0 || !writes || in.AccOp != litmus.AccNone && in.AccOp != litmus.AccReplace {
			rec.read(Copy{Cell: c})
		}
		if writes {
			rec.wrote(Copy{Cell: c})
		}
		rec.Text = fmt.Sprintf("perform element %d of %s of P%d row %d: ", e, in.Text, sl.Proc, in.Row)
		if writes {
			rec.Text += fmt.Sprintf("%s:=%d", p.Cells[c].Name, nv)
		} else {
			rec.Text += fmt.Sprintf("reads %s=%d", p.Cells[c].Name, old)
		}
	}
	return true
}

// accessesOf lists the accesses of instruction k of proc for the conflict checks:
// one per element of a multi-element call (each its own cell), else accessOf's.
func (c *compiler) accessesOf(proc, k int) []access {
	a, ok := c.accessOf(proc, k)
	if !ok {
		return nil
	}
	in := &c.p.Procs[proc].Code[k]
	if in.Elems == nil {
		return []access{a}
	}
	out := make([]access, 0, len(in.Elems))
	for e, el := range in.Elems {
		x := a
		x.cell, x.elem = int(el.Cell), int8(e)
		x.typ = c.cellTypes[el.Cell]
		out = append(out, x)
	}
	return out
}

// elemIndependentSuccessor emits the perform of the first element that may perform
// alone in the reduced search (independent.go): every access in conflict with its
// cell happened.
func (p *Program) elemIndependentSuccessor(s, scratch State, rec *Record, emit func(Step, State)) bool {
	for k, inds := range p.elemIndep {
		if inds == nil || s[p.Layout.Slot[k]] != SlotPending {
			continue
		}
		for e, ind := range inds {
			if ind == nil || p.elemPerformed(s, k, e) || !p.independent(s, -1, ind) {
				continue
			}
			st := PerformStep(k, e)
			if p.try(s, scratch, st, rec) {
				emit(st, scratch)
				return true
			}
		}
	}
	return false
}

// slotElem is one element of a multi-element slot that an access waits on.
type slotElem struct{ slot, elem int8 }

// elemsDone: none of the elements has still to perform.
func (p *Program) elemsDone(s State, elems []slotElem) bool {
	for _, x := range elems {
		if !p.elemPerformed(s, int(x.slot), int(x.elem)) {
			return false
		}
	}
	return true
}

// addConflictSlot records that an access waits on b's perform: its slot, or for a
// multi-element call the element alone.
func (p *Program) addConflictSlot(ind *independence, b *access) {
	switch {
	case b.slot < 0:
	case p.Slots[b.slot].Multi:
		ind.elems = append(ind.elems, slotElem{int8(b.slot), b.elem})
	default:
		ind.slots = append(ind.slots, int8(b.slot))
	}
}
