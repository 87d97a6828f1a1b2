package cgen

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// Computed and null targets (docs/language.md#computed-and-null-targets): a register holding a
// world rank (-1: MPI_PROC_NULL) becomes the window communicator's rank at the
// call, null is MPI_PROC_NULL, and a register displacement plus its offset is an
// MPI_Aint computed at the call.

// rankTarget is the C expression of the target rank argument for a location or a
// call target given by a register (reg) or null; "" for a literal rank.
func (pg *procGen) rankTarget(wi *winInfo, reg string, null bool) string {
	switch {
	case null:
		return "MPI_PROC_NULL"
	case reg == "":
		return ""
	}
	r := regName(reg)
	if !wi.sub {
		return fmt.Sprintf("(%s == -1 ? MPI_PROC_NULL : (int)%s)", r, r)
	}
	// a sub-communicator: the world rank's rank in it (-1 outside the group,
	// which MPI refuses as the model does, E-TARGET)
	tr := make([]string, 0, pg.g.nprocs)
	for _, t := range pg.g.tranks(wi) {
		tr = append(tr, fmt.Sprint(t))
	}
	return fmt.Sprintf("(%s == -1 ? MPI_PROC_NULL : (%s < 0 || %s >= NPROCS) ? (int)%s : ((const int[]){%s})[%s])",
		r, r, r, r, strings.Join(tr, ", "), r)
}

// computedTarget gives the target rank and displacement arguments of an RMA call
// whose location is computed (ok false: it is not).
func (pg *procGen) computedTarget(l litmus.Loc, li locInfo) (target, tdisp string, ok bool) {
	if !l.Computed() && !l.Null {
		return "", "", false
	}
	wi := li.wi
	target = pg.rankTarget(wi, l.RankReg, l.Null)
	rankIdx := regName(l.RankReg) // the world rank, to index per-rank tables
	if l.RankReg == "" && !l.Null {
		target, rankIdx = fmt.Sprint(wi.trank(l.Rank)), fmt.Sprint(l.Rank)
	}
	disp := fmt.Sprint(l.Disp)
	if l.DispReg != "" {
		disp = fmt.Sprintf("(MPI_Aint)(%s + %d)", regName(l.DispReg), l.Disp)
	}
	tdisp = disp
	if wi.w.Flavor == litmus.FlavorDynamic {
		if l.Null {
			return target, "0", true
		}
		tdisp = fmt.Sprintf("MPI_Aint_add(addr_%s[%s], %s * %d)", wi.id, rankIdx, disp, wi.du)
		if l.DispReg != "" && len(pg.g.p.Regions) > 0 {
			tdisp = pg.g.dynamicDisp(wi, rankIdx, disp) // an address of an attached region (dynamic.go)
		}
	}
	return target, tdisp, true
}

// callTarget is the target rank argument of lock, unlock, flush, flush_local or
// shared_query.
func (pg *procGen) callTarget(wi *winInfo, in *litmus.Instr) string {
	if t := pg.rankTarget(wi, in.TargetReg, in.TargetNull); t != "" {
		return t
	}
	return fmt.Sprint(wi.trank(in.Target))
}

// segIndex is the world rank whose segment a shared_query answers for: its literal
// target, the register's value, or for null the lowest rank of the group whose
// segment is not empty (MPI-4.1 MPI_WIN_SHARED_QUERY), as the model answers.
func (pg *procGen) segIndex(wi *winInfo, in *litmus.Instr) string {
	switch {
	case in.TargetReg != "":
		r := regName(in.TargetReg)
		null := &litmus.Instr{TargetNull: true}
		return fmt.Sprintf("(%s == -1 ? %s : (int)%s)", r, pg.segIndex(wi, null), r)
	case in.TargetNull:
		first := -1
		for r := 0; r < pg.g.nprocs; r++ {
			if !wi.w.InGroup(r) {
				continue
			}
			if first < 0 {
				first = r
			}
			if wi.w.SegmentSize(pg.g.t, r) > 0 {
				return fmt.Sprint(r)
			}
		}
		return fmt.Sprint(max(first, 0))
	}
	return fmt.Sprint(in.Target)
}

// sameCallTarget: a call's target is surely the RMA call's (for completion).
func sameCallTarget(rma, in *litmus.Instr, rank int) bool {
	l := rma.Loc
	switch {
	case l.Null || in.TargetNull:
		return l.Null && in.TargetNull
	case l.RankReg != "" || in.TargetReg != "":
		return l.RankReg == in.TargetReg
	}
	return in.Target == rank
}
