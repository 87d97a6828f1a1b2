package litmus

import (
	"fmt"
	"strconv"
)

// Computed and null targets (docs/language.md#computed-and-null-targets): a
// register or null may stand for the rank of a location (W@r1[0], W@null[0]) or of
// the target of lock, unlock, flush, flush_local and shared_query; a register plus
// a literal offset for its displacement (W@1[r2], W@1[r5+2]).

// peek2 is the token after the next one.
func (p *parser) peek2() token {
	save := p.lx.off
	p.lx.next()
	t := p.lx.next()
	p.lx.off = save
	return t
}

// parseLocRank parses the rank of W@RANK[..]: a literal, null or a register.
func (p *parser) parseLocRank(l *Loc) {
	switch {
	case p.isIdent("null"):
		l.Null = true
		p.next()
	case p.tok.kind == tIdent:
		l.RankReg, _ = p.name("rank register after \"@\"")
	default:
		l.Rank, _ = p.intLit("rank after \"@\"")
	}
}

// parseLocDisp parses the displacement of W@..[DISP]: a literal, or a register with
// an optional literal offset (r5, r5+2, r5-2), or a range relative to the register
// (r5+0..3, r5+0..6 by 2, r5+{0,2}: docs/language.md#dynamic-windows).
func (p *parser) parseLocDisp(l *Loc) {
	if p.tok.kind != tIdent {
		l.Disp, _ = p.intLit("displacement")
		return
	}
	if p.isIdent("null") {
		p.fail("null is a rank (W@null[0]), not a displacement")
	}
	l.DispReg, _ = p.name("displacement register")
	switch p.tok.kind {
	case tPlus:
		p.next()
		if p.tok.kind != tLBrace && p.tok.kind != tInt {
			p.expected("offset, lo..hi or {d0,d1,..} after the displacement register and \"+\"")
		}
		p.parseDisp(l) // an offset (Disp) or a range of offsets (Range)
	case tMinus:
		p.next()
		off, _ := p.intLit("offset after the displacement register")
		l.Disp = -off
	}
}

// parseRMATarget parses the target rank of lock, unlock, flush, flush_local and
// shared_query: a literal, null or a register.
func (p *parser) parseRMATarget(ins *Instr) {
	ins.TargetPos = p.tpos()
	switch {
	case p.isIdent("null"):
		ins.TargetNull = true
		p.next()
	case p.tok.kind == tIdent && !keywords[p.tok.text]:
		ins.TargetReg, _ = p.name("target rank register")
	default:
		ins.Target, _ = p.intLit("target rank (a rank, a register or null)")
	}
}

// locRankString spells the rank of a location.
func locRankString(l Loc) string {
	switch {
	case l.Null:
		return "null"
	case l.RankReg != "":
		return l.RankReg
	}
	return strconv.Itoa(l.Rank)
}

// locDispString spells the displacement of a location: 3, r5, r5+2, r5-2.
func locDispString(l Loc) string {
	switch {
	case l.DispReg == "":
		return strconv.Itoa(l.Disp)
	case l.Disp > 0:
		return fmt.Sprintf("%s+%d", l.DispReg, l.Disp)
	case l.Disp < 0:
		return fmt.Sprintf("%s-%d", l.DispReg, -l.Disp)
	}
	return l.DispReg
}

// TargetString spells the target rank of lock, unlock, flush, flush_local or
// shared_query: a rank, a register or null.
func TargetString(i *Instr) string {
	switch {
	case i.TargetNull:
		return "null"
	case i.TargetReg != "":
		return i.TargetReg
	}
	return strconv.Itoa(i.Target)
}

// ComputedTarget reports whether the instruction's target rank is known only when it
// is issued: a register, or null (MPI_PROC_NULL), in its location or as the target
// of a lock, unlock, flush, flush_local or shared_query.
func (i *Instr) ComputedTarget() bool {
	return i.TargetReg != "" || i.TargetNull || i.Loc != nil && (i.Loc.Computed() || i.Loc.Null)
}

// locRegs lists the registers a location reads when its call is issued.
func locRegs(l *Loc) []string {
	var rs []string
	if l == nil {
		return nil
	}
	if l.RankReg != "" {
		rs = append(rs, l.RankReg)
	}
	if l.DispReg != "" {
		rs = append(rs, l.DispReg)
	}
	return rs
}

// CellsNamed lists the (rank, displacement) pairs a computed location may name: a
// register rank any rank of the window's group, a register displacement (plus its
// offset) any displacement of that rank's segment; null names none. A fixed
// location names its own cell. The segments are those of size= (cells); the
// model creates a cell for each pair (it checks the rest at issue, E-TARGET).
func (t *Test) CellsNamed(l Loc) [][2]int {
	w, rank, disp, _, ok := t.ResolveLoc(l)
	if !ok {
		return nil
	}
	if !l.Computed() && !l.Null {
		return [][2]int{{rank, disp}}
	}
	if l.Null {
		return nil
	}
	var out [][2]int
	for r := range t.Procs {
		if l.RankReg == "" && r != l.Rank || !w.InGroup(r) {
			continue
		}
		size := w.SegmentSize(t, r)
		for d := range size {
			if l.DispReg != "" || d == l.Disp {
				out = append(out, [2]int{r, d})
			}
		}
	}
	return out
}
