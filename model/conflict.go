package model

import (
	"fmt"
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Conflicts and races (docs/semantics.md#verdicts, docs/semantics.md#concurrency).
//
// Two accesses are concurrent unless synchronization orders one before the other.
// The model decides this operationally: in the state graph of the hw model, two
// accesses are concurrent when some reachable state has both of them possible at
// once — two plain accesses both enabled, or a plain access enabled while an RMA
// operation is live (issued and not yet completed at its target, R2-R4) or about to
// be issued. An MB-sync-MB chain (§7) forbids exactly that: the release half keeps
// the first access before the sync, the acquire half keeps the second after it, and
// completion at the target ends an RMA operation's life before the sync edge. So an
// ordered pair is never co-enabled, and the hw model can show it no stale value.
//
// The checks read the state; they change nothing, so the search's reduction stays
// sound: a step it takes alone only enables others, and the calls that end an RMA
// operation's life (completion) are never taken alone.

// pairKind is what a candidate pair can break.
type pairKind uint8

const (
	pairPlain  pairKind = iota // two plain accesses: RACE
	pairPlainU                 // plain access and RMA operation on a unified window: U1/U5, U2, U3
	pairPlainS                 // plain access and RMA update on a separate window: S1
	pairS3                     // plain store and RMA update on one separate window, any cells: S3
	pairRMA                    // two RMA operations: C-CONFLICT or E-INFO
)

// access is one instruction that touches memory, as the conflict checks see it.
type access struct {
	proc, instr int
	cell        int
	store       bool // plain store
	rma         bool
	slot        int  // RMA operation with a slot; -1 for plain accesses and remote loads
	elem        int8 // the element of a multi-element call (range.go), -1 none
	reads       bool
	writes      bool
	accumulate  bool
	accOp       litmus.AccOp
	typ         litmus.Type
	win         int
	sync        bool // a synchronization call (assertion pairs), not a memory access
	// dyn: an RMA call with a computed location, or a load/store through an address
	// register, as one of the cells it may name (one access a cell): a pair of it
	// counts only when the instruction names that cell.
	dyn bool
}

// Candidate is a pair of accesses that may break a rule if they are concurrent.
type Candidate struct {
	A, B int // indexes into Program.accesses
	kind pairKind
	rule spec.RuleID // the rule it breaks: RACE, U1, U2, U3, U5, S1, S3, C-CONFLICT or E-INFO
}

// HasConflictChecks reports whether any pair of the program's accesses could conflict.
func (p *Program) HasConflictChecks() bool { return len(p.Candidates) > 0 }

// buildConflicts lists the candidate pairs of a compiled program.
func (c *compiler) buildConflicts() {
	p := c.p
	for proc := range p.Procs {
		for k := range p.Procs[proc].Code {
			a, ok := c.accessOf(proc, k)
			switch in := &p.Procs[proc].Code[k]; {
			case !ok:
			case in.Computed != nil && in.Computed.Range: // per element, each cell it may name (range_target.go)
				for e, may := range in.Computed.ElemMay {
					for m := may; m != 0; m &= m - 1 {
						x := a
						x.cell, x.elem, x.dyn = bits.TrailingZeros64(m), int8(e), true
						x.typ = c.cellTypes[x.cell]
						p.accesses = append(p.accesses, x)
					}
				}
			case in.Computed != nil:
				for m := in.Computed.MayCells; m != 0; m &= m - 1 {
					a.cell, a.dyn = bits.TrailingZeros64(m), true
					p.accesses = append(p.accesses, a)
				}
			default:
				p.accesses = append(p.accesses, c.accessesOf(proc, k)...) // one per element of a range (range.go)
			}
		}
	}
	overlap := c.cellOverlaps()
	for i := range p.accesses {
		for j := i + 1; j < len(p.accesses); j++ {
			a, b := &p.accesses[i], &p.accesses[j]
			sameCell := overlap[a.cell]&(1<<uint(b.cell)) != 0
			if cand, ok := c.candidate(a, b, sameCell); ok {
				cand.A, cand.B = i, j
				if cand.kind == pairPlainU && cand.rule == spec.U1 { // a store against an update: U5 before the perform, U1 after
					cand.rule = spec.U5
					p.Candidates = append(p.Candidates, cand)
					cand.rule = spec.U1
				}
				p.Candidates = append(p.Candidates, cand)
			}
		}
	}
}

func (c *compiler) accessOf(proc, k int) (access, bool) {
	in := &c.p.Procs[proc].Code[k]
	a := access{proc: proc, instr: k, cell: int(in.Cell), slot: int(in.Slot), elem: -1, win: int(in.Win), accOp: in.AccOp}
	if in.Src.Loc != nil {
		_, _, _, a.typ, _ = c.t.ResolveLoc(*in.Src.Loc)
	}
	switch in.Kind {
	case KPlainLoad:
		return a, true
	case KPlainStore:
		a.store = true
		return a, true
	case KRemoteLoad:
		a.rma, a.reads = true, true
		return a, true
	case KRemoteStore:
		a.rma, a.writes = true, true
		return a, true
	case KRMA:
		a.rma = true
		a.accumulate = isAccumulate(in)
		a.reads = accReads(in) || in.Op == litmus.OpGet || in.Op == litmus.OpRget
		a.writes = accWrites(in) || in.Op == litmus.OpPut || in.Op == litmus.OpRput
		return a, true
	}
	return a, false
}

// cellOverlaps: cells whose bytes overlap (typed locations of bytes= windows), each
// cell overlapping itself.
func (c *compiler) cellOverlaps() []uint64 {
	p := c.p
	out := make([]uint64, len(p.Cells))
	span := func(i int) (lo, hi int) {
		cell := p.Cells[i]
		w := c.t.Windows[cell.Win]
		lo = cell.Disp * dispUnitBytes(w)
		return lo, lo + c.cellTypes[i].Size()
	}
	for i := range p.Cells {
		for j := range p.Cells {
			ci, cj := p.Cells[i], p.Cells[j]
			if i == j {
				out[i] |= 1 << uint(j)
				continue
			}
			if ci.Win != cj.Win || ci.Rank != cj.Rank {
				continue
			}
			lo1, hi1 := span(i)
			lo2, hi2 := span(j)
			if lo1 < hi2 && lo2 < hi1 {
				out[i] |= 1 << uint(j)
			}
		}
	}
	return out
}

func (c *compiler) candidate(a, b *access, sameCell bool) (Candidate, bool) {
	p := c.p
	if b.rma && !a.rma {
		a, b = b, a // a is the RMA operation when there is one
	}
	switch {
	case !a.rma && !b.rma:
		if sameCell && a.proc != b.proc && (a.store || b.store) {
			return Candidate{kind: pairPlain, rule: spec.Race}, true
		}
	case a.rma && !b.rma:
		cell := p.Cells[a.cell]
		if cell.Separate {
			if sameCell && a.writes {
				return Candidate{kind: pairPlainS, rule: spec.S1}, true
			}
			// S3: a put or accumulate (a no_op one too: it "conflicts with ... stores in
			// separate windows", §5) against a store of the owner to the window.
			if b.store && (a.writes || a.accumulate) && b.proc == cell.Rank && p.Cells[b.cell].Win == cell.Win && p.Cells[b.cell].Rank == cell.Rank {
				return Candidate{kind: pairS3, rule: spec.S3}, true
			}
			return Candidate{}, false
		}
		switch {
		case !sameCell:
		case b.store && a.writes:
			return Candidate{kind: pairPlainU, rule: spec.U1}, true // and U5: buildConflicts adds it
		case !b.store && a.writes:
			return Candidate{kind: pairPlainU, rule: spec.U2}, true
		case b.store && a.reads:
			return Candidate{kind: pairPlainU, rule: spec.U3}, true
		}
	default:
		if !sameCell {
			return Candidate{}, false
		}
		if rule := c.rmaConflict(a, b); rule != spec.NoRule {
			return Candidate{kind: pairRMA, rule: rule}, true
		}
	}
	return Candidate{}, false
}

// rmaConflict: which rule two concurrent RMA operations on one cell break (node316,
// node338, node315): a put with anything, exactly one accumulate (a no_op one only
// reads: it conflicts with puts only), accumulates of different types, and mixed
// ops, which break the accumulate_ops assumption (E-INFO).
func (c *compiler) rmaConflict(a, b *access) spec.RuleID {
	if a.proc == b.proc && a.accumulate && b.accumulate {
		return spec.NoRule // one origin's accumulates to a cell are ordered (accumulate_ordering)
	}
	put := func(x *access) bool { return x.writes && !x.accumulate }
	readOnly := func(x *access) bool { return !x.writes }
	switch {
	case put(a) || put(b):
		return spec.CConflict
	case a.accumulate != b.accumulate:
		// get against an accumulate: a conflict unless the accumulate only reads
		if (a.accumulate && readOnly(a)) || (b.accumulate && readOnly(b)) {
			return spec.NoRule
		}
		return spec.CConflict
	case !a.accumulate:
		return spec.NoRule // two gets
	case readOnly(a) && readOnly(b):
		return spec.NoRule
	case a.typ != b.typ:
		return spec.CConflict
	case readOnly(a) || readOnly(b):
		if v, _ := c.p.Wins[a.win].Src.InfoValue("accumulate_ops"); v == "same_op" {
			return spec.EInfo
		}
		return spec.NoRule
	case a.accOp != b.accOp && !c.casAsReplace(a, b):
		return spec.EInfo
	}
	return spec.NoRule
}

// casAsReplace: under cas_replace (docs/semantics.md#presets-and-switches, off in every preset) a
// compare_and_swap counts as MPI_REPLACE for accumulate_ops, so it meets a
// replace on one cell without breaking same_op_no_op (reports/accumulate-ops).
func (c *compiler) casAsReplace(a, b *access) bool {
	isCas := func(x *access) bool { return c.p.Procs[x.proc].Code[x.instr].Op == litmus.OpCas }
	replace := func(x *access) bool { return x.accOp == litmus.AccReplace || isCas(x) }
	return (isCas(a) || isCas(b)) && replace(a) && replace(b) && c.p.switchOn(spec.CasReplace)
}

// Conflicts reports every candidate pair that is concurrent in s, with its index
// in Candidates, but those skip says are already found (skip nil: none).
func (p *Program) Conflicts(s State, skip func(candidate int) bool, report func(candidate int, d Diagnostic)) {
	for ci := range p.Candidates {
		if skip != nil && skip(ci) {
			continue
		}
		cand := &p.Candidates[ci]
		a, b := &p.accesses[cand.A], &p.accesses[cand.B]
		if cand.kind >= pairStartPost {
			if p.assertionBroken(s, cand, a, b) {
				report(ci, p.describeAssertion(cand, a, b))
			}
			continue
		}
		if b.rma && !a.rma {
			a, b = b, a
		}
		rule := p.concurrent(s, cand, a, b, nil)
		if rule == spec.NoRule {
			continue
		}
		report(ci, p.describeConflict(rule, a, b))
	}
}

// concurrent decides a candidate pair in s, returning the rule broken or NoRule. The
// plain access reading, when not nil, counts as enabled: a speculative load taking
// its read step (speculate.go).
func (p *Program) concurrent(s State, cand *Candidate, a, b, reading *access) spec.RuleID {
	switch cand.kind {
	case pairPlain:
		if p.accessEnabled(s, a, reading) && p.accessEnabled(s, b, reading) {
			return spec.Race
		}
	case pairPlainU:
		st, active := p.opActive(s, a)
		if !active || !p.accessEnabled(s, b, reading) {
			return spec.NoRule
		}
		switch cand.rule {
		case spec.U1: // the store comes after the update was performed, before it completed
			if st != SlotPerformed {
				return spec.NoRule
			}
		case spec.U5: // the store may come before the update is performed
			if st == SlotPerformed {
				return spec.NoRule
			}
		}
		return cand.rule
	case pairPlainS:
		st, active := p.opActive(s, a)
		started := active && st != SlotIdle
		dirty := a.slot >= 0 && st == SlotCompleted && s.u64(p.Layout.DirtyPub)&(1<<uint(a.cell)) != 0
		if (started || dirty) && p.accessEnabled(s, b, reading) {
			return spec.S1
		}
	case pairS3:
		if _, active := p.opActive(s, a); active && p.accessEnabled(s, b, reading) {
			return spec.S3
		}
	case pairRMA:
		_, activeA := p.opActive(s, a)
		_, activeB := p.opActive(s, b)
		if activeA && activeB {
			return cand.rule
		}
	}
	return spec.NoRule
}

// accessEnabled: the plain access can execute now and is a real access (its guard
// holds, and it raises no error instead). A speculative load is decided apart: at
// its read step (reading), and reported only if it commits with its guard true.
func (p *Program) accessEnabled(s State, a *access, reading *access) bool {
	if a == reading {
		return true
	}
	done := p.done(s, a.proc)
	if done&(1<<uint(a.instr)) != 0 || !p.ready(s, a.proc, a.instr, done) {
		return false
	}
	in := &p.Procs[a.proc].Code[a.instr]
	if in.Spec >= 0 && (in.CommitAfter&^done != 0 || p.specRead(s, a.proc)&(1<<uint(a.instr)) != 0) {
		return false
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, a.proc, in) {
		return false
	}
	if a.dyn { // through an address register: an access of the cell it names only
		if in = p.peekResolved(s, a.proc, in); in == nil || int(in.Cell) != a.cell {
			return false
		}
	}
	return p.lsProblem(s, a.proc, in) == spec.NoRule
}

// opActive: the RMA operation is live (issued and not completed at its target) or
// can be issued now. It returns the slot status (SlotIdle when about to be issued).
//
// An operation whose target is not yet exposed to it (before the target returned
// from the fence opening the epoch, or posted the matching exposure) is not yet
// live: the target's accesses before that point are ordered before it (the fence
// and the post are MBs of scope own), as start delays RMA accesses "until the
// target process executed the matching call to MPI_WIN_POST" (node329).
func (p *Program) opActive(s State, a *access) (status int, active bool) {
	in := &p.Procs[a.proc].Code[a.instr]
	if a.dyn {
		return p.dynActive(s, a, in)
	}
	if a.slot >= 0 {
		off := p.Layout.Slot[a.slot]
		st := int(s[off])
		switch st {
		case SlotPerformed:
			return st, true
		case SlotPending:
			if p.Slots[a.slot].Multi && p.elemPerformed(s, a.slot, int(a.elem)) {
				return SlotPerformed, true // this element performed, the call not yet complete
			}
			return st, p.exposed(s, int(in.Win), a.proc, int(in.Target), int(s[off+1]), int(s[off+2]))
		case SlotCompleted:
			return st, false
		}
	}
	if !p.issuable(s, a, in) {
		return SlotIdle, false
	}
	if in.Kind != KRMA && p.lsProblem(s, a.proc, in) != spec.NoRule {
		return SlotIdle, false
	}
	kind, index := p.epochFor(s, a.proc, in)
	if kind == 0 {
		return SlotIdle, false
	}
	return SlotIdle, p.exposed(s, int(in.Win), a.proc, int(in.Target), kind, index)
}

// describeConflict says why a concurrent pair breaks rule. The diagnostic is at b,
// the plain access when there is one (what the user fixes), related to a.
func (p *Program) describeConflict(rule spec.RuleID, a, b *access) Diagnostic {
	ia, ib := &p.Procs[a.proc].Code[a.instr], &p.Procs[b.proc].Code[b.instr]
	sb := ib.Text
	sa := fmt.Sprintf("%s of P%d (row %d)", ia.Text, a.proc, ia.Row)
	var why string
	switch rule {
	case spec.Race:
		why = fmt.Sprintf("%s races with %s: no synchronization orders them (docs/semantics.md#concurrency)", sb, sa)
	case spec.U1:
		why = fmt.Sprintf("%s stores to the cell that %s updated, before that update completed at the target", sb, sa)
	case spec.U5:
		why = fmt.Sprintf("%s conflicts with %s: no synchronization orders them, and the store may come before the update", sb, sa)
	case spec.U2:
		why = fmt.Sprintf("%s reads the cell %s updates, concurrently: it may read the old or the new value", sb, sa)
	case spec.U3:
		why = fmt.Sprintf("%s stores to the cell %s reads, concurrently: the get may see the old or the new value", sb, sa)
	case spec.S1:
		why = fmt.Sprintf("%s accesses a cell of a separate window that %s updates, before the update reached the private copy (an R6 call)", sb, sa)
	case spec.S3:
		why = fmt.Sprintf("%s stores to a separate window that %s updates concurrently", sb, sa)
	case spec.EInfo:
		why = fmt.Sprintf("%s and %s are concurrent accumulates with different ops, which accumulate_ops forbids", sb, sa)
	default:
		why = fmt.Sprintf("%s and %s are concurrent conflicting RMA operations on one location", sb, sa)
	}
	return newDiagnostic(rule, p.site(b.proc, ib), why, p.site(a.proc, ia))
}

// PairSteps are the steps, enabled one after the other from s, in which the two
// accesses of candidate pair ci (concurrent in s) take place, so that a witness can
// end with the race itself, in the order that shows the problem: for U5 and U2 the
// plain access before the update (a store that lands before it, a load that reads
// the old value), otherwise the other access first and the one the diagnostic is at
// last. An RMA operation is issued (if it is not yet) and performed (if it is not
// yet). Marks are the indexes (in the returned steps) of the accesses.
func (p *Program) PairSteps(s State, ci int) (steps []Step, marks []int) {
	cand := &p.Candidates[ci]
	a, b := &p.accesses[cand.A], &p.accesses[cand.B]
	if b.rma && !a.rma {
		a, b = b, a // a is the RMA operation when there is one; b the plain access
	}
	cur := s.Clone()
	take := func(st Step) bool {
		if !p.enabled(cur, st) {
			return false
		}
		p.Apply(cur, st, nil)
		steps = append(steps, st)
		return true
	}
	access := func(x *access) {
		in := &p.Procs[x.proc].Code[x.instr]
		exec := Step{Kind: StepExec, Proc: int8(x.proc), Index: int8(x.instr)}
		if x.slot < 0 || in.Kind != KRMA && in.Kind != KRemoteStore {
			if take(exec) {
				marks = append(marks, len(steps)-1)
			}
			return
		}
		e := 0
		if p.Slots[x.slot].Multi {
			e = int(x.elem)
		}
		switch cur[p.Layout.Slot[x.slot]] {
		case SlotIdle:
			if !take(exec) {
				return
			}
			fallthrough
		case SlotPending:
			if p.Slots[x.slot].Multi && p.elemPerformed(cur, x.slot, e) {
				return
			}
			if take(PerformStep(x.slot, e)) {
				marks = append(marks, len(steps)-1)
			}
		}
	}
	if cand.rule == spec.U5 || cand.rule == spec.U2 {
		a, b = b, a
	}
	access(a)
	access(b)
	return steps, marks
}

// issuable reports whether the access's instruction is the one its process may
// run next in s: not done, ready, its guard holding, its window not freed.
func (p *Program) issuable(s State, a *access, in *Instr) bool {
	done := p.done(s, a.proc)
	if done&(1<<uint(a.instr)) != 0 || !p.ready(s, a.proc, a.instr, done) {
		return false
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, a.proc, in) {
		return false
	}
	return s[p.Layout.Win[in.Win].Freed+a.proc] == 0
}
