package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Assertions (node332) are promises about the execution. The model checks each one
// (E-ASSERT) and, with ExploitAssertions, acts on it as an implementation may:
//
//	start nocheck     the matching posts were all called: start does not wait for them
//	post/start nocheck: either is valid only if every matching post and start says nocheck
//	lock nocheck      no other process holds or tries a conflicting lock: no lock is taken
//	nostore           the caller's segment was not stored since its last synchronization
//	                  (read: its last R5 point, the last copy to the public window): no R5 copy
//	noput             no put or accumulate targets the caller until the next fence (or
//	                  wait): that fence does not wait for incoming updates, nor copy (R6)
//	noprecede         the fence completes no operation of the caller: it does not wait
//	nosucceed         the fence starts no operation of the caller
//
// noprecede and nosucceed must be given by all members of the window's group or none.

// Option changes how a program is compiled.
type Option func(*Program)

// ExploitAssertions makes the model act on assertions (the `--assert exploit` mode).
func ExploitAssertions() Option { return func(p *Program) { p.Exploit = true } }

// assertion pair kinds, beside the conflict kinds of conflict.go.
const (
	pairStartPost   pairKind = iota + 16 // a start called before its matching post, one of them nocheck
	pairLockNocheck                      // a nocheck lock epoch meeting a conflicting lock
)

// syncAccess adds a synchronization call to the accesses list (for assertion pairs).
func (c *compiler) syncAccess(proc, k int) int {
	c.p.accesses = append(c.p.accesses, access{proc: proc, instr: k, cell: -1, slot: -1, elem: -1, sync: true})
	return len(c.p.accesses) - 1
}

// buildAssertions adds the static E-ASSERT flags and the assertion pairs.
func (c *compiler) buildAssertions() {
	p := c.p
	for w := range p.Wins {
		win := &p.Wins[w]
		for t := 0; t < p.NProcs; t++ {
			win.Fences = append(win.Fences, p.groupCalls(w, t, -1, KFence))
			var posts [][]int
			for o := 0; o < p.NProcs; o++ {
				posts = append(posts, p.groupCalls(w, t, o, KPost))
			}
			win.Posts = append(win.Posts, posts)
		}
		c.fenceAllOrNone(w)
		for t := 0; t < p.NProcs; t++ {
			for o := 0; o < p.NProcs; o++ {
				c.startPostPairs(w, t, o)
			}
		}
		c.lockPairs(w)
	}
}

// fenceAllOrNone: the k-th fences of the group agree on noprecede and nosucceed.
func (c *compiler) fenceAllOrNone(w int) {
	p := c.p
	var lists [][]int
	var members []int
	longest := 0
	for m := 0; m < p.NProcs; m++ {
		if p.Wins[w].Group&(1<<uint(m)) != 0 {
			lists = append(lists, p.groupCalls(w, m, -1, KFence))
			members = append(members, m)
			longest = max(longest, len(lists[len(lists)-1]))
		}
	}
	for k := 0; k < longest; k++ {
		c.agree(w, k, lists, members, AssertNoprecede)
		c.agree(w, k, lists, members, AssertNosucceed)
	}
}

func (c *compiler) agree(w, k int, lists [][]int, members []int, bit uint8) {
	p := c.p
	var with, without *Instr
	var withProc, withoutProc int
	for i, l := range lists {
		if k >= len(l) {
			continue
		}
		in := &p.Procs[members[i]].Code[l[k]]
		if in.Asserts&bit != 0 {
			with, withProc = in, members[i]
		} else {
			without, withoutProc = in, members[i]
		}
	}
	if with == nil || without == nil {
		return
	}
	name := map[uint8]string{AssertNoprecede: "noprecede", AssertNosucceed: "nosucceed"}[bit]
	p.Static = append(p.Static, newDiagnostic(spec.EAssert, p.site(withProc, with),
		fmt.Sprintf("%s asserts %s, but %s of P%d (row %d), the same fence of window %s, does not: all members or none must give it",
			with.Text, name, without.Text, withoutProc, without.Row, p.Wins[w].Name), p.site(withoutProc, without)))
}

// startPostPairs matches the k-th post of t that names o with the k-th start of o
// that names t: nocheck must be on both or neither (static), and a nocheck pair
// is checked during the search (a start called before its post).
func (c *compiler) startPostPairs(w, t, o int) {
	p := c.p
	posts := p.groupCalls(w, t, o, KPost)
	starts := p.groupCalls(w, o, t, KStart)
	for k := 0; k < len(posts) && k < len(starts); k++ {
		post, start := &p.Procs[t].Code[posts[k]], &p.Procs[o].Code[starts[k]]
		pn, sn := post.Asserts&AssertNocheck != 0, start.Asserts&AssertNocheck != 0
		if pn != sn {
			with, withProc, other, otherProc := post, t, start, o
			if sn {
				with, withProc, other, otherProc = start, o, post, t
			}
			p.Static = append(p.Static, newDiagnostic(spec.EAssert, p.site(withProc, with),
				fmt.Sprintf("%s asserts nocheck, but the matching %s of P%d (row %d) does not: nocheck is valid only if every matching post and start give it",
					with.Text, other.Text, otherProc, other.Row), p.site(otherProc, other)))
		}
		if pn || sn {
			a, b := c.syncAccess(o, starts[k]), c.syncAccess(t, posts[k])
			p.Candidates = append(p.Candidates, Candidate{A: a, B: b, kind: pairStartPost, rule: spec.EAssert})
			c.nocheckPSCW[w] = true
		}
	}
}

// groupCalls lists the calls of kind by proc on window w, in program order; with
// other >= 0, only those whose group names other (posts and starts).
func (p *Program) groupCalls(w, proc, other int, kind Kind) []int {
	var out []int
	for k, in := range p.Procs[proc].Code {
		if in.Kind == kind && int(in.Win) == w && (other < 0 || in.Group&(1<<uint(other)) != 0) {
			out = append(out, k)
		}
	}
	return out
}

// lockPairs pairs each nocheck lock with every conflicting lock of another process.
func (c *compiler) lockPairs(w int) {
	p := c.p
	type lk struct{ proc, instr int }
	var locks []lk
	for proc := range p.Procs {
		for k, in := range p.Procs[proc].Code {
			if (in.Kind == KLock || in.Kind == KLockAll) && int(in.Win) == w {
				locks = append(locks, lk{proc, k})
			}
		}
	}
	for _, a := range locks {
		ia := &p.Procs[a.proc].Code[a.instr]
		if ia.Asserts&AssertNocheck == 0 {
			continue
		}
		for _, b := range locks {
			ib := &p.Procs[b.proc].Code[b.instr]
			if b.proc == a.proc || !c.locksConflict(ia, ib) {
				continue
			}
			if ib.Asserts&AssertNocheck != 0 && b.proc < a.proc {
				continue // the pair is listed from the other side
			}
			p.Candidates = append(p.Candidates, Candidate{A: c.syncAccess(a.proc, a.instr), B: c.syncAccess(b.proc, b.instr), kind: pairLockNocheck, rule: spec.EAssert})
			// Only a pair makes the epoch's end visible (reduce.go: unlock is then
			// not local): without a conflicting lock, nocheck promises what holds in
			// every execution, no check reads the epoch, and the calls reduce as
			// they do without it (issue 37: lock_all W nocheck).
			c.nocheckLock[w] = true
		}
	}
}

// locksConflict: two lock calls on one window exclude each other (same target, or
// lock_all, and one of them exclusive).
func (c *compiler) locksConflict(a, b *Instr) bool {
	exclusive := func(in *Instr) bool { return in.Kind == KLock && in.LockType == litmus.LockExclusive }
	if !exclusive(a) && !exclusive(b) {
		return false
	}
	// A computed target may be any (target.go): the pair is checked when both hold.
	return a.Kind == KLockAll || b.Kind == KLockAll || a.Target == b.Target || a.Computed != nil || b.Computed != nil
}

// matchingUnlock is the call that ends the lock epoch a lock instruction opens (-1: none).
func (p *Program) matchingUnlock(proc, k int) int {
	code := p.Procs[proc].Code
	lock := &code[k]
	for j := k + 1; j < len(code); j++ {
		in := &code[j]
		if int(in.Win) != int(lock.Win) {
			continue
		}
		if (lock.Kind == KLock && in.Kind == KUnlock && p.sameTarget(proc, lock, in, k, j)) || (lock.Kind == KLockAll && in.Kind == KUnlockAll) {
			return j
		}
	}
	return -1
}

// called: the call has been made (it returned, or it is waiting to).
func (p *Program) called(s State, a *access) bool {
	done := p.done(s, a.proc)
	if done&(1<<uint(a.instr)) != 0 {
		return true
	}
	in := &p.Procs[a.proc].Code[a.instr]
	return p.ready(s, a.proc, a.instr, done) && (in.GuardReg < 0 || p.guardHolds(s, a.proc, in))
}

func (p *Program) isDone(s State, a *access) bool {
	return p.done(s, a.proc)&(1<<uint(a.instr)) != 0
}

// lockHeld: the lock call returned and its epoch has not ended.
func (p *Program) lockHeld(s State, a *access) bool {
	if !p.isDone(s, a) {
		return false
	}
	u := p.matchingUnlock(a.proc, a.instr)
	return u < 0 || p.done(s, a.proc)&(1<<uint(u)) == 0
}

// assertionBroken decides the assertion pairs in s.
func (p *Program) assertionBroken(s State, cand *Candidate, a, b *access) bool {
	switch cand.kind {
	case pairStartPost: // a is the start, b the post
		return p.called(s, a) && !p.isDone(s, b)
	case pairLockNocheck:
		ha, hb := p.lockHeld(s, a), p.lockHeld(s, b)
		return (ha && (hb || (!p.isDone(s, b) && p.called(s, b)))) || (hb && !p.isDone(s, a) && p.called(s, a))
	}
	return false
}

func (p *Program) describeAssertion(cand *Candidate, a, b *access) Diagnostic {
	ia, ib := &p.Procs[a.proc].Code[a.instr], &p.Procs[b.proc].Code[b.instr]
	var msg string
	switch cand.kind {
	case pairStartPost:
		msg = fmt.Sprintf("%s is called before the matching %s of P%d (row %d): nocheck promises the post comes first", ia.Text, ib.Text, b.proc, ib.Row)
	default:
		msg = fmt.Sprintf("%s and %s of P%d (row %d): a nocheck lock epoch meets a conflicting lock", ia.Text, ib.Text, b.proc, ib.Row)
	}
	return newDiagnostic(spec.EAssert, p.site(a.proc, ia), msg, p.site(b.proc, ib))
}

// ----- checks made when a call executes (state flags) -----

func (p *Program) assertFalse(s State, rec *Record, proc int, in *Instr, why func() string) {
	p.raise(s, rec, spec.EAssert, proc, in, func() string { return in.Text + ": " + why() })
}

// checkNostore: nostore on a fence or post is false if the caller stored to its
// segment of the window since its last synchronization call on it.
func (p *Program) checkNostore(s State, rec *Record, proc int, in *Instr) {
	if in.Asserts&AssertNostore == 0 {
		return
	}
	if s.u64(p.Layout.StoredOwn[proc])&p.Wins[in.Win].OwnCells[proc] != 0 {
		p.assertFalse(s, rec, proc, in, func() string {
			return fmt.Sprintf("nostore, but the process stored to its segment of %s since its last synchronization", p.Wins[in.Win].Name)
		})
	}
}

// syncPoint: a synchronization call on the window ends the span nostore speaks of.
func (p *Program) syncPoint(s State, proc int, in *Instr) {
	if !p.usesNostore {
		return
	}
	off := p.Layout.StoredOwn[proc]
	s.setU64(off, s.u64(off)&^p.Wins[in.Win].OwnCells[proc])
}

// noteStore records a store to the process's own memory, for nostore.
func (p *Program) noteStore(s State, proc, cell int) {
	if p.usesNostore && p.Cells[cell].Rank == proc {
		off := p.Layout.StoredOwn[proc]
		s.setU64(off, s.u64(off)|1<<uint(cell))
	}
}

// checkNoprecede: noprecede is false if the fence closes an epoch in which the
// caller issued RMA operations.
func (p *Program) checkNoprecede(s State, rec *Record, proc int, in *Instr) {
	if in.Asserts&AssertNoprecede == 0 {
		return
	}
	k := int(s[p.Layout.Win[in.Win].FenceDone+proc])
	for i, sl := range p.Slots {
		off := p.Layout.Slot[i]
		op := &p.Procs[sl.Proc].Code[sl.Instr]
		if sl.Proc == proc && op.Win == in.Win && s[off] != SlotIdle && s[off+1] == EpochFence && int(s[off+2]) == k {
			p.assertFalse(s, rec, proc, in, func() string {
				return fmt.Sprintf("noprecede, but it closes an epoch with %s (row %d)", op.Text, op.Row)
			})
			return
		}
	}
}

// checkNoput: an update issued into an epoch whose target's opening fence (or post)
// asserted noput.
func (p *Program) checkNoput(s State, rec *Record, proc int, in *Instr, kind, index int) {
	if !updates(in) {
		return
	}
	t := int(in.Target)
	var opener *Instr
	switch kind {
	case EpochFence:
		if f := p.Wins[in.Win].Fences[t]; index-1 < len(f) {
			opener = &p.Procs[t].Code[f[index-1]]
		}
	case EpochPSCW:
		if posts := p.Wins[in.Win].Posts[t][proc]; index-1 < len(posts) {
			opener = &p.Procs[t].Code[posts[index-1]]
		}
	}
	if opener != nil && opener.Asserts&AssertNoput != 0 {
		p.assertFalse(s, rec, proc, in, func() string {
			return fmt.Sprintf("updates rank %d, whose %s (row %d) asserted noput", t, opener.Text, opener.Row)
		})
	}
}
