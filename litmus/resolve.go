package litmus

import "slices"

// NumProcs is the number of processes (columns).
func (t *Test) NumProcs() int { return len(t.Procs) }

// LookupWindow finds a window by name, or nil.
func (t *Test) LookupWindow(name string) *Window {
	for _, w := range t.Windows {
		if w.Name == name {
			return w
		}
	}
	return nil
}

// LookupAlias finds a location alias by name, or nil.
func (t *Test) LookupAlias(name string) *Alias {
	for _, a := range t.Aliases {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// ResolveLoc turns a location into its window, rank and displacement, through an alias.
// typ is the alias's type when it has one, else the window's CellType. ok is false when a
// name does not resolve (Validate reports those).
func (t *Test) ResolveLoc(l Loc) (w *Window, rank, disp int, typ Type, ok bool) {
	typ = TypeDefault
	if l.Alias != "" {
		a := t.LookupAlias(l.Alias)
		if a == nil || a.Loc.Alias != "" {
			return nil, 0, 0, TypeDefault, false
		}
		typ = a.Type
		l = a.Loc
	}
	w = t.LookupWindow(l.Win)
	if w == nil {
		return nil, 0, 0, TypeDefault, false
	}
	if typ == TypeDefault {
		typ = w.CellType()
	}
	return w, l.Rank, l.Disp, typ, true
}

// InGroup reports whether rank is in the window's group (every rank when ranks= is absent).
func (w *Window) InGroup(rank int) bool {
	if w.Ranks == nil {
		return rank >= 0
	}
	for _, r := range w.Ranks {
		if r == rank {
			return true
		}
	}
	return false
}

// Base follows over= to the window whose memory w uses (w itself without over=).
// It returns nil when the chain names an unknown window or loops.
func (w *Window) Base(t *Test) *Window {
	b := w
	for i := 0; b != nil && b.Over != ""; i++ {
		if i > len(t.Windows) {
			return nil
		}
		b = t.LookupWindow(b.Over)
	}
	return b
}

// SegmentBytes is the byte size of rank's segment when the window (or the one it is
// created over) is declared with bytes=; ok is false for size= windows.
func (w *Window) SegmentBytes(t *Test, rank int) (n int, ok bool) {
	b := w.Base(t)
	if b == nil || b.Bytes == nil {
		return 0, false
	}
	if !w.InGroup(rank) || rank < 0 || rank >= len(b.Bytes) {
		return 0, true
	}
	return b.Bytes[rank], true
}

// SegmentSize is the size of rank's segment in the window's displacement units: cells
// with size=, bytes (divided by disp_unit when given) with bytes=. It follows over= to the
// other window's sizes and is 0 for ranks outside the window's group.
func (w *Window) SegmentSize(t *Test, rank int) int {
	if !w.InGroup(rank) || rank < 0 {
		return 0
	}
	b := w.Base(t)
	if b == nil {
		return 0
	}
	if b.Bytes != nil {
		if rank >= len(b.Bytes) {
			return 0
		}
		n := b.Bytes[rank]
		if w.DispUnit > 0 {
			n /= w.DispUnit
		}
		return n
	}
	switch {
	case len(b.Size) == 0:
		return 0
	case !b.SizeList:
		return b.Size[0]
	case rank < len(b.Size):
		return b.Size[rank]
	}
	return 0
}

// ReadRegs lists the registers the instruction reads: its operands, its guard's, and
// an until's condition's (await's condition reads only the register it loads).
func (i *Instr) ReadRegs() []string {
	var rs []string
	if i.Guard != nil {
		rs = append(rs, i.Guard.Regs()...)
	}
	for _, a := range i.Args {
		if a.IsReg() {
			rs = append(rs, a.Reg)
		}
	}
	rs = append(rs, locRegs(i.Loc)...) // a computed rank or displacement
	if i.TargetReg != "" {
		rs = append(rs, i.TargetReg)
	}
	switch {
	case i.Until == nil:
	case i.Op == OpUntil:
		rs = append(rs, i.Until.Regs()...)
	case i.Op == OpAwait && len(i.Until.Terms) > 0 && len(i.Until.Terms[0]) > 0 && i.Until.Terms[0][0].Val.IsReg():
		rs = append(rs, i.Until.Terms[0][0].Val.Reg) // the value it waits for (it loads its Dst)
	}
	return rs
}

// WriteRegs lists the registers the instruction writes (its Dst, or the result
// tuple of a multi-element get or gacc).
func (i *Instr) WriteRegs() []string {
	if i.Dst == "" {
		return slices.Clone(i.Dsts)
	}
	return []string{i.Dst}
}
