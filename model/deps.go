package model

import (
	"github.com/rmacheck/rmacheck/litmus"
)

// Dependencies (SEMANTICS.md §2): for each instruction, the earlier instructions of
// its process that must have executed first, as bit masks computed once at compile
// time, so that the search decides "may execute early" with one AND.

// dependencies computes, for each instruction, the earlier instructions that block it.
func (c *compiler) dependencies(proc int) {
	code := c.p.Procs[proc].Code
	for j := range code {
		in := &code[j]
		for i := 0; i < j; i++ {
			if c.blocks(proc, &code[i], in) {
				in.Blockers |= 1 << uint(i)
			}
		}
		// originBuffers may add the completing call as a blocker, which a
		// forwarded load must respect too: it goes first.
		c.originBuffers(proc, j)
		c.forwarding(proc, j)
	}
	for j := range code {
		in := &code[j]
		for k := j + 1; k < len(code); k++ {
			if code[k].Kind == KFence && code[k].Win == in.Win {
				in.FenceAfter = true
			}
		}
		if in.Kind == KWaitReq {
			for k := 0; k < j; k++ {
				if code[k].Slot >= 0 && code[k].Src.Req == in.Src.Req {
					in.ReqSlot = code[k].Slot
				}
			}
		}
	}
}

// blocks reports whether earlier instruction a, while unexecuted, keeps b from executing.
func (c *compiler) blocks(proc int, a, b *Instr) bool {
	if c.p.HW != Relaxed {
		return true // sc and tso execute in program order
	}
	if a.IsMPI && b.IsMPI {
		return true // MPI calls never pass each other
	}
	if regsConflict(a, b) {
		return true // data dependency, guard, or a register reused
	}
	ca, cb := c.accessCells(a), c.accessCells(b)
	if ca&cb != 0 {
		return true // coherence: accesses to the same cell (RMA calls count at issue)
	}
	if a.MBScope&cb != 0 && !b.IsMPI {
		return true // an MB's acquire half: no later access of its scope before it
	}
	if b.MBScope&ca != 0 && !a.IsMPI {
		return true // an MB's release half: earlier accesses of its scope first
	}
	if a.Kind == KSharedQuery && (b.Kind == KPlainLoad || b.Kind == KPlainStore) && b.Remote && a.Win == b.Win {
		return true // access to a segment is granted by the query that precedes it
	}
	return false
}

// accessCells is the set of cells an instruction accesses (for coherence).
func (c *compiler) accessCells(in *Instr) uint64 {
	if in.Cell < 0 {
		return 0
	}
	switch in.Kind {
	case KPlainLoad, KPlainStore, KRemoteLoad, KRemoteStore, KRMA:
		return 1 << uint(in.Cell)
	}
	return 0
}

func regsConflict(a, b *Instr) bool {
	aw, ar := writeRegs(a), readRegs(a)
	bw, br := writeRegs(b), readRegs(b)
	return aw&(br|bw) != 0 || ar&bw != 0
}

func writeRegs(in *Instr) uint32 {
	if in.Dst >= 0 {
		return 1 << uint(in.Dst)
	}
	return 0
}

func readRegs(in *Instr) uint32 {
	m := argRegs(in)
	if in.GuardReg >= 0 {
		m |= 1 << uint(in.GuardReg)
		if in.GuardVal.Reg >= 0 {
			m |= 1 << uint(in.GuardVal.Reg)
		}
	}
	return m
}

// forwarding finds the store a relaxed load may read before it executes: the latest
// earlier unguarded store of the process to the same cell (SEMANTICS.md §2).
func (c *compiler) forwarding(proc, j int) {
	code := c.p.Procs[proc].Code
	in := &code[j]
	if c.p.HW != Relaxed || in.Kind != KPlainLoad {
		return
	}
	for i := j - 1; i >= 0; i-- {
		if code[i].Kind == KPlainStore && code[i].Cell == in.Cell {
			if code[i].GuardReg < 0 {
				in.FwdStore = int8(i)
				in.FwdBlockers = in.Blockers &^ (1 << uint(i))
			}
			return
		}
	}
}

// originBuffers records E-ORIGIN-BUF pairs and makes a later use of an origin buffer
// wait for the call that completes the RMA operation (SEMANTICS.md §3).
func (c *compiler) originBuffers(proc, j int) {
	code := c.p.Procs[proc].Code
	in := &code[j]
	for i := 0; i < j; i++ {
		rma := &code[i]
		if rma.Kind != KRMA {
			continue
		}
		if rma.Completer < 0 {
			rma.Completer = int8(c.completer(proc, i))
		}
		if !touchesBuffer(rma, in) {
			continue
		}
		if rma.Completer < 0 || int(rma.Completer) > j {
			in.OriginBuf = append(in.OriginBuf, int8(i))
		} else {
			in.Blockers |= 1 << uint(rma.Completer)
		}
	}
}

// touchesBuffer: b reads or writes a's result register, or writes a's source
// register (an operand of the call, not its guard).
func touchesBuffer(a, b *Instr) bool {
	if a.Dst >= 0 && (readRegs(b)|writeRegs(b))&(1<<uint(a.Dst)) != 0 {
		return true
	}
	return argRegs(a)&writeRegs(b) != 0
}

// argRegs are the registers an instruction's operands read (not its guard's).
func argRegs(in *Instr) uint32 {
	var m uint32
	for k := 0; k < in.NArgs && k < 2; k++ {
		if in.Args[k].Reg >= 0 {
			m |= 1 << uint(in.Args[k].Reg)
		}
	}
	return m
}

// completer is the first call after RMA instruction i that completes it at the origin.
func (c *compiler) completer(proc, i int) int {
	code := c.p.Procs[proc].Code
	rma := &code[i]
	for k := i + 1; k < len(code); k++ {
		in := &code[k]
		if in.Win != rma.Win && in.Kind != KWaitReq {
			continue
		}
		switch in.Kind {
		case KFence, KComplete, KUnlockAll:
			return k
		case KUnlock, KFlush, KFlushLocal:
			if in.Op == litmus.OpFlushAll || in.Op == litmus.OpFlushLocalAll || in.Target == rma.Target {
				return k
			}
		case KWaitReq:
			if rma.Src.Req != "" && in.Src.Req == rma.Src.Req {
				return k
			}
		}
	}
	return -1
}
