package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Plain loads and stores (docs/semantics.md#hardware-models): load/store access to a segment, the
// value a load reads (store forwarding, the tso buffer, the process's copy), and
// the tso store buffer's drain.

// lsProblem is the rule a load/store breaks by touching its cell, or spec.NoRule: the
// window's memory ended with free (lifetime), the cell is another rank's segment of
// a separate window (E-SEPARATE-SHM), or of a segment the process has no load/store
// access to: not allocate_shared, and no shared_query of it returned a size > 0
// (E-LS-ACCESS, node311).
func (p *Program) lsProblem(s State, proc int, in *Instr) spec.RuleID {
	win := int(in.Win)
	if s[p.Layout.Win[win].Freed+proc] != 0 {
		rule, judgeBy := p.afterFree(s, proc, in)
		if judgeBy < 0 {
			return rule
		}
		win = judgeBy
	}
	w := &p.Wins[win]
	wl := &p.Layout.Win[win]
	switch {
	case !in.Remote:
		return spec.NoRule
	case w.Model == litmus.Separate || p.Cells[in.Cell].Separate:
		return spec.ESeparateSHM
	case w.Flavor == litmus.FlavorAllocateShared || s[wl.SQ+proc*p.NProcs+int(in.Target)] == 1:
		return spec.NoRule
	}
	return spec.ELSAccess
}

// afterFree is the lifetime rule of free W (docs/semantics.md#synchronization) for a load/store
// through window W after the caller freed it: memory MPI allocated for W is gone
// (E-EPOCH); memory the program gave it (create, dynamic) is the program's again,
// a plain access to the caller's own cells and E-LS-ACCESS to another rank's,
// whose address only the window gave. A create window over another window hands
// the memory back to that window, whose rules then judge the access (judgeBy).
func (p *Program) afterFree(s State, proc int, in *Instr) (rule spec.RuleID, judgeBy int) {
	win := int(in.Win)
	for {
		w := &p.Wins[win]
		switch {
		case w.Flavor == litmus.FlavorAllocate || w.Flavor == litmus.FlavorAllocateShared:
			return spec.EEpoch, -1
		case w.Base != win && s[p.Layout.Win[w.Base].Freed+proc] == 0:
			return spec.NoRule, w.Base
		case w.Base != win:
			win = w.Base // freed too: its lifetime rule decides
			continue
		case in.Remote:
			return spec.ELSAccess, -1
		}
		return spec.NoRule, -1
	}
}

// lsMessage says why a load/store breaks rule (lsProblem).
func (p *Program) lsMessage(s State, proc int, rule spec.RuleID, in *Instr) func() string {
	freed := s[p.Layout.Win[in.Win].Freed+proc] != 0
	return func() string {
		w := &p.Wins[in.Win]
		switch {
		case rule == spec.EEpoch:
			return fmt.Sprintf("%s accesses the memory MPI allocated for window %s after free: it is gone", in.Text, w.Name)
		case rule == spec.ESeparateSHM:
			return fmt.Sprintf("%s loads or stores another rank's segment of the separate window %s: MPI does not define it", in.Text, w.Name)
		case freed:
			return fmt.Sprintf("%s reaches rank %d's memory through window %s after free: load/store access to another rank's memory ends with the window", in.Text, in.Target, w.Name)
		}
		return fmt.Sprintf("%s reaches rank %d's segment of %s window %s without load/store access (no shared_query returned a size > 0)", in.Text, in.Target, w.Flavor, w.Name)
	}
}

// lsAccessOK checks that a load/store may touch its cell, raising the rule it breaks.
func (p *Program) lsAccessOK(s State, proc int, in *Instr, rec *Record) bool {
	if rule := p.lsProblem(s, proc, in); rule != spec.NoRule {
		p.raise(s, rec, rule, proc, in, p.lsMessage(s, proc, rule, in))
		return false
	}
	return true
}

func (p *Program) plainAccess(s State, proc int, in *Instr, rec *Record) bool {
	if !p.lsAccessOK(s, proc, in, rec) {
		return true
	}
	c := int(in.Cell)
	if in.Kind == KPlainLoad {
		v := p.loadValue(s, proc, in)
		p.setReg(s, proc, int(in.Dst), v)
		if rec.full() {
			p.noteLoad(s, proc, in, rec)
			rec.Text += fmt.Sprintf("  (reads %s=%d)", p.Cells[c].Name, v)
		}
		return true
	}
	v := p.val(s, proc, in.Args[0])
	if p.HW == spec.TSO {
		l := &p.Layout
		n := int(s[l.TSOLen[proc]])
		off := l.TSOBuf[proc] + 9*n
		s[off] = byte(c)
		s.setI64(off+1, v)
		s[l.TSOLen[proc]] = byte(n + 1)
		p.noteStore(s, proc, c)
		if rec.full() {
			rec.Buffered = true
			rec.Text += fmt.Sprintf("  (buffers %s:=%d)", p.Cells[c].Name, v)
		}
		return true
	}
	p.writeLocal(s, c, v)
	p.noteStore(s, proc, c)
	if rec.full() {
		rec.wrote(p.localCopy(c))
		rec.Text += fmt.Sprintf("  (%s:=%d)", p.Cells[c].Name, v)
	}
	return true
}

// localCopy is the copy of cell c that its owner's plain accesses use.
func (p *Program) localCopy(c int) Copy { return Copy{Cell: c, Private: p.Cells[c].Separate} }

// noteLoad records where a load's value comes from, as loadValue takes it.
func (p *Program) noteLoad(s State, proc int, in *Instr, rec *Record) {
	c := int(in.Cell)
	if in.FwdStore >= 0 && p.done(s, proc)&(1<<uint(in.FwdStore)) == 0 {
		rec.Forwarded = 1 + int(in.FwdStore)
		return
	}
	if p.HW == spec.TSO {
		l := &p.Layout
		for k := int(s[l.TSOLen[proc]]) - 1; k >= 0; k-- {
			if int(s[l.TSOBuf[proc]+9*k]) == c {
				rec.Buffered = true
				return
			}
		}
	}
	rec.read(p.localCopy(c))
}

// loadValue: store forwarding from an unexecuted store, else the newest buffered
// store of the process (tso), else the memory copy the process sees.
func (p *Program) loadValue(s State, proc int, in *Instr) int64 {
	c := int(in.Cell)
	if in.FwdStore >= 0 && p.done(s, proc)&(1<<uint(in.FwdStore)) == 0 {
		return p.val(s, proc, p.Procs[proc].Code[in.FwdStore].Args[0])
	}
	if p.HW == spec.TSO {
		l := &p.Layout
		for k := int(s[l.TSOLen[proc]]) - 1; k >= 0; k-- {
			off := l.TSOBuf[proc] + 9*k
			if int(s[off]) == c {
				return s.i64(off + 1)
			}
		}
	}
	return s.i64(p.localOff(c))
}

func (p *Program) writeLocal(s State, c int, v int64) {
	s.setI64(p.localOff(c), v)
	if p.Cells[c].Separate {
		s.setU64(p.Layout.DirtyPriv, s.u64(p.Layout.DirtyPriv)|1<<uint(c))
	}
}

func (p *Program) drain(s State, proc int, rec *Record) {
	l := &p.Layout
	n := int(s[l.TSOLen[proc]])
	base := l.TSOBuf[proc]
	c := int(s[base])
	v := s.i64(base + 1)
	copy(s[base:base+9*(n-1)], s[base+9:base+9*n])
	for k := base + 9*(n-1); k < base+9*n; k++ {
		s[k] = 0
	}
	s[l.TSOLen[proc]] = byte(n - 1)
	p.writeLocal(s, c, v)
	if rec.full() {
		rec.wrote(p.localCopy(c))
		rec.Text = fmt.Sprintf("P%d store buffer drains %s:=%d", proc, p.Cells[c].Name, v)
	}
}
