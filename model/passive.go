package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Passive-target synchronization (docs/semantics.md#synchronization, node330-331): lock, unlock,
// lock_all, unlock_all, the flushes (R4) and MPI_Win_sync.

func (p *Program) noLocks(s State, proc int, in *Instr, rec *Record) {
	if p.Wins[in.Win].NoLocks {
		p.raise(s, rec, spec.EInfo, proc, in, func() string {
			return fmt.Sprintf("%s locks window %s, created with no_locks=true", in.Text, p.Wins[in.Win].Name)
		})
	}
}

func (p *Program) lock(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	if in.Target < 0 {
		return p.nullSyncTarget(s, proc, in, rec) // E-TARGET (target.go)
	}
	wl := &p.Layout.Win[in.Win]
	t := int(in.Target)
	switch {
	case s.u32(wl.LockHeld+4*proc)&(1<<uint(t)) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, func() string { return fmt.Sprintf("a second lock epoch from P%d to rank %d", proc, t) })
		return true
	}
	takesLock := !(p.Exploit && in.Asserts&AssertNocheck != 0) // exploit: nocheck takes no lock
	holders := s.u32(wl.Holders + 4*t)
	if takesLock && holders != 0 && (in.LockType == litmus.LockExclusive || s[wl.Excl+t] != 0) {
		return false // blocks until acquired
	}
	if takesLock && p.lockAwaitsProgress(s, proc, t) {
		return false // weak_progress: granted only while t is in MPI
	}
	p.noLocks(s, proc, in, rec)
	p.lockMix(s, proc, in, rec, 1<<uint(t))
	if takesLock {
		s.setU32(wl.Holders+4*t, holders|1<<uint(proc))
		if in.LockType == litmus.LockExclusive {
			s[wl.Excl+t] = 1
		}
	}
	s.setU32(wl.LockHeld+4*proc, s.u32(wl.LockHeld+4*proc)|1<<uint(t))
	if t == proc {
		p.copyR6(s, proc, int(in.Win), rec)
	}
	return true
}

// lockMix flags a lock epoch mixed with an active-target one (E-EPOCH-MIX,
// node330): a lock inside the caller's start epoch, or of a target in an exposure
// epoch, posted and not yet waited, or in a fence interval that RMA targets it in
// (exposure.go, whichever of the lock and the RMA comes first). The lock still
// proceeds, so the rest of the execution can be listed.
func (p *Program) lockMix(s State, proc int, in *Instr, rec *Record, targets uint32) {
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 {
		p.epochMix(s, proc, in, rec, func() string { return "a lock inside a start epoch" })
	}
	posted := false
	for t := 0; t < p.NProcs; t++ {
		if targets&(1<<uint(t)) == 0 {
			continue
		}
		if s.u32(wl.PostOpen+4*t) != 0 && !posted {
			p.epochMix(s, proc, in, rec, func() string { return fmt.Sprintf("a lock of rank %d, which has called post and not yet wait", t) })
			posted = true
		}
		p.fenceLockedBy(s, proc, in, rec, int(in.Win), t, func() string {
			return fmt.Sprintf("a lock of rank %d during its fence interval that RMA of the same fence epoch targets (an exposure epoch: from a fence without nosucceed until rank %d calls its next fence)", t, t)
		})
	}
}

func (p *Program) release(s State, wl *WinLayout, proc, t int) {
	h := s.u32(wl.Holders+4*t) &^ (1 << uint(proc))
	s.setU32(wl.Holders+4*t, h)
	if h == 0 {
		s[wl.Excl+t] = 0
	}
}

func (p *Program) unlock(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	if in.Target < 0 {
		return p.nullSyncTarget(s, proc, in, rec) // E-TARGET (target.go)
	}
	wl := &p.Layout.Win[in.Win]
	t := int(in.Target)
	held := s.u32(wl.LockHeld + 4*proc)
	if held&(1<<uint(t)) == 0 {
		p.noEpoch(s, proc, in, rec, func() string { return fmt.Sprintf("unlock of rank %d, which P%d has not locked", t, proc) })
		return true
	}
	if p.pending(s, proc, int(in.Win), func(op *Instr, _ int) bool { return int(op.Target) == t }) || p.awaitsLocal(s, proc, int(in.Win), t) {
		return false // R4: performed at the target within the call (R1: complete locally)
	}
	p.completeAtTarget(s, int(in.Win), func(origin int, op *Instr, _, _ int) bool { // R4
		return origin == proc && int(op.Target) == t
	})
	p.release(s, wl, proc, t)
	s.setU32(wl.LockHeld+4*proc, held&^(1<<uint(t)))
	if t == proc {
		p.copyR5(s, proc, int(in.Win), rec)
	}
	return true
}

func (p *Program) lockAll(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	switch {
	case s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, func() string { return "lock_all while a lock epoch is open" })
		return true
	}
	group := p.Wins[in.Win].Group
	takesLock := !(p.Exploit && in.Asserts&AssertNocheck != 0) // exploit: nocheck takes no lock
	for t := 0; t < p.NProcs; t++ {
		if takesLock && group&(1<<uint(t)) != 0 && (s[wl.Excl+t] != 0 || p.lockAwaitsProgress(s, proc, t)) {
			return false // an exclusive lock is held, or (weak_progress) t is not in MPI
		}
	}
	p.noLocks(s, proc, in, rec)
	p.lockMix(s, proc, in, rec, group)
	for t := 0; t < p.NProcs; t++ {
		if takesLock && group&(1<<uint(t)) != 0 {
			s.setU32(wl.Holders+4*t, s.u32(wl.Holders+4*t)|1<<uint(proc))
		}
	}
	s[wl.LockAll+proc] = 1
	p.copyR6(s, proc, int(in.Win), rec)
	return true
}

func (p *Program) unlockAll(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s[wl.LockAll+proc] == 0 {
		p.noEpoch(s, proc, in, rec, func() string { return "unlock_all without lock_all" })
		return true
	}
	if p.pending(s, proc, int(in.Win), anyOp) || p.awaitsLocal(s, proc, int(in.Win), -1) {
		return false // R4 (and R1)
	}
	p.completeAtTarget(s, int(in.Win), func(origin int, _ *Instr, _, _ int) bool { return origin == proc })
	for t := 0; t < p.NProcs; t++ {
		if p.Wins[in.Win].Group&(1<<uint(t)) != 0 {
			p.release(s, wl, proc, t)
		}
	}
	s[wl.LockAll+proc] = 0
	p.copyR5(s, proc, int(in.Win), rec)
	return true
}

func (p *Program) passiveEpoch(s State, proc int, in *Instr, all bool) bool {
	wl := &p.Layout.Win[in.Win]
	held := s.u32(wl.LockHeld + 4*proc)
	if s[wl.LockAll+proc] != 0 {
		return true
	}
	if all {
		return held != 0
	}
	return held&(1<<uint(in.Target)) != 0
}

func (p *Program) flush(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	all := in.Op == litmus.OpFlushAll || in.Op == litmus.OpFlushLocalAll
	if !all && in.Target < 0 {
		return p.nullSyncTarget(s, proc, in, rec) // E-TARGET (target.go)
	}
	if !p.passiveEpoch(s, proc, in, all) {
		p.syncEpoch(s, proc, in, rec, func() string { return "flush outside a passive-target epoch" })
		return true
	}
	local := in.Kind == KFlushLocal
	busy := p.pending(s, proc, int(in.Win), func(op *Instr, _ int) bool {
		if !all && op.Target != in.Target {
			return false
		}
		return !local || op.Dst >= 0 // flush_local waits only for results to arrive
	})
	target := int(in.Target)
	if all {
		target = -1
	}
	if busy || p.awaitsLocal(s, proc, int(in.Win), target) {
		return false // R1: the requests it covers complete locally first
	}
	if !local { // R4: flush completes the operations at the target
		p.completeAtTarget(s, int(in.Win), func(origin int, op *Instr, _, _ int) bool {
			return origin == proc && (all || op.Target == in.Target)
		})
		return true
	}
	p.completeFetches(s, proc, int(in.Win), target) // §3: their results are at the origin
	return true
}

func (p *Program) sync(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	if !p.passiveEpoch(s, proc, in, true) {
		p.syncEpoch(s, proc, in, rec, func() string { return "MPI_Win_sync outside a passive-target epoch" })
		return true
	}
	p.copyR5(s, proc, int(in.Win), rec)
	p.copyR6(s, proc, int(in.Win), rec)
	return true
}
