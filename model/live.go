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
// What it leaves alone, to keep that argument short: the cells of separate windows
// (R5/R6 copies move values between the two copies), speculation entries, and
// message values not yet received.

// liveness is what DropDead reads, built at compile time.
type liveness struct {
	// regReaders[proc][r]: the instructions of proc that read register r
	// (operands, guard, until condition), and the untils whose loop body does.
	regReaders [][]uint64
	regOut     []uint32 // per process: registers that are outcome items
	// cellReaders[c*NProcs+proc]: the instructions of proc whose execution or
	// perform reads cell c (plain and remote loads, gets, accumulates, cas), and
	// the untils whose loop body holds one.
	cellReaders []uint64
	// slotReads[k]: the perform of slot k reads its cell.
	slotReads []bool
	// pinned: cells never dropped (outcome items, separate windows).
	pinned uint64
}

// buildLiveness computes the reader masks of the quotient.
func (c *compiler) buildLiveness() {
	p := c.p
	n := p.NProcs
	lv := &liveness{regReaders: make([][]uint64, n), regOut: make([]uint32, n),
		cellReaders: make([]uint64, len(p.Cells)*n), slotReads: make([]bool, len(p.Slots))}
	for _, o := range p.Out {
		if o.Proc >= 0 {
			lv.regOut[o.Proc] |= 1 << uint(o.Reg)
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
		code := p.Procs[proc].Code
		lv.regReaders[proc] = make([]uint64, len(p.Procs[proc].Regs))
		for j := range code {
			in := &code[j]
			readers := uint64(1) << uint(j)
			for u := range code {
				if code[u].Kind == KUntil && code[u].LoopBody&readers != 0 {
					readers |= 1 << uint(u) // a blocked loop's body is rerun at the end
				}
			}
			for m := readRegs(in); m != 0; m &= m - 1 {
				lv.regReaders[proc][bits.TrailingZeros32(m)] |= readers
			}
			if readsCell(in) {
				lv.cellReaders[int(in.Cell)*n+proc] |= readers
			}
		}
	}
	for k, sl := range p.Slots {
		lv.slotReads[k] = readsCell(&p.Procs[sl.Proc].Code[sl.Instr])
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
	n := p.NProcs
	live := lv.pinned
	for k, reads := range lv.slotReads {
		if reads && s[l.Slot[k]] == SlotPending {
			live |= 1 << uint(p.Procs[p.Slots[k].Proc].Code[p.Slots[k].Instr].Cell)
		}
	}
	for proc := range p.Procs {
		undone := ^p.done(s, proc)
		for r, readers := range lv.regReaders[proc] {
			if readers&undone == 0 && lv.regOut[proc]&(1<<uint(r)) == 0 {
				p.setReg(s, proc, r, 0)
			}
		}
		for c := range p.Cells {
			if lv.cellReaders[c*n+proc]&undone != 0 {
				live |= 1 << uint(c)
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
	for k, sl := range p.Slots {
		off := l.Slot[k]
		if s[off] != SlotPending || live&(1<<uint(p.Procs[sl.Proc].Code[sl.Instr].Cell)) == 0 {
			clear(s[off+3 : off+19])
		}
	}
	for k := range p.Chans {
		off := l.Chan[k]
		clear(s[off+2 : off+2+8*int(s[off+1])])
	}
}
