package gen

import (
	"fmt"

	"pgregory.net/rapid"
)

// Completion tests in generated programs (Config.Tests; LITMUS.md, "Completion
// tests"): test ending a PSCW exposure epoch, and request-based operations
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
// epoch allows them (MPI: only there).
func (g *builder) requestKinds(p int) []string {
	if !g.cfg.Tests || g.sync != "lock_all" || !g.rmaAllowed(p) {
		return nil
	}
	return []string{"request", "request"}
}

// request draws an rput or rget with a fresh request handle.
func (g *builder) request(p int) string {
	q := fmt.Sprintf("q%d", g.nreq)
	g.nreq++
	g.reqs[p] = append(g.reqs[p], q)
	if rapid.Bool().Draw(g.t, "rget") {
		return fmt.Sprintf("%s = rget %s @%s", g.newReg(p), g.rmaCell(p, "rg"), q)
	}
	return fmt.Sprintf("rput %s %d @%s", g.rmaCell(p, "rp"), rapid.IntRange(1, 2).Draw(g.t, "rpv"), q)
}

// completeRequests completes p's requests before its unlock_all: waitreq, a
// testreq once (then waitreq if it returned 0), a spin loop of testreq, or
// nothing (the request is left pending: E-EPOCH-END).
func (g *builder) completeRequests(p int) []string {
	var out []string
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
