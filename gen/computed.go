package gen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/litmus"
)

// Targets of a family's RMA and passive-target calls (rmacheck gen --target):
// literal, as written by Build, or computed, each target rank held in a register
// the init block sets (docs/language.md#computed-and-null-targets): put x 1
// becomes put W@t0[d] 1 with 0:t0 = 1, lock W 1 excl becomes lock W t1 excl.
var Targets = []string{"literal", "computed"}

// ComputedTargets rewrites a family test so that every RMA call's rank and every
// lock, unlock, flush and flush_local target is a register's value, set in the init
// block to the rank the literal test names: the same program, its targets known
// only when the calls are issued. ok is false when the test has no such call.
func ComputedTargets(ft FamilyTest) (FamilyTest, bool, error) {
	t, err := litmus.Parse(ft.Name+".lit", ft.Source) // a fresh AST to rewrite
	if err != nil {
		return FamilyTest{}, false, err
	}
	changed := false
	for p, pr := range t.Procs {
		regs := map[int]string{} // rank -> its register in this process
		reg := func(rank int) string {
			if r, ok := regs[rank]; ok {
				return r
			}
			r := fmt.Sprintf("t%d", len(regs))
			regs[rank] = r
			t.Inits = append(t.Inits, &litmus.Init{Reg: &litmus.RegRef{Proc: p, Reg: r}, Value: int64(rank)})
			return r
		}
		for _, in := range pr.Code {
			if in == nil {
				continue
			}
			switch {
			case in.Op.IsRMA() && in.Loc != nil:
				w, rank, disp, _, ok := t.ResolveLoc(*in.Loc)
				if !ok || t.RangeOf(*in.Loc) != nil {
					continue // a range stays at its fixed target (ranges are not computed)
				}
				in.Loc = &litmus.Loc{Pos: in.Loc.Pos, Win: w.Name, RankReg: reg(rank), Disp: disp}
				changed = true
			case in.Op == litmus.OpLock || in.Op == litmus.OpUnlock || in.Op == litmus.OpFlush || in.Op == litmus.OpFlushLocal:
				in.TargetReg, in.Target = reg(in.Target), 0
				changed = true
			}
		}
	}
	if !changed {
		return FamilyTest{}, false, nil
	}
	name := ft.Name + "+computed"
	t.Name = name
	t.Doc += " Every target rank is a register's value, set in the init block (rmacheck gen --target computed)."
	for i, m := range t.Meta {
		if m.Key == "Generator" {
			t.Meta[i].Value += " --target computed"
		}
	}
	text := litmus.Format(t)
	t2, err := litmus.Parse(name+".lit", text)
	if err != nil {
		return FamilyTest{}, false, fmt.Errorf("gen: computed family test %s does not parse: %v\n%s", name, err, text)
	}
	out := ft
	out.Name, out.Source, out.Test, out.Computed = name, text, t2, true
	return out, true, nil
}

// computedCell is the location of an RMA call of process p whose target rank, and
// sometimes displacement, is a register set in the init block (Config.Computed):
// a rank the epoch may target, or -1 (MPI_PROC_NULL), sometimes computed by an
// instruction before the call; a displacement register holds one more than the
// displacement, used with the offset -1.
func (g *builder) computedCell(p int, label string) string {
	ranks := []int{-1}
	lo := 0
	if g.sync == "pscw" {
		lo = 1 // the start group: P1..
	}
	for r := lo; r < g.n; r++ {
		ranks = append(ranks, r)
	}
	rank := rapid.SampledFrom(ranks).Draw(g.t, label+"-crank")
	disp := rapid.IntRange(0, 1).Draw(g.t, label+"-cdisp")
	reg := func(v int) string {
		r := fmt.Sprintf("t%d", len(g.inits))
		g.inits = append(g.inits, fmt.Sprintf("%d:%s = %d", p, r, v))
		return r
	}
	rk := reg(rank)
	if rapid.Bool().Draw(g.t, label+"-crun") {
		// computed at run time, by an instruction just before the call: the model
		// cannot narrow what the register holds, so every cell is a may-cell
		g.inits[len(g.inits)-1] = fmt.Sprintf("%d:%s = %d", p, rk, rank-1)
		g.rows[p] = append(g.rows[p], fmt.Sprintf("%s = %s + 1", rk, rk))
	}
	if rapid.Bool().Draw(g.t, label+"-cdispreg") {
		return fmt.Sprintf("W@%s[%s-1]", rk, reg(disp+1))
	}
	return fmt.Sprintf("W@%s[%d]", rk, disp)
}

// computedRange is a two-element location at a computed target (Config.Computed
// with Config.Ranges; docs/language.md#ranges-and-tuples): at a rank register (W@t0[0..1]),
// relative to a displacement register (W@1[t1+0..1], W@1[t1+{1,0}], where t1 = 1
// puts the second element past the segment: E-TARGET), or at MPI_PROC_NULL
// (W@null[0..1]).
func (g *builder) computedRange(p int, kind string) string {
	lo := 0
	if g.sync == "pscw" {
		lo = 1
	}
	reg := func(v int) string {
		r := fmt.Sprintf("t%d", len(g.inits))
		g.inits = append(g.inits, fmt.Sprintf("%d:%s = %d", p, r, v))
		return r
	}
	rng := rapid.SampledFrom([]string{"0..1", "{1,0}"}).Draw(g.t, kind+"-cr-range")
	switch rapid.IntRange(0, 2).Draw(g.t, kind+"-cr-form") {
	case 0:
		return fmt.Sprintf("W@null[%s]", rng)
	case 1:
		return fmt.Sprintf("W@%s[%s]", reg(rapid.IntRange(lo, g.n-1).Draw(g.t, kind+"-cr-rank")), rng)
	}
	r := rapid.IntRange(lo, g.n-1).Draw(g.t, kind+"-cr-rank")
	return fmt.Sprintf("W@%d[%s+%s]", r, reg(rapid.IntRange(0, 1).Draw(g.t, kind+"-cr-base")), rng)
}
