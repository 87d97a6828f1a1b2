package model

// Programs for searches without the concurrency checks. A tso or sc job takes its
// conflict and race flags from the relaxed model (docs/semantics.md#concurrency): its own
// search (explorer: NoConflicts) checks no pair, and needs only the outcomes and
// the rules steps raise. The candidate pairs are not only checked, though: the
// reductions keep them visible, at a cost in states. independent.go does not take
// an access alone while a partner of its pairs may still run; the stubborn sets
// make an access dependent on its pairs' partners, and give a pair with an RMA
// side Valmari's visibility condition (stubborn.go, stubborn_rma.go, DESIGN.md).
// Each of those serves the pair checks alone (outcomes and raised rules are kept
// by the dependence on cells, registers, drains and performs), so a program that
// no pair check will read is compiled without pairs, and its reduction is free of
// them: preset A's tso searches over the plain family store 0.43 M states
// instead of 1.93 M.

// WithoutPairChecks compiles the program for searches that check no pair: it has
// no candidate pairs (Candidates, the assertion pairs among them). Its searches
// give the outcomes and the rules steps raise; its pair flags, none, are not the
// program's (a tso or sc job takes them from the relaxed program's search).
func WithoutPairChecks() Option { return func(p *Program) { p.noPairChecks = true } }

// dropPairChecks removes the candidate pairs of a program compiled
// WithoutPairChecks, before the reductions are computed from them; the accesses
// stay (independent.go reads their cells).
func (c *compiler) dropPairChecks() {
	if c.p.noPairChecks {
		c.p.Candidates = nil
	}
}
