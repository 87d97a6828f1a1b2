package output

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// X86Regs are the registers an x86 twin gives a process's registers, in order of
// first use (herd7's X86 has no more general-purpose registers than these).
var X86Regs = []string{"EAX", "EBX", "ECX", "EDX", "ESI", "EDI"}

// HerdTwin is the x86 .litmus twin of a .lit test, for herd7: the same processes,
// the same plain loads and stores in the same order, the same initial values and
// the same final condition.
type HerdTwin struct {
	Source []byte              // the .litmus text
	Regs   []map[string]string // per process: .lit register -> x86 register
	Cells  map[string]string   // "W@r[d]" of each cell -> its x86 location name
}

type cellKey struct {
	win        string
	rank, disp int
}

func (c cellKey) String() string { return fmt.Sprintf("%s@%d[%d]", c.win, c.rank, c.disp) }

// HerdX86 converts a test of plain accesses to herd7's X86 syntax: `store LOC V` is
// MOV [loc],$V (or MOV [loc],REG), `r = load LOC` is MOV REG,[loc]; lock_all and
// unlock_all are dropped (on x86 the epoch adds no ordering: every plain access is
// already a TSO access). A cell is named after its first alias (else W_r_d), a
// register after X86Regs in order of first use. Any other instruction, a guard, a
// range, a computed or typed location, or more than len(X86Regs) registers in one
// process has no x86 twin: the error gives FILE:LINE:COL.
func HerdX86(t *litmus.Test) (HerdTwin, error) {
	tw := HerdTwin{Regs: make([]map[string]string, len(t.Procs)), Cells: map[string]string{}}
	fail := func(p litmus.Pos, format string, a ...any) (HerdTwin, error) {
		return HerdTwin{}, fmt.Errorf("%s:%s: no x86 twin: "+format, append([]any{t.File, p}, a...)...)
	}
	for _, w := range t.Windows {
		if w.Type != litmus.TypeDefault && w.Type != litmus.Int64 || w.Bytes != nil {
			return fail(w.Pos, "window %s is not of int64 cells (x86 locations are one word)", w.Name)
		}
	}
	aliases := map[string]*litmus.Alias{}
	for _, a := range t.Aliases {
		aliases[a.Name] = a
	}
	var order []cellKey // cells in order of first mention
	names := map[cellKey]string{}
	taken := map[string]bool{}
	for _, r := range X86Regs {
		taken[r] = true
	}
	// cell resolves a location to its cell, naming the cell on first sight.
	cell := func(l *litmus.Loc) (cellKey, error) {
		ll, alias := *l, ""
		if l.Alias != "" {
			a, ok := aliases[l.Alias]
			if !ok {
				return cellKey{}, fmt.Errorf("%s:%s: no x86 twin: unknown location %s", t.File, l.Pos, l.Alias)
			}
			if a.Type != litmus.TypeDefault && a.Type != litmus.Int64 {
				return cellKey{}, fmt.Errorf("%s:%s: no x86 twin: location %s is typed %s", t.File, l.Pos, a.Name, a.Type)
			}
			ll, alias = a.Loc, a.Name
		}
		if ll.Computed() || ll.Null || ll.Range != nil {
			return cellKey{}, fmt.Errorf("%s:%s: no x86 twin: a computed, null or multi-element location", t.File, l.Pos)
		}
		k := cellKey{ll.Win, ll.Rank, ll.Disp}
		if _, ok := names[k]; !ok {
			name := alias
			if name == "" || taken[strings.ToUpper(name)] {
				name = fmt.Sprintf("%s_%d_%d", ll.Win, ll.Rank, ll.Disp)
			}
			for taken[strings.ToUpper(name)] {
				name += "_"
			}
			taken[strings.ToUpper(name)] = true
			names[k] = name
			order = append(order, k)
		}
		return k, nil
	}
	// The first alias of each cell names it, in declaration order.
	for _, a := range t.Aliases {
		l := litmus.Loc{Pos: a.Pos, Alias: a.Name}
		if _, err := cell(&l); err != nil {
			return HerdTwin{}, err
		}
	}
	reg := func(p int, r string, pos litmus.Pos) (string, error) {
		if p < 0 || p >= len(tw.Regs) {
			return "", fmt.Errorf("%s:%s: no x86 twin: no process %d", t.File, pos, p)
		}
		if tw.Regs[p] == nil {
			tw.Regs[p] = map[string]string{}
		}
		if x, ok := tw.Regs[p][r]; ok {
			return x, nil
		}
		if len(tw.Regs[p]) == len(X86Regs) {
			return "", fmt.Errorf("%s:%s: no x86 twin: P%d uses more than %d registers", t.File, pos, p, len(X86Regs))
		}
		x := X86Regs[len(tw.Regs[p])]
		tw.Regs[p][r] = x
		return x, nil
	}
	code := make([][]string, len(t.Procs))
	for p, pr := range t.Procs {
		for _, in := range pr.Code {
			if in == nil {
				continue
			}
			if in.Guard != nil {
				return fail(in.Guard.Pos, "a guarded instruction")
			}
			switch in.Op {
			case litmus.OpLockAll, litmus.OpUnlockAll:
				continue
			case litmus.OpStore, litmus.OpLoad:
			default:
				return fail(in.Pos, "%s (only plain load and store, in lock_all epochs or none)", in.Op)
			}
			k, err := cell(in.Loc)
			if err != nil {
				return HerdTwin{}, err
			}
			if in.Op == litmus.OpLoad {
				x, err := reg(p, in.Dst, in.DstPos)
				if err != nil {
					return HerdTwin{}, err
				}
				code[p] = append(code[p], fmt.Sprintf("MOV %s,[%s]", x, names[k]))
				continue
			}
			v := in.Args[0]
			src := fmt.Sprintf("$%d", v.Imm)
			if v.IsReg() {
				if src, err = reg(p, v.Reg, v.Pos); err != nil {
					return HerdTwin{}, err
				}
			}
			code[p] = append(code[p], fmt.Sprintf("MOV [%s],%s", names[k], src))
		}
	}
	pr := &herdPrinter{t: t, tw: &tw, cell: cell, reg: reg, names: names}
	init := map[cellKey]int64{}
	var regInits []string
	for _, in := range t.Inits {
		if in.Reg != nil {
			x, err := reg(in.Reg.Proc, in.Reg.Reg, in.Reg.Pos)
			if err != nil {
				return HerdTwin{}, err
			}
			regInits = append(regInits, fmt.Sprintf("%d:%s=%d;", in.Reg.Proc, x, in.Value))
			continue
		}
		k, err := cell(in.Loc)
		if err != nil {
			return HerdTwin{}, err
		}
		init[k] = in.Value
	}
	// The condition, filter and locations line may name cells and registers the code
	// does not: print them before the init block, which lists every cell.
	var locsLine, filter, cond string
	if t.HasLocs {
		var items []string
		for _, r := range t.Locations {
			s, err := pr.ref(r)
			if err != nil {
				return HerdTwin{}, err
			}
			items = append(items, s+";")
		}
		locsLine = "locations [" + strings.Join(items, " ") + "]\n"
	}
	if t.Filter != nil {
		s, err := pr.cond(t.Filter)
		if err != nil {
			return HerdTwin{}, err
		}
		filter = "filter (" + s + ")\n"
	}
	cond, err := pr.cond(t.Cond)
	if err != nil {
		return HerdTwin{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "X86 %s\n", t.Name)
	fmt.Fprintf(&b, "\"x86 twin of %s.lit (rmacheck gen --herd)\"\n{\n", t.Name)
	for _, k := range order {
		fmt.Fprintf(&b, "  %s=%d;\n", names[k], init[k])
		tw.Cells[k.String()] = names[k]
	}
	for _, s := range regInits {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	b.WriteString("}\n")
	writeColumns(&b, code)
	b.WriteString(locsLine)
	b.WriteString(filter)
	fmt.Fprintf(&b, "%s (%s)\n", t.Quant, cond)
	tw.Source = []byte(b.String())
	return tw, nil
}

type herdPrinter struct {
	t     *litmus.Test
	tw    *HerdTwin
	cell  func(*litmus.Loc) (cellKey, error)
	reg   func(int, string, litmus.Pos) (string, error)
	names map[cellKey]string
}

func (h *herdPrinter) ref(r *litmus.Ref) (string, error) {
	if r.Reg != nil {
		if r.Reg.Proc < 0 || r.Reg.Proc >= len(h.t.Procs) {
			return "", fmt.Errorf("%s:%s: no x86 twin: no process %d", h.t.File, r.Reg.Pos, r.Reg.Proc)
		}
		x, err := h.reg(r.Reg.Proc, r.Reg.Reg, r.Reg.Pos)
		return fmt.Sprintf("%d:%s", r.Reg.Proc, x), err
	}
	k, err := h.cell(r.Loc)
	return h.names[k], err
}

// cond prints a condition in herd7's syntax, which is the .lit syntax with x86
// registers and cell names; every compound operand is parenthesized.
func (h *herdPrinter) cond(c litmus.Cond) (string, error) {
	// sub prints an operand of parent, parenthesized unless it is an atom, a
	// negation, or of parent's type (/\ and \/ are associative).
	sub := func(c, parent litmus.Cond) (string, error) {
		s, err := h.cond(c)
		switch c.(type) {
		case *litmus.Atom, *litmus.Bool, *litmus.Not:
			return s, err
		case *litmus.And, *litmus.Or:
			if fmt.Sprintf("%T", c) == fmt.Sprintf("%T", parent) {
				return s, err
			}
		}
		return "(" + s + ")", err
	}
	bin := func(parent litmus.Cond, l, r litmus.Cond, op string) (string, error) {
		ls, err := sub(l, parent)
		if err != nil {
			return "", err
		}
		rs, err := sub(r, parent)
		return ls + " " + op + " " + rs, err
	}
	switch c := c.(type) {
	case *litmus.Atom:
		if c.Other != nil {
			return "", fmt.Errorf("%s: herd7's conditions compare an item with a value, not with another item (%s=%s)",
				c.Pos, litmus.RefString(c.Ref), litmus.RefString(*c.Other))
		}
		s, err := h.ref(&c.Ref)
		return fmt.Sprintf("%s=%d", s, c.Value), err
	case *litmus.Not:
		s, err := sub(c.C, c)
		return "~" + s, err
	case *litmus.And:
		return bin(c, c.L, c.R, `/\`)
	case *litmus.Or:
		return bin(c, c.L, c.R, `\/`)
	case *litmus.Implies:
		return bin(c, c.L, c.R, "=>")
	case *litmus.Bool:
		if c.V {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("%s: no x86 twin: condition node %T", h.t.File, c)
}

// writeColumns writes a herd7 process table: a P0 | P1 .. row, then one row per
// instruction, columns padded to one width each.
func writeColumns(b *strings.Builder, code [][]string) {
	width := make([]int, len(code))
	height := 0
	for p := range code {
		width[p] = len(fmt.Sprintf("P%d", p))
		for _, in := range code[p] {
			width[p] = max(width[p], len(in))
		}
		height = max(height, len(code[p]))
	}
	row := func(cell func(p int) string) {
		cols := make([]string, len(code))
		for p := range code {
			cols[p] = fmt.Sprintf(" %-*s ", width[p], cell(p))
		}
		b.WriteString(strings.Join(cols, "|") + ";\n")
	}
	row(func(p int) string { return fmt.Sprintf("P%d", p) })
	for i := 0; i < height; i++ {
		row(func(p int) string {
			if i < len(code[p]) {
				return code[p][i]
			}
			return ""
		})
	}
}
