package model

import (
	"github.com/rmacheck/rmacheck/spec"
)

// Post-start-complete-wait (docs/semantics.md#synchronization, node329): exposure and access epochs
// of general active-target synchronization, and R3.

func (p *Program) post(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.PostOpen+4*proc) != 0 {
		p.epochMix(s, proc, in, rec, func() string { return "post while an exposure epoch is already open" })
		return true
	}
	if s.u32(wl.Holders+4*proc) != 0 {
		// and the post proceeds, so the rest of the execution can be listed
		p.epochMix(s, proc, in, rec, func() string {
			return "post while a lock of this window is held on the caller: locked and exposed at once (node330)"
		})
	}
	p.checkNostore(s, rec, proc, in)
	for o := 0; o < p.NProcs; o++ {
		if in.Group&(1<<uint(o)) != 0 {
			s[wl.PostCnt+proc*p.NProcs+o]++
		}
	}
	s.setU32(wl.PostOpen+4*proc, in.Group)
	if !p.Exploit || in.Asserts&AssertNostore == 0 {
		p.copyR5(s, proc, int(in.Win), rec)
	}
	return true
}

func (p *Program) start(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	n := p.NProcs
	switch {
	case s.u32(wl.StartOpen+4*proc) != 0:
		p.epochMix(s, proc, in, rec, func() string { return "start while a start epoch is open (nested start)" })
		return true
	case s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, func() string { return "start while a lock epoch is open" }) // and the start proceeds
	}
	if p.Sem.Has(spec.PostStartLS) && !(p.Exploit && in.Asserts&AssertNocheck != 0) {
		for t := 0; t < n; t++ {
			if in.Group&(1<<uint(t)) != 0 && s[wl.PostCnt+t*n+proc] <= s[wl.StartCnt+proc*n+t] {
				return false // post_start_ls: start waits for the matching posts
			}
		}
	}
	for t := 0; t < n; t++ {
		if in.Group&(1<<uint(t)) != 0 {
			s[wl.StartCnt+proc*n+t]++
		}
	}
	s.setU32(wl.StartOpen+4*proc, in.Group)
	return true
}

func (p *Program) complete(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	group := s.u32(wl.StartOpen + 4*proc)
	if group == 0 {
		p.noEpoch(s, proc, in, rec, func() string { return "complete without an open start epoch" })
		return true
	}
	if p.pending(s, proc, int(in.Win), func(_ *Instr, kind int) bool { return kind == EpochPSCW }) {
		return false // R1
	}
	p.completeFetches(s, proc, int(in.Win), -1) // §3: R1 brought their results to the origin
	for t := 0; t < p.NProcs; t++ {
		if group&(1<<uint(t)) != 0 {
			s[wl.DoneCnt+proc*p.NProcs+t]++
		}
	}
	s.setU32(wl.StartOpen+4*proc, 0)
	return true
}

func (p *Program) wait(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	group := s.u32(p.Layout.Win[in.Win].PostOpen + 4*proc)
	if group == 0 {
		p.noEpoch(s, proc, in, rec, func() string { return in.Op.String() + " without an open exposure epoch (no post)" })
		return true
	}
	if !p.exposureComplete(s, proc, int(in.Win), group) {
		return false // wait waits for the matching completes
	}
	p.endExposure(s, proc, int(in.Win), group, rec)
	return true
}

// exposureComplete: every process of the exposure epoch's group has called the
// complete that matches it, so wait would return now (and test return 1).
func (p *Program) exposureComplete(s State, proc, win int, group uint32) bool {
	wl := &p.Layout.Win[win]
	n := p.NProcs
	for o := 0; o < n; o++ {
		if group&(1<<uint(o)) != 0 && s[wl.DoneCnt+o*n+proc] < s[wl.PostCnt+proc*n+o] {
			return false
		}
	}
	return true
}

// endExposure ends proc's exposure epoch on win, at wait's return or a test that
// returns 1: R3 and R6.
func (p *Program) endExposure(s State, proc, win int, group uint32, rec *Record) {
	wl := &p.Layout.Win[win]
	n := p.NProcs
	// R3 needs no wait of its own: each matching complete waited until its
	// operations were performed (R1); they complete at the target here.
	p.completeAtTarget(s, win, func(origin int, op *Instr, kind, index int) bool {
		return int(op.Target) == proc && kind == EpochPSCW && group&(1<<uint(origin)) != 0 &&
			index <= int(s[wl.DoneCnt+origin*n+proc])
	})
	s.setU32(wl.PostOpen+4*proc, 0)
	p.copyR6(s, proc, win, rec)
}
