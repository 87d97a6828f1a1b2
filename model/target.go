package model

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Computed and null targets (docs/language.md#computed-and-null-targets;
// docs/rules.md#e-target). A register may stand for the rank or the displacement
// of an RMA call's location, and for the target of lock, unlock, flush, flush_local
// and shared_query; null, or a rank register holding -1, is MPI_PROC_NULL.
//
// The call depends on those registers (readRegs: a write of one before the call
// holds it back, a write after it waits for it), so their values are fixed when it
// executes. It resolves rank and displacement then, at issue: a rank outside the
// window's group or a displacement outside the target's segment raises E-TARGET
// and the call has no effect. An RMA operation keeps the resolved cell and target
// in its slot (slotCell, slotTarget), and every search over pending operations
// sees the resolved instruction (slotOp). A call to MPI_PROC_NULL moves no data and
// leaves its result register unchanged: its slot is completed at issue, after the
// epoch check every RMA call makes.
//
// The analyses made at compile time (conflict candidates, coherence, the live
// cells, the reductions) use what the registers could hold: every rank of the
// window's group and every cell of its segments (MayCells), each such cell created
// at compile time (litmus.Test.CellsNamed).

// Computed is the part of an instruction known only at run time: its target rank
// (RankReg, or Null) and, for a location, its displacement (DispReg plus Disp).
type Computed struct {
	RankReg int8 // -1: the rank is Instr.Target's literal (Rank)
	Rank    int
	Null    bool
	DispReg int8 // -1: the displacement is Disp
	Disp    int  // the displacement, or the offset added to DispReg
	// Loc: the instruction has a location (an RMA call, or a load/store through an
	// address register), not just a target rank.
	Loc bool
	// Range: the location names several elements (range_target.go): Offs are their
	// displacements from the base (Disp plus DispReg's value), in typemap order;
	// cands the resolutions the registers may give, each keyed by its first
	// element's cell; ElemMay[e] the cells element e may name.
	Range   bool
	Offs    []int
	ElemMay []uint64
	cands   []rangeCand
	// MayCells / MayTargets: the cells and ranks the call may name; MayNull: the
	// target may be MPI_PROC_NULL. Known: the rank register can hold one value only
	// (KnownRank; -1 null), from the init block or `r = IMM` (regValues).
	MayCells   uint64
	MayTargets uint32
	MayNull    bool
	Known      bool
	KnownRank  int
	// cellAt[rank][disp] is the cell of a displacement of the window (-1: none).
	cellAt [][]int8
	// variants: the instruction resolved, for each cell it may name (byCell), or
	// each rank (byRank) for a call target, and for MPI_PROC_NULL (buildVariants).
	variants    []Instr
	byCell      []int16
	byRank      []int16
	nullVariant int16
}

// Slot bytes past status, epoch kind, epoch index and the two values: the
// resolved cell + 1 and target + 1 of a computed operation (0: none, MPI_PROC_NULL).
const (
	slotCellOff   = 19
	slotTargetOff = 20
	slotBytes     = 21
)

// computedInstr fills ci.Computed for a location or target given by a register or
// null, with the cells it may name, created now.
func (c *compiler) computedInstr(proc int, ci *Instr, in *litmus.Instr) {
	p := c.p
	switch {
	case in.Loc != nil && (in.Loc.Computed() || in.Loc.Null):
		l := in.Loc
		win := c.winIndex(l.Win)
		cmp := &Computed{RankReg: -1, DispReg: -1, Rank: l.Rank, Null: l.Null, Disp: l.Disp, Loc: true}
		if l.RankReg != "" {
			cmp.RankReg = c.reg(proc, l.RankReg)
		}
		if l.DispReg != "" {
			cmp.DispReg = c.reg(proc, l.DispReg)
		}
		cmp.cellAt = make([][]int8, p.NProcs)
		for r := range cmp.cellAt {
			cmp.cellAt[r] = make([]int8, max(p.Wins[win].SegSize[r], 0))
			for d := range cmp.cellAt[r] {
				cmp.cellAt[r][d] = -1
			}
		}
		ranks, disps := c.rankValues(proc, cmp, l.RankReg), c.dispValues(proc, l)
		elems := c.t.Elems(*l) // one, or one per element of a range
		for _, e := range elems {
			off := int64(e.Disp - l.Disp)
			for _, rd := range c.t.CellsNamed(e) {
				if ranks != nil && !ranks[int64(rd[0])] || disps != nil && !disps[int64(rd[1])-off] {
					continue // the registers never hold these
				}
				cell, _, _, _ := c.cell(litmus.Loc{Pos: l.Pos, Win: l.Win, Rank: rd[0], Disp: rd[1]})
				cmp.cellAt[rd[0]][rd[1]] = int8(cell)
				cmp.MayCells |= 1 << uint(cell)
				cmp.MayTargets |= 1 << uint(rd[0])
			}
		}
		c.dynamicMayCells(cmp, win, l) // addresses of attached regions (dynamic.go)
		ci.Win, ci.Cell, ci.Target, ci.Remote = int8(win), -1, -1, true
		if l.RankReg == "" && !l.Null {
			ci.Target = int8(l.Rank) // the rank is known: only the displacement is computed
			ci.Remote = l.Rank != proc
		}
		ci.Computed = cmp
		if l.Range != nil {
			c.computedRange(proc, ci, in, ranks, disps) // range_target.go
		}
	case in.TargetReg != "" || in.TargetNull:
		cmp := &Computed{RankReg: -1, DispReg: -1, Null: in.TargetNull}
		if in.TargetReg != "" {
			cmp.RankReg = c.reg(proc, in.TargetReg)
			ranks := c.rankValues(proc, cmp, in.TargetReg)
			for r := 0; r < p.NProcs && ci.Win >= 0; r++ {
				if p.Wins[ci.Win].Group&(1<<uint(r)) != 0 && (ranks == nil || ranks[int64(r)]) {
					cmp.MayTargets |= 1 << uint(r)
				}
			}
		}
		cmp.MayNull = cmp.MayNull || in.TargetNull
		ci.Target = -1
		ci.Computed = cmp
	}
}

// regs are the registers the computed part reads.
func (cmp *Computed) regs() uint32 {
	var m uint32
	if cmp == nil {
		return 0
	}
	if cmp.RankReg >= 0 {
		m |= 1 << uint(cmp.RankReg)
	}
	if cmp.DispReg >= 0 {
		m |= 1 << uint(cmp.DispReg)
	}
	return m
}

// mayCells is the set of cells the instruction may access.
func (in *Instr) mayCells() uint64 {
	if in.Computed != nil {
		return in.Computed.MayCells
	}
	if in.Elems != nil {
		return elemCells(in) // every element of a range (range.go)
	}
	if in.Cell < 0 {
		return 0
	}
	return 1 << uint(in.Cell)
}

// mayTargets is the set of ranks the instruction's target may be (none for null).
func (in *Instr) mayTargets() uint32 {
	if in.Computed != nil {
		if in.Computed.RankReg < 0 && !in.Computed.Null && in.Target >= 0 {
			return 1 << uint(in.Target)
		}
		return in.Computed.MayTargets
	}
	if in.Target < 0 {
		return 0
	}
	return 1 << uint(in.Target)
}

// badTarget says why a computed call names no valid target (E-TARGET): the
// rank register's value, or the displacement, out of range. Its message is built
// only when a full record asks for it: the steps allocate nothing.
type badTarget struct {
	disp bool  // the displacement (else the rank)
	v    int64 // the value found
	rank int   // the target, for a displacement
}

// resolve computes the target rank (-1: MPI_PROC_NULL) and, for a location, the
// cell of a computed instruction from the registers of proc in s; ok false when
// the rank is outside the window's group or the displacement outside the target's
// segment (E-TARGET).
func (p *Program) resolve(s State, proc int, in *Instr) (rank, cell int, bad badTarget, ok bool) {
	var rv, dv int64
	if r := in.Computed.RankReg; r >= 0 {
		rv = p.Reg(s, proc, int(r))
	}
	if r := in.Computed.DispReg; r >= 0 {
		dv = p.Reg(s, proc, int(r))
	}
	return p.resolveValues(in, rv, dv)
}

// resolveValues is resolve with the rank and displacement registers' values given.
func (p *Program) resolveValues(in *Instr, rv, dv int64) (rank, cell int, bad badTarget, ok bool) {
	cmp := in.Computed
	w := &p.Wins[in.Win]
	rank, cell = int(in.Target), -1
	switch {
	case cmp.Null:
		rank = -1
	case cmp.RankReg >= 0:
		v := rv
		switch {
		case v == -1:
			rank = -1 // MPI_PROC_NULL
		case v < 0 || v >= int64(p.NProcs) || w.Group&(1<<uint(v)) == 0:
			return 0, 0, badTarget{v: v}, false
		default:
			rank = int(v)
		}
	}
	if rank < 0 || !cmp.Loc {
		return rank, -1, badTarget{}, true
	}
	disp := int64(cmp.Disp)
	if cmp.DispReg >= 0 {
		disp += dv
	}
	if cmp.Range {
		return p.resolveRange(in, rank, disp) // range_target.go
	}
	c, found := p.cellOf(in, rank, disp)
	if !found {
		return 0, 0, badTarget{disp: true, v: disp, rank: rank}, false
	}
	return rank, c, badTarget{}, true
}

// cellOf is the cell at displacement (or address) disp of rank's memory in the
// window of computed location in (ok false: none).
func (p *Program) cellOf(in *Instr, rank int, disp int64) (int, bool) {
	cmp := in.Computed
	if cell, ok := p.DynamicCell(int(in.Win), rank, disp); ok && cmp.DispReg >= 0 {
		return cell, true // an address in a region rank attaches (dynamic.go)
	}
	if disp < 0 || disp >= int64(len(cmp.cellAt[rank])) || cmp.cellAt[rank][disp] < 0 {
		return 0, false
	}
	return int(cmp.cellAt[rank][disp]), true
}

// message describes a bad target of in, a call of proc.
func (b badTarget) message(p *Program, proc int, in *Instr) string {
	w := &p.Wins[in.Win]
	if b.disp && w.Flavor == litmus.FlavorDynamic && in.Computed.DispReg >= 0 {
		return fmt.Sprintf("%s: %s is no memory rank %d attaches to window %s", in.Text, p.valueString(b.v), b.rank, w.Name)
	}
	if b.disp {
		return fmt.Sprintf("%s: displacement %d is outside rank %d's segment of window %s (size %d)", in.Text, b.v, b.rank, w.Name, w.SegSize[b.rank])
	}
	return fmt.Sprintf("%s: target rank %d (register %s) is not a rank of window %s's group", in.Text, b.v, p.Procs[proc].Regs[in.Computed.RankReg], w.Name)
}

// variant is the instruction resolved to rank (-1: MPI_PROC_NULL) and cell: one of
// the copies made at compile time (buildVariants), so that resolving allocates
// nothing. A variant's Computed is nil: it is resolved.
func (cmp *Computed) variant(rank, cell int) *Instr {
	switch {
	case rank < 0:
		return &cmp.variants[cmp.nullVariant]
	case cell >= 0:
		return &cmp.variants[mustVariant(cmp.byCell[cell], "a cell")]
	}
	return &cmp.variants[cmp.byRank[rank]]
}

// buildVariants makes, for every computed instruction, its copy for each target
// and cell the registers may name, and for MPI_PROC_NULL, once the instruction is
// compiled whole (dependencies, reduction marks).
func (c *compiler) buildVariants() {
	p := c.p
	for proc := range p.Procs {
		for k := range p.Procs[proc].Code {
			in := &p.Procs[proc].Code[k]
			cmp := in.Computed
			if cmp == nil {
				continue
			}
			add := func(rank, cell int) int16 {
				v := *in
				v.Computed, v.Target, v.Cell = nil, int8(rank), int8(cell)
				cmp.variants = append(cmp.variants, v)
				return int16(len(cmp.variants) - 1)
			}
			cmp.nullVariant = add(-1, -1)
			if cmp.Range {
				c.rangeVariants(in) // range_target.go
				continue
			}
			if cmp.Loc {
				cmp.byCell = make([]int16, len(p.Cells))
				for m := cmp.MayCells; m != 0; m &= m - 1 {
					cell := bits.TrailingZeros64(m)
					cmp.byCell[cell] = add(p.Cells[cell].Rank, cell)
				}
				continue
			}
			cmp.byRank = make([]int16, p.NProcs)
			for r := range cmp.byRank {
				cmp.byRank[r] = add(r, -1)
			}
		}
	}
}

// resolveCall resolves a computed instruction about to execute, raising E-TARGET
// when it names no valid target (ok false: the call then has no effect). A
// shared_query of null answers for the lowest rank whose segment is not empty
// (MPI-4.1 MPI_WIN_SHARED_QUERY).
func (p *Program) resolveCall(s State, proc int, in *Instr, rec *Record) (*Instr, bool) {
	rank, cell, bad, ok := p.resolve(s, proc, in)
	if !ok {
		p.raise(s, rec, spec.ETarget, proc, in, func() string { return bad.message(p, proc, in) })
		return in, false
	}
	if in.Kind == KSharedQuery && rank < 0 {
		rank = p.sharedQueryNull(int(in.Win))
	}
	return in.Computed.variant(rank, cell), true
}

// sharedQueryNull is the rank MPI_WIN_SHARED_QUERY answers for with MPI_PROC_NULL:
// the lowest rank of the group whose segment is not empty (else the lowest rank).
func (p *Program) sharedQueryNull(win int) int {
	w := &p.Wins[win]
	first := -1
	for r := 0; r < p.NProcs; r++ {
		if w.Group&(1<<uint(r)) == 0 {
			continue
		}
		if first < 0 {
			first = r
		}
		if w.SegSize[r] > 0 {
			return r
		}
	}
	return max(first, 0)
}

// peekResolved is in resolved against s without raising anything; nil when the
// registers name no valid target.
func (p *Program) peekResolved(s State, proc int, in *Instr) *Instr {
	if in.Computed == nil {
		return in
	}
	rank, cell, _, ok := p.resolve(s, proc, in)
	if !ok {
		return nil
	}
	if in.Kind == KSharedQuery && rank < 0 {
		rank = p.sharedQueryNull(int(in.Win))
	}
	return in.Computed.variant(rank, cell)
}

// slotOp is the instruction of RMA slot k as issued in s: for a computed one, its
// variant for the target and cell it resolved to.
func (p *Program) slotOp(s State, k int) *Instr {
	sl := p.Slots[k]
	in := &p.Procs[sl.Proc].Code[sl.Instr]
	if in.Computed == nil {
		return in
	}
	off := p.Layout.Slot[k]
	return in.Computed.variant(int(s[off+slotTargetOff])-1, int(s[off+slotCellOff])-1)
}

// setSlotResolved records the resolved target and cell of an issued operation.
func (p *Program) setSlotResolved(s State, k int, in *Instr) {
	off := p.Layout.Slot[k]
	s[off+slotTargetOff] = byte(int(in.Target) + 1)
	s[off+slotCellOff] = byte(elemCell(in, 0) + 1) // a range's first element's cell keys its variant
}

// sameTarget reports whether two calls of one process surely name the same target
// rank: equal literals, both null, or the same register, not written between them
// (a before b in program order).
func (p *Program) sameTarget(proc int, a, b *Instr, ai, bi int) bool {
	ca, cb := a.Computed, b.Computed
	switch {
	case ca == nil && cb == nil:
		return a.Target == b.Target
	case ca != nil && cb != nil && ca.Known && cb.Known && ca.RankReg != cb.RankReg:
		return ca.KnownRank == cb.KnownRank // constant registers (regValues)
	case ca != nil && ca.Known && cb == nil:
		return ca.KnownRank == int(b.Target)
	case cb != nil && cb.Known && ca == nil:
		return cb.KnownRank == int(a.Target)
	case ca != nil && cb != nil && ca.Null && cb.Null:
		return true
	case ca != nil && cb != nil && ca.RankReg >= 0 && ca.RankReg == cb.RankReg:
		code := p.Procs[proc].Code
		for k := ai + 1; k < bi; k++ {
			if writeRegs(&code[k])&(1<<uint(ca.RankReg)) != 0 {
				return false
			}
		}
		return true
	case ca != nil && ca.RankReg < 0 && !ca.Null && cb == nil, cb != nil && cb.RankReg < 0 && !cb.Null && ca == nil:
		return a.Target == b.Target // a literal rank with a computed displacement
	}
	return false
}

// nullSyncTarget raises E-TARGET at lock, unlock, flush or flush_local of
// MPI_PROC_NULL (null, or a rank register holding -1); the call has no effect.
// MPI_PROC_NULL is a valid target rank of the RMA communication calls (node316:
// put, get, the accumulates, and their request forms), not of the synchronization
// calls: MPI_WIN_LOCK's, MPI_WIN_UNLOCK's and MPI_WIN_FLUSH's rank argument is the
// "rank of locked window (non-negative integer)" (MPI-4.1 node330, node331), and
// MPI_PROC_NULL is negative. Open MPI 4.1 refuses it with MPI_ERR_RANK; MPICH accepts
// it (its test locknull.c), which the standard does not promise.
func (p *Program) nullSyncTarget(s State, proc int, in *Instr, rec *Record) bool {
	p.raise(s, rec, spec.ETarget, proc, in, func() string {
		return fmt.Sprintf("%s: MPI_PROC_NULL is no target of %s, whose rank argument is a non-negative integer (MPI-4.1 node330/node331; MPI_PROC_NULL is valid for the RMA communication calls only, node316)", in.Text, in.Op)
	})
	return true
}

// nullEpoch finds the access epoch an RMA call to MPI_PROC_NULL is issued in: any
// access epoch of the caller on the window (a start, a lock of any target,
// lock_all, or a fence epoch).
func (p *Program) nullEpoch(s State, proc int, in *Instr) (kind, index int) {
	wl := &p.Layout.Win[in.Win]
	switch {
	case s.u32(wl.StartOpen+4*proc) != 0:
		return EpochPSCW, 0
	case s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0:
		return EpochPassive, 0
	}
	if k := int(s[wl.FenceDone+proc]); k > 0 && s[wl.FenceOpen+proc]&1 != 0 && in.FenceAfter {
		return EpochFence, k
	}
	return 0, 0
}

// dynActive is opActive for an RMA call with a computed location, as an access of
// cell a.cell (by its element a.elem, for a range): issued to that cell, or about to
// be issued with registers that name it; an operation to another cell (or to
// MPI_PROC_NULL) is no access of this one.
func (p *Program) dynActive(s State, a *access, in *Instr) (status int, active bool) {
	off := p.Layout.Slot[a.slot]
	if st := int(s[off]); st != SlotIdle {
		if elemCell(p.slotOp(s, a.slot), a.elem) != a.cell {
			return SlotIdle, false
		}
		switch st {
		case SlotPerformed:
			return st, true
		case SlotPending:
			if p.Slots[a.slot].Multi && p.elemPerformed(s, a.slot, int(a.elem)) {
				return SlotPerformed, true // this element performed, the call not yet complete
			}
			return st, p.exposed(s, int(in.Win), a.proc, int(s[off+slotTargetOff])-1, int(s[off+1]), int(s[off+2]))
		}
		return st, false
	}
	if !p.issuable(s, a, in) {
		return SlotIdle, false
	}
	r := p.peekResolved(s, a.proc, in)
	if r == nil || elemCell(r, a.elem) != a.cell {
		return SlotIdle, false
	}
	kind, index := p.epochFor(s, a.proc, r)
	if kind == 0 {
		return SlotIdle, false
	}
	return SlotIdle, p.exposed(s, int(in.Win), a.proc, int(r.Target), kind, index)
}

// regValues is the set of values register reg of proc may hold, when only the
// init block (or the initial 0), `reg = IMM`, `reg = attach W N` (the address of
// its region, dynamic.go) and `reg = r + IMM`, `reg = r - IMM` of such a register
// write it; nil when another instruction writes it (a recv, a get, other
// arithmetic: any value).
func (c *compiler) regValues(proc int, reg string) map[int64]bool {
	return c.regValuesFrom(proc, reg, map[string]bool{})
}

func (c *compiler) regValuesFrom(proc int, reg string, visiting map[string]bool) map[int64]bool {
	if visiting[reg] {
		return nil // r = r + 1, or a cycle of copies: any value
	}
	visiting[reg] = true
	defer delete(visiting, reg)
	init := int64(0)
	for _, in := range c.t.Inits {
		if in != nil && in.Reg != nil && in.Reg.Proc == proc && in.Reg.Reg == reg {
			init = in.Value
		}
	}
	vals := map[int64]bool{init: true}
	for row, in := range c.t.Procs[proc].Code {
		if in == nil || !slices.Contains(in.WriteRegs(), reg) && !slices.Contains(in.Dsts, reg) {
			continue
		}
		switch {
		case in.Op == litmus.OpMov && len(in.Args) == 1 && !in.Args[0].IsReg():
			vals[in.Args[0].Imm] = true
		case in.Op == litmus.OpAttach:
			g := c.regionAt(proc, row+1)
			if g < 0 {
				return nil
			}
			vals[Addr(g, 0)] = true
		case (in.Op == litmus.OpMov && len(in.Args) == 1 || (in.Op == litmus.OpAdd || in.Op == litmus.OpSub) && len(in.Args) == 2 && !in.Args[1].IsReg()) && in.Args[0].IsReg():
			from := c.regValuesFrom(proc, in.Args[0].Reg, visiting)
			if from == nil {
				return nil
			}
			for v := range from {
				vals[in.Op.Arith(v, in.Args[min(1, len(in.Args)-1)].Imm)] = true
			}
		default:
			return nil
		}
	}
	return vals
}

// regionAt is the region of the attach of proc on row (-1: none).
func (c *compiler) regionAt(proc, row int) int {
	for g, r := range c.p.Regions {
		if r.Proc == proc && r.Row == row {
			return g
		}
	}
	return -1
}

// rankValues is the set of ranks a computed rank may be (nil: any), noting in cmp
// whether it may be MPI_PROC_NULL and whether it is one known value.
func (c *compiler) rankValues(proc int, cmp *Computed, reg string) map[int64]bool {
	if reg == "" {
		cmp.MayNull = cmp.MayNull || cmp.Null
		if cmp.Null {
			cmp.Known, cmp.KnownRank = true, -1
		}
		return nil
	}
	vals := c.regValues(proc, reg)
	if vals == nil {
		cmp.MayNull = true
		return nil
	}
	cmp.MayNull = vals[-1]
	if len(vals) == 1 {
		for v := range vals {
			if v >= -1 && v < int64(c.p.NProcs) {
				cmp.Known, cmp.KnownRank = true, int(v)
			}
		}
	}
	return vals
}

// dispValues is the set of displacements a computed location may name (nil: any).
func (c *compiler) dispValues(proc int, l *litmus.Loc) map[int64]bool {
	if l.DispReg == "" {
		return nil // a literal: CellsNamed has it
	}
	vals := c.regValues(proc, l.DispReg)
	if vals == nil {
		return nil
	}
	out := map[int64]bool{}
	for v := range vals {
		out[v+int64(l.Disp)] = true
	}
	return out
}

// targetIsSelf: the call's target is surely the calling process (a lock or unlock
// of it is an MB of scope own): a literal, or a register known to hold it.
func (in *Instr) targetIsSelf(proc int) bool {
	if in.Computed == nil {
		return int(in.Target) == proc
	}
	return in.Computed.Known && in.Computed.KnownRank == proc
}

// rerunCell is the cell an access of a loop body reads when the body is run again
// on the registers regs (loop.go): its own, or the one its computed location names
// with them; ok false for MPI_PROC_NULL and a bad target (the register keeps its
// value, as when the call runs).
func (p *Program) rerunCell(in *Instr, regs []int64) (int, bool) {
	r, ok := p.rerunVariant(in, regs)
	if !ok {
		return 0, false
	}
	return int(r.Cell), true
}

// rerunVariant is in resolved on the registers regs (ok false for MPI_PROC_NULL and
// a bad target).
func (p *Program) rerunVariant(in *Instr, regs []int64) (*Instr, bool) {
	cmp := in.Computed
	if cmp == nil {
		return in, true
	}
	var rv, dv int64
	if cmp.RankReg >= 0 {
		rv = regs[cmp.RankReg]
	}
	if cmp.DispReg >= 0 {
		dv = regs[cmp.DispReg]
	}
	rank, cell, _, ok := p.resolveValues(in, rv, dv)
	if !ok || rank < 0 {
		return nil, false
	}
	return cmp.variant(rank, cell), true
}
