package model

import (
	"fmt"
	"math/bits"
)

// Fence exposure epochs and locks (docs/rules.md#e-epoch-mix, node327, node330).
// MPI_WIN_FENCE "starts an exposure epoch if it is followed by another fence call and
// if the local window is the target of RMA accesses between these two fence calls"
// (MPI-4.1, node328). So rank t's fence interval k on a window, from its return from
// its k-th fence (without nosucceed) until it calls its next fence there (none after
// its last fence), is an exposure epoch only when some RMA operation of the fence
// access epoch k targets t. A lock (or lock_all) held on t during the interval then
// mixes a lock epoch with an exposure epoch.
//
// Which comes first is the execution's business: the lock may be taken before the
// operation that makes the interval an exposure epoch is issued, or after. So the
// state keeps, per window and target, two masks over the fence intervals: those a
// lock on t overlapped (FenceLocked) and those RMA targeted t in (FenceTargeted);
// the step that sets a bit whose partner is set raises E-EPOCH-MIX. The masks take
// room only on windows that are both fenced and locked (Window.FenceLock).

// fenceInterval is the fence interval t is in on win (k >= 1), ok false when none:
// t returned from its k-th fence without nosucceed, has a later fence on win and has
// not called it yet (a two-phase fence's arrival ends the interval, docs/rules.md#e-epoch-mix:
// "until t calls its next fence").
func (p *Program) fenceInterval(s State, win, t int) (k int, ok bool) {
	wl := &p.Layout.Win[win]
	k = int(s[wl.FenceDone+t])
	if k == 0 || s[wl.FenceOpen+t]&1 == 0 || k >= len(p.Wins[win].Fences[t]) || p.arrivedAt(s, t, KFence, win) {
		return 0, false
	}
	return k, true
}

// fenceLockedBy notes that a lock on t overlaps t's current fence interval on win,
// if t is in one, and raises E-EPOCH-MIX (at in, a call of proc: the lock, or t's
// fence return) when RMA of that fence epoch already targets t.
func (p *Program) fenceLockedBy(s State, proc int, in *Instr, rec *Record, win, t int, why func() string) {
	k, ok := p.fenceInterval(s, win, t)
	if !ok || !p.Wins[win].FenceLock {
		return
	}
	off := p.Layout.Win[win].FenceLocked + 8*t
	s.setU64(off, s.u64(off)|1<<uint(k))
	if s.u64(p.Layout.Win[win].FenceTargeted+8*t)&(1<<uint(k)) != 0 {
		p.epochMix(s, proc, in, rec, why)
	}
}

// fenceTargeted notes that an RMA operation of fence access epoch k on win (issued
// by proc, instruction in) targets t, and raises E-EPOCH-MIX when a lock on t
// overlapped t's fence interval k.
func (p *Program) fenceTargeted(s State, proc int, in *Instr, rec *Record, win, t, k int) {
	if t < 0 || !p.Wins[win].FenceLock || k >= 64 {
		return
	}
	off := p.Layout.Win[win].FenceTargeted + 8*t
	s.setU64(off, s.u64(off)|1<<uint(k))
	if s.u64(p.Layout.Win[win].FenceLocked+8*t)&(1<<uint(k)) != 0 {
		p.epochMix(s, proc, in, rec, func() string {
			return fmt.Sprintf("%s targets rank %d in fence epoch #%d, which makes rank %d's fence interval an exposure epoch, while a lock on rank %d was held during it: locked and exposed at once (node330)", in.Text, t, k, t, t)
		})
	}
}

// fenceReturnLocked is the other direction of lockMix, at t's return from a fence
// that opens an interval while others hold a lock on t.
func (p *Program) fenceReturnLocked(s State, t int, in *Instr, rec *Record) {
	win := int(in.Win)
	others := s.u32(p.Layout.Win[win].Holders+4*t) &^ (1 << uint(t))
	if others == 0 {
		return
	}
	p.fenceLockedBy(s, t, in, rec, win, t, func() string {
		return fmt.Sprintf("the fence opens an exposure epoch (RMA of this fence epoch targets the caller) while P%d holds a lock of this window on the caller: locked and exposed at once (node330)", bits.TrailingZeros32(others))
	})
}

// fenceLockWindows marks the windows some process fences and some locks or
// lock_all's (Window.FenceLock).
func (c *compiler) fenceLockWindows() {
	p := c.p
	u := p.uses()
	for w := range p.Wins {
		p.Wins[w].FenceLock = u.win[w].fence && u.win[w].lock
	}
}
