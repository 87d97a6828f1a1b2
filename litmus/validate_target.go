package litmus

import "fmt"

// Checks of computed and null targets (docs/language.md#computed-and-null-targets): the registers
// they read must be written, they stand only in RMA calls and in the target of lock,
// unlock, flush, flush_local and shared_query, and a literal part is checked as
// ever. A rank or displacement a register holds is checked when the call is issued
// (docs/rules.md#e-target), not here.

// computedLoc checks a location with a register rank or displacement, or null,
// outside the registers it reads (callLoc does those). It reports whether the
// location's window is known and the literal parts are in range.
func (v *validator) computedLoc(l Loc) bool {
	t := v.t
	w, ok := v.locWindow(l)
	if !ok {
		return false
	}
	name := LocString(l)
	b := w.Base(t)
	if b == nil || b.Size == nil && b.Bytes == nil {
		return false // reported at the window
	}
	if b.Bytes != nil {
		v.errorf(l.Pos, "%s: a computed rank or displacement on window %s, whose segments are sized in bytes (bytes=): rmacheck computes targets on windows sized in cells (size=) only", name, w.Name)
		return false
	}
	if l.DispReg == "" && !l.Null {
		// A literal displacement (each element's, for a range) must fit some
		// segment the rank may name.
		for _, e := range t.Elems(l) {
			fits := false
			for r := 0; r < v.n; r++ {
				if (l.RankReg != "" || r == l.Rank) && w.InGroup(r) && e.Disp >= 0 && e.Disp < w.SegmentSize(t, r) {
					fits = true
				}
			}
			if !fits {
				v.errorf(l.Pos, "%s: displacement %d outside every segment of window %s it may name", name, e.Disp, w.Name)
				return false
			}
		}
	}
	return true
}

// addressAccess: a load, store or await through an address register (docs/language.md#dynamic-windows:
// W@1[r5], W@1[r5+2]): a register displacement at a literal rank
// on a dynamic window, one element. The model resolves the cell when the access
// executes; other computed locations stay RMA's (a plain access has no target
// rank to compute, and MPI_PROC_NULL is no memory).
func (v *validator) addressAccess(l Loc) bool {
	w := v.t.LookupWindow(l.Win)
	return w != nil && w.Flavor == FlavorDynamic && l.DispReg != "" && l.RankReg == "" && !l.Null && l.Range == nil
}

// fixedLocNeeded refuses a computed location where a fixed cell is needed: an
// alias, an initial value, the locations line, a condition, or a load or store
// that is no address access.
func (v *validator) fixedLocNeeded(l Loc, where string, orAddress bool) {
	what := "a computed rank or displacement"
	if l.Null {
		what = "null (MPI_PROC_NULL)"
	}
	alt := ""
	if orAddress {
		alt = ", or an address register at a literal rank of a dynamic window (W@1[r5])"
	}
	v.errorf(l.Pos, "%s: %s is known only when an RMA call is issued: %s needs a fixed cell W@rank[disp]%s", LocString(l), what, where, alt)
}

// callLoc checks the registers of an instruction's computed location and that the
// instruction may take one: the RMA calls do (put, get, acc, gacc, fop, cas and
// their request forms), with a range too (W@1[r5+0..3], W@null[0..3]); load, store
// and await only through an address register (addressAccess), else they need a
// fixed cell.
func (v *validator) callLoc(pi int, ins *Instr, writes map[string]bool) bool {
	l := ins.Loc
	if l == nil || !l.Computed() && !l.Null {
		return true
	}
	if !ins.Op.IsRMA() && !v.addressAccess(*l) {
		v.fixedLocNeeded(*l, fmt.Sprintf("%s (a plain access of memory)", ins.Op), true)
		return false
	}
	for _, r := range locRegs(l) {
		v.readReg(pi, r, l.Pos, writes, false)
	}
	if l.Range != nil {
		if !v.checkRange(*l) {
			return false
		}
		v.rangeUse(ins)
	}
	return v.computedLoc(*l)
}

// callTarget checks a register or null target of lock, unlock, flush, flush_local or
// shared_query. It reports whether the target is a literal to check as before.
func (v *validator) callTarget(pi int, ins *Instr, writes map[string]bool) bool {
	pos := or(ins.TargetPos, ins.Pos)
	switch ins.Op {
	case OpLock, OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
	default:
		if ins.TargetReg != "" || ins.TargetNull {
			v.errorf(pos, "%s takes no register or null target", ins.Op)
		}
		return true
	}
	if ins.TargetReg != "" && ins.TargetNull {
		v.errorf(pos, "%s has both a register and a null target", ins.Op)
	}
	if ins.TargetReg != "" {
		v.readReg(pi, ins.TargetReg, pos, writes, false)
		return false
	}
	return !ins.TargetNull
}
