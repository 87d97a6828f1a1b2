package litmus

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Format prints a test in canonical form: header, doc, meta lines, the init block
// (windows, aliases, memory inits, register inits, one per line), the process table with
// padded columns, then locations, filter, the final condition and the expect lines.
// Parse(Format(t)) equals t up to positions and comments (and Init order, which Format
// normalizes), and Format(Parse(Format(t))) is Format(t).
//
// Comments stay with their lines (see Comments): each Lead comment on a line of its own
// above the line (indented inside the init block, a blank line before it when it had one),
// the Trail comments at the end of the line (after the " ;" of a table row). A multi-line
// "(* *)" comment, and any comment after a "#" one, go on lines of their own below; they
// lead the next line when the output is parsed again. Comments before a part that is
// absent (a doc string, locations or filter a program dropped) print as lines of their own.
func Format(t *Test) []byte {
	var p printer
	p.lead(t.HeaderComments.Lead, "")
	fmt.Fprintf(&p, "MPI %s", t.Name)
	p.end(t.HeaderComments.Trail, "")
	if t.HasDoc {
		p.lead(t.DocComments.Lead, "")
		fmt.Fprintf(&p, "\"%s\"", t.Doc)
		p.end(t.DocComments.Trail, "")
	} else {
		p.orphans(t.DocComments, "")
	}
	for _, m := range t.Meta {
		p.lead(m.Comments.Lead, "")
		fmt.Fprintf(&p, "%s=%s\n", m.Key, m.Value)
		p.lead(m.Comments.Trail, "") // never on the line: the value runs to its end
	}
	p.lead(t.OpenComments.Lead, "")
	p.WriteString("{")
	p.end(t.OpenComments.Trail, "  ")
	stmt := func(c Comments, format string, args ...any) {
		p.lead(c.Lead, "  ")
		p.WriteString("  ")
		fmt.Fprintf(&p, format, args...)
		p.WriteString(";")
		p.end(c.Trail, "  ")
	}
	for _, w := range t.Windows {
		stmt(w.Comments, "%s", WindowString(w))
	}
	for _, a := range t.Aliases {
		typ := ""
		if a.Type != TypeDefault {
			typ = " : " + a.Type.String()
		}
		stmt(a.Comments, "%s = %s%s", a.Name, LocString(a.Loc), typ)
	}
	for _, in := range t.Inits {
		if in.Loc != nil && in.Reg == nil {
			stmt(in.Comments, "%s = %d", LocString(*in.Loc), in.Value)
		}
	}
	for _, in := range t.Inits {
		if in.Reg != nil {
			stmt(in.Comments, "%s = %d", regRefString(*in.Reg), in.Value)
		}
	}
	p.lead(t.CloseComments.Lead, "  ")
	p.WriteString("}")
	p.end(t.CloseComments.Trail, "")
	formatTable(&p, t)
	if t.HasLocs || len(t.Locations) > 0 {
		s := make([]string, len(t.Locations))
		for i, r := range t.Locations {
			s[i] = RefString(*r)
		}
		p.lead(t.LocsComments.Lead, "")
		fmt.Fprintf(&p, "locations [%s];", strings.Join(s, "; "))
		p.end(t.LocsComments.Trail, "")
	} else {
		p.orphans(t.LocsComments, "")
	}
	if t.Filter != nil {
		p.lead(t.FilterComments.Lead, "")
		fmt.Fprintf(&p, "filter (%s)", CondString(t.Filter))
		p.end(t.FilterComments.Trail, "")
	} else {
		p.orphans(t.FilterComments, "")
	}
	p.lead(t.CondComments.Lead, "")
	fmt.Fprintf(&p, "%s (%s)", t.Quant, CondString(t.Cond))
	p.end(t.CondComments.Trail, "")
	for _, e := range t.Expects {
		p.lead(e.Comments.Lead, "")
		p.WriteString(e.String())
		p.end(e.Comments.Trail, "")
	}
	p.lead(t.EndComments, "")
	return p.Bytes()
}

// printer is the output of Format, with the placement of comments.
type printer struct{ bytes.Buffer }

// lead writes comments on lines of their own, each after a blank line if it had one.
func (p *printer) lead(cs []Comment, indent string) {
	for _, c := range cs {
		if c.Blank && p.Len() > 0 {
			p.WriteByte('\n')
		}
		p.WriteString(indent)
		p.WriteString(c.Text)
		p.WriteByte('\n')
	}
}

// end ends a line with its trailing comments. Those that cannot stay on it (a multi-line
// comment, and every comment after a "#" one) go below, indented as the line that follows.
func (p *printer) end(cs []Comment, indent string) {
	i := 0
	for i < len(cs) && !strings.Contains(cs[i].Text, "\n") {
		p.WriteByte(' ')
		p.WriteString(cs[i].Text)
		i++
		if strings.HasPrefix(cs[i-1].Text, "#") {
			break
		}
	}
	p.WriteByte('\n')
	p.lead(cs[i:], indent)
}

// orphans writes the comments of a line that is not printed.
func (p *printer) orphans(c Comments, indent string) {
	p.lead(c.Lead, indent)
	p.lead(c.Trail, indent)
}

func formatTable(p *printer, t *Test) {
	n := len(t.Procs)
	if n == 0 {
		for _, c := range t.RowComments {
			p.orphans(c, "")
		}
		return
	}
	cells := make([][]string, t.Rows+1)
	width := make([]int, n)
	for r := range cells {
		cells[r] = make([]string, n)
		for c, p := range t.Procs {
			var s string
			switch {
			case r == 0:
				s = fmt.Sprintf("P%d", c)
			case r-1 < len(p.Code) && p.Code[r-1] != nil:
				s = InstrString(p.Code[r-1])
			}
			cells[r][c] = s
			width[c] = max(width[c], len(s))
		}
	}
	for r, row := range cells {
		var cs Comments
		if r < len(t.RowComments) {
			cs = t.RowComments[r]
		}
		p.lead(cs.Lead, "")
		p.WriteByte(' ')
		for c, s := range row {
			if c > 0 {
				p.WriteString(" | ")
			}
			p.WriteString(s)
			p.WriteString(strings.Repeat(" ", width[c]-len(s)))
		}
		p.WriteString(" ;")
		p.end(cs.Trail, "")
	}
	for r := len(cells); r < len(t.RowComments); r++ {
		p.orphans(t.RowComments[r], "")
	}
}

func isBare(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func intList(l []int) string { return "[" + intsString(l) + "]" }

// WindowString is a window declaration without its ";".
func WindowString(w *Window) string {
	var b strings.Builder
	fmt.Fprintf(&b, "win %s %s", w.Name, w.Flavor)
	if w.Size != nil {
		if w.SizeList || len(w.Size) != 1 {
			fmt.Fprintf(&b, " size=%s", intList(w.Size))
		} else {
			fmt.Fprintf(&b, " size=%d", w.Size[0])
		}
	}
	if w.Bytes != nil {
		fmt.Fprintf(&b, " bytes=%s", intList(w.Bytes))
	}
	if w.Type != TypeDefault {
		fmt.Fprintf(&b, " type=%s", w.Type)
	}
	if w.DispUnit != 0 {
		fmt.Fprintf(&b, " disp_unit=%d", w.DispUnit)
	}
	if w.ModelSet {
		fmt.Fprintf(&b, " model=%s", w.Model)
	}
	if w.Ranks != nil {
		fmt.Fprintf(&b, " ranks=%s", intsString(w.Ranks))
	}
	if w.Over != "" {
		fmt.Fprintf(&b, " over=%s", w.Over)
	}
	for _, in := range w.Info {
		v := in.Value
		if !isBare(v) {
			v = `"` + v + `"`
		}
		fmt.Fprintf(&b, " %s=%s", in.Key, v)
	}
	return b.String()
}

// LocString spells a location: "x" or "W@1[0]".
func LocString(l Loc) string {
	if l.Alias != "" {
		return l.Alias
	}
	if l.Range != nil && l.DispReg == "" {
		return fmt.Sprintf("%s@%s[%s]", l.Win, locRankString(l), l.Range)
	}
	if l.Range != nil {
		return fmt.Sprintf("%s@%s[%s+%s]", l.Win, locRankString(l), l.DispReg, l.Range) // relative to the register
	}
	return fmt.Sprintf("%s@%s[%s]", l.Win, locRankString(l), locDispString(l))
}

func regRefString(r RegRef) string { return fmt.Sprintf("%d:%s", r.Proc, r.Reg) }

// RefString spells a register "1:r0" or a location.
func RefString(r Ref) string {
	switch {
	case r.Reg != nil:
		return regRefString(*r.Reg)
	case r.Loc != nil:
		return LocString(*r.Loc)
	}
	return "?"
}

// ValueString spells an operand.
func ValueString(v Value) string {
	if v.IsReg() {
		return v.Reg
	}
	return strconv.FormatInt(v.Imm, 10)
}

func arg(i *Instr, k int) string {
	if k < len(i.Args) {
		return ValueString(i.Args[k])
	}
	return "?"
}

// origin spells an origin buffer: its value, or the tuple of one value per element.
func origin(i *Instr) string {
	if !i.ArgTuple {
		return arg(i, 0)
	}
	vs := make([]string, len(i.Args))
	for k, a := range i.Args {
		vs[k] = ValueString(a)
	}
	return tupleString(vs)
}

func locStr(i *Instr) string {
	if i.Loc == nil {
		return "?"
	}
	return LocString(*i.Loc)
}

// InstrString spells an instruction as in a table cell.
func InstrString(i *Instr) string {
	var b strings.Builder
	if g := i.Guard; g != nil {
		fmt.Fprintf(&b, "[%s] ", GuardString(*g))
	}
	if i.Dst != "" {
		fmt.Fprintf(&b, "%s = ", i.Dst)
	}
	if i.Dsts != nil {
		fmt.Fprintf(&b, "%s = ", tupleString(i.Dsts))
	}
	switch i.Op {
	case OpStore:
		fmt.Fprintf(&b, "%s %s %s", i.Op, locStr(i), arg(i, 0))
	case OpPut:
		fmt.Fprintf(&b, "%s %s %s", i.Op, locStr(i), origin(i))
	case OpLoad, OpGet:
		fmt.Fprintf(&b, "%s %s", i.Op, locStr(i))
	case OpFop:
		fmt.Fprintf(&b, "%s %s %s %s", i.Op, locStr(i), i.AccOp, arg(i, 0))
	case OpAcc, OpGacc:
		fmt.Fprintf(&b, "%s %s %s %s", i.Op, locStr(i), i.AccOp, origin(i))
	case OpCas:
		fmt.Fprintf(&b, "cas %s %s %s", locStr(i), arg(i, 0), arg(i, 1))
	case OpRput:
		fmt.Fprintf(&b, "rput %s %s @%s", locStr(i), origin(i), i.Req)
	case OpRget:
		fmt.Fprintf(&b, "rget %s @%s", locStr(i), i.Req)
	case OpRacc, OpRgacc:
		fmt.Fprintf(&b, "%s %s %s %s @%s", i.Op, locStr(i), i.AccOp, origin(i), i.Req)
	case OpWaitReq, OpTestReq:
		fmt.Fprintf(&b, "%s %s", i.Op, i.Req)
	case OpAttach, OpDetach:
		fmt.Fprintf(&b, "%s %s %s", i.Op, i.Win, arg(i, 0))
	case OpPost, OpStart:
		fmt.Fprintf(&b, "%s %s {%s}", i.Op, i.Win, intsString(i.Group))
	case OpLock:
		if i.TargetNull && i.LockType == LockShared {
			fmt.Fprintf(&b, "lock %s null", i.Win) // the type matters to no process
		} else {
			fmt.Fprintf(&b, "lock %s %s %s", i.Win, TargetString(i), i.LockType)
		}
	case OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
		fmt.Fprintf(&b, "%s %s %s", i.Op, i.Win, TargetString(i))
	case OpBarrier:
		b.WriteString("barrier")
	case OpSend:
		fmt.Fprintf(&b, "send %d", i.Target)
		if len(i.Args) > 0 {
			fmt.Fprintf(&b, " %s", arg(i, 0))
		}
	case OpRecv:
		fmt.Fprintf(&b, "recv %d", i.Target)
	case OpMov:
		b.WriteString(arg(i, 0))
	case OpAdd:
		fmt.Fprintf(&b, "%s + %s", arg(i, 0), arg(i, 1))
	case OpSub:
		fmt.Fprintf(&b, "%s - %s", arg(i, 0), arg(i, 1))
	case OpRepeat:
		b.WriteString("repeat")
	case OpUntil:
		b.WriteString("until " + LoopCondString(i.Until))
	case OpAwait:
		g := Guard{}
		if i.Until != nil && len(i.Until.Terms) == 1 && len(i.Until.Terms[0]) == 1 {
			g = i.Until.Terms[0][0]
		}
		fmt.Fprintf(&b, "await %s %s %s", locStr(i), eqString(g.Eq), ValueString(g.Val))
	default:
		if i.Op >= 0 && i.Op < NumOps {
			fmt.Fprintf(&b, "%s %s", i.Op, i.Win)
		} else {
			fmt.Fprintf(&b, "?op%d", int(i.Op))
		}
	}
	for _, a := range i.Asserts {
		fmt.Fprintf(&b, " %s", a.Name)
	}
	return b.String()
}

func condPrec(c Cond) int {
	switch c.(type) {
	case *Implies:
		return 1
	case *Or:
		return 2
	case *And:
		return 3
	case *Not:
		return 4
	}
	return 5
}

// CondString spells a condition with the fewest parentheses that keep its structure,
// e.g. "0:r0=0 /\ 1:r0=0".
func CondString(c Cond) string {
	var b strings.Builder
	writeCond(&b, c)
	return b.String()
}

func writeSub(b *strings.Builder, c Cond, paren bool) {
	if paren {
		b.WriteByte('(')
		writeCond(b, c)
		b.WriteByte(')')
		return
	}
	writeCond(b, c)
}

func writeCond(b *strings.Builder, c Cond) {
	switch c := c.(type) {
	case *Atom:
		if c.Other != nil {
			fmt.Fprintf(b, "%s=%s", RefString(c.Ref), RefString(*c.Other))
		} else {
			fmt.Fprintf(b, "%s=%d", RefString(c.Ref), c.Value)
		}
	case *Bool:
		b.WriteString(strconv.FormatBool(c.V))
	case *Not:
		b.WriteByte('~')
		writeSub(b, c.C, condPrec(c.C) < 4)
	case *And:
		writeSub(b, c.L, condPrec(c.L) < 3)
		b.WriteString(` /\ `)
		writeSub(b, c.R, condPrec(c.R) <= 3)
	case *Or:
		writeSub(b, c.L, condPrec(c.L) < 2)
		b.WriteString(` \/ `)
		writeSub(b, c.R, condPrec(c.R) <= 2)
	case *Implies:
		writeSub(b, c.L, condPrec(c.L) <= 1)
		b.WriteString(" => ")
		writeSub(b, c.R, false)
	case nil:
	default:
		fmt.Fprintf(b, "?%T", c)
	}
}

func eqString(eq bool) string {
	if eq {
		return "=="
	}
	return "!="
}

// GuardString spells a guard atom: "r0 == 1".
func GuardString(g Guard) string {
	return fmt.Sprintf("%s %s %s", g.Reg, eqString(g.Eq), ValueString(g.Val))
}

// LoopCondString spells an until condition: "r0 == 1 /\ r1 != 0 \/ r2 == 3".
func LoopCondString(c *LoopCond) string {
	if c == nil {
		return ""
	}
	var terms []string
	for _, term := range c.Terms {
		var atoms []string
		for _, g := range term {
			atoms = append(atoms, GuardString(g))
		}
		terms = append(terms, strings.Join(atoms, ` /\ `))
	}
	return strings.Join(terms, ` \/ `)
}
