package model

import "slices"

// Collapse compression (Holzmann, "State compression in SPIN", 1997): a search
// that stores each state whole stores the same process parts and window parts
// over and over, since a step changes one process (and perhaps a window or a
// cell). StateParts cuts a state into parts, one per process (its registers, done
// set, store buffer, call and speculation state, the cells it owns and the RMA
// slots it issues), one per window (its epoch and lock tables), and one for the
// rest (flags, dirty masks, attached regions, channels); the explorer stores each
// part once and a state as the tuple of its parts' indices. The parts are a
// partition of the state's bytes, but for the block of zeros that the fields the
// program never changes point into (buildLayout): it is the same in every state,
// and left out. Two states are equal exactly when their parts are, so the
// compression is exact.

// Span is a range of a state's bytes.
type Span struct{ Off, Len int }

// StateParts is the partition of the state into parts (see above), each a list of
// spans in increasing order; parts with no byte are left out.
func (p *Program) StateParts() [][]Span {
	l := &p.Layout
	n := p.NProcs
	global := n + len(p.Wins)
	parts := make([][]Span, global+1)
	add := func(k, off, size int) {
		if size == 0 || off == l.zeroOff {
			return
		}
		if sp := parts[k]; len(sp) > 0 && sp[len(sp)-1].Off+sp[len(sp)-1].Len == off {
			sp[len(sp)-1].Len += size
			return
		}
		parts[k] = append(parts[k], Span{off, size})
	}
	add(global, l.Flags, 4)
	for i := range p.Procs {
		pr := &p.Procs[i]
		add(i, l.Done[i], 8)
		add(i, l.InCall[i], 1)
		add(i, l.Regs[i], 8*len(pr.Regs))
		add(i, l.TSOLen[i], 1)
		if l.TSOLen[i] != l.zeroOff {
			add(i, l.TSOBuf[i], 9*pr.Stores)
		}
		add(i, l.Barrs[i], 1)
		add(i, l.StoredOwn[i], 8)
		if l.ReqDone[i] >= 0 {
			add(i, l.ReqDone[i], 8)
		}
		if l.ReqLocal[i] >= 0 {
			add(i, l.ReqLocal[i], 8)
		}
		add(i, l.SpecRead[i], 8)
		add(i, l.Spec[i], specEntry*len(pr.Specs))
	}
	for c, cell := range p.Cells {
		add(cell.Rank, l.Pub+8*c, 8)
		if p.hasSeparate {
			add(cell.Rank, l.Priv+8*c, 8)
		}
	}
	add(global, l.DirtyPriv, 8)
	add(global, l.DirtyPub, 8)
	add(global, l.Attached, 8)
	for w := range p.Wins {
		wl := &l.Win[w]
		for _, f := range []Span{{wl.FenceDone, n}, {wl.FenceOpen, n}, {wl.Freed, n}, {wl.LockHeld, 4 * n}, {wl.LockAll, n},
			{wl.StartOpen, 4 * n}, {wl.PostOpen, 4 * n}, {wl.Holders, 4 * n}, {wl.Excl, n},
			{wl.PostCnt, n * n}, {wl.StartCnt, n * n}, {wl.DoneCnt, n * n}, {wl.SQ, n * n},
			{wl.FenceLocked, 8 * n}, {wl.FenceTargeted, 8 * n}} {
			add(n+w, f.Off, f.Len)
		}
	}
	for k, sl := range p.Slots {
		add(sl.Proc, l.Slot[k], p.slotLayoutBytes(k))
	}
	for k, c := range p.Chans {
		add(global, l.Chan[k], 2+8*c.Cap)
	}
	out := parts[:0]
	for _, sp := range parts {
		if len(sp) > 0 {
			slices.SortFunc(sp, func(a, b Span) int { return a.Off - b.Off })
			out = append(out, sp)
		}
	}
	return out
}

// ZeroBlock is the span of the block of zeros no step writes (Len 0: none).
func (p *Program) ZeroBlock() Span {
	if p.Layout.zeroOff < 0 {
		return Span{}
	}
	return Span{p.Layout.zeroOff, p.Layout.zeroLen}
}
