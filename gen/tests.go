package gen

import (
	"fmt"

	"pgregory.net/rapid"
)

// Completion tests in generated programs (Config.Tests; docs/language.md#completion-tests): test ending a PSCW exposure epoch, and request-based operations
// completed by waitreq, testreq, or nothing (E-EPOCH-END).

// waitOrTest ends target p's exposure epoch: wait, or with Tests a test once
// (then wait if it returned 0), or a spin loop of test.
func (g *builder) waitOrTest(p int) []string {
	if !g.cfg.Tests {
		return []string{"wait W"}
	}
	r := g.newReg(p)
	switch rapid.IntRange(0, 2).Draw(g.t, "end-exposure") {
	case 1:
		return []string{fmt.Sprintf("%s = test W", r), fmt.Sprintf("[%s == 0] wait W", r)}
	case 2:
		return []string{"repeat", fmt.Sprintf("%s = test W", r), fmt.Sprintf("until %s == 1", r)}
	}
	g.regs[p]-- // wait writes no register
	return []string{"wait W"}
}

// requestKinds: with Tests, request-based operations where a passive-target
// epoch allows them (MPI: only there): lock_all epochs, and the lock epoch that
// lockEach puts around the call under "lock" and "fencelock".
func (g *builder) requestKinds(p int) []string {
	passive := g.sync == "lock_all" || g.sync == "lock" || g.sync == "fencelock"
	if !g.cfg.Tests || !passive || !g.rmaAllowed(p) {
		return nil
	}
	return []string{"request", "request"}
}

// request draws an rput, rget, racc or rgacc (an updating one, or no_op) with a
// fresh request handle: each completes locally at a step of its own, and an
// updating rgacc stays live at its target until the unlock_all (docs/semantics.md#rma-operations).
func (g *builder) request(p int) string {
	q := fmt.Sprintf("q%d", g.nreq)
	g.nreq++
	g.reqs[p] = append(g.reqs[p], q)
	v := func() int { return rapid.IntRange(1, 2).Draw(g.t, "rpv") }
	switch rapid.IntRange(0, 3).Draw(g.t, "request-op") {
	case 0:
		return fmt.Sprintf("%s = rget %s @%s", g.newReg(p), g.rmaCell(p, "rg"), q)
	case 1:
		return fmt.Sprintf("racc %s sum %d @%s", g.rmaCell(p, "ra"), v(), q)
	case 2:
		op := rapid.SampledFrom([]string{"sum", "no_op"}).Draw(g.t, "rgacc-op")
		return fmt.Sprintf("%s = rgacc %s %s %d @%s", g.newReg(p), g.rmaCell(p, "rga"), op, v(), q)
	}
	return fmt.Sprintf("rput %s %d @%s", g.rmaCell(p, "rp"), v(), q)
}

// completeRequests completes p's requests before its unlock_all: waitreq, a
// testreq once (then waitreq if it returned 0), a spin loop of testreq, or
// nothing (the request is left pending: E-EPOCH-END).
func (g *builder) completeRequests(p int) []string {
	var out []string
	if qs := g.reqs[p]; len(qs) >= 2 && rapid.Bool().Draw(g.t, "waitany") {
		// MPI_Waitany over the first two: a loop of both tests that exits when
		// either succeeded (docs/semantics.md#spin-loops), then a wait of each
		ra, rb := g.newReg(p), g.newReg(p)
		out = append(out, "repeat", fmt.Sprintf("%s = testreq %s", ra, qs[0]), fmt.Sprintf("%s = testreq %s", rb, qs[1]),
			fmt.Sprintf("until %s == 1 \\/ %s == 1", ra, rb), "waitreq "+qs[0], "waitreq "+qs[1])
		g.reqs[p] = qs[2:]
	}
	for _, q := range g.reqs[p] {
		switch rapid.IntRange(0, 3).Draw(g.t, "complete-"+q) {
		case 0:
			out = append(out, "waitreq "+q)
		case 1:
			r := g.newReg(p)
			out = append(out, fmt.Sprintf("%s = testreq %s", r, q), fmt.Sprintf("[%s == 0] waitreq %s", r, q))
		case 2:
			r := g.newReg(p)
			out = append(out, "repeat", fmt.Sprintf("%s = testreq %s", r, q), fmt.Sprintf("until %s == 1", r))
		}
	}
	g.reqs[p] = nil
	return out
}
