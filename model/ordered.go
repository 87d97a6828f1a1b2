package model

// Candidate pairs that can never be concurrent (docs/semantics.md#concurrency), known at compile
// time. A search need not look for them: the explorer leaves them out of the pairs
// a pairs-only search waits for (its early stop), which otherwise runs to its
// last state for a pair it can never find.
//
// The case decided here is one process, program order and a synchronous first
// access: x comes before y in the process, y cannot execute before x has
// (x is among y's Blockers, and y may not forward past x), and x is live only
// while it has not executed (a plain access, or an RMA access without a slot:
// preset A's remote load, which reads at once). Then no reachable state has both:
//   - x counts (accessEnabled, or opActive through issuable) only while x is not
//     done;
//   - y counts only when it is ready (accessEnabled, issuable) or has issued its
//     slot (pending, performed, completed with a dirty copy), and either needs x
//     done first: ready(y) needs Blockers done, or, forwarding, FwdBlockers, which
//     hold x as x is not y's forwarding store; a slot leaves SlotIdle only when y
//     executes, once ready;
//   - an instruction's done bit, once set, stays set in the model (spin loops are
//     assumed, not re-run: loop.go; RestartLoop is the reference runtime's).
// A speculative read (speculate.go) counts its load as enabled at the read step,
// which comes after the load's Blockers are done: the same argument holds.
// Computed-target accesses (dyn) always have a slot, so they are never the x side.
//
// --no-reduce (explorer.Options.NoReduce) checks these pairs like all others, so
// the exactness property (reduced == --no-reduce, flags with sites and pairs)
// tests this reasoning on every program it draws.

// Ordered reports, for each candidate pair (Candidates), whether it can never be
// concurrent in any reachable state (see above); nil when none.
func (p *Program) Ordered() []bool {
	var out []bool
	var must [][]uint64
	for ci := range p.Candidates {
		if !p.ordered(&p.Candidates[ci]) {
			if must == nil {
				must = (&compiler{p: p}).mustPrecede()
			}
			if !p.barrierOrdered(&p.Candidates[ci], must) && !p.pscwOrdered(&p.Candidates[ci], must) {
				continue
			}
		}
		if out == nil {
			out = make([]bool, len(p.Candidates))
		}
		out[ci] = true
	}
	return out
}

// ordered decides one candidate pair.
func (p *Program) ordered(c *Candidate) bool {
	if c.kind >= pairStartPost { // assertion pairs are decided on calls, not accesses
		return false
	}
	a, b := &p.accesses[c.A], &p.accesses[c.B]
	if a.proc != b.proc || a.instr == b.instr {
		return false
	}
	x, y := a, b
	if y.instr < x.instr {
		x, y = y, x
	}
	if x.slot >= 0 || x.dyn {
		return false // x stays live after it executes (pending, performed)
	}
	code := p.Procs[x.proc].Code
	in := &code[y.instr]
	bit := uint64(1) << uint(x.instr)
	if in.Blockers&bit == 0 {
		return false
	}
	if in.FwdStore >= 0 && in.FwdBlockers&bit == 0 {
		return false // y may forward from x before x executes
	}
	return true
}

// The second case: two processes and a barrier between them (issue 37: the RMA
// ring's rounds). A pair (x of p, y of q) is never concurrent when, for some k,
// x has ended before p arrives at its k-th barrier and y cannot count before q
// returns from its k-th barrier:
//   - x ends: a plain access (or an RMA access without a slot) once executed, as
//     above; an RMA operation once completed at its target, which the first
//     unlock_all on its window after it does (R4: it waits for the process's
//     operations to be performed, then completes them), when the process's calls
//     on that window are lock_all and unlock_all alone, alternating from a
//     lock_all, unguarded (so the operation is issued inside a lock_all epoch,
//     or with an error and never live, and that unlock_all closes the epoch);
//     the barrier must wait for x's end: x, or that unlock_all, is among the
//     instructions that must precede the barrier (mustPrecede);
//   - y counts only once ready or issued, and q's k-th barrier must precede it;
//   - q returns from its k-th barrier only once every process arrived at its
//     k-th (allArrived counts generations); no barrier is guarded (a skipped one
//     would shift the generations), and a barrier is never in a loop body.
//
// Done bits and the completed status never go back, so no reachable state has
// both. Separate windows are left out (a completed operation may stay live
// through its dirty copy).
func (p *Program) barrierOrdered(c *Candidate, must [][]uint64) bool {
	if c.kind >= pairStartPost || p.hasSeparate {
		return false
	}
	a, b := &p.accesses[c.A], &p.accesses[c.B]
	if a.proc == b.proc || a.dyn || b.dyn {
		return false
	}
	barriers := make([][]int, p.NProcs)
	for q := range p.Procs {
		barriers[q] = p.kindCalls(q, KBarrier)
		for _, k := range barriers[q] {
			if p.Procs[q].Code[k].GuardReg >= 0 {
				return false
			}
		}
	}
	for _, x := range []*access{a, b} {
		y := b
		if x == b {
			y = a
		}
		end := p.endOf(x)
		if end < 0 {
			continue
		}
		for k := 0; k < len(barriers[x.proc]) && k < len(barriers[y.proc]); k++ {
			bx, by := barriers[x.proc][k], barriers[y.proc][k]
			if must[x.proc][bx]&(1<<uint(end)) != 0 && must[y.proc][y.instr]&(1<<uint(by)) != 0 {
				return true
			}
		}
	}
	return false
}

// endOf is the instruction after whose execution access x is no longer live
// (see barrierOrdered), or -1 when none is known.
func (p *Program) endOf(x *access) int {
	if x.slot < 0 {
		return x.instr
	}
	code := p.Procs[x.proc].Code
	win := code[x.instr].Win
	open, end := false, -1
	for k := range code {
		in := &code[k]
		if in.Win != win || in.Kind == KRMA || in.Kind == KRemoteStore || in.Kind == KRemoteLoad || in.Kind == KPlainLoad || in.Kind == KPlainStore {
			continue
		}
		switch {
		case in.GuardReg >= 0 || in.Computed != nil:
			return -1
		case in.Kind == KLockAll && !open:
			open = true
		case in.Kind == KUnlockAll && open:
			open = false
			if k > x.instr && end < 0 {
				end = k
			}
		case in.Kind == KFlush || in.Kind == KFlushLocal || in.Kind == KSync:
		default:
			return -1 // another call on the window: its epochs are not lock_all's alone
		}
	}
	if open || end < 0 || code[x.instr].GuardReg >= 0 {
		return -1
	}
	return end
}

// The third case: an RMA operation in a PSCW epoch and an access of its target
// after the wait that ends the matching exposure epoch (issue 37: the RMA ring in
// PSCW epochs). x, an operation of o to t on window W, issued after o's k-th start
// naming t and before the complete that follows it; y, an access of t that cannot
// count before t's wait following t's k-th post naming o has returned. Then:
//   - x's epoch is the k-th start's: every start of o naming t on W must precede x
//     or follow it (mustPrecede), and k of them precede it, so the access epoch
//     index x is issued with is k (epochFor), or x raises an error and is never
//     live;
//   - that wait returns only when o's done count toward t reaches t's post count
//     toward o (exposureComplete, R3), which is k: t's posts and waits on W
//     alternate, so no later post has run; o's k-th complete on W (the one after
//     x: o's starts and completes on W alternate too) waited for x to be
//     performed (R1), and the wait completes it at t (endExposure: index k <=
//     o's done count), or o's complete did (a get, §3);
//   - a completed operation is never live again (no separate window: no dirty
//     copy), and y counts only once ready or issued, after the wait (mustPrecede).
//
// No call of o or t on W is guarded or asserts anything, and W has no other
// synchronization calls of theirs (pscwCalls).
func (p *Program) pscwOrdered(c *Candidate, must [][]uint64) bool {
	if c.kind >= pairStartPost || p.hasSeparate {
		return false
	}
	a, b := &p.accesses[c.A], &p.accesses[c.B]
	for _, x := range []*access{a, b} {
		y := b
		if x == b {
			y = a
		}
		if x.slot < 0 || x.dyn || x.proc == y.proc || y.dyn {
			continue
		}
		in := &p.Procs[x.proc].Code[x.instr]
		if in.Kind != KRMA || in.Computed != nil || in.GuardReg >= 0 || int(in.Target) != y.proc {
			continue
		}
		if w := p.pscwWaitFor(x, must); w >= 0 && must[y.proc][y.instr]&(1<<uint(w)) != 0 {
			return true
		}
	}
	return false
}

// pscwWaitFor is the wait of x's target that ends the exposure epoch matching x's
// access epoch (see pscwOrdered), or -1 when it cannot tell.
func (p *Program) pscwWaitFor(x *access, must [][]uint64) int {
	o, in := x.proc, &p.Procs[x.proc].Code[x.instr]
	t, win := int(in.Target), in.Win
	starts, ok := p.pscwCalls(o, win, KStart, KComplete, must)
	if !ok {
		return -1
	}
	k, closed := 0, false
	for _, st := range starts {
		call := &p.Procs[o].Code[st]
		switch {
		case must[o][x.instr]&(1<<uint(st)) != 0:
			if call.Kind == KStart && call.Group&(1<<uint(t)) != 0 {
				k++
			}
			closed = call.Kind == KComplete
		case must[o][st]&(1<<uint(x.instr)) == 0:
			return -1 // unordered with x
		}
	}
	if k == 0 || closed {
		return -1 // issued outside a start epoch: an error, never live (no need to decide)
	}
	posts, ok := p.pscwCalls(t, win, KPost, KWait, must)
	if !ok {
		return -1
	}
	n := 0
	for i, pc := range posts {
		call := &p.Procs[t].Code[pc]
		if call.Kind == KPost && call.Group&(1<<uint(o)) != 0 {
			if n++; n == k {
				if i+1 < len(posts) && p.Procs[t].Code[posts[i+1]].Kind == KWait {
					return posts[i+1]
				}
				return -1
			}
		}
	}
	return -1
}

// pscwCalls are q's calls of kinds open and close on win, which must alternate
// from an opening one, each preceding the next (mustPrecede), unguarded, without
// assertions, and on win alone among the windows sharing its memory; its other
// calls there must be PSCW ones (start and complete beside post and wait, or the
// reverse); false otherwise.
func (p *Program) pscwCalls(q int, win int8, open, close Kind, must [][]uint64) ([]int, bool) {
	var out []int
	code := p.Procs[q].Code
	for k := range code {
		in := &code[k]
		if in.Win < 0 || p.Wins[in.Win].Base != p.Wins[win].Base || !in.IsMPI || in.Kind == KRMA || in.Kind == KRemoteStore {
			continue
		}
		switch in.Kind {
		case open, close:
		case KPost, KStart, KComplete, KWait:
			continue
		default:
			return nil, false // another synchronization call on the memory
		}
		want := open
		if len(out)%2 == 1 {
			want = close
		}
		if in.Kind != want || in.Win != win || in.GuardReg >= 0 || in.Asserts != 0 || len(out) > 0 && must[q][k]&(1<<uint(out[len(out)-1])) == 0 {
			return nil, false
		}
		out = append(out, k)
	}
	return out, true
}
