package litmus

// Computed and null targets in the generated tests of the round-trip property
// (gen_test.go): W@r1[0], W@1[r2+1], W@null[0], lock W r1 excl, flush W null.

// computed turns an RMA call's location, sometimes, into a computed one: a
// register or null rank, a register displacement with an offset.
func (g *gen) computed(l *Loc) *Loc {
	if l == nil || g.tst.RangeOf(*l) != nil || !g.coin("computed") {
		return l // ranges are at fixed targets (range.go)
	}
	c := *l
	if c.Alias != "" {
		c = g.tst.LookupAlias(c.Alias).Loc
	}
	if b := g.tst.LookupWindow(c.Win).Base(g.tst); b == nil || b.Bytes != nil {
		return l // computed targets are for windows sized in cells
	}
	switch g.intn(0, 2, "rankkind") {
	case 1:
		c.RankReg, c.Rank = pick(g, "rankreg", regNames), 0
	case 2:
		c.Null, c.Rank = true, 0
	}
	if g.coin("dispreg") || c.RankReg == "" && !c.Null {
		c.DispReg, c.Disp = pick(g, "dispreg", regNames), g.intn(-2, 2, "dispoff")
	}
	return &c
}

// callTarget makes the target of lock, unlock, flush, flush_local or shared_query,
// sometimes, a register or null.
func (g *gen) callTarget(ins *Instr) {
	switch g.intn(0, 2, "targetkind") {
	case 1:
		ins.TargetReg, ins.Target = pick(g, "targetreg", regNames), 0
	case 2:
		ins.TargetNull, ins.Target = true, 0
	}
}
