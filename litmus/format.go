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
// Parse(Format(t)) equals t up to positions (and Init order, which Format normalizes).
func Format(t *Test) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "MPI %s\n", t.Name)
	if t.HasDoc {
		fmt.Fprintf(&b, "\"%s\"\n", t.Doc)
	}
	for _, m := range t.Meta {
		fmt.Fprintf(&b, "%s=%s\n", m.Key, m.Value)
	}
	b.WriteString("{\n")
	for _, w := range t.Windows {
		fmt.Fprintf(&b, "  %s;\n", WindowString(w))
	}
	for _, a := range t.Aliases {
		fmt.Fprintf(&b, "  %s = %s", a.Name, LocString(a.Loc))
		if a.Type != TypeDefault {
			fmt.Fprintf(&b, " : %s", a.Type)
		}
		b.WriteString(";\n")
	}
	for _, in := range t.Inits {
		if in.Loc != nil && in.Reg == nil {
			fmt.Fprintf(&b, "  %s = %d;\n", LocString(*in.Loc), in.Value)
		}
	}
	for _, in := range t.Inits {
		if in.Reg != nil {
			fmt.Fprintf(&b, "  %s = %d;\n", regRefString(*in.Reg), in.Value)
		}
	}
	b.WriteString("}\n")
	formatTable(&b, t)
	if t.HasLocs || len(t.Locations) > 0 {
		s := make([]string, len(t.Locations))
		for i, r := range t.Locations {
			s[i] = RefString(*r)
		}
		fmt.Fprintf(&b, "locations [%s];\n", strings.Join(s, "; "))
	}
	if t.Filter != nil {
		fmt.Fprintf(&b, "filter (%s)\n", CondString(t.Filter))
	}
	fmt.Fprintf(&b, "%s (%s)\n", t.Quant, CondString(t.Cond))
	for _, e := range t.Expects {
		b.WriteString("expect")
		if e.HW != "" {
			fmt.Fprintf(&b, " hw=%s:", e.HW)
		}
		for _, it := range e.Items {
			fmt.Fprintf(&b, " %s=%s", it.Preset, it.ObsString())
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

func formatTable(b *bytes.Buffer, t *Test) {
	n := len(t.Procs)
	if n == 0 {
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
	for _, row := range cells {
		b.WriteByte(' ')
		for c, s := range row {
			if c > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(s)
			b.WriteString(strings.Repeat(" ", width[c]-len(s)))
		}
		b.WriteString(" ;\n")
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
	return fmt.Sprintf("%s@%d[%d]", l.Win, l.Rank, l.Disp)
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
		op := "!="
		if g.Eq {
			op = "=="
		}
		fmt.Fprintf(&b, "[%s %s %s] ", g.Reg, op, ValueString(g.Val))
	}
	if i.Dst != "" {
		fmt.Fprintf(&b, "%s = ", i.Dst)
	}
	switch i.Op {
	case OpStore, OpPut:
		fmt.Fprintf(&b, "%s %s %s", i.Op, locStr(i), arg(i, 0))
	case OpLoad, OpGet:
		fmt.Fprintf(&b, "%s %s", i.Op, locStr(i))
	case OpAcc, OpGacc, OpFop:
		fmt.Fprintf(&b, "%s %s %s %s", i.Op, locStr(i), i.AccOp, arg(i, 0))
	case OpCas:
		fmt.Fprintf(&b, "cas %s %s %s", locStr(i), arg(i, 0), arg(i, 1))
	case OpRput:
		fmt.Fprintf(&b, "rput %s %s @%s", locStr(i), arg(i, 0), i.Req)
	case OpRget:
		fmt.Fprintf(&b, "rget %s @%s", locStr(i), i.Req)
	case OpRacc, OpRgacc:
		fmt.Fprintf(&b, "%s %s %s %s @%s", i.Op, locStr(i), i.AccOp, arg(i, 0), i.Req)
	case OpWaitReq:
		fmt.Fprintf(&b, "waitreq %s", i.Req)
	case OpPost, OpStart:
		fmt.Fprintf(&b, "%s %s {%s}", i.Op, i.Win, intsString(i.Group))
	case OpLock:
		fmt.Fprintf(&b, "lock %s %d %s", i.Win, i.Target, i.LockType)
	case OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
		fmt.Fprintf(&b, "%s %s %d", i.Op, i.Win, i.Target)
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
		fmt.Fprintf(b, "%s=%d", RefString(c.Ref), c.Value)
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
