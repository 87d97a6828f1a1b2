package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
)

// Fence and the other two-phase collectives (docs/semantics.md#synchronization, node328): a call
// that arrives in one step and returns in another once every member has arrived;
// the fence epoch's completion (R1, R2) and its R5/R6 copies.

func (p *Program) fence(s State, proc, j int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 || s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0 {
		// Flagged, and the fence still runs: the other members wait for it.
		p.epochMix(s, proc, in, rec, func() string { return "fence while a start or lock epoch is open on " + p.Wins[in.Win].Name })
	}
	if !in.TwoPhase && !p.Exploit && !p.noprecedeMayReturn(s, proc, in) {
		return false
	}
	p.checkNostore(s, rec, proc, in)
	p.checkNoprecede(s, rec, proc, in)
	if in.TwoPhase {
		s[p.Layout.InCall[proc]] = byte(j + 1)
		if rec.full() {
			rec.Text += "  (arrives)"
		}
		return true
	}
	p.fenceReturn(s, proc, in, rec)
	return true
}

// noprecedeMayReturn: a fence with noprecede does not synchronize (node328), but
// without exploit it still completes what it closes (R1, R2), in case the
// assertion is false.
func (p *Program) noprecedeMayReturn(s State, proc int, in *Instr) bool {
	if p.pending(s, proc, int(in.Win), anyOp) {
		return false
	}
	k := int(s[p.Layout.Win[in.Win].FenceDone+proc]) + 1
	return !p.pendingFence(s, int(in.Win), k, proc)
}

// fenceReturn ends a fence: R5 then R6 copies, the next epoch opens unless nosucceed.
func (p *Program) fenceReturn(s State, proc int, in *Instr, rec *Record) {
	wl := &p.Layout.Win[in.Win]
	k := int(s[wl.FenceDone+proc]) + 1
	p.completeAtTarget(s, int(in.Win), func(_ int, _ *Instr, kind, index int) bool { // R2, at the join
		return kind == EpochFence && index < k
	})
	s[wl.FenceDone+proc]++
	noputBefore := s[wl.FenceOpen+proc]&2 != 0
	open := byte(1)
	if in.Asserts&AssertNosucceed != 0 {
		open = 0
	}
	if in.Asserts&AssertNoput != 0 {
		open |= 2
	}
	s[wl.FenceOpen+proc] = open
	p.fenceReturnLocked(s, proc, in, rec) // the other direction of lockMix (exposure.go)
	p.syncPoint(s, proc, in)
	if !p.Exploit || in.Asserts&AssertNostore == 0 {
		p.copyR5(s, proc, int(in.Win), rec) // exploit: nostore declares the copy unnecessary
	}
	if !p.Exploit || !noputBefore {
		p.copyR6(s, proc, int(in.Win), rec) // exploit: the previous fence's noput declared it unnecessary
	}
}

// returnFrom completes a two-phase call once every member has arrived (fence, barrier, free).
func (p *Program) returnFrom(s State, proc, j int, rec *Record) bool {
	in := &p.Procs[proc].Code[j]
	switch in.Kind {
	case KFence:
		if !p.fenceCanReturn(s, proc, in) {
			return false
		}
		p.fenceReturn(s, proc, in, rec)
	case KBarrier:
		if !p.allArrived(s, proc, KBarrier, -1, p.Layout.Barrs, p.allProcs()) {
			return false
		}
		s[p.Layout.Barrs[proc]]++
	case KFree:
		if !p.allArrived(s, proc, KFree, int(in.Win), nil, p.Wins[in.Win].Group) {
			return false
		}
		p.freeReturn(s, proc, in, rec)
	}
	s[p.Layout.InCall[proc]] = 0
	p.setDone(s, proc, j)
	if rec.full() {
		rec.Text = fmt.Sprintf("P%d row %d: %s  (returns)", proc, in.Row, in.Text)
	}
	return true
}

func (p *Program) allProcs() uint32 { return 1<<uint(p.NProcs) - 1 }

// fenceCanReturn: every member arrived at this fence (node328), the caller's
// operations are performed (R1), and those of the closing epoch at it too (R2).
func (p *Program) fenceCanReturn(s State, proc int, in *Instr) bool {
	wl := &p.Layout.Win[in.Win]
	k := int(s[wl.FenceDone+proc]) + 1
	for m := 0; m < p.NProcs; m++ {
		if p.Wins[in.Win].Group&(1<<uint(m)) == 0 {
			continue
		}
		done := int(s[wl.FenceDone+m])
		if done >= k {
			continue
		}
		if done == k-1 && p.arrivedAt(s, m, KFence, int(in.Win)) {
			continue
		}
		return false
	}
	if p.pending(s, proc, int(in.Win), anyOp) {
		return false // R1
	}
	// R2, and §7: the operations of the closing epoch complete at the join of the
	// arrivals, before any member returns, not only before their target does. With
	// exploit, a previous noput lets the caller skip waiting for incoming updates
	// (puts and accumulates, which noput says do not come); gets still complete.
	noput := p.Exploit && s[wl.FenceOpen+proc]&2 != 0
	for i := range p.Slots {
		off := p.Layout.Slot[i]
		if s[off] != SlotPending {
			continue
		}
		op := p.slotOp(s, i)
		if op.Win != in.Win || s[off+1] != EpochFence || int(s[off+2]) >= k {
			continue
		}
		if noput && int(op.Target) == proc && updates(op) {
			continue
		}
		return false
	}
	return true
}

// updates: the operation changes its target's memory (put, a writing accumulate,
// a remote store under ls_is_rma), what noput promises will not come.
func updates(in *Instr) bool {
	return accWrites(in) || in.Op == litmus.OpPut || in.Op == litmus.OpRput || in.Kind == KRemoteStore
}

// pendingFence reports whether an operation of a fence epoch before k on win is
// still unperformed (only those targeting target, when target >= 0).
func (p *Program) pendingFence(s State, win, k, target int) bool {
	for i := range p.Slots {
		off := p.Layout.Slot[i]
		if s[off] != SlotPending {
			continue
		}
		in := p.slotOp(s, i)
		if int(in.Win) == win && s[off+1] == EpochFence && int(s[off+2]) < k && (target < 0 || int(in.Target) == target) {
			return true
		}
	}
	return false
}

func (p *Program) arrivedAt(s State, m int, kind Kind, win int) bool {
	ic := int(s[p.Layout.InCall[m]]) - 1
	if ic < 0 {
		return false
	}
	in := &p.Procs[m].Code[ic]
	return in.Kind == kind && (win < 0 || int(in.Win) == win)
}

// allArrived: every process of group has arrived at the same generation of a
// collective (counted by counts, or at most once per window for free).
func (p *Program) allArrived(s State, proc int, kind Kind, win int, counts []int, group uint32) bool {
	for m := 0; m < p.NProcs; m++ {
		if group&(1<<uint(m)) == 0 {
			continue
		}
		if counts == nil {
			if s[p.Layout.Win[win].Freed+m] != 0 || p.arrivedAt(s, m, kind, win) {
				continue
			}
			return false
		}
		k := int(s[counts[proc]]) + 1
		done := int(s[counts[m]])
		if done >= k || (done == k-1 && p.arrivedAt(s, m, kind, win)) {
			continue
		}
		return false
	}
	return true
}
