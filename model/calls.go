package model

import (
	"fmt"
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// What every synchronization call shares (a usable window, the R5/R6 copies of
// separate windows, the epoch errors), and the calls outside the three epoch
// families: shared_query, send/recv, free (docs/semantics.md#synchronization).

func (p *Program) winUsable(s State, proc int, in *Instr, rec *Record) bool {
	wl := &p.Layout.Win[in.Win]
	if s[wl.Freed+proc] != 0 {
		p.raise(s, rec, spec.EEpoch, proc, in, func() string { return fmt.Sprintf("%s on window %s after free", in.Text, p.Wins[in.Win].Name) })
		return false
	}
	return true
}

// copyR5 makes the owner's stores public (separate windows): cells stored since its last R5 point.
func (p *Program) copyR5(s State, proc, win int, rec *Record) {
	if !p.hasSeparate {
		return
	}
	l := &p.Layout
	m := s.u64(l.DirtyPriv) & p.Wins[win].OwnCells[proc]
	for c := m; c != 0; c &= c - 1 {
		i := bits.TrailingZeros64(c)
		p.setPub(s, i, s.i64(l.Priv+8*i))
		if rec.full() {
			rec.Copies = append(rec.Copies, [2]Copy{{i, true}, {i, false}})
		}
	}
	s.setU64(l.DirtyPriv, s.u64(l.DirtyPriv)&^m)
}

// copyR6 makes public updates private: cells updated by RMA since its last R6 point.
func (p *Program) copyR6(s State, proc, win int, rec *Record) {
	if !p.hasSeparate {
		return
	}
	l := &p.Layout
	m := s.u64(l.DirtyPub) & p.Wins[win].OwnCells[proc]
	for c := m; c != 0; c &= c - 1 {
		i := bits.TrailingZeros64(c)
		s.setI64(l.Priv+8*i, p.pub(s, i))
		if rec.full() {
			rec.Copies = append(rec.Copies, [2]Copy{{i, false}, {i, true}})
		}
	}
	s.setU64(l.DirtyPub, s.u64(l.DirtyPub)&^m)
}

// epochMix and syncEpoch raise E-EPOCH-MIX and E-SYNC-EPOCH at a call, why it is one.
func (p *Program) epochMix(s State, proc int, in *Instr, rec *Record, why func() string) {
	p.raise(s, rec, spec.EEpochMix, proc, in, func() string { return in.Text + ": " + why() })
}

func (p *Program) syncEpoch(s State, proc int, in *Instr, rec *Record, why func() string) {
	p.raise(s, rec, spec.ESyncEpoch, proc, in, func() string { return in.Text + ": " + why() })
}

// noEpoch raises E-EPOCH at a call that ends an epoch that is not open: unlock or
// unlock_all without the lock, complete without start, wait or test without post
// (or a test after one returned 1, which ended the exposure epoch). An epoch is
// started and completed by the synchronization calls (node327); E-SYNC-EPOCH is
// sync and flush outside a passive-target epoch only (docs/rules.md#e-sync-epoch, node331).
func (p *Program) noEpoch(s State, proc int, in *Instr, rec *Record, why func() string) {
	p.raise(s, rec, spec.EEpoch, proc, in, func() string { return in.Text + ": " + why() })
}

// sqOpen reports whether a shared_query still has two possible answers.
func (p *Program) sqOpen(s State, proc int, in *Instr) bool {
	w := &p.Wins[in.Win]
	if w.Flavor == litmus.FlavorAllocateShared || w.Flavor == litmus.FlavorDynamic || !p.Sem.Has(spec.SqAnyFlavor) {
		return false
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, proc, in) {
		return false
	}
	if in = p.peekResolved(s, proc, in); in == nil {
		return false // E-TARGET: one answer, the error
	}
	return s[p.Layout.Win[in.Win].SQ+proc*p.NProcs+int(in.Target)] == 0 && w.SegSize[in.Target] > 0
}

func (p *Program) sharedQuery(s State, proc int, in *Instr, choice int8, rec *Record) bool {
	w := &p.Wins[in.Win]
	t := int(in.Target)
	sq := p.Layout.Win[in.Win].SQ + proc*p.NProcs + t
	switch {
	case w.Flavor == litmus.FlavorDynamic:
		p.raise(s, rec, spec.ESQFlavor, proc, in, func() string { return fmt.Sprintf("%s: shared_query on the dynamic window %s", in.Text, w.Name) })
		return true
	case w.Flavor != litmus.FlavorAllocateShared && !p.Sem.Has(spec.SqAnyFlavor):
		p.raise(s, rec, spec.ESQFlavor, proc, in, func() string {
			return fmt.Sprintf("%s: shared_query on the %s window %s (allowed from MPI-4.1: sq_any_flavor)", in.Text, w.Flavor, w.Name)
		})
		return true
	}
	size := int64(w.SegSize[t])
	if w.Flavor != litmus.FlavorAllocateShared {
		if choice == 0 {
			choice = int8(s[sq]) // answered before in this execution
		}
		if choice == 2 || size == 0 {
			size = 0
		}
		if choice != 0 {
			s[sq] = byte(choice)
		}
	}
	if size > 0 {
		s[sq] = 1
	}
	p.setReg(s, proc, int(in.Dst), size)
	if rec.full() {
		rec.Text += fmt.Sprintf("  (returns %d)", size)
	}
	return true
}

func (p *Program) chanIndex(from, to int) int {
	for i, c := range p.Chans {
		if c.From == from && c.To == to {
			return i
		}
	}
	return -1
}

func (p *Program) send(s State, proc int, in *Instr) bool {
	ci := p.chanIndex(proc, int(in.Target))
	off := p.Layout.Chan[ci]
	n := int(s[off])
	var v int64
	if in.NArgs > 0 {
		v = p.val(s, proc, in.Args[0])
	}
	s.setI64(off+2+8*n, v)
	s[off] = byte(n + 1)
	return true
}

func (p *Program) recv(s State, proc int, in *Instr) bool {
	ci := p.chanIndex(int(in.Target), proc)
	if ci < 0 {
		return false // nobody ever sends: blocks forever
	}
	off := p.Layout.Chan[ci]
	got := int(s[off+1])
	if got >= int(s[off]) {
		return false
	}
	if in.Dst >= 0 {
		p.setReg(s, proc, int(in.Dst), s.i64(off+2+8*got))
	}
	s[off+1] = byte(got + 1)
	return true
}

func (p *Program) free(s State, proc, j int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 || s.u32(wl.PostOpen+4*proc) != 0 || s.u32(wl.LockHeld+4*proc) != 0 ||
		s[wl.LockAll+proc] != 0 || p.pending(s, proc, int(in.Win), anyOp) {
		p.epochMix(s, proc, in, rec, func() string { return "free with an epoch open or an operation pending" })
	}
	if in.TwoPhase {
		s[p.Layout.InCall[proc]] = byte(j + 1)
		return true
	}
	p.freeReturn(s, proc, in, rec)
	return true
}

// freeReturn ends a free (docs/semantics.md#synchronization, free W): R5 then R6 for the caller's
// segment, so the memory it hands back to the program holds every update performed
// before the free; from here on calls on the window are E-EPOCH (winUsable) and its
// memory follows lsProblem's lifetime rule.
func (p *Program) freeReturn(s State, proc int, in *Instr, rec *Record) {
	p.copyR5(s, proc, int(in.Win), rec)
	p.copyR6(s, proc, int(in.Win), rec)
	s[p.Layout.Win[in.Win].Freed+proc] = 1
}
