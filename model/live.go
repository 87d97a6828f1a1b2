package model

import (
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The live-variable quotient (Bozga, Fernandez and Ghirvu, "State space reduction
// based on live variables analysis", SAS'99; Self and Mercer, SPIN'07). Many states
// of a search differ only in values nothing will read again: a register no remaining
// instruction reads, a cell no remaining load, get or accumulate reads. DropDead
// sets such values to zero, so that those states become one.
//
// Why the quotient is exact. A value is live when it is an outcome item or when an
// instruction not yet executed, or an RMA operation not yet performed, reads it; an
// until keeps what its loop body reads live, since End reruns the body on the final
// state (loop.go). Liveness only shrinks along an execution (instructions only get
// done, operations only get performed), so a value dead in a state is dead in every
// state after it: no step reads it again. Every step reads only live values: a
// step's enabling (guards, until conditions), what it writes, the rules it raises
// and the concurrency of the candidate pairs (guards again) depend on live values
// alone. So the map from a state to its quotient is a bisimulation: the same steps
// are enabled in both, lead to states with the same quotient, raise the same rules,
// and a terminal state's outcome items (always live) are equal. The quotient's
// search finds the same outcomes, flags and pairs, with traces as short, and a trace
// of it replays on the full program.
//
// The masks are a function of the code, slots, cells and outcome items, which
// SameExecutions compares: programs that share a search share its quotient.
//
// What it leaves alone, to keep that argument short: the cells of separate windows
// (R5/R6 copies move values between the two copies), speculation entries, and
// message values not yet received.

// liveness is what DropDead reads, built at compile time: short lists, so that
// dropping the dead values of a state costs a few word operations per process.
type liveness struct {
	// regs[proc]: the registers of proc that are no outcome item, each with the
	// instructions that read it (operands, guard, until condition) and the untils
	// whose loop body does.
	regs [][]reader
	// cells[proc]: the cells that instructions of proc read, executing or at their
	// perform (plain and remote loads, gets, accumulates, cas), each with those
	// instructions and the untils whose loop body holds one.
	cells [][]reader
	// readingSlots: the slots whose perform reads their cell.
	readingSlots []int
	// pinned: cells never dropped (outcome items, separate windows).
	pinned uint64
}

// reader is a register or a cell and the instructions of a process that read it.
type reader struct {
	index  int
	instrs uint64
}

// buildLiveness computes the reader masks of the quotient.
func (c *compiler) buildLiveness() {
	p := c.p
	lv := &liveness{regs: make([][]reader, p.NProcs), cells: make([][]reader, p.NProcs)}
	regOut := make([]uint32, p.NProcs)
	for _, o := range p.Out {
		if o.Proc >= 0 {
			regOut[o.Proc] |= 1 << uint(o.Reg)
		} else {
			lv.pinned |= 1 << uint(o.Cell)
		}
	}
	for i, cell := range p.Cells {
		if cell.Separate {
			lv.pinned |= 1 << uint(i)
		}
	}
	for proc := range p.Procs {
		regs := make([]uint64, len(p.Procs[proc].Regs))
		cells := make([]uint64, len(p.Cells))
		code := p.Procs[proc].Code
		for j := range code {
			in := &code[j]
			readers := uint64(1) << uint(j)
			for u := range code {
				if code[u].Kind == KUntil && code[u].LoopBody&readers != 0 {
					readers |= 1 << uint(u) // a blocked loop's body is rerun at the end
				}
			}
			for m := readRegs(in); m != 0; m &= m - 1 {
				regs[bits.TrailingZeros32(m)] |= readers
			}
			if readsCell(in) {
				for m := in.mayCells(); m != 0; m &= m - 1 {
					cells[bits.TrailingZeros64(m)] |= readers
				}
			}
		}
		for r, m := range regs {
			if regOut[proc]&(1<<uint(r)) == 0 {
				lv.regs[proc] = append(lv.regs[proc], reader{r, m})
			}
		}
		for cell, m := range cells {
			if m != 0 && lv.pinned&(1<<uint(cell)) == 0 {
				lv.cells[proc] = append(lv.cells[proc], reader{cell, m})
			}
		}
	}
	for k, sl := range p.Slots {
		if readsCell(&p.Procs[sl.Proc].Code[sl.Instr]) {
			lv.readingSlots = append(lv.readingSlots, k)
		}
	}
	p.live = lv
}

// readsCell: executing the instruction, or performing the operation it issues,
// reads its cell: a load, a remote load, a get, an accumulate (it combines with the
// old value), a cas. A store, a put and a remote store only write.
func readsCell(in *Instr) bool {
	switch in.Kind {
	case KPlainLoad, KRemoteLoad:
		return true
	case KRMA:
		return in.Op != litmus.OpPut && in.Op != litmus.OpRput
	}
	return false
}

// DropDead sets the dead values of s to zero (a no-op for a program compiled
// without the quotient): the registers and cells no remaining step reads and no
// outcome shows, the store-buffer entries of dead cells, the values of operations
// performed or writing a dead cell, and the message values already received.
func (p *Program) DropDead(s State) {
	lv := p.live
	if lv == nil {
		return
	}
	l := &p.Layout
	live := lv.pinned
	for _, k := range lv.readingSlots {
		if s[l.Slot[k]] == SlotPending {
			live |= p.slotOp(s, k).mayCells()
		}
	}
	for proc := range p.Procs {
		undone := ^p.done(s, proc)
		for _, r := range lv.regs[proc] {
			if r.instrs&undone == 0 {
				p.setReg(s, proc, r.index, 0)
			}
		}
		for _, c := range lv.cells[proc] {
			if c.instrs&undone != 0 {
				live |= 1 << uint(c.index)
			}
		}
	}
	p.dropDeadMemory(s, live)
}

// dropDeadMemory zeroes what holds a value for a cell outside live.
func (p *Program) dropDeadMemory(s State, live uint64) {
	l := &p.Layout
	for c := range p.Cells {
		if live&(1<<uint(c)) == 0 {
			p.setPub(s, c, 0)
		}
	}
	if p.HW == spec.TSO {
		for proc := range p.Procs {
			for k := 0; k < int(s[l.TSOLen[proc]]); k++ {
				if off := l.TSOBuf[proc] + 9*k; live&(1<<uint(s[off])) == 0 {
					s.setI64(off+1, 0)
				}
			}
		}
	}
	for k := range p.Slots {
		off := l.Slot[k]
		if s[off] != SlotPending || live&p.slotOp(s, k).mayCells() == 0 {
			p.clearSlotValues(s, k)
		}
	}
	for k := range p.Chans {
		off := l.Chan[k]
		clear(s[off+2 : off+2+8*int(s[off+1])])
	}
}
