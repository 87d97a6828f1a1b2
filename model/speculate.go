package model

import (
	"fmt"
	"math/bits"

	"github.com/rmacheck/rmacheck/spec"
)

// Speculation (hw relaxed, docs/semantics.md#hardware-models). A guarded load, or a load after a spin
// loop, does not wait for its guard or the loop's exit: ARM and POWER speculate
// loads past branches (herd7's aarch64.cat allows MP+dmb.sy+ctrl). Such a load has
// two steps. Its read (once its Blockers are done) takes the value from memory into
// a slot of the state that no instruction sees. Its commit (once CommitAfter are
// done too: the guard is known) writes the register and raises what the access
// raises (E-LS-ACCESS, E-ALIGN, E-ORIGIN-BUF; U2 and RACE for the pairs concurrent
// at the read) when the guard holds, and discards the read when it does not. A load
// whose guard is already known when it is enabled takes one step, as always.
//
// Register arithmetic does not speculate: its result does not depend on when it
// runs, so running it early changes no outcome, only the number of states.

// specEntry is the size of a speculative instruction's state: status, value, pairs.
const specEntry = 17

// Status of a speculative load's entry.
const (
	specNone = 0 // not read
	specOK   = 1 // read, a real access
	// specOK + 1 + i: the read broke specRules[i] (and read nothing)
)

var specRules = [...]spec.RuleID{spec.EEpoch, spec.ESeparateSHM, spec.ELSAccess, spec.ETarget}

// specRead is the mask of proc's speculative loads that have read and not committed.
func (p *Program) specRead(s State, proc int) uint64 {
	if len(p.Procs[proc].Specs) == 0 {
		return 0
	}
	return s.u64(p.Layout.SpecRead[proc])
}

func (p *Program) specOff(proc int, in *Instr) int {
	return p.Layout.Spec[proc] + specEntry*int(in.Spec)
}

// speculative reports whether instruction j's next step is a speculative read: its
// guard (or the loop before it) is not known yet.
func speculative(in *Instr, done uint64) bool { return in.Spec >= 0 && in.CommitAfter&^done != 0 }

// specReadStep is the read of a speculative load: the value goes into its entry, the
// pairs concurrent now into its pending mask (checked here, before the read: the
// load is enabled in s), and nothing else changes until it commits.
func (p *Program) specReadStep(s State, proc, j int, in *Instr, rec *Record) bool {
	off := p.specOff(proc, in)
	status, v := byte(specOK), int64(0)
	// A load through an address register reads the cell its address names now: the
	// register's writer is among its Blockers (target.go).
	r := p.peekResolved(s, proc, in)
	rule := spec.ETarget
	if r != nil {
		rule = p.lsProblem(s, proc, r)
	}
	if rule != spec.NoRule {
		for i, x := range specRules {
			if x == rule {
				status = byte(specOK + 1 + i)
			}
		}
	} else {
		s.setU64(off+9, p.pairsAtRead(s, proc, j, in, int(r.Cell)))
		v = p.loadValue(s, proc, r)
	}
	s[off] = status
	s.setI64(off+1, v)
	sr := p.Layout.SpecRead[proc]
	s.setU64(sr, s.u64(sr)|1<<uint(j))
	if rec.full() {
		if status == specOK {
			p.noteLoad(s, proc, r, rec)
		}
		rec.Text = fmt.Sprintf("P%d row %d: %s", proc, in.Row, in.Text)
		if status == specOK {
			rec.Text += fmt.Sprintf("  (reads %s=%d, speculatively: %s)", p.Cells[r.Cell].Name, v, p.awaited(proc, in, p.done(s, proc)))
		} else {
			rec.Text += fmt.Sprintf("  (speculatively, breaking %s: %s)", specRules[status-specOK-1], p.awaited(proc, in, p.done(s, proc)))
		}
	}
	return true
}

// awaited names what a speculative load runs ahead of.
func (p *Program) awaited(proc int, in *Instr, done uint64) string {
	var names []string
	for m := in.CommitAfter &^ done; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		a := &p.Procs[proc].Code[k]
		names = append(names, fmt.Sprintf("row %d %s", a.Row, a.Text))
	}
	if len(names) == 1 {
		return "before " + names[0] + " is known"
	}
	return fmt.Sprintf("before %d earlier instructions are known (%s, ...)", len(names), names[0])
}

// pairsAtRead is the mask (over in.SpecCands) of the candidate pairs concurrent in s
// with the load about to read cell (the one its address names, for a load through
// an address register: its accesses of other cells read nothing).
func (p *Program) pairsAtRead(s State, proc, j int, in *Instr, cell int) uint64 {
	var m uint64
	for k, ci := range in.SpecCands {
		cand := &p.Candidates[ci]
		a, b := &p.accesses[cand.A], &p.accesses[cand.B]
		reading := a
		if a.proc != proc || a.instr != j {
			reading = b
		}
		if reading.dyn && reading.cell != cell {
			continue
		}
		if b.rma && !a.rma {
			a, b = b, a
		}
		if p.concurrent(s, cand, a, b, reading) != spec.NoRule {
			m |= 1 << uint(k)
		}
	}
	return m
}

// commit ends a speculative load once its guard is known: with the guard true, the
// register takes the value read and the access raises what it raises; with it false,
// the read is discarded.
func (p *Program) commit(s State, proc, j int, in *Instr, rec *Record) {
	off := p.specOff(proc, in)
	status, v := s[off], s.i64(off+1)
	// the guard is read now, whether it holds or not: a guard on a get's result
	// register uses its origin buffer (E-ORIGIN-BUF), as the unspeculated step does;
	// the load's own use of a buffer is cancelled with it by a false guard (§2)
	p.originBufferUse(s, proc, in, in.OriginBufGuard, rec)
	holds := in.GuardReg < 0 || p.guardHolds(s, proc, in)
	if holds {
		p.originBufferUse(s, proc, in, in.OriginBuf, rec)
		switch {
		case status > specOK && specRules[status-specOK-1] == spec.ETarget:
			_, _, bad, _ := p.resolve(s, proc, in) // the address register is as it was at the read
			p.raise(s, rec, spec.ETarget, proc, in, func() string { return bad.message(p, proc, in) })
		case status > specOK:
			rule := specRules[status-specOK-1]
			p.raise(s, rec, rule, proc, in, p.lsMessage(s, proc, rule, p.peekResolved(s, proc, in)))
		default:
			p.setReg(s, proc, int(in.Dst), v)
			if in.AlignErr != "" {
				p.raise(s, rec, spec.EAlign, proc, in, func() string { return in.AlignErr })
			}
		}
	}
	for k := off; k < off+specEntry; k++ {
		s[k] = 0
	}
	sr := p.Layout.SpecRead[proc]
	s.setU64(sr, s.u64(sr)&^(1<<uint(j)))
	p.setDone(s, proc, j)
	if rec.full() {
		rec.Text = fmt.Sprintf("P%d row %d: %s", proc, in.Row, in.Text)
		switch {
		case !holds:
			rec.Text += "  (commits nothing: the guard is false, the speculative read is discarded)"
		case status == specOK:
			rec.Text += fmt.Sprintf("  (commits %s=%d: the guard holds)", p.Procs[proc].Regs[in.Dst], v)
		default:
			rec.Text += "  (commits: the guard holds)"
		}
	}
}

// SpeculationPairs says, for a step that commits a speculative load whose guard
// holds in s, which candidate pairs were concurrent when it read: a mask over the
// candidates (indexes into Candidates) it returns. The explorer reports them with
// this step ending the witness: the access is real only now (docs/semantics.md#hardware-models).
func (p *Program) SpeculationPairs(s State, st Step) (mask uint64, cands []int) {
	if st.Kind != StepExec {
		return 0, nil
	}
	proc, j := int(st.Proc), int(st.Index)
	in := &p.Procs[proc].Code[j]
	if in.Spec < 0 || len(in.SpecCands) == 0 || speculative(in, p.done(s, proc)) || p.specRead(s, proc)&(1<<uint(j)) == 0 {
		return 0, nil
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, proc, in) {
		return 0, nil
	}
	return s.u64(p.specOff(proc, in) + 9), in.SpecCands
}

// CandidateDiagnostic describes candidate pair ci, broken.
func (p *Program) CandidateDiagnostic(ci int) Diagnostic {
	cand := &p.Candidates[ci]
	a, b := &p.accesses[cand.A], &p.accesses[cand.B]
	if b.rma && !a.rma {
		a, b = b, a
	}
	return p.describeConflict(cand.rule, a, b)
}

// specCandidates gives each speculative load the candidate pairs in which it is the
// plain access (at most 64: its pending mask is a word).
func (c *compiler) specCandidates() {
	p := c.p
	for ci, cand := range p.Candidates {
		if cand.kind >= pairStartPost || cand.kind == pairRMA {
			continue
		}
		for _, x := range []int{cand.A, cand.B} {
			acc := &p.accesses[x]
			in := &p.Procs[acc.proc].Code[acc.instr]
			if acc.rma || in.Spec < 0 {
				continue
			}
			if len(in.SpecCands) == 64 {
				c.fail("P%d row %d: %s is in more than 64 racing pairs", acc.proc, in.Row, in.Text)
				return
			}
			in.SpecCands = append(in.SpecCands, ci)
		}
	}
}
