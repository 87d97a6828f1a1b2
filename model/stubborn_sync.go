package model

import (
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Stubborn sets over the synchronization calls MPI code brackets its accesses with
// (issue 37): fence and barrier (two-phase), post, start, complete and wait, lock
// and unlock. Without them a program whose every process ends with one of these
// calls got no stubborn set at all (a global instruction still to run turns the
// rule off), and the SB ring written with fences grew 4.9x a process instead of 2x.
//
// The calls in scope are those reduce.go already finds local (Local, LocalReturn):
// each touches its own process's state, or adds to shared counters (arrivals,
// posts, completes, lock-holder bits) in ways that only enable the others' calls,
// and none of them can be disabled by another process's step. So an enabled one
// is independent of every transition of another process (they commute, and
// neither disables the other), and within its process it is dependent on every
// instruction that can be enabled with it (it is an MPI call: stubborn.go's rule
// for one process). What is new is that these calls wait for other processes, so
// that one in T may be disabled for a reason outside its process: the closure then
// adds a necessary enabling set (NES), a transition that every path enabling it
// must take:
//
//   - a fence's (or barrier's) return, the caller arrived: the arrival of one
//     member that has not arrived at the same generation (its k-th fence on the
//     window; its k-th barrier), which every member's return needs (node328); a
//     member with no k-th fence never arrives, and the return is never enabled
//     (an empty NES);
//   - start under post_start_ls: the next post of a target that has not posted
//     for it (node329);
//   - wait: the complete of an origin of its group that has not completed, the
//     one closing that origin's matching start (R3);
//   - lock: the unlock, by a process that holds a conflicting lock on the target,
//     of that lock (node330); shared locks commute with each other, and an
//     exclusive lock is dependent on the other processes' conflicting locks of
//     its target (acquiring one disables the other), which the closure adds.
//
// Enabledness is what Apply says (a dry run on a copy), not ready alone, since a
// call may be ready and still wait. The arrival of a two-phase call and its return
// are one label, Exec(q,j): the arrival while q is not in the call, the return
// while it is.
//
// Scope, beside stubborn.go's: no assertions acted on, no weak_progress, no
// separate windows (R5/R6 copies reach the memory the others access), no RMA
// operations on the window (a wait or fence that completes them is not local;
// for locks, puts and gets, which the unlock completes: stubborn_rma.go),
// no remote access as RMA under ls_is_rma (a remote load waits for its target's
// exposure, a transition of another process), no nocheck pair on the window
// (assert.go: its check reads the calls), and for locks no fence, post or start
// on the window (a lock reads their epochs: E-EPOCH-MIX). Each argument is
// checked against the plain search by the exactness property over the variants
// (explorer/exact_test.go).

// stubSyncKind classifies a synchronization call of q in the stubborn sets' scope
// (see above): stubSync or stubLock, or stubQuiet for an unlock; ok false when
// the call stays global.
func (c *compiler) stubSyncKind(in *Instr) (stubKind, bool) {
	p := c.p
	if in.GuardReg >= 0 || in.Computed != nil || p.Exploit || p.weakProgress || p.hasSeparate || c.remoteAsRMA() {
		return 0, false
	}
	w := int(in.Win)
	switch in.Kind {
	case KBarrier:
		return stubSync, in.TwoPhase && in.LocalReturn
	case KFence:
		return stubSync, in.TwoPhase && in.LocalReturn && !c.windowHasOps(w)
	case KPost, KStart, KComplete, KWait:
		return stubSync, in.Local && !c.windowHasOps(w) && !c.nocheckPSCW[w]
	case KLock:
		return stubLock, c.lockWindowQuiet(w)
	case KUnlock:
		return stubQuiet, in.Local && c.lockWindowQuiet(w)
	}
	return 0, false
}

// remoteAsRMA: some plain access is a remote load or store as RMA (ls_is_rma).
func (c *compiler) remoteAsRMA() bool {
	for q := range c.p.Procs {
		for k := range c.p.Procs[q].Code {
			if kd := c.p.Procs[q].Code[k].Kind; kd == KRemoteLoad || kd == KRemoteStore {
				return true
			}
		}
	}
	return false
}

// lockWindowQuiet: locks on win (and the windows sharing its memory) read no other
// epoch (no fence, post or start there), carry no nocheck pair, and the only
// operations on it are those the stubborn sets follow (stubRMAOp: puts and gets,
// which the unlock of their target completes, stubborn_rma.go).
func (c *compiler) lockWindowQuiet(win int) bool {
	p := c.p
	if c.nocheckLock[win] || !c.passiveWindows(true)[win] {
		return false
	}
	for _, sl := range p.Slots {
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		if p.Wins[in.Win].Base == p.Wins[win].Base && !c.stubRMAOp(in) {
			return false
		}
	}
	return true
}

// stubSyncEnabled: Exec(q,j), a call of kind stubSync or stubLock, is enabled in
// s: its arrival (or execution) or, q being in the call, its return would run now.
func (p *Program) stubSyncEnabled(s, scratch State, q, j int, done uint64) bool {
	st := Step{Kind: StepExec, Proc: int8(q), Index: int8(j)}
	if int(s[p.Layout.InCall[q]])-1 == j {
		st.Kind = StepReturn
	} else if !p.ready(s, q, j, done) {
		return false
	}
	copy(scratch, s)
	return p.Apply(scratch, st, nil)
}

// stubSyncEnabling is a necessary enabling set of Exec(q,j), a stubSync or
// stubLock call disabled in s whose blockers have all run (see above): one
// instruction of another process (a mask in nes[r]), or none when no path enables
// it; ok false when it cannot tell.
func (p *Program) stubSyncEnabling(x *stubState, q, j int) (r int, nes uint64, ok bool) {
	s := x.s
	in := &p.Procs[q].Code[j]
	inCall := int(s[p.Layout.InCall[q]])-1 == j
	switch {
	case in.Kind == KFence && inCall:
		wl := &p.Layout.Win[in.Win]
		k := int(s[wl.FenceDone+q]) + 1
		for m := 0; m < p.NProcs; m++ {
			if p.Wins[in.Win].Group&(1<<uint(m)) == 0 || m == q {
				continue
			}
			if d := int(s[wl.FenceDone+m]); d >= k || d == k-1 && p.arrivedAt(s, m, KFence, int(in.Win)) {
				continue
			}
			return p.nth(m, p.Wins[in.Win].Fences[m], k)
		}
	case in.Kind == KBarrier && inCall:
		k := int(s[p.Layout.Barrs[q]]) + 1
		for m := 0; m < p.NProcs; m++ {
			if d := int(s[p.Layout.Barrs[m]]); m == q || d >= k || d == k-1 && p.arrivedAt(s, m, KBarrier, -1) {
				continue
			}
			return p.nth(m, p.stub.sync.barriers[m], k)
		}
	case in.Kind == KStart:
		wl := &p.Layout.Win[in.Win]
		n := p.NProcs
		for t := 0; t < n; t++ {
			if c := int(s[wl.StartCnt+q*n+t]); in.Group&(1<<uint(t)) != 0 && int(s[wl.PostCnt+t*n+q]) <= c {
				return p.nth(t, p.Wins[in.Win].Posts[t][q], c+1)
			}
		}
	case in.Kind == KWait:
		wl := &p.Layout.Win[in.Win]
		n := p.NProcs
		group := s.u32(wl.PostOpen + 4*q)
		for o := 0; o < n; o++ {
			if c := int(s[wl.DoneCnt+o*n+q]); group&(1<<uint(o)) != 0 && c < int(s[wl.PostCnt+q*n+o]) {
				return p.nth(o, p.stub.sync.closing[closingKey{int(in.Win), o, q}], c+1)
			}
		}
	case in.Kind == KLock:
		return p.lockReleaser(s, q, in)
	}
	return 0, 0, false
}

// nth is the k-th (1-based) of calls, instructions of process r, as a NES: none
// when r makes fewer (it never gets there).
func (p *Program) nth(r int, calls []int, k int) (int, uint64, bool) {
	if k > len(calls) {
		return r, 0, true
	}
	return r, 1 << uint(calls[k-1]), true
}

// kindCalls are r's instructions of kind, in program order.
func (p *Program) kindCalls(r int, kind Kind) []int {
	var out []int
	for k := range p.Procs[r].Code {
		if p.Procs[r].Code[k].Kind == kind {
			out = append(out, k)
		}
	}
	return out
}

// stubSyncLists are the calls the necessary enabling sets name, listed at compile
// time (a search allocates nothing a step).
type stubSyncLists struct {
	barriers [][]int              // per process, its barriers in order
	closing  map[closingKey][]int // closingCompletes of each wait's window, origin and target
}

type closingKey struct{ win, origin, target int }

// stubSyncReduction lists what stubSyncEnabling reads.
func (c *compiler) stubSyncReduction(sb *stubborn) {
	p := c.p
	sb.sync.closing = map[closingKey][]int{}
	for q := range p.Procs {
		sb.sync.barriers = append(sb.sync.barriers, p.kindCalls(q, KBarrier))
		for j := range p.Procs[q].Code {
			if in := &p.Procs[q].Code[j]; in.Kind == KWait && sb.kind[q][j] == stubSync {
				for o := range p.Procs {
					key := closingKey{int(in.Win), o, q}
					if _, ok := sb.sync.closing[key]; !ok {
						sb.sync.closing[key] = p.closingCompletes(int(in.Win), o, q)
					}
				}
			}
		}
	}
}

// closingCompletes are, in order, the completes of origin o on win that close a
// start naming t: the k-th one is what t's wait for the k-th epoch needs.
func (p *Program) closingCompletes(win, o, t int) []int {
	var out []int
	code := p.Procs[o].Code
	for _, st := range p.groupCalls(win, o, t, KStart) {
		for k := st + 1; k < len(code); k++ {
			if code[k].Kind == KComplete && int(code[k].Win) == win {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// lockReleaser: a lock of q waits for a conflicting holder of its target; the NES
// is that holder's unlock (of the lock or lock_all it holds by), which every path
// to the grant takes.
func (p *Program) lockReleaser(s State, q int, in *Instr) (int, uint64, bool) {
	wl := &p.Layout.Win[in.Win]
	t := int(in.Target)
	holders := s.u32(wl.Holders+4*t) &^ (1 << uint(q))
	if s[wl.Excl+t] == 0 && in.LockType != litmus.LockExclusive {
		return 0, 0, false // not blocked by a lock: cannot tell
	}
	for m := holders; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m)
		done := p.done(s, r)
		for k := range p.Procs[r].Code {
			lk := &p.Procs[r].Code[k]
			if lk.Win != in.Win || done&(1<<uint(k)) == 0 || !(lk.Kind == KLockAll || lk.Kind == KLock && int(lk.Target) == t) {
				continue
			}
			if u := p.matchingUnlock(r, k); u >= 0 && done&(1<<uint(u)) == 0 {
				return r, 1 << uint(u), true
			}
		}
	}
	return 0, 0, false
}

// stubLockConflicts adds to t the other processes' locks of the same target that
// conflict with Exec(q,j), an enabled lock: acquiring one disables the other.
func (p *Program) stubLockConflicts(x *stubState, t *stubSet, q, j int) {
	in := &p.Procs[q].Code[j]
	for r := 0; r < p.NProcs; r++ {
		if r == q {
			continue
		}
		for k := range p.Procs[r].Code {
			lk := &p.Procs[r].Code[k]
			if lk.Win == in.Win && (lk.Kind == KLockAll || lk.Kind == KLock && lk.Target == in.Target) &&
				(lk.LockType == litmus.LockExclusive || in.LockType == litmus.LockExclusive) {
				t.instr[r] |= 1 << uint(k) &^ x.done[r]
			}
		}
	}
}

// stubCloseSync adds to t what Exec(q,j), a stubSync or stubLock call, needs: when
// enabled, the instructions of q that can be enabled with it (and q's drain under
// tso, as for a quiet call), and for a lock the conflicting locks; when disabled,
// a NES. It reports false when it cannot bound the set.
func (p *Program) stubCloseSync(x *stubState, t *stubSet, q, j int) bool {
	sb := p.stub
	if x.enabled.instr[q]&(1<<uint(j)) != 0 {
		t.instr[q] |= sb.dep[q][j][q] &^ x.done[q]
		if p.HW == spec.TSO && x.drainCells[q] != 0 {
			t.drain |= 1 << uint(q)
		}
		if sb.kind[q][j] == stubLock {
			p.stubLockConflicts(x, t, q, j)
		}
		return true
	}
	if int(x.s[p.Layout.InCall[q]])-1 != j {
		if nes, drain, ok := p.stubEnabling(x.s, q, j, x.done[q]); ok {
			t.instr[q] |= nes
			if drain {
				t.drain |= 1 << uint(q)
			}
			return true
		}
	}
	r, nes, ok := p.stubSyncEnabling(x, q, j)
	t.instr[r] |= nes
	return ok
}
