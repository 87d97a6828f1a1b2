package model

// Candidate pairs that can never be concurrent (SEMANTICS.md §7), known at compile
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
	for ci := range p.Candidates {
		if !p.ordered(&p.Candidates[ci]) {
			continue
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
