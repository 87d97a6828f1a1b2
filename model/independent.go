package model

import (
	"math/bits"
	"slices"

	"github.com/rmacheck/rmacheck/spec"
)

// The second reduction: a plain access whose cell nobody else can still touch in
// conflict. The local steps (reduce.go) are local by their kind, whatever the state;
// a plain load or store is not, but it becomes so once every other access in
// conflict with it (same or overlapping cell, one of the two a write) has
// happened: the other processes' instructions executed, the RMA operations
// performed, the tso store buffers drained of the cell. From then on it commutes
// with every step the others can take, none of them can disable it, and taking it
// enables or disables nothing of theirs, so the reduced search may take it alone
// (a persistent set of one, as for the local steps) — in a program of k such
// accesses per process, after the last conflicting access, their k! orders become
// one. Its pairs for the concurrency checks are with accesses already done, so no
// concurrent pair is lost (the property tests in explorer/ check outcomes, flags
// and pair flags against the plain search). The same holds for a tso store buffer's
// drain of a cell nobody else can touch.
//
// What the access raises must not depend on the order either: the reduction is off
// in programs whose plain accesses read state the process's own MPI calls change
// (free, shared_query: E-EPOCH, E-LS-ACCESS), track own stores (nostore), read an
// origin buffer (E-ORIGIN-BUF), have a private copy (separate windows), or whose
// control reads values (guards, spin loops, speculation).

// independence is what must have happened for a plain access (or a drain) to
// commute with all that the others can still do.
type independence struct {
	instrs []uint64   // per process: the instructions in conflict with it (of its own process: those not ordered after it)
	slots  []int8     // RMA slots in conflict with it
	elems  []slotElem // elements of multi-element slots in conflict with it
	cells  uint64     // the cells it overlaps: no other store buffer may hold one
}

// independent reports whether everything in ind has happened in s, for an access of
// process proc: only its own buffer may still hold its cells (proc -1, an RMA
// perform: no buffer may).
func (p *Program) independent(s State, proc int, ind *independence) bool {
	for q, m := range ind.instrs {
		if m&^p.done(s, q) != 0 {
			return false
		}
	}
	for _, k := range ind.slots {
		if s[p.Layout.Slot[k]] == SlotPending {
			return false
		}
	}
	if !p.elemsDone(s, ind.elems) {
		return false
	}
	if p.HW == spec.TSO {
		for q := range p.Procs {
			if q != proc && p.buffers(s, q, ind.cells) {
				return false
			}
		}
	}
	return true
}

// buffers reports whether process q's store buffer holds a store to one of cells.
func (p *Program) buffers(s State, q int, cells uint64) bool {
	l := &p.Layout
	for k := 0; k < int(s[l.TSOLen[q]]); k++ {
		if cells&(1<<uint(s[l.TSOBuf[q]+9*k])) != 0 {
			return true
		}
	}
	return false
}

// independentSuccessor emits the first enabled step the reduction may take alone:
// an RMA perform, a tso drain, or a plain access, whose conflicts have all
// happened. A process's next instruction in program order goes before one that
// would overtake an earlier instruction: such a step is as good for the
// reduction, and witnesses then show no reordering the execution does not need.
func (p *Program) independentSuccessor(s, scratch State, rec *Record, emit func(Step, State)) bool {
	l := &p.Layout
	for k, ind := range p.slotIndep {
		if ind == nil || s[l.Slot[k]] != SlotPending || !p.independent(s, -1, ind) {
			continue
		}
		st := Step{Kind: StepPerform, Index: int8(k)}
		if p.try(s, scratch, st, rec) {
			emit(st, scratch)
			return true
		}
	}
	if p.elemIndep != nil && p.elemIndependentSuccessor(s, scratch, rec, emit) {
		return true
	}
	for proc := range p.Procs {
		if p.drainIndep != nil && s[l.TSOLen[proc]] > 0 {
			if ind := &p.drainIndep[proc][s[l.TSOBuf[proc]]]; p.independent(s, proc, ind) {
				st := Step{Kind: StepDrain, Proc: int8(proc)}
				p.try(s, scratch, st, rec)
				emit(st, scratch)
				return true
			}
		}
	}
	for _, overtaking := range []bool{false, true} {
		for proc := range p.Procs {
			done := p.done(s, proc)
			m := p.Procs[proc].IndepMask &^ done
			next := ^done & -^done // the first instruction not done
			if overtaking {
				m &^= next
			} else {
				m &= next
			}
			if m != 0 && p.independentExec(s, scratch, proc, done, m, rec, emit) {
				return true
			}
		}
	}
	return false
}

// independentExec emits the first step of the plain accesses m of proc that the
// reduction may take alone.
func (p *Program) independentExec(s, scratch State, proc int, done, m uint64, rec *Record, emit func(Step, State)) bool {
	code := p.Procs[proc].Code
	for ; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		if !p.ready(s, proc, j, done) || !p.independent(s, proc, code[j].indep) {
			continue
		}
		st := Step{Kind: StepExec, Proc: int8(proc), Index: int8(j)}
		if p.try(s, scratch, st, rec) {
			emit(st, scratch)
			return true
		}
	}
	return false
}

// independenceReduction computes what the reduction needs, when the program allows it.
func (c *compiler) independenceReduction(overlap []uint64) {
	p := c.p
	if !c.independenceAllowed() {
		return
	}
	conflict := func(a, b *access) bool {
		return overlap[a.cell]&(1<<uint(b.cell)) != 0 && (accessWrites(a) || accessWrites(b))
	}
	partners := make([][]int, len(p.accesses)) // the pairs of the concurrency checks
	for _, cand := range p.Candidates {
		partners[cand.A] = append(partners[cand.A], cand.B)
		partners[cand.B] = append(partners[cand.B], cand.A)
	}
	p.slotIndep = make([]*independence, len(p.Slots))
	for k, sl := range p.Slots {
		if sl.Multi {
			if p.elemIndep == nil {
				p.elemIndep = make([][]*independence, len(p.Slots))
			}
			p.elemIndep[k] = make([]*independence, sl.Elems)
		}
	}
	must := c.mustPrecede()
	for i := range p.accesses {
		a := &p.accesses[i]
		in := &p.Procs[a.proc].Code[a.instr]
		// The issue of an RMA operation is a local step (reduce.go) whatever its
		// perform does: the perform is the step this reduction is about. A plain
		// access is never local.
		if a.sync || (!a.rma && in.Local) || (p.HW == spec.TSO && a.store) { // a buffered store disables the process's MPI calls until it drains
			continue
		}
		if !a.rma && a.dyn {
			continue // through an address register: which cell it touches is known at run time only
		}
		if a.rma && (a.slot < 0 || a.dyn || !c.performReductionAllowed()) {
			continue // a computed location's perform: its cell is known only at issue
		}
		ind := &independence{instrs: make([]uint64, p.NProcs), cells: overlap[a.cell]}
		var after []uint64
		if a.rma {
			after = c.afterCompletion(a.slot, must)
		}
		for j := range p.accesses {
			b := &p.accesses[j]
			if j == i || b.sync || !(conflict(a, b) || slices.Contains(partners[i], j)) {
				continue
			}
			if after != nil && after[b.proc]&(1<<uint(b.instr)) != 0 {
				continue // it runs only once the perform has happened
			}
			if b.proc == a.proc && !a.rma && p.Procs[b.proc].Code[b.instr].Blockers&(1<<uint(a.instr)) != 0 {
				continue // ordered after it
			}
			ind.instrs[b.proc] |= 1 << uint(b.instr)
			p.addConflictSlot(ind, b)
		}
		if a.rma && p.Slots[a.slot].Multi {
			p.elemIndep[a.slot][a.elem] = ind
			continue
		}
		if a.rma {
			p.slotIndep[a.slot] = ind
			continue
		}
		in.indep = ind
		p.Procs[a.proc].IndepMask |= 1 << uint(a.instr)
	}
	if p.HW == spec.TSO {
		c.drainIndependence(overlap, conflict)
	}
}

// afterCompletion is, per process, the instructions that can execute only once RMA
// slot k is performed: those after the process's fence that closes the fence epoch
// the operation is issued in. No member returns from that fence while an operation
// of the epoch is pending (fenceCanReturn: R2 at the join of the arrivals, §7), so
// such an instruction, and an operation it issues, is never enabled while the
// perform is not done, nor concurrent with the operation (completed at that join):
// it is no conflict of the perform's (Godefroid's persistent sets need the
// independence of the steps that can happen before it only), and no pair of it is
// lost. nil when the operation need not be in a fence epoch (its origin locks or
// starts on the window) or is issued before the origin's first fence.
func (c *compiler) afterCompletion(k int, must [][]uint64) []uint64 {
	p := c.p
	sl := p.Slots[k]
	in := &p.Procs[sl.Proc].Code[sl.Instr]
	w := int(in.Win)
	for _, call := range p.Procs[sl.Proc].Code {
		if int(call.Win) == w && (call.Kind == KLock || call.Kind == KLockAll || call.Kind == KStart) {
			return nil
		}
	}
	epoch := 0 // fences of the origin before the call: the epoch it is issued in
	for _, f := range p.Wins[w].Fences[sl.Proc] {
		if f < sl.Instr {
			epoch++
		}
	}
	if epoch == 0 {
		return nil
	}
	after := make([]uint64, p.NProcs)
	for m := range p.Procs {
		if fences := p.Wins[w].Fences[m]; epoch < len(fences) && p.Wins[w].Group&(1<<uint(m)) != 0 {
			closing := uint64(1) << uint(fences[epoch])
			for j := range p.Procs[m].Code {
				if must[m][j]&closing != 0 {
					after[m] |= 1 << uint(j)
				}
			}
		}
	}
	return after
}

// mustPrecede is, per process and instruction, the earlier instructions that must
// have executed before it can: its Blockers and theirs, on every path (a load that
// may forward from an unexecuted store waits for less).
func (c *compiler) mustPrecede() [][]uint64 {
	p := c.p
	must := make([][]uint64, p.NProcs)
	for proc := range p.Procs {
		code := p.Procs[proc].Code
		must[proc] = make([]uint64, len(code))
		closure := func(m uint64) uint64 {
			out := m
			for ; m != 0; m &= m - 1 {
				out |= must[proc][bits.TrailingZeros64(m)]
			}
			return out
		}
		for j := range code {
			in := &code[j]
			must[proc][j] = closure(in.Blockers)
			if in.FwdStore >= 0 {
				must[proc][j] &= closure(in.FwdBlockers | code[in.FwdStore].Blockers)
			}
		}
	}
	return must
}

// drainIndependence: a drain of process proc's store to cell c is independent once
// the other processes' accesses to c (any: the drain writes) have happened.
func (c *compiler) drainIndependence(overlap []uint64, conflict func(a, b *access) bool) {
	p := c.p
	p.drainIndep = make([][]independence, p.NProcs)
	for proc := range p.Procs {
		p.drainIndep[proc] = make([]independence, len(p.Cells))
		for cell := range p.Cells {
			ind := &p.drainIndep[proc][cell]
			ind.instrs, ind.cells = make([]uint64, p.NProcs), overlap[cell]
			store := &access{proc: proc, cell: cell, store: true}
			for j := range p.accesses {
				b := &p.accesses[j]
				if b.proc == proc || b.sync || !conflict(store, b) {
					continue
				}
				ind.instrs[b.proc] |= 1 << uint(b.instr)
				p.addConflictSlot(ind, b)
			}
		}
	}
}

func accessWrites(a *access) bool { return a.store || a.writes }

// performReductionAllowed: no assertion is acted on (with exploit, a noput fence
// returns without waiting for incoming updates, so a perform and that return no
// longer commute), and no region is attached or detached (a perform's E-TARGET
// depends on the detach's order, dynamic.go).
//
// Assertions merely checked read no perform (issue 37): nocheck's pairs read which
// calls are done or called (assert.go), noput is checked at the issue of an update
// (the epoch it is issued into), noprecede at the fence from the slots issued in
// the epoch it closes (issued: pending, performed and completed alike), nostore
// from the caller's own stores. A perform only moves a slot from pending to
// performed, which none of them tells apart; a one-step noprecede fence waits for
// the performs (noprecedeMayReturn), which only enables it.
func (c *compiler) performReductionAllowed() bool {
	return !c.p.Exploit && !c.attachesOrDetaches()
}

// independenceAllowed: nothing a plain access raises or does depends on the order of
// the process's own MPI calls, and no control reads a value (see above).
func (c *compiler) independenceAllowed() bool {
	p := c.p
	if p.hasSeparate || p.usesNostore || p.weakProgress { // weak_progress: a perform depends on its target's steps
		return false
	}
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			in := &p.Procs[i].Code[k]
			switch {
			case in.GuardReg >= 0 || in.Spec >= 0 || in.Kind == KUntil:
				return false
			case in.Kind == KFree || in.Kind == KSharedQuery:
				return false
			case in.Kind == KTest || in.Kind == KTestReq: // what a test returns depends on when the performs and completes are
				return false
			case len(in.OriginBuf) > 0 || len(in.OriginBufGuard) > 0:
				return false
			}
		}
	}
	return true
}
