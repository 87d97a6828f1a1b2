package model

import "github.com/rmacheck/rmacheck/spec"

// Up sets for the RMA pairs (stubborn_rma.go). The visibility rule puts all of a
// pair's vis(c) in T once T holds an enabled transition of it: on the plain
// family under preset A, where every process's steps are in the vis of some pair
// and the pairs link every process, that made T every enabled step. It has a
// cheaper alternative, Valmari's rule for reaching a goal: T may instead hold an
// up set U(c) of the pair, transitions one of which every path from s to a state
// where c is concurrent takes.
//
// Why that keeps c: let a path w lead from s to a state s* where c is concurrent
// (not in s: an unsettled pair). By induction on the length of w. If T holds an
// enabled transition of vis(c) and so U(c), w takes a step of T; the first one is
// enabled in s and independent of the steps before it (T is stubborn: no step
// outside T enables one of T, and its enabled steps' dependents are in T), so it
// moves first: s -t-> s' is a step of the reduced search, and a path shorter by
// one leads from s' to s*. If T holds no enabled transition of vis(c) and w takes
// no step of T, the step t the reduced search takes first is independent of w and
// changes neither side of c (outside vis(c)): s -t-> s' then w leads to s*·t, where
// c is still concurrent; either way the induction goes on (the visibility rule's
// own argument for the second case).
//
// c is concurrent when both its sides are (concurrent: opActive for an operation,
// with the slot status U1 and U5 ask for; accessEnabled for a plain access), so an
// up set of one side that is not is an up set of c:
//   - an operation pending whose pair wants it performed (U1): its perform, the
//     only way to that status;
//   - an operation not issued whose pair wants it performed: its issue; one whose
//     issue is not ready (not enabled in the stubborn sense): its issue, added to T
//     as a disabled transition, so that the closure adds its necessary enabling
//     set, one of which a path must take before the issue can be ready;
//   - a plain access (or remote load) not ready: the access itself, the same way.
//
// When both sides are not concurrent, either side's up set will do: the pair
// takes the one T already holds, else the one of a process T already has steps
// of, else side a's (deterministic, as every choice of the sets: a state is
// expanded the same way each time it is reached).
//
// A side that can never become concurrent again (executed, completed, issued with
// an error, or performed when U5 wants it not) makes c settled: it needs nothing.
// A side ready but not concurrent (an access that would raise an error, an
// operation not exposed to its target) has no up set here: if the other side has
// none either, the visibility rule applies as before.

// stubUpKind says what stubPairUp found.
type stubUpKind uint8

const (
	upUnknown stubUpKind = iota // no up set known: the visibility rule applies
	upNever                     // the pair can never be concurrent from s on
	upSet                       // proc's instructions instr and the performs perf
)

// stubUp is an up set of a pair: instructions of one process, or performs.
type stubUp struct {
	kind  stubUpKind
	proc  int
	instr uint64
	perf  uint64
}

// slot status wants of a side (U1: performed; U5: not performed)
const (
	wantAny = iota
	wantPerformed
	wantNotPerformed
)

// stubPairUp is an up set of candidate pair ci, unsettled in x.s, for the set t
// (see above).
func (p *Program) stubPairUp(x *stubState, t *stubSet, ci int) stubUp {
	cand := &p.Candidates[ci]
	a, b := &p.accesses[cand.A], &p.accesses[cand.B]
	if b.rma && !a.rma {
		a, b = b, a
	}
	var ua, ub stubUp
	var activeA, activeB bool
	switch cand.kind {
	case pairPlainU:
		want := wantAny
		switch cand.rule {
		case spec.U1:
			want = wantPerformed
		case spec.U5:
			want = wantNotPerformed
		}
		activeA, ua = p.stubSideUp(x, a, true, want)
		activeB, ub = p.stubSideUp(x, b, false, wantAny)
	case pairRMA:
		activeA, ua = p.stubSideUp(x, a, true, wantAny)
		activeB, ub = p.stubSideUp(x, b, true, wantAny)
	default:
		return stubUp{}
	}
	switch {
	case ua.kind == upNever || ub.kind == upNever:
		return stubUp{kind: upNever}
	case !activeA && ua.kind == upSet && !activeB && ub.kind == upSet:
		if ub.in(t) && !ua.in(t) || !ua.in(t) && t.instr[ua.proc] == 0 && t.instr[ub.proc] != 0 {
			return ub
		}
		return ua
	case !activeA && ua.kind == upSet:
		return ua
	case !activeB && ub.kind == upSet:
		return ub
	}
	return stubUp{}
}

// stubSideUp: whether side y of a pair is concurrent in x.s (op: as an
// operation, opActive with the slot status want; else as a plain access,
// accessEnabled), and when it is not, its up set, or upNever, or upUnknown.
func (p *Program) stubSideUp(x *stubState, y *access, op bool, want int) (bool, stubUp) {
	s := x.s
	bit := uint64(1) << uint(y.instr)
	ready := x.enabled.instr[y.proc]&bit != 0
	up := stubUp{kind: upSet, proc: y.proc, instr: bit} // the instruction, or its enabling set
	if y.slot >= 0 {
		switch st := int(s[p.Layout.Slot[y.slot]]); {
		case st == SlotCompleted:
			return false, stubUp{kind: upNever}
		case st == SlotIdle && x.done[y.proc]&bit != 0:
			return false, stubUp{kind: upNever} // its issue raised an error
		case st == SlotPerformed && want == wantNotPerformed:
			return false, stubUp{kind: upNever}
		case st == SlotPending && want == wantPerformed:
			return false, stubUp{kind: upSet, proc: y.proc, perf: 1 << uint(y.slot)}
		case st == SlotIdle && (want == wantPerformed || !ready):
			return false, up // its issue must run first
		}
		if _, active := p.opActive(s, y); active {
			return true, stubUp{}
		}
		return false, stubUp{}
	}
	switch {
	case x.done[y.proc]&bit != 0:
		return false, stubUp{kind: upNever}
	case !ready:
		return false, up
	}
	active := false
	if op {
		_, active = p.opActive(s, y)
	} else {
		active = p.accessEnabled(s, y, nil)
	}
	return active, stubUp{}
}

// in: t holds the up set.
func (u *stubUp) in(t *stubSet) bool {
	return u.instr&^t.instr[u.proc] == 0 && u.perf&^t.perf == 0
}
