package model

import (
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Dependencies (docs/semantics.md#hardware-models): for each instruction, the earlier instructions of
// its process that must have executed first, as bit masks computed once at compile
// time, so that the search decides "may execute early" with one AND.

// dependencies computes, for each instruction, the earlier instructions that block
// it, and for one that may speculate (hw relaxed, §2) those its commit waits for.
func (c *compiler) dependencies(proc int) {
	code := c.p.Procs[proc].Code
	for j := range code {
		in := &code[j]
		for i := 0; i < j; i++ {
			switch c.relation(&code[i], in) {
			case blocks:
				in.Blockers |= 1 << uint(i)
			case commitsAfter:
				in.CommitAfter |= 1 << uint(i)
			case readsAfter:
				in.ReadBlockers |= 1 << uint(i)
			case commitsAndReadsAfter:
				in.CommitAfter |= 1 << uint(i)
				in.ReadBlockers |= 1 << uint(i)
			}
		}
		// originBuffers may add the completing call as a blocker, which a
		// forwarded load must respect too: it goes first.
		c.originBuffers(proc, j)
		c.forwarding(proc, j)
		if in.CommitAfter != 0 {
			in.Spec = int8(len(c.p.Procs[proc].Specs))
			c.p.Procs[proc].Specs = append(c.p.Procs[proc].Specs, j)
		}
	}
	for j := range code {
		in := &code[j]
		for k := j + 1; k < len(code); k++ {
			if code[k].Kind == KFence && code[k].Win == in.Win {
				in.FenceAfter = true
			}
		}
		if in.Kind == KWaitReq || in.Kind == KTestReq {
			for k := 0; k < j; k++ {
				if code[k].Slot >= 0 && code[k].Src.Req == in.Src.Req {
					in.ReqSlot = code[k].Slot
				}
			}
		}
	}
}

// dependency is how an earlier instruction a holds a later one b back.
type dependency uint8

const (
	independent          dependency = iota
	blocks                          // b executes only after a has
	commitsAfter                    // b (speculating) may read before a, commits after it
	readsAfter                      // b needs a (speculating) read, not committed
	commitsAndReadsAfter            // both
)

// speculates: the instruction may execute before its guard, or before the exit of a
// loop above it, is known (hw relaxed, §2): a plain load. Stores, RMA and MPI calls
// never do; register arithmetic may, but nothing can tell (speculate.go), so it waits.
func (c *compiler) speculates(in *Instr) bool {
	return c.p.HW == spec.Relaxed && in.Kind == KPlainLoad
}

// relation says how earlier instruction a holds b back (docs/semantics.md#hardware-models).
func (c *compiler) relation(a, b *Instr) dependency {
	if c.p.HW != spec.Relaxed {
		return blocks // sc and tso execute in program order
	}
	if a.IsMPI && b.IsMPI {
		return blocks // MPI calls never pass each other
	}
	spec := c.speculates(b)
	control := false // b waits for a only to know whether it runs
	switch {
	case a.Kind == KUntil:
		// the until is a control dependency: later stores, RMA and MPI calls (and
		// later untils) wait for the loop's exit; later loads may run before it.
		control = true
	case writeRegs(a)&(argRegs(b)|untilRegs(b)|b.Computed.regs()) != 0:
		return blocks // data dependency (a computed target or displacement too)
	case writeRegs(a)&guardRegs(b) != 0:
		control = true // b's guard
	case writeRegs(a)&writeRegs(b) != 0 || readRegs(a)&writeRegs(b) != 0:
		control = true // b's register write must not overtake a's use of it
	}
	dep := independent
	if control {
		if !spec {
			return blocks
		}
		dep = commitsAfter
	}
	ca, cb := c.accessCells(a), c.accessCells(b)
	reads := false // b needs a's access done: if a speculates, its read is enough
	switch {
	case ca&cb != 0:
		reads = true // coherence: accesses to the same cell (RMA calls count at issue)
	case a.MBScope&cb != 0 && !b.IsMPI:
		return blocks // an MB's acquire half: no later access of its scope before it
	case b.MBScope&ca != 0 && !a.IsMPI:
		reads = true // an MB's release half: earlier accesses of its scope first
	case a.Kind == KSharedQuery && (b.Kind == KPlainLoad || b.Kind == KPlainStore) && b.Remote && a.Win == b.Win:
		return blocks // access to a segment is granted by the query that precedes it
	}
	switch {
	case !reads:
		return dep
	case a.CommitAfter == 0:
		return blocks // a does not speculate: its access is its execution
	case dep == commitsAfter:
		return commitsAndReadsAfter
	}
	return readsAfter
}

// accessCells is the set of cells an instruction accesses (for coherence).
// A computed location counts every cell it may name.
func (c *compiler) accessCells(in *Instr) uint64 {
	switch in.Kind {
	case KPlainLoad, KPlainStore, KRemoteLoad, KRemoteStore, KRMA:
		return in.mayCells()
	}
	return 0
}

func writeRegs(in *Instr) uint32 {
	if in.Elems != nil {
		_, w := elemRegs(in)
		return w
	}
	if in.Dst >= 0 {
		return 1 << uint(in.Dst)
	}
	return 0
}

// RegistersRead is the mask of proc's registers that some instruction of proc reads.
func (p *Program) RegistersRead(proc int) uint32 {
	var m uint32
	for k := range p.Procs[proc].Code {
		m |= readRegs(&p.Procs[proc].Code[k])
	}
	return m
}

// readRegs are every register the instruction reads: operands, guard, until
// condition, computed target and displacement.
func readRegs(in *Instr) uint32 {
	return argRegs(in) | guardRegs(in) | untilRegs(in) | in.Computed.regs()
}

func guardRegs(in *Instr) uint32 {
	var m uint32
	if in.GuardReg >= 0 {
		m |= 1 << uint(in.GuardReg)
		if in.GuardVal.Reg >= 0 {
			m |= 1 << uint(in.GuardVal.Reg)
		}
	}
	return m
}

// untilRegs are the registers an until's condition reads.
func untilRegs(in *Instr) uint32 {
	var m uint32
	for _, term := range in.Until {
		for _, a := range term {
			m |= 1 << uint(a.Reg)
			if a.Val.Reg >= 0 {
				m |= 1 << uint(a.Val.Reg)
			}
		}
	}
	return m
}

// forwarding finds the store a relaxed load may read before it executes: the latest
// earlier unguarded store of the process to the same cell (docs/semantics.md#hardware-models).
func (c *compiler) forwarding(proc, j int) {
	code := c.p.Procs[proc].Code
	in := &code[j]
	if c.p.HW != spec.Relaxed || in.Kind != KPlainLoad || in.Computed != nil {
		return // a load through an address register forwards from nothing: its cell is known at run time only
	}
	for i := j - 1; i >= 0; i-- {
		if code[i].Kind == KPlainStore && code[i].Computed != nil && code[i].mayCells()&(1<<uint(in.Cell)) != 0 {
			return // a store through an address that may name the cell: which store is the latest is known at run time only
		}
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
// wait for the call that completes the RMA operation (docs/semantics.md#rma-operations).
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
		guard, body := touchesBuffer(rma, in)
		if !guard && !body {
			continue
		}
		switch {
		case (rma.Completer < 0 || int(rma.Completer) > j) && guard:
			in.OriginBufGuard = append(in.OriginBufGuard, int8(i))
		case rma.Completer < 0 || int(rma.Completer) > j:
			in.OriginBuf = append(in.OriginBuf, int8(i))
		case c.speculates(in) && rma.Dst >= 0 && (argRegs(in)|writeRegs(in))&writeRegs(rma) == 0:
			// only b's guard reads the result: b may read early, and commits once the
			// call that completes the operation has returned with the result
			in.CommitAfter |= 1 << uint(rma.Completer)
		default:
			in.Blockers |= 1 << uint(rma.Completer)
		}
	}
}

// touchesBuffer: b reads or writes a's result register, or writes a's source
// register (an operand of the call, not its guard). guard: b's guard reads a's
// result register, which it does whether the guard holds or not; body: the rest of
// b does, which happens only when the guard holds (docs/semantics.md#hardware-models: a guard found
// false cancels the instruction and any flag it raises).
func touchesBuffer(a, b *Instr) (guard, body bool) {
	if a.Dst >= 0 {
		guard = guardRegs(b)&writeRegs(a) != 0
		body = (readRegs(b)&^guardRegs(b)|writeRegs(b))&writeRegs(a) != 0
	}
	return guard, body || argRegs(a)&writeRegs(b) != 0
}

// argRegs are the registers an instruction's operands read (not its guard's).
func argRegs(in *Instr) uint32 {
	m, _ := elemRegs(in)
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
		if in.Win != rma.Win && in.Kind != KWaitReq && in.Kind != KTestReq {
			continue
		}
		switch in.Kind {
		case KFence, KComplete, KUnlockAll:
			return k
		case KUnlock, KFlush, KFlushLocal:
			if in.Op == litmus.OpFlushAll || in.Op == litmus.OpFlushLocalAll || c.p.sameTarget(proc, rma, in, i, k) {
				return k
			}
		case KWaitReq, KTestReq: // a testreq completes it when it returns 1, which its loop waits for
			if rma.Src.Req != "" && in.Src.Req == rma.Src.Req {
				return k
			}
		}
	}
	return -1
}
