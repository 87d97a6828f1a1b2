package litmus

import "fmt"

// The round-trip generator's ranges and tuples (docs/language.md#ranges-and-tuples):
// contiguous, vector and indexed ranges (empty ones too), aliases of them, tuple
// origin buffers and result tuples.

// rangeLoc draws a range inside a segment of a size= window (nil when none has
// room), with n elements at most.
func (g *gen) rangeLoc(n int) *Loc {
	var cands []Loc
	for _, w := range g.tst.Windows {
		for r := 0; r < g.n; r++ {
			if _, isBytes := w.SegmentBytes(g.tst, r); !isBytes && w.SegmentSize(g.tst, r) > 0 {
				cands = append(cands, Loc{Win: w.Name, Rank: r})
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	l := pick(g, "rangeseg", cands)
	size := g.tst.LookupWindow(l.Win).SegmentSize(g.tst, l.Rank)
	r := &Range{Step: 1}
	switch g.intn(0, 2, "rangekind") {
	case 0:
		r.Lo = g.intn(0, size-1, "lo")
		r.Hi = g.intn(r.Lo, min(size-1, r.Lo+n-1), "hi")
	case 1:
		r.StepSet = true
		r.Step = g.intn(1, 3, "step")
		r.Lo = g.intn(0, size-1, "lo")
		k := g.intn(0, min(n-1, (size-1-r.Lo)/r.Step), "count")
		r.Hi = r.Lo + k*r.Step
	default:
		r.Indexed = true
		r.List = []int{}
		seen := map[int]bool{}
		for i := g.intn(0, min(n, size), "nlist"); i > 0; i-- {
			d := g.intn(0, size-1, "d")
			if !seen[d] {
				seen[d] = true
				r.List = append(r.List, d)
			}
		}
	}
	l.Range = r
	return &l
}

// rangeAliases adds aliases of ranges (g.loc never picks them: they name no cell).
func (g *gen) rangeAliases() {
	for i := g.intn(0, 2, "nralias"); i > 0; i-- {
		if l := g.rangeLoc(len(regNames)); l != nil {
			g.tst.Aliases = append(g.tst.Aliases, &Alias{Name: fmt.Sprintf("v%d", len(g.tst.Aliases)), Loc: *l})
		}
	}
}

// cellAliases are the aliases that name one cell.
func (g *gen) cellAliases() []*Alias {
	var out []*Alias
	for _, a := range g.tst.Aliases {
		if a.Loc.Range == nil {
			out = append(out, a)
		}
	}
	return out
}

// multi turns an RMA call that takes a range into one over a range or an alias of
// one, with a tuple origin buffer (or one value for every element) and a result
// tuple, each register once.
func (g *gen) multi(ins *Instr) {
	if !rangeOp(ins.Op) || !g.coin("multi") {
		return
	}
	var l *Loc
	var ra []*Alias
	for _, a := range g.tst.Aliases {
		if a.Loc.Range != nil {
			ra = append(ra, a)
		}
	}
	if len(ra) > 0 && g.coin("rangealias") {
		l = &Loc{Alias: pick(g, "ralias", ra).Name}
	} else if l = g.rangeLoc(len(regNames)); l == nil {
		return
	}
	ins.Loc = l
	n := g.tst.RangeOf(*l).Len()
	if len(ins.Args) == 1 && (g.coin("tuple") || n == 0) {
		ins.ArgTuple = true
		ins.Args = []Value{}
		for i := 0; i < n; i++ {
			ins.Args = append(ins.Args, g.value())
		}
	}
	if ins.Dst != "" {
		ins.Dst = ""
		ins.Dsts = []string{}
		for i := 0; i < n; i++ {
			ins.Dsts = append(ins.Dsts, regNames[i])
		}
	}
}
