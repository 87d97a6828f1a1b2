package model

import (
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Stubborn sets over remote loads and stores as RMA (ls_is_rma, preset A) in
// passive-target lock_all epochs. A remote load reads the public copy of its cell
// when it executes: for the stubborn sets it is a plain load (it conflicts with
// the stores, drains and performs of the cell). A remote store is issued (a step of
// its process that touches only the process's registers and the slot) and then
// performed, a separate transition Perform(k) that writes the slot's cell: it is
// dependent on every access, drain and perform that may touch an overlapping
// cell, of any process. A perform not yet issued is disabled; its issue is its
// necessary enabling set. flush and unlock_all on a window with operations
// complete them (R4): a completing call is enabled once its process's operations
// are performed, so a disabled one's enabling set is the pending performs of its
// process; otherwise it touches its process's state (and the commuting
// lock-holder bits) only.
//
// Completion ends an operation's concurrency with other accesses, which the
// concurrency checks (§7) read: the pairs with an RMA side are decided on "live"
// (issued or issuable, not yet completed), not on "enabled", so the plain
// pair rule does not cover them. For those pairs the sets keep a visibility rule
// (Valmari's condition for safety properties): for a pair c not concurrent in the
// state and still able to become so (neither side executed or completed), vis(c)
// is, per side, the instructions of its process up to it in program order, for an
// operation also its process's later completing calls and its perform, and under
// tso the two processes' drains: all the transitions that can change whether a
// side is live or enabled. If T holds an enabled transition of
// vis(c), T holds all of vis(c). Then along any path of steps outside T from the
// state, either vis(c) is in T and no step changes c's sides (c stays not
// concurrent), or T's enabled steps are outside vis(c): taking one first commutes
// with the path and changes neither side, so a state where c is concurrent stays
// reachable (by induction on the height of the state, as for the plain pairs).
//
// Puts and gets on windows of passive-target epochs alone (lock_all, and lock: the
// unlock of a target completes the operations to it, R4) are issued and performed
// as remote stores are (stubRMAOp). Not covered: accumulates, request-based calls,
// computed targets, ranges, RMA in fence or PSCW epochs, flush to MPI_PROC_NULL,
// assertions acted on.

// stubRMA is the part of the stubborn sets about slots and RMA pairs.
type stubRMA struct {
	slotCells []uint64 // per slot: the cells its perform may write (overlaps included)
	slotIssue []int    // per slot: its issuing instruction
	slotsOf   []uint64 // per process: its slots
	pairs     []stubPair
}

// stubPair is a candidate pair of the concurrency checks with an RMA side.
type stubPair struct {
	cand int
	// vis: per side, its process and the instructions that can change whether it
	// is enabled or live (those before it in program order, itself, and for an
	// operation its process's later completing calls); the performs of the
	// operations' slots; and, under tso, the two processes' drains
	proc  [2]int
	instr [2]uint64
	slots uint64
}

// stubRMAAllowed: every slot is a remote store's or a put's or get's (stubRMAOp),
// none computed or a range, at most 64 of them, and no assertion is acted on.
func (c *compiler) stubRMAAllowed() bool {
	p := c.p
	if len(p.Slots) > 64 || len(p.Candidates) > maxStubPairs || !c.performReductionAllowed() {
		return false
	}
	for _, sl := range p.Slots {
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		if in.Kind != KRemoteStore && !c.stubRMAOp(in) || sl.Multi || in.Computed != nil || in.Elems != nil {
			return false
		}
	}
	return true
}

// stubRMAOp: an RMA call the stubborn sets take as they take a remote store
// (issue 37): a put or a get of one element, on a window whose epochs can only be
// passive-target (no fence or PSCW call on its memory: passiveWindows), so that
// its perform, once issued, is enabled until it happens (a lock or lock_all epoch
// exposes its target at once, rma.go's exposed; no accumulate ordering, no
// progress rule) and the window's unlock_all, the unlock of its target and the
// flushes complete it (R4). No lock, unlock or other process's step disables a
// pending perform, and a perform reads and writes no lock-holder bit: it commutes
// with every lock and unlock (a lock of its target by another process waits for
// the origin's unlock, which waits for the perform: completeBlocked). A get's perform also writes its result register, which no
// instruction of its process touches before the operation completes (independence
// Allowed leaves out programs with origin-buffer uses), so the completing call
// orders them: the perform is dependent on the accesses of its cell alone.
func (c *compiler) stubRMAOp(in *Instr) bool {
	if in.Kind != KRMA || (in.Op != litmus.OpPut && in.Op != litmus.OpGet) || in.Computed != nil || in.Elems != nil || in.GuardReg >= 0 {
		return false
	}
	return c.passiveWindows(true)[in.Win]
}

// stubRMAKind classifies a remote store's issue and a completing call; ok false
// when the instruction is neither.
// Without slots the calls keep their plain classification (a nocheck epoch's
// unlock_all ends what the assertion checks look at, reduce.go).
func (c *compiler) stubRMAKind(in *Instr) (stubKind, bool) {
	if len(c.p.Slots) == 0 || in.GuardReg >= 0 || in.Asserts != 0 || in.TwoPhase || in.Computed != nil {
		return 0, false
	}
	switch {
	case in.Kind == KRemoteStore && in.Elems == nil, c.stubRMAOp(in):
		return stubIssue, true
	case in.Kind == KUnlockAll && !c.p.hasSeparate:
		return stubComplete, true
	case in.Kind == KUnlock && in.Target >= 0 && c.lockWindowQuiet(int(in.Win)):
		// it completes its target's operations (R4) and releases the lock, which
		// only enables other processes' locks of the target (lockReleaser names
		// it as their necessary enabling set)
		return stubComplete, true
	case in.Kind == KFlush && (in.Op == litmus.OpFlushAll || in.Target >= 0):
		return stubComplete, true
	}
	return 0, false
}

// stubRMAReduction computes the slots' cells and the RMA pairs.
func (c *compiler) stubRMAReduction(sb *stubborn, overlap []uint64) {
	p := c.p
	r := &stubRMA{slotCells: make([]uint64, len(p.Slots)), slotIssue: make([]int, len(p.Slots)), slotsOf: make([]uint64, p.NProcs)}
	for k, sl := range p.Slots {
		r.slotCells[k] = overlap[p.Procs[sl.Proc].Code[sl.Instr].Cell]
		r.slotIssue[k] = sl.Instr
		r.slotsOf[sl.Proc] |= 1 << uint(k)
	}
	for ci, cd := range p.Candidates {
		a, b := &p.accesses[cd.A], &p.accesses[cd.B]
		if a.rma || b.rma {
			pr := stubPair{cand: ci, proc: [2]int{a.proc, b.proc}}
			for i, x := range []*access{a, b} {
				pr.instr[i] = 1<<uint(x.instr+1) - 1 // it and all before it
				if x.slot >= 0 {
					pr.slots |= 1 << uint(x.slot)
					for j := x.instr + 1; j < len(sb.kind[x.proc]); j++ {
						if sb.kind[x.proc][j] == stubComplete {
							pr.instr[i] |= 1 << uint(j)
						}
					}
				}
			}
			r.pairs = append(r.pairs, pr)
		}
	}
	sb.rma = r
}

// slotsLive: the slots whose perform is still to happen: pending, or idle with
// its issue still to run (an issue that raised an error leaves it idle for good).
func (p *Program) slotsLive(s State, done *[MaxProcs]uint64) uint64 {
	var m uint64
	for k, sl := range p.Slots {
		if st := s[p.Layout.Slot[k]]; st == SlotPending || st == SlotIdle && done[sl.Proc]&(1<<uint(sl.Instr)) == 0 {
			m |= 1 << uint(k)
		}
	}
	return m
}

// slotsPending: the slots issued and not performed (their performs are enabled:
// passive-target epochs, no progress rule, no accumulates).
func (p *Program) slotsPending(s State) uint64 {
	var m uint64
	for k := range p.Slots {
		if s[p.Layout.Slot[k]] == SlotPending {
			m |= 1 << uint(k)
		}
	}
	return m
}

// slotsOnCells: the live slots whose perform may write one of cells.
func (sb *stubborn) slotsOnCells(live, cells uint64) uint64 {
	var m uint64
	for k := live; k != 0; k &= k - 1 {
		i := bits.TrailingZeros64(k)
		if sb.rma.slotCells[i]&cells != 0 {
			m |= 1 << uint(i)
		}
	}
	return m
}

// completeBlocked: a completing call whose operations are not all performed (R4).
func (p *Program) completeBlocked(s State, q int, in *Instr) bool {
	wl := &p.Layout.Win[in.Win]
	if in.Kind == KUnlockAll {
		return s[wl.LockAll+q] != 0 && p.pending(s, q, int(in.Win), anyOp)
	}
	all := in.Op == litmus.OpFlushAll
	if !p.passiveEpoch(s, q, in, all) {
		return false // it raises E-SYNC at once
	}
	return p.pending(s, q, int(in.Win), func(op *Instr, _ int) bool { return all || op.Target == in.Target })
}

// stubClosePerform adds to t what an enabled perform of slot k depends on: the
// accesses of any process to an overlapping cell (but dead loads: deadLoads), the
// drains that may write one, the other live performs on one.
func (p *Program) stubClosePerform(x *stubState, t *stubSet, k int) {
	sb := p.stub
	cells := sb.rma.slotCells[k]
	for r := 0; r < p.NProcs; r++ {
		for c := cells; c != 0; c &= c - 1 {
			t.instr[r] |= sb.access[r][bits.TrailingZeros64(c)] &^ (x.done[r] | sb.deadLoads[r])
		}
	}
	if p.HW == spec.TSO {
		t.drain |= x.drainsOn(p.NProcs, cells)
	}
	t.perf |= sb.slotsOnCells(x.live, cells) &^ (1 << uint(k))
}

// maxStubPairs bounds the RMA pairs the stubborn sets follow (a bit each).
const maxStubPairs = 256

// stubUnsettled is the RMA pairs not settled in a state (stubPairSettled), one
// bit each, computed at the first closure that needs them.
type stubUnsettled struct {
	known bool
	m     [maxStubPairs / 64]uint64
}

func (p *Program) unsettledPairs(s State, done *[MaxProcs]uint64, u *stubUnsettled) *[maxStubPairs / 64]uint64 {
	if !u.known {
		u.known = true
		for i, pr := range p.stub.rma.pairs {
			if !p.stubPairSettled(s, pr.cand, done) {
				u.m[i/64] |= 1 << uint(i%64)
			}
		}
	}
	return &u.m
}

// stubPairsClose applies the visibility rule to the RMA pairs not settled, with an
// up set in place of vis(c) where one is known (stubborn_up.go); it reports
// whether t grew.
func (p *Program) stubPairsClose(x *stubState, t *stubSet) bool {
	sb := p.stub
	done, enabled, live := &x.done, &x.enabled, x.live
	grew := false
	for w, m := range p.unsettledPairs(x.s, done, &x.unsettled) {
		for ; m != 0; m &= m - 1 {
			pr := &sb.rma.pairs[w*64+bits.TrailingZeros64(m)]
			hit := t.perf&enabled.perf&pr.slots != 0
			for i, q := range pr.proc {
				hit = hit || t.instr[q]&enabled.instr[q]&pr.instr[i] != 0 || p.HW == spec.TSO && t.drain&enabled.drain&(1<<uint(q)) != 0
			}
			if !hit {
				continue
			}
			switch up := p.stubPairUp(x, t, pr.cand); up.kind {
			case upNever:
				continue
			case upSet: // instead of vis(c), one up set of c (stubborn_up.go)
				if add := up.instr &^ t.instr[up.proc]; add != 0 {
					t.instr[up.proc] |= add
					grew = true
				}
				if add := up.perf &^ t.perf; add != 0 {
					t.perf |= add
					grew = true
				}
				continue
			}
			if add := pr.slots & live &^ t.perf; add != 0 {
				t.perf |= add
				grew = true
			}
			for i, q := range pr.proc {
				if add := pr.instr[i] &^ (done[q] | t.instr[q]); add != 0 {
					t.instr[q] |= add
					grew = true
				}
				if d := uint32(1) << uint(q); p.HW == spec.TSO && t.drain&d == 0 {
					t.drain |= d
					grew = true
				}
			}
		}
	}
	return grew
}

// stubPairSettled: the pair is concurrent in s (the checks flag it here), or can
// never be again: a side executed (plain access, remote load), completed (an
// operation) or issued without effect (an error).
func (p *Program) stubPairSettled(s State, ci int, done *[MaxProcs]uint64) bool {
	cand := &p.Candidates[ci]
	a, b := &p.accesses[cand.A], &p.accesses[cand.B]
	for _, x := range []*access{a, b} {
		issued := done[x.proc]&(1<<uint(x.instr)) != 0
		if x.slot >= 0 {
			if st := s[p.Layout.Slot[x.slot]]; st == SlotCompleted || st == SlotIdle && issued { // completed, or its issue raised an error
				return true
			}
		} else if issued {
			return true
		}
	}
	if b.rma && !a.rma {
		a, b = b, a
	}
	return p.concurrent(s, cand, a, b, nil) != spec.NoRule
}
