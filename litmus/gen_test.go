package litmus

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/spec"
)

// gen draws random well-formed tests: every name it uses is declared, every register it
// reads is written or initialised, every location is inside its segment.
type gen struct {
	t   *rapid.T
	tst *Test
	n   int
}

func (g *gen) intn(lo, hi int, label string) int { return rapid.IntRange(lo, hi).Draw(g.t, label) }
func (g *gen) coin(label string) bool            { return rapid.Bool().Draw(g.t, label) }
func pick[T any](g *gen, label string, xs []T) T { return rapid.SampledFrom(xs).Draw(g.t, label) }

func (g *gen) text(label string, alphabet string, min, max int) string {
	n := g.intn(min, max, label+"-len")
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.intn(0, len(alphabet)-1, label)]
	}
	return string(b)
}

const (
	wordChars = "abcXYZ019_.+-"
	docChars  = "abc XYZ 0#(*);|{}=:,.'"
)

func genTest(t *rapid.T) *Test {
	g := &gen{t: t, tst: &Test{}}
	tst := g.tst
	tst.Name = g.text("name", wordChars, 1, 8)
	if g.coin("hasdoc") {
		tst.HasDoc = true
		tst.Doc = g.text("doc", docChars, 0, 20)
	}
	for i := g.intn(0, 2, "nmeta"); i > 0; i-- {
		v := g.text("metaval", docChars, 0, 12)
		tst.Meta = append(tst.Meta, Meta{Key: pick(g, "metakey", []string{"Source", "Cite", "Note_2"}), Value: trimSpace(v)})
	}
	g.n = g.intn(1, 4, "nprocs")
	g.windows()
	g.aliases()
	g.rangeAliases()
	g.memInits()
	g.procs()
	if g.coin("haslocs") {
		tst.HasLocs = true
		for i := g.intn(1, 3, "nlocs"); i > 0; i-- {
			r := g.ref()
			tst.Locations = append(tst.Locations, &r)
		}
	}
	if g.coin("filter") {
		tst.Filter = g.cond(2)
	}
	tst.Quant = Quant(g.intn(0, 2, "quant"))
	tst.Cond = g.cond(3)
	g.expects()
	if g.coin("comments") {
		g.comments()
	}
	return tst
}

// commentChars may appear in comments: other comment openers and the language's punctuation.
const commentChars = "ab #;|{}=\"(*~"

func (g *gen) comment() Comment {
	c := Comment{Blank: g.coin("blank")}
	if g.coin("hash") {
		c.Text = strings.TrimRight("# "+g.text("hashtext", commentChars, 0, 8), " ")
	} else {
		c.Text = "(* " + g.text("blocktext", commentChars+"\n", 0, 8) + " *)"
	}
	return c
}

func (g *gen) group() Comments {
	var c Comments
	for i := g.intn(0, 2, "nlead"); i > 0; i-- {
		c.Lead = append(c.Lead, g.comment())
	}
	for i := g.intn(0, 2, "ntrail"); i > 0; i-- {
		c.Trail = append(c.Trail, g.comment())
	}
	return c
}

// comments sprinkles comments on every line, and on lines absent from the test.
func (g *gen) comments() {
	tst := g.tst
	for _, c := range []*Comments{&tst.HeaderComments, &tst.DocComments, &tst.OpenComments,
		&tst.CloseComments, &tst.LocsComments, &tst.FilterComments, &tst.CondComments} {
		*c = g.group()
	}
	for i := range tst.Meta {
		tst.Meta[i].Comments = g.group()
	}
	for _, w := range tst.Windows {
		w.Comments = g.group()
	}
	for _, a := range tst.Aliases {
		a.Comments = g.group()
	}
	for _, in := range tst.Inits {
		in.Comments = g.group()
	}
	for r := g.intn(0, tst.Rows+1, "nrowcomments"); r > 0; r-- {
		tst.RowComments = append(tst.RowComments, g.group())
	}
	for _, e := range tst.Expects {
		e.Comments = g.group()
	}
	tst.EndComments = g.group().Lead
}

func trimSpace(s string) string { return string(bytes.TrimSpace([]byte(s))) }

func (g *gen) windows() {
	tst := g.tst
	for i := g.intn(1, 3, "nwin"); i > 0; i-- {
		w := &Window{Name: fmt.Sprintf("W%d", len(tst.Windows)), Flavor: Flavor(g.intn(0, 3, "flavor"))}
		canOver := w.Flavor == FlavorCreate && len(tst.Windows) > 0
		switch k := g.intn(0, 3, "sizing"); {
		case k == 3 && canOver:
			w.Over = pick(g, "over", tst.Windows).Name
		case k == 0:
			w.Size = []int{g.intn(1, 3, "size")}
		case k == 1:
			for r := 0; r < g.n; r++ {
				w.Size = append(w.Size, g.intn(1, 3, "sizes"))
			}
			w.SizeList = true
		default:
			for r := 0; r < g.n; r++ {
				w.Bytes = append(w.Bytes, g.intn(8, 40, "bytes"))
			}
		}
		if w.Bytes == nil && w.Over == "" {
			if g.coin("type") {
				w.Type = Type(g.intn(1, len(typeNames)-1, "wtype"))
			}
			if g.coin("dispunit") {
				w.DispUnit = pick(g, "du", []int{1, 4, 8})
			}
		}
		if g.coin("model") {
			w.Model, w.ModelSet = MemModel(g.intn(0, 1, "m")), true
		}
		if g.coin("ranks") {
			w.Ranks = rapid.Permutation(seq(g.n)).Draw(g.t, "perm")
		}
		for _, key := range InfoKeys {
			if !g.coin("info-" + key) {
				continue
			}
			var v string
			switch key {
			case "accumulate_ordering":
				v = pick(g, "ao", []string{"none", "rar", "rar,raw,war,waw", "war,rar"})
			case "accumulate_ops":
				v = pick(g, "aops", []string{"same_op", "same_op_no_op"})
			case "mpi_minimum_memory_alignment":
				v = pick(g, "align", []string{"1", "16", "64", "4096"})
			default:
				v = pick(g, "bool", []string{"true", "false"})
			}
			w.Info = append(w.Info, Info{Key: key, Value: v})
		}
		tst.Windows = append(tst.Windows, w)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// cell draws a valid W@r[d] (nil when no window has a nonempty segment).
func (g *gen) cell() *Loc {
	var cands []Loc
	for _, w := range g.tst.Windows {
		for r := 0; r < g.n; r++ {
			size := w.SegmentSize(g.tst, r)
			if b, isBytes := w.SegmentBytes(g.tst, r); isBytes {
				size = b - 7 // an int64 must fit
			}
			for d := 0; d < size && d < 4; d++ {
				cands = append(cands, Loc{Win: w.Name, Rank: r, Disp: d})
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	l := pick(g, "cell", cands)
	return &l
}

func (g *gen) aliases() {
	for i := g.intn(0, 3, "nalias"); i > 0; i-- {
		c := g.cell()
		a := &Alias{Name: fmt.Sprintf("x%d", len(g.tst.Aliases)), Loc: *c}
		if _, isBytes := g.tst.LookupWindow(c.Win).SegmentBytes(g.tst, c.Rank); !isBytes && g.coin("atype") {
			a.Type = Type(g.intn(1, len(typeNames)-1, "atype"))
		}
		g.tst.Aliases = append(g.tst.Aliases, a)
	}
}

func (g *gen) loc() *Loc {
	if as := g.cellAliases(); len(as) > 0 && g.coin("usealias") {
		return &Loc{Alias: pick(g, "alias", as).Name}
	}
	return g.cell()
}

func (g *gen) memInits() {
	seen := map[[3]any]bool{}
	for i := g.intn(0, 3, "nminit"); i > 0; i-- {
		l := g.loc()
		w, r, d, typ, _ := g.tst.ResolveLoc(*l)
		k := [3]any{w.Name, r, d}
		if seen[k] {
			continue
		}
		seen[k] = true
		if typ == TypeDefault {
			typ = w.CellType()
		}
		v := rapid.Int64()
		if lo, hi, bounded := typ.ExactRange(); bounded { // the validator refuses others
			v = rapid.Int64Range(lo, hi)
		}
		g.tst.Inits = append(g.tst.Inits, &Init{Loc: l, Value: v.Draw(g.t, "v")})
	}
}

var regNames = []string{"r0", "r1", "r2", "ra", "q9"}

func (g *gen) value() Value {
	if g.coin("isreg") {
		return Value{Reg: pick(g, "reg", regNames)}
	}
	return Value{Imm: rapid.Int64Range(-128, 127).Draw(g.t, "imm")} // fits every cell type
}

func (g *gen) other(self int) int {
	o := g.intn(0, g.n-2, "other")
	if o >= self {
		o++
	}
	return o
}

func (g *gen) asserts(op Op) []Assert {
	var as []Assert
	for _, a := range AllowedAsserts(op) {
		if g.coin("assert-" + a) {
			as = append(as, Assert{Name: a})
		}
	}
	return as
}

func (g *gen) instr(p int, reqs *[]string, waited map[string]bool) *Instr {
	ops := []Op{OpStore, OpLoad, OpPut, OpGet, OpAcc, OpGacc, OpFop, OpCas, OpRput, OpRget, OpRacc,
		OpRgacc, OpWaitReq, OpFence, OpComplete, OpWait, OpLock, OpUnlock, OpLockAll, OpUnlockAll,
		OpFlush, OpFlushAll, OpFlushLocal, OpFlushLocalAll, OpSync, OpSharedQuery, OpBarrier, OpFree,
		OpMov, OpAdd, OpSub}
	if g.n > 1 {
		ops = append(ops, OpPost, OpStart, OpSend, OpRecv)
	}
	op := pick(g, "op", ops)
	ins := &Instr{Op: op}
	win := func() { ins.Win = pick(g, "win", g.tst.Windows).Name }
	dst := func() { ins.Dst = pick(g, "dst", regNames) }
	acc := func(noop bool) {
		ins.AccOp = AccOp(g.intn(1, 8, "accop"))
		if noop && g.coin("noop") {
			ins.AccOp = AccNoOp
		}
	}
	req := func() {
		ins.Req = fmt.Sprintf("q%d", len(*reqs))
		*reqs = append(*reqs, ins.Req)
	}
	if op.IsRMA() {
		defer func() { ins.Loc = g.computed(ins.Loc) }() // gen_target_test.go
	}
	switch op {
	case OpStore, OpPut:
		ins.Loc, ins.Args = g.loc(), []Value{g.value()}
	case OpLoad, OpGet:
		dst()
		ins.Loc = g.loc()
	case OpAcc:
		ins.Loc = g.loc()
		acc(false)
		ins.Args = []Value{g.value()}
	case OpGacc, OpFop:
		dst()
		ins.Loc = g.loc()
		acc(true)
		ins.Args = []Value{g.value()}
	case OpCas:
		dst()
		ins.Loc, ins.Args = g.loc(), []Value{g.value(), g.value()}
	case OpRput:
		ins.Loc, ins.Args = g.loc(), []Value{g.value()}
		req()
	case OpRget:
		dst()
		ins.Loc = g.loc()
		req()
	case OpRacc, OpRgacc:
		if op == OpRgacc {
			dst()
		}
		ins.Loc = g.loc()
		acc(op == OpRgacc)
		ins.Args = []Value{g.value()}
		req()
	case OpWaitReq:
		var open []string
		for _, r := range *reqs {
			if !waited[r] {
				open = append(open, r)
			}
		}
		if len(open) == 0 {
			return &Instr{Op: OpBarrier}
		}
		ins.Req = pick(g, "waitreq", open)
		waited[ins.Req] = true
	case OpFence, OpLockAll:
		win()
		ins.Asserts = g.asserts(op)
	case OpComplete, OpWait, OpUnlockAll, OpFlushAll, OpFlushLocalAll, OpSync, OpFree:
		win()
	case OpPost, OpStart:
		win()
		ins.Group = []int{}
		for r := 0; r < g.n; r++ {
			if r != p && g.coin("ingroup") {
				ins.Group = append(ins.Group, r)
			}
		}
		ins.Asserts = g.asserts(op)
	case OpLock:
		win()
		ins.Target = g.intn(0, g.n-1, "target")
		ins.LockType = LockType(g.intn(0, 1, "locktype"))
		ins.Asserts = g.asserts(op)
		g.callTarget(ins)
	case OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
		win()
		if op == OpSharedQuery {
			dst()
		}
		ins.Target = g.intn(0, g.n-1, "target")
		g.callTarget(ins)
	case OpSend:
		ins.Target = g.other(p)
		if g.coin("sendv") {
			ins.Args = []Value{g.value()}
		}
	case OpRecv:
		ins.Target = g.other(p)
		if g.coin("recvdst") {
			dst()
		}
	case OpMov:
		dst()
		ins.Args = []Value{g.value()}
	case OpAdd, OpSub:
		dst()
		ins.Args = []Value{g.value(), g.value()}
	}
	g.multi(ins)
	if g.coin("guard") {
		ins.Guard = &Guard{Reg: pick(g, "greg", regNames), Eq: g.coin("eq"), Val: g.value()}
	}
	return ins
}

func (g *gen) procs() {
	tst := g.tst
	tst.Rows = g.intn(0, 4, "rows")
	for p := 0; p < g.n; p++ {
		pr := &Proc{}
		var reqs []string
		waited := map[string]bool{}
		for r := 0; r < tst.Rows; r++ {
			var ins *Instr
			if g.coin("nonempty") {
				ins = g.instr(p, &reqs, waited)
			}
			pr.Code = append(pr.Code, ins)
		}
		tst.Procs = append(tst.Procs, pr)
	}
	for p := 0; p < g.n; p++ {
		if g.coin("loop") {
			g.loop(p)
		}
	}
	// Initialise every register read but never written.
	for p, pr := range tst.Procs {
		writes := map[string]bool{}
		for _, ins := range pr.Code {
			if ins != nil && ins.Dst != "" {
				writes[ins.Dst] = true
			}
		}
		for _, ins := range pr.Code {
			if ins == nil {
				continue
			}
			for _, r := range ins.ReadRegs() {
				if !writes[r] {
					writes[r] = true
					tst.Inits = append(tst.Inits, &Init{Reg: &RegRef{Proc: p, Reg: r}, Value: rapid.Int64().Draw(g.t, "rv")})
				}
			}
		}
	}
}

// loop appends a spin loop to process p's column (rows below the table, empty in the
// other columns): an await, or repeat / one or two body instructions / until.
func (g *gen) loop(p int) {
	tst := g.tst
	reg := pick(g, "loopreg", regNames)
	cond := func() *LoopCond {
		c := &LoopCond{Terms: [][]Guard{{{Reg: reg, Eq: g.coin("ueq"), Val: g.value()}}}}
		if g.coin("uterm") {
			c.Terms[0] = append(c.Terms[0], Guard{Reg: reg, Eq: g.coin("ueq2"), Val: g.value()})
		}
		if g.coin("uor") {
			c.Terms = append(c.Terms, []Guard{{Reg: reg, Eq: g.coin("ueq3"), Val: g.value()}})
		}
		return c
	}
	var column []*Instr
	if g.coin("await") {
		in := &Instr{Op: OpAwait, Dst: reg, Loc: g.loc()}
		in.Until = &LoopCond{Terms: [][]Guard{{{Reg: reg, Eq: g.coin("aeq"), Val: g.value()}}}}
		column = []*Instr{in}
	} else {
		body := &Instr{Op: pick(g, "bodyop", []Op{OpLoad, OpGet, OpFop}), Dst: reg, Loc: g.loc()}
		if body.Op == OpFop {
			body.AccOp, body.Args = AccNoOp, []Value{g.value()}
		}
		column = []*Instr{{Op: OpRepeat}, body}
		if g.coin("bodyflush") {
			column = append(column, &Instr{Op: OpFlushAll, Win: pick(g, "win", g.tst.Windows).Name})
		}
		column = append(column, &Instr{Op: OpUntil, Until: cond()})
	}
	for _, in := range column {
		for q, pr := range tst.Procs {
			if q == p {
				pr.Code = append(pr.Code, in)
			} else {
				pr.Code = append(pr.Code, nil)
			}
		}
		tst.Rows++
	}
}

func (g *gen) ref() Ref {
	if g.coin("refreg") {
		return Ref{Reg: &RegRef{Proc: g.intn(0, g.n-1, "rp"), Reg: pick(g, "rr", regNames)}}
	}
	return Ref{Loc: g.loc()}
}

func (g *gen) cond(depth int) Cond {
	k := g.intn(0, 6, "condkind")
	if depth == 0 || k < 2 {
		if k == 0 && g.coin("bool") {
			return &Bool{V: g.coin("bv")}
		}
		return &Atom{Ref: g.ref(), Value: rapid.Int64().Draw(g.t, "cv")}
	}
	switch k {
	case 2:
		return &Not{C: g.cond(depth - 1)}
	case 3:
		return &And{L: g.cond(depth - 1), R: g.cond(depth - 1)}
	case 4:
		return &Or{L: g.cond(depth - 1), R: g.cond(depth - 1)}
	}
	return &Implies{L: g.cond(depth - 1), R: g.cond(depth - 1)}
}

func (g *gen) expects() {
	hws := rapid.Permutation([]string{"", "tso", "sc"}).Draw(g.t, "hws")
	for i := g.intn(0, 3, "nexp"); i > 0; i-- {
		e := &Expect{HW: spec.Relaxed}
		if hws[i-1] != "" {
			e.HW, _ = spec.ParseHW(hws[i-1])
			e.HWSet = true
		}
		for _, p := range presetNames() {
			if !g.coin("preset") {
				continue
			}
			it := ExpectItem{Preset: p, Obs: Obs(g.intn(0, 3, "obs"))}
			switch {
			case it.Obs == ObsErroneous && g.coin("rule"):
				it.Rule, _ = spec.ParseRuleID(pick(g, "ruleid", erroneousRules()))
			case it.Obs != ObsErroneous && g.coin("race"):
				it.RaceChecked = true
				for _, r := range raceRules() {
					if g.coin("race-" + r) {
						id, _ := spec.ParseRuleID(r)
						it.Race = append(it.Race, id)
					}
				}
			}
			e.Items = append(e.Items, it)
		}
		if len(e.Items) == 0 {
			e.Items = []ExpectItem{{Preset: "A", Obs: ObsNever}}
		}
		g.tst.Expects = append(g.tst.Expects, e)
	}
}

func TestGeneratedRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tst := genTest(rt)
		if errs := Validate(tst); len(errs) > 0 {
			rt.Fatalf("generated test refused: %v\n%s", errs, Format(tst))
		}
		out := Format(tst)
		t2, err := Parse("gen.lit", out)
		if err != nil {
			rt.Fatalf("does not parse: %v\n%s", err, out)
		}
		if d := cmp.Diff(tst, t2, astOpts); d != "" {
			rt.Fatalf("AST changed (-generated +parsed):\n%s\n%s", d, out)
		}
		if a, b := commentTexts(testComments(tst)), commentTexts(testComments(t2)); !slices.Equal(a, b) {
			rt.Fatalf("comments changed (generated, parsed):\n%q\n%q\n%s", a, b, out)
		}
		if out2 := Format(t2); !bytes.Equal(out, out2) {
			rt.Fatalf("Format not idempotent:\n%s\n---\n%s", out, out2)
		}
	})
}
