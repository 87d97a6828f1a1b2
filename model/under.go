package model

import "github.com/rmacheck/rmacheck/spec"

// scopeSwitchOn reads a switch for the scope of an MB call alone (mbScope): Under
// counts it as read, ExecutionsUnder not on sc and tso.
func (p *Program) scopeSwitchOn(sw spec.Switch) bool {
	p.scopeRead = p.scopeRead.With(sw, true)
	return p.Sem.Has(sw)
}

// ExecutionsUnder is p as sem's program for a search, when sem's compile has p's
// executions, outcomes, flags and candidate pairs (else nil): Under, and on hw sc
// and tso also when sem differs from p's semantics only in switches the compile
// read for the scope of an MB call (fence_ls, lock_ls, flush_ls, ...). A scope
// (Instr.MBScope) orders accesses on hw relaxed alone: on sc and tso every
// instruction waits for the one before it (relation), so no step and no check of
// such a program reads it. The copy and sem's compile may differ in MBScope, which
// SameBehaviour ignores, and nowhere else; the reference runtime, which fences at
// an MB call, compiles its own program. A program with a computed target is left
// to Under: its variants (target.go) carry scopes that SameBehaviour compares.
func (p *Program) ExecutionsUnder(sem spec.Semantics) *Program {
	if q := p.Under(sem); q != nil || p.HW == spec.Relaxed || p.hasComputed() {
		return q
	}
	if (sem.Switches^p.Sem.Switches)&p.consulted != 0 {
		return nil
	}
	q := *p
	q.Sem = sem
	return &q
}

// hasComputed reports whether an instruction has a computed target or location.
func (p *Program) hasComputed() bool {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			if p.Procs[i].Code[k].Computed != nil {
				return true
			}
		}
	}
	return false
}
