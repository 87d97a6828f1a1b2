package model

// The accessors a driver other than the explorer needs (the reference runtime):
// it keeps memory and registers outside the state and brings them in for each step.

// MemWords is the number of memory words a state holds: the public copy of every
// cell, then the private copy of every cell when some window is separate.
func (p *Program) MemWords() int {
	if p.hasSeparate {
		return 2 * len(p.Cells)
	}
	return len(p.Cells)
}

// MemWord reads memory word i (see MemWords).
func (p *Program) MemWord(s State, i int) int64 {
	if i < len(p.Cells) {
		return s.i64(p.Layout.Pub + 8*i)
	}
	return s.i64(p.Layout.Priv + 8*(i-len(p.Cells)))
}

// SetMemWord writes memory word i.
func (p *Program) SetMemWord(s State, i int, v int64) {
	if i < len(p.Cells) {
		s.setI64(p.Layout.Pub+8*i, v)
		return
	}
	s.setI64(p.Layout.Priv+8*(i-len(p.Cells)), v)
}

// LocalWord is the memory word a plain access of cell c by its owner uses: the
// private copy of a separate window, the only copy of a unified one.
func (p *Program) LocalWord(c int) int {
	if p.Cells[c].Separate {
		return len(p.Cells) + c
	}
	return c
}

// SetReg writes register r of process proc.
func (p *Program) SetReg(s State, proc, r int, v int64) { p.setReg(s, proc, r, v) }

// InCall is the two-phase call process proc has arrived at (-1: none).
func (p *Program) InCall(s State, proc int) int { return int(s[p.Layout.InCall[proc]]) - 1 }

// SlotPendingIn reports whether RMA slot k is issued and not yet performed.
func (p *Program) SlotPendingIn(s State, k int) bool { return s[p.Layout.Slot[k]] == SlotPending }

// Choices is the number of results the shared_query at (proc, j) may give in s (1 or 2).
func (p *Program) Choices(s State, proc, j int) int {
	if p.Procs[proc].Code[j].Kind == KSharedQuery && p.sqOpen(s, proc, &p.Procs[proc].Code[j]) {
		return 2
	}
	return 1
}

// GuardHolds evaluates the guard of instruction j of proc on the registers of s.
func (p *Program) GuardHolds(s State, proc, j int) bool {
	in := &p.Procs[proc].Code[j]
	return in.GuardReg < 0 || p.guardHolds(s, proc, in)
}

// NoteLocalStore records that the owner stored to cell c outside the model (a
// driver's plain store): the next R5 point copies it to the public window.
func (p *Program) NoteLocalStore(s State, c int) {
	if p.Cells[c].Separate {
		s.setU64(p.Layout.DirtyPriv, s.u64(p.Layout.DirtyPriv)|1<<uint(c))
	}
}

// UntilHolds evaluates the exit test of a spin loop (a KUntil instruction of proc)
// on a driver's registers: a driver that runs loops for real (the reference
// runtime) runs the body again while it is false (RestartLoop).
func (p *Program) UntilHolds(proc int, in *Instr, regs []int64) bool {
	return p.untilHolds(nil, proc, in, regs)
}

// AccessCell is the cell a plain load or store of proc accesses with the registers
// regs: its own, or the one its address register names (target.go); ok false when
// the register names no memory (the model raises E-TARGET and the access has no
// effect).
func (p *Program) AccessCell(in *Instr, regs []int64) (cell int, ok bool) {
	return p.rerunCell(in, regs)
}
