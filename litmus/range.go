package litmus

import (
	"fmt"
	"strconv"
	"strings"
)

// Multi-element operations (docs/language.md#ranges-and-tuples): a range names the target elements of one RMA call (a count, or a derived
// datatype at the target), and a tuple is its origin buffer or its result registers.

// MaxElems is the most elements one call may name (docs/language.md#ranges-and-tuples).
const MaxElems = 8

// parseDisp parses what stands between the brackets of W@rank[...]: a displacement,
// lo..hi, lo..hi by step, or {d0,d1,..}.
func (p *parser) parseDisp(l *Loc) {
	pos := p.tpos()
	if p.tok.kind == tLBrace {
		r := &Range{Pos: pos, ListPos: pos, Indexed: true, List: []int{}, Step: 1}
		p.next()
		for p.tok.kind != tRBrace {
			n, _ := p.intLit("displacement in {d0,d1,..}")
			r.List = append(r.List, n)
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
		p.expect(tRBrace, "to close the displacement list {d0,d1,..}")
		l.Range = r
		return
	}
	lo, _ := p.intLit("displacement")
	if p.tok.kind != tDotDot {
		l.Disp = lo
		return
	}
	p.next()
	r := &Range{Pos: pos, Lo: lo, Step: 1}
	r.Hi, _ = p.intLit("upper end of the range lo..hi")
	if p.isIdent("by") {
		r.StepPos = p.tpos()
		p.next()
		r.StepSet = true
		r.Step, _ = p.intLit("stride after \"by\"")
	}
	l.Range = r
}

// parseOrigin parses an origin buffer: a value, or a tuple (v0,v1,..) of one value
// per element.
func (p *parser) parseOrigin(ins *Instr) {
	if p.tok.kind != tLParen {
		ins.Args = []Value{p.parseValue()}
		return
	}
	ins.ArgTuple = true
	ins.Args = []Value{}
	p.next()
	for p.tok.kind != tRParen {
		ins.Args = append(ins.Args, p.parseValue())
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	p.expect(tRParen, "to close the origin buffer (v0,v1,..)")
}

// parseDsts parses the result registers "(r0,r1,..) =" of a multi-element get or gacc.
func (p *parser) parseDsts(ins *Instr) {
	p.expect(tLParen, "")
	ins.Dsts, ins.DstsPos = []string{}, []Pos{}
	for p.tok.kind != tRParen {
		r, pos := p.name("result register in (r0,r1,..)")
		ins.Dsts = append(ins.Dsts, r)
		ins.DstsPos = append(ins.DstsPos, pos)
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	p.expect(tRParen, "to close the result registers (r0,r1,..)")
	p.expect(tAssign, "after the result registers (r0,r1,..)")
	op, ok := resultOps[p.tok.text]
	if p.tok.kind != tIdent || !ok {
		p.expected("get, gacc, rget or rgacc after (r0,r1,..) =")
	}
	if op != OpGet && op != OpGacc && op != OpRget && op != OpRgacc {
		p.fail("%s takes one result register, not a tuple (only get, gacc, rget and rgacc fetch several elements)", p.tok.text)
	}
	ins.Op = op
	p.next()
	p.parseOperands(ins)
}

// String spells a range as it stands between the brackets.
func (r *Range) String() string {
	if r.Indexed {
		return "{" + intsString(r.List) + "}"
	}
	s := fmt.Sprintf("%d..%d", r.Lo, r.Hi)
	if r.StepSet {
		s += " by " + strconv.Itoa(r.Step)
	}
	return s
}

// Len is the number of elements the range names.
func (r *Range) Len() int { return len(r.Offsets()) }

// Kind names the MPI datatype the range stands for at the target: contiguous,
// vector or indexed.
func (r *Range) Kind() string {
	switch {
	case r.Indexed:
		return "indexed"
	case r.Step > 1:
		return "vector"
	}
	return "contiguous"
}

// RangeOf is the range a location names, through its alias (nil: one element).
func (t *Test) RangeOf(l Loc) *Range {
	if l.Alias != "" {
		if a := t.LookupAlias(l.Alias); a != nil {
			return a.Loc.Range
		}
		return nil
	}
	return l.Range
}

// Elems lists the single-element locations a location names, in typemap order:
// one for a plain location, one per element for a range (its alias resolved).
func (t *Test) Elems(l Loc) []Loc {
	if l.Alias != "" {
		a := t.LookupAlias(l.Alias)
		if a == nil || a.Loc.Range == nil {
			return []Loc{l}
		}
		l = a.Loc
	}
	if l.Range == nil {
		return []Loc{l}
	}
	out := []Loc{}
	for _, d := range l.Range.Offsets() {
		e := l
		e.Range = nil
		e.Disp = l.Disp + d
		out = append(out, e)
	}
	return out
}

// NumElems is the number of elements of an RMA call: its range's length, else 1.
func (t *Test) NumElems(in *Instr) int {
	if in.Loc == nil {
		return 0
	}
	if r := t.RangeOf(*in.Loc); r != nil {
		return r.Len()
	}
	return 1
}

// rangeOps are the calls that take a range (a count or a datatype): MPI_Put, MPI_Get,
// MPI_Accumulate, MPI_Get_accumulate and their request forms. fop and cas move one
// element (MPI: one element of a predefined datatype); load and store are one access.
func rangeOp(op Op) bool {
	switch op {
	case OpPut, OpGet, OpAcc, OpGacc, OpRput, OpRget, OpRacc, OpRgacc:
		return true
	}
	return false
}

// targetWrites: the call updates its target elements, so the target datatype must
// not overlap (MPI-4.1 node337, §12.3.1: "the target datatype ... must not
// specify overlapping entries"; node338 for accumulates).
func targetWrites(in *Instr) bool {
	switch in.Op {
	case OpPut, OpRput, OpAcc, OpRacc:
		return true
	case OpGacc, OpRgacc:
		return in.AccOp != AccNoOp
	}
	return false
}

// checkRange checks a range's own shape at the location that writes it.
func (v *validator) checkRange(l Loc) bool {
	r := l.Range
	name := LocString(l)
	switch {
	case r.Indexed:
	case r.StepSet && r.Step < 1:
		v.errorf(or(r.StepPos, r.Pos), "%s: the stride after \"by\" must be at least 1, found %d", name, r.Step)
		return false
	case r.Hi < r.Lo:
		v.errorf(r.Pos, "%s: the range %d..%d runs backwards (write lo..hi with lo <= hi)", name, r.Lo, r.Hi)
		return false
	case (r.Hi-r.Lo)%r.Step != 0:
		v.errorf(or(r.StepPos, r.Pos), "%s: the span %d..%d is not a multiple of the stride %d (a vector ends on its last element: write %d..%d by %d)",
			name, r.Lo, r.Hi, r.Step, r.Lo, r.Hi-(r.Hi-r.Lo)%r.Step, r.Step)
		return false
	}
	if n := r.Len(); n > MaxElems {
		v.errorf(r.Pos, "%s names %d elements: one call takes at most %d (docs/language.md, Ranges and tuples)", name, n, MaxElems)
		return false
	}
	return true
}

// rangeUse checks a location of an instruction that may name a range: that the
// instruction takes one, that its elements lie in the segment, and that a call
// that writes the target lists no displacement twice.
func (v *validator) rangeUse(ins *Instr) {
	l := *ins.Loc
	r := v.t.RangeOf(l)
	if r == nil {
		return
	}
	if !rangeOp(ins.Op) {
		what := "an alias of a range"
		if l.Alias == "" {
			what = "a range"
		}
		v.errorf(l.Pos, "%s takes one location, found %s %s (ranges are for put, get, acc, gacc and their request forms; fop and cas move one element, MPI-4.1 node340)", ins.Op, what, LocString(l))
		return
	}
	if targetWrites(ins) && r.Indexed {
		seen := map[int]bool{}
		for _, d := range r.List {
			if seen[d] {
				v.errorf(or(r.ListPos, l.Pos), "%s lists displacement %d twice: the target datatype of %s must not overlap (MPI-4.1 node337)", LocString(l), d, ins.Op)
				break
			}
			seen[d] = true
		}
	}
}

// tuples checks the origin buffer and the result registers of an instruction
// against the number of elements it names.
func (v *validator) tuples(ins *Instr) {
	n := 1
	multi := false
	if ins.Loc != nil && rangeOp(ins.Op) {
		if r := v.t.RangeOf(*ins.Loc); r != nil {
			n, multi = r.Len(), true
		}
	}
	if ins.ArgTuple {
		switch {
		case !rangeOp(ins.Op):
			v.errorf(ins.Pos, "%s takes one value, not a tuple (only put, acc, gacc and their request forms have an origin buffer of several elements)", ins.Op)
		case len(ins.Args) != n:
			v.errorf(tuplePos(ins), "%s: the origin buffer has %d values, the location %s names %d %s (one value per element: origin and target datatypes have one type signature, MPI-4.1 node337)",
				ins.Op, len(ins.Args), locStr(ins), n, plural(n, "element"))
		}
	}
	if ins.Dsts != nil {
		switch {
		case !rangeOp(ins.Op):
			v.errorf(ins.Pos, "%s writes one register, not a tuple", ins.Op)
		case len(ins.Dsts) != n:
			v.errorf(dstsPos(ins), "%s: %d result %s for %s, which names %d %s (one register per element: origin and target datatypes have one type signature, MPI-4.1 node337)",
				ins.Op, len(ins.Dsts), plural(len(ins.Dsts), "register"), locStr(ins), n, plural(n, "element"))
		}
		seen := map[string]bool{}
		for k, d := range ins.Dsts {
			pos := ins.Pos
			if k < len(ins.DstsPos) {
				pos = ins.DstsPos[k]
			}
			switch {
			case keywords[d]:
				v.errorf(pos, "register name %q is a keyword", d)
			case v.isAlias(d):
				v.errorf(pos, "register %q has the name of a location alias", d)
			case seen[d]:
				v.errorf(pos, "register %s stands twice in the result tuple: each element needs its own register", d)
			}
			seen[d] = true
		}
	}
	if multi && n != 1 && ins.Dst != "" {
		v.errorf(or(ins.DstPos, ins.Pos), "%s of %s fetches %d elements: write %d result registers (r0,..) instead of %s",
			ins.Op, locStr(ins), n, n, ins.Dst)
	}
}

func tuplePos(ins *Instr) Pos {
	if len(ins.Args) > 0 {
		return or(ins.Args[0].Pos, ins.Pos)
	}
	return ins.Pos
}

func dstsPos(ins *Instr) Pos {
	if len(ins.DstsPos) > 0 {
		return ins.DstsPos[0]
	}
	return ins.Pos
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// tupleString spells an origin buffer or result registers: "(a,b,..)".
func tupleString(xs []string) string { return "(" + strings.Join(xs, ",") + ")" }

// FetchRegs lists the result registers of an instruction, one per element: its
// Dsts, or its Dst.
func (i *Instr) FetchRegs() []string {
	if i.Dsts != nil {
		return i.Dsts
	}
	if i.Dst != "" {
		return []string{i.Dst}
	}
	return nil
}

// rangeInSegment checks that every element of a range lies in rank's segment of w
// (size cells); a window with bytes= takes no ranges.
func (v *validator) rangeInSegment(l Loc, w *Window, size int) bool {
	if !v.checkRange(l) {
		return false
	}
	if _, isBytes := w.SegmentBytes(v.t, l.Rank); isBytes {
		v.errorf(l.Pos, "%s: window %s is declared with bytes=, whose displacements are bytes: a range names cells of a window declared with size=", LocString(l), w.Name)
		return false
	}
	for k, d := range l.Range.Offsets() {
		if d = l.Disp + d; d < 0 || d >= size {
			v.errorf(l.Range.Pos, "%s: element %d (displacement %d) lies outside rank %d's segment of window %s (size %d %s; the target buffer must lie in the target window, MPI-4.1 node337)",
				LocString(l), k, d, l.Rank, w.Name, size, plural(size, "cell"))
			return false
		}
	}
	return true
}

// oneCell refuses a range where a single cell is meant (an initial value, a
// condition, locations), through an alias too.
func (v *validator) oneCell(l Loc, where string) bool {
	if r := v.t.RangeOf(l); r != nil {
		v.errorf(l.Pos, "%s names one cell, found the range %s (name an element: %s@%d[d])", where, LocString(l), v.rangeWin(l), v.rangeRank(l))
		return false
	}
	return true
}

func (v *validator) rangeWin(l Loc) string {
	if a := v.t.LookupAlias(l.Alias); l.Alias != "" && a != nil {
		return a.Loc.Win
	}
	return l.Win
}

func (v *validator) rangeRank(l Loc) int {
	if a := v.t.LookupAlias(l.Alias); l.Alias != "" && a != nil {
		return a.Loc.Rank
	}
	return l.Rank
}
