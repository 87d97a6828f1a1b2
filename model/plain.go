package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Plain loads and stores (SEMANTICS.md §2): load/store access to a segment, the
// value a load reads (store forwarding, the tso buffer, the process's copy), and
// the tso store buffer's drain.

// lsProblem is the rule a load/store breaks by touching its cell, or "": the window
// is freed (E-EPOCH), the cell is another rank's segment of a separate window
// (E-SEPARATE-SHM), or of a segment the process has no load/store access to: not
// allocate_shared, and no shared_query of it returned a size > 0 (E-LS-ACCESS, node311).
func (p *Program) lsProblem(s State, proc int, in *Instr) spec.RuleID {
	w := &p.Wins[in.Win]
	wl := &p.Layout.Win[in.Win]
	switch {
	case s[wl.Freed+proc] != 0:
		return spec.EEpoch
	case !in.Remote:
		return spec.NoRule
	case w.Model == litmus.Separate || p.Cells[in.Cell].Separate:
		return spec.ESeparateSHM
	case w.Flavor == litmus.FlavorAllocateShared || s[wl.SQ+proc*p.NProcs+int(in.Target)] == 1:
		return spec.NoRule
	}
	return spec.ELSAccess
}

// lsMessage says why a load/store breaks rule (lsProblem).
func (p *Program) lsMessage(rule spec.RuleID, in *Instr) func() string {
	return func() string {
		w := &p.Wins[in.Win]
		switch rule {
		case spec.EEpoch:
			return fmt.Sprintf("%s accesses window %s after free", in.Text, w.Name)
		case spec.ESeparateSHM:
			return fmt.Sprintf("%s loads or stores another rank's segment of the separate window %s: MPI does not define it", in.Text, w.Name)
		}
		return fmt.Sprintf("%s reaches rank %d's segment of %s window %s without load/store access (no shared_query returned a size > 0)", in.Text, in.Target, w.Flavor, w.Name)
	}
}

// lsAccessOK checks that a load/store may touch its cell, raising the rule it breaks.
func (p *Program) lsAccessOK(s State, proc int, in *Instr, rec *Record) bool {
	if rule := p.lsProblem(s, proc, in); rule != spec.NoRule {
		p.raise(s, rec, rule, proc, in, p.lsMessage(rule, in))
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
	if p.HW == TSO {
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
	if p.HW == TSO {
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
	if p.HW == TSO {
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
