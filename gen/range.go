package gen

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Shapes with several elements in one call (docs/language.md#ranges-and-tuples): a location
// of such a shape is a range of Access.Elems cells, written and read by one put,
// get, accumulate or get_accumulate each (always an RMA call, to the own segment
// too, since a load or store moves one element). Its elements are aliased one by
// one (x0, x1, ..) so that the condition can name them.

// wn is a write of v into every element of a range of n elements of loc, by a put
// (op "") or an accumulate with op.
func wn(loc string, v, n int, op string) Access {
	return Access{Write: true, Loc: loc, Value: v, Elems: n, Op: op}
}

// rn is a read of a range of n elements of loc into n registers, by a get (op "")
// or a get_accumulate with op (no_op).
func rn(loc string, n int, op string) Access { return Access{Loc: loc, Elems: n, Op: op} }

// hasRanges: some access of the shape names several elements.
func (s Shape) hasRanges() bool {
	for _, accs := range s.Procs {
		for _, a := range accs {
			if a.Elems > 1 {
				return true
			}
		}
	}
	return false
}

// elems is the number of cells location l spans in the shape.
func (s Shape) elems(l string) int {
	n := 1
	for _, accs := range s.Procs {
		for _, a := range accs {
			if a.Loc == l {
				n = max(n, a.Elems)
			}
		}
	}
	return n
}

// declare writes the alias of location l: one cell, or a range and its elements.
func (b *famBuilder) declare(src *strings.Builder, l string) {
	o, d := b.owner[l], b.disp[l]
	n := b.sh.elems(l)
	if n == 1 {
		fmt.Fprintf(src, "  %s = W@%d[%d];\n", l, o, d)
		return
	}
	fmt.Fprintf(src, "  %s = W@%d[%d..%d];\n", l, o, d, d+n-1)
	for e := 0; e < n; e++ {
		fmt.Fprintf(src, "  %s%d = W@%d[%d];\n", l, e, o, d+e)
	}
}

// multi is the one RMA call of a range access; its results go to registers
// reg, reg+1, ...
func (b *famBuilder) multi(a Access, reg int) []string {
	vals := make([]string, a.Elems)
	regs := make([]string, a.Elems)
	for e := range vals {
		vals[e] = fmt.Sprint(a.Value)
		regs[e] = fmt.Sprintf("r%d", reg+e)
	}
	tuple := func(xs []string) string { return "(" + strings.Join(xs, ",") + ")" }
	switch {
	case a.Write && a.Op == "":
		return []string{fmt.Sprintf("put %s %s", a.Loc, tuple(vals))}
	case a.Write:
		return []string{fmt.Sprintf("acc %s %s %s", a.Loc, a.Op, tuple(vals))}
	case a.Op == "":
		return []string{fmt.Sprintf("%s = get %s", tuple(regs), a.Loc)}
	}
	for e := range vals {
		vals[e] = "0"
	}
	return []string{fmt.Sprintf("%s = gacc %s %s %s", tuple(regs), a.Loc, a.Op, tuple(vals))}
}

// rangeCall draws, with Config.Ranges, a put, get or acc of both cells of a
// segment with one call: W@r[0..1] or W@r[{1,0}] (reversed typemap order); with
// Config.Computed too, sometimes at a computed or null target (computedRange).
func (g *builder) rangeCall(p int, kind string) (string, bool) {
	if !g.cfg.Ranges || rapid.IntRange(0, 1).Draw(g.t, kind+"-multi") != 0 {
		return "", false
	}
	lo := 0 // a fixed target (ranges are at fixed ranks): under PSCW one of the start group
	if g.sync == "pscw" {
		lo = 1
	}
	r := rapid.IntRange(lo, g.n-1).Draw(g.t, kind+"-r-rank")
	loc := fmt.Sprintf("W@%d", r) + rapid.SampledFrom([]string{"[0..1]", "[{1,0}]"}).Draw(g.t, kind+"-range")
	if g.cfg.Computed && rapid.Bool().Draw(g.t, kind+"-r-computed") {
		loc = g.computedRange(p, kind) // computed.go
	}
	v := func() int { return rapid.IntRange(1, 2).Draw(g.t, kind+"-v") }
	switch kind {
	case "put":
		return fmt.Sprintf("put %s (%d,%d)", loc, v(), v()), true
	case "get":
		r0 := g.newReg(p)
		return fmt.Sprintf("(%s,%s) = get %s", r0, g.newReg(p), loc), true
	}
	return fmt.Sprintf("acc %s sum (%d,%d)", loc, v(), v()), true
}
