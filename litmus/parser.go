package litmus

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/rmacheck/rmacheck/spec"
)

// Parse parses and validates one .lit file. The error, when not nil, is an ErrorList
// sorted by position. The *Test is non-nil whenever the syntax parsed, even if
// validation failed; it is nil when the syntax broke.
func Parse(filename string, src []byte) (*Test, error) {
	src = bytes.TrimPrefix(src, utf8BOM) // an editor's byte-order mark is no part of the test
	if i := loneCR(src); i >= 0 {
		lx := newLexer(filename, src[:i], nil)
		return nil, ErrorList{{File: filename, Pos: lx.pos(i),
			Msg: "a line ends with a lone carriage return (CR, old Mac line ends): .lit files end lines with LF or CRLF"}}
	}
	p := &parser{file: filename}
	p.lx = newLexer(filename, src, &p.errs)
	t := p.parseTest()
	if len(p.errs) > 0 && p.hard {
		if p.hardOutside { // the declarations may be wrong: checks of the rest would mislead
			return nil, p.errs.dedupSortCap()
		}
		// every syntax error dropped a cell of the table or a line of the tail: check
		// what parsed too, so one pass shows every error (issue 39), but nothing that
		// may follow from a dropped cell of the same process (a register it wrote)
		return nil, append(p.errs, validate(t, p.dropped)...).dedupSortCap()
	}
	errs := append(p.errs, Validate(t)...)
	if len(errs) == 0 {
		return t, nil
	}
	return t, errs.dedupSortCap()
}

var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// loneCR is the offset of the first CR not followed by LF, or -1.
func loneCR(src []byte) int {
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			return i
		}
	}
	return -1
}

// ParseCondition parses a condition on its own, as replay --outcome takes it:
// `0:r0=0 /\ 1:r0=0`, or herd7's outcome spelling `0:r0=0; 1:r0=0;` (';' between
// atoms is a conjunction, a trailing one is allowed). Positions in errors are 1:COL.
func ParseCondition(s string) (Cond, error) {
	p := &parser{outcome: true}
	p.lx = newLexer("", []byte(s), &p.errs)
	p.t = &Test{}
	p.next()
	var c Cond
	ok := p.protect(func() {
		c = p.parseCond()
		if p.tok.kind != tEOF {
			p.expected(`"/\\", "\\/", "=>" or the end of the condition`)
		}
	})
	if !ok || len(p.errs) > 0 {
		return nil, p.errs.dedupSortCap()
	}
	return c, nil
}

// ParseFile reads a file (ReadFile, at most MaxFileSize bytes) and parses it.
func ParseFile(path string) (*Test, error) {
	src, err := ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// keywords cannot be register, alias, window or request names.
var keywords = map[string]bool{
	"locations": true, "filter": true, "exists": true, "forall": true, "expect": true,
	"null": true, // MPI_PROC_NULL as a target rank (W@null[0], lock W null)
}

func init() {
	for _, n := range opNames {
		keywords[n] = true
	}
	for _, n := range []string{"mov", "add", "sub"} {
		delete(keywords, n)
	}
}

// IsKeyword reports whether a name is reserved by the .lit language.
func IsKeyword(s string) bool { return keywords[s] }

// bailout unwinds the parser to the statement being parsed after an error.
type bailout struct{}

type parser struct {
	file string
	lx   *lexer
	errs ErrorList
	hard bool // a syntax error: the AST is not returned
	// hardOutside: a syntax error outside the table's cells and the tail's lines, which
	// the parser recovers from by dropping that cell or line alone.
	hardOutside bool
	dropped     uint64 // the processes a syntax error dropped a cell of (bit i: P i)
	recovering  bool   // parsing a cell or a tail line: its syntax errors drop it alone
	tok         token
	prevEnd     int // end offset of the previous token
	t           *Test
	nprocs      int
	depth       int // nesting of the condition being parsed
	// outcome: a condition given on its own (ParseCondition), where ';' joins atoms.
	outcome bool

	lines []line    // the lines comments attach to, in source order
	stmt  *Comments // the comments of the init statement just parsed
}

// line is a part of the file that Format prints as one line: the source offsets of its
// first token and of the end of its last, and where its comments go.
type line struct {
	start, end int
	comments   func() *Comments
}

func (p *parser) addLine(start, end int, c func() *Comments) {
	p.lines = append(p.lines, line{start, end, c})
}

func at(c *Comments) func() *Comments { return func() *Comments { return c } }

// attachComments gives each comment to a line: a comment inside a line's span or after
// its end on the same source line trails it; any other comment leads the next line, or
// ends the file when no line follows.
func (p *parser) attachComments() {
	t, ls := p.t, p.lines
	k := 0 // ls[:k] start before the comment
	for _, c := range p.lx.comments {
		for k < len(ls) && ls[k].start < c.off {
			k++
		}
		if k > 0 {
			prev := ls[k-1]
			if c.off < prev.end || p.lx.line(max(prev.end-1, prev.start)) == p.lx.line(c.off) {
				cs := prev.comments()
				cs.Trail = append(cs.Trail, c.Comment)
				continue
			}
		}
		if k < len(ls) {
			cs := ls[k].comments()
			cs.Lead = append(cs.Lead, c.Comment)
			continue
		}
		t.EndComments = append(t.EndComments, c.Comment)
	}
}

func (p *parser) next() {
	p.prevEnd = p.tok.end
	p.tok = p.lx.next()
}

func (p *parser) peek() token {
	save := p.lx.off
	t := p.lx.next()
	p.lx.off = save
	return t
}

func (p *parser) pos(off int) Pos { return p.lx.pos(off) }
func (p *parser) tpos() Pos       { return p.lx.pos(p.tok.off) }

// newLine reports whether the current token starts on a later line than the previous one ended.
func (p *parser) newLine() bool {
	return p.tok.kind == tEOF || p.lx.line(p.tok.off) > p.lx.line(max(p.prevEnd-1, 0))
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.hard = true
	p.hardOutside = p.hardOutside || !p.recovering
	p.errs.Add(p.file, pos, format, args...)
}

// recover parses a cell or a tail line with f, its syntax errors dropping it alone
// (protect); it reports whether f completed.
func (p *parser) recover(f func()) bool {
	was := p.recovering
	p.recovering = true
	defer func() { p.recovering = was }()
	return p.protect(f)
}

// softf reports an error that leaves the AST usable.
func (p *parser) softf(pos Pos, format string, args ...any) {
	p.errs.Add(p.file, pos, format, args...)
}

// fail reports an error at the current token and unwinds to the statement.
func (p *parser) fail(format string, args ...any) {
	p.errorf(p.tpos(), format, args...)
	panic(bailout{})
}

func (p *parser) expected(what string) {
	p.fail("expected %s, found %s", what, p.tok.describe())
}

// protect runs f, catching a bailout; it reports whether f completed.
func (p *parser) protect(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(bailout); !is {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) isIdent(s string) bool { return p.tok.kind == tIdent && p.tok.text == s }

func (p *parser) expect(k tokKind, context string) token {
	if p.tok.kind != k {
		if context != "" {
			p.expected(fmt.Sprintf("%q %s", tokText[k], context))
		}
		p.expected(fmt.Sprintf("%q", tokText[k]))
	}
	t := p.tok
	p.next()
	return t
}

// name parses an identifier that is not a keyword.
func (p *parser) name(what string) (string, Pos) {
	if p.tok.kind != tIdent {
		p.expected(what)
	}
	if keywords[p.tok.text] {
		p.fail("expected %s, found keyword %q", what, p.tok.text)
	}
	s, pos := p.tok.text, p.tpos()
	p.next()
	return s, pos
}

// int64Lit parses an optionally negative integer literal.
func (p *parser) int64Lit(what string) (int64, Pos) {
	pos := p.tpos()
	neg := false
	if p.tok.kind == tMinus {
		neg = true
		p.next()
	}
	if p.tok.kind != tInt {
		p.expected(what)
	}
	text := p.tok.text
	if neg {
		text = "-" + text
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.fail("integer %s out of range", text)
	}
	p.next()
	return v, pos
}

func (p *parser) intLit(what string) (int, Pos) {
	v, pos := p.int64Lit(what)
	if v > 1<<31-1 || v < -(1<<31) {
		p.errorf(pos, "%s %d out of range", what, v)
		panic(bailout{})
	}
	return int(v), pos
}

// isStop reports whether the token ends the process table.
func (p *parser) isStop() bool {
	switch {
	case p.tok.kind == tEOF, p.tok.kind == tTilde:
		return true
	case p.tok.kind == tIdent:
		switch p.tok.text {
		case "locations", "filter", "exists", "forall", "expect":
			return true
		}
	}
	return false
}

func (p *parser) parseTest() *Test {
	t := &Test{File: p.file}
	p.t = t
	p.next()
	p.protect(p.parseHeader)
	// Skip to the init block if the header broke.
	for p.tok.kind != tLBrace && p.tok.kind != tEOF && p.hard {
		p.next()
	}
	p.parseInit()
	p.parseTable()
	p.parseTail()
	p.attachComments()
	return t
}

func (p *parser) parseHeader() {
	t := p.t
	if !p.isIdent("MPI") {
		p.expected(`header "MPI NAME"`)
	}
	src := p.lx.src
	off := p.tok.end
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	n := 0
	for off+n < len(src) && isWordChar(src[off+n]) {
		n++
	}
	if n == 0 {
		p.lx.off = off
		p.next()
		p.expected(`test name after "MPI"`)
	}
	t.Name = string(src[off : off+n])
	t.NamePos = p.pos(off)
	p.addLine(p.tok.off, off+n, at(&t.HeaderComments))
	p.lx.off = off + n
	p.next()
	if p.tok.kind == tString {
		t.Doc, t.HasDoc = p.tok.text, true
		p.addLine(p.tok.off, p.tok.end, at(&t.DocComments))
		p.next()
	}
	for p.tok.kind == tIdent && p.tok.end < len(src) && src[p.tok.end] == '=' {
		end := p.lx.lineEnd(p.tok.end)
		val := strings.TrimSpace(string(src[p.tok.end+1 : end]))
		t.Meta = append(t.Meta, Meta{Pos: p.tpos(), Key: p.tok.text, Value: val})
		i := len(t.Meta) - 1
		p.addLine(p.tok.off, end, func() *Comments { return &t.Meta[i].Comments })
		p.lx.off = end
		p.next()
	}
}

// ---- init block ----

func (p *parser) parseInit() {
	if p.tok.kind != tLBrace {
		p.errorf(p.tpos(), `expected "{" to open the init block, found %s`, p.tok.describe())
		// Go on with the table.
		for !p.isStop() && !p.isIdent("P0") {
			p.next()
		}
		return
	}
	t := p.t
	p.addLine(p.tok.off, p.tok.end, at(&t.OpenComments))
	p.next()
	for p.tok.kind != tRBrace && p.tok.kind != tEOF {
		if p.isStop() || p.tok.kind == tBar {
			break
		}
		start := p.tok.off
		p.stmt = nil
		if !p.protect(p.parseInitStmt) {
			p.skipStmt()
		}
		if p.stmt != nil {
			p.addLine(start, max(p.prevEnd, start+1), at(p.stmt))
		}
	}
	if p.tok.kind != tRBrace {
		p.errorf(p.tpos(), `expected "}" to close the init block, found %s`, p.tok.describe())
		return
	}
	p.addLine(p.tok.off, p.tok.end, at(&t.CloseComments))
	p.next()
}

// skipStmt skips to the end of a broken init statement.
func (p *parser) skipStmt() {
	for p.tok.kind != tEOF && p.tok.kind != tRBrace {
		if p.tok.kind == tSemi {
			p.next()
			return
		}
		p.next()
	}
}

// endStmt expects the ";" of an init statement; on a new line it reports and goes on.
func (p *parser) endStmt(what string) {
	if p.tok.kind == tSemi {
		p.next()
		return
	}
	if p.newLine() || p.tok.kind == tRBrace {
		p.softf(p.tpos(), `expected ";" after %s, found %s`, what, p.tok.describe())
		return
	}
	p.expected(fmt.Sprintf(`";" after %s`, what))
}

func (p *parser) parseInitStmt() {
	t := p.t
	switch {
	case p.isIdent("win"):
		w := p.parseWin()
		t.Windows = append(t.Windows, w)
		p.stmt = &w.Comments
		p.endStmt("window declaration")
	case p.tok.kind == tIdent:
		if p.peek().kind == tAt {
			l := p.parseLoc()
			p.expect(tAssign, "after location in initial value")
			v, _ := p.int64Lit("initial value (an integer)")
			in := &Init{Pos: l.Pos, Loc: &l, Value: v}
			t.Inits = append(t.Inits, in)
			p.stmt = &in.Comments
			p.endStmt("initial value")
			return
		}
		name, pos := p.name("alias or location name")
		p.expect(tAssign, "after "+strconv.Quote(name))
		if p.tok.kind == tInt || p.tok.kind == tMinus {
			v, _ := p.int64Lit("initial value")
			in := &Init{Pos: pos, Loc: &Loc{Pos: pos, Alias: name}, Value: v}
			t.Inits = append(t.Inits, in)
			p.stmt = &in.Comments
			p.endStmt("initial value")
			return
		}
		if p.tok.kind != tIdent || p.peek().kind != tAt {
			p.expected(`a location W@rank[disp] or an integer`)
		}
		l := p.parseLoc()
		a := &Alias{Pos: pos, Name: name, Loc: l}
		if p.tok.kind == tColon {
			p.next()
			a.Type = p.parseType()
		}
		t.Aliases = append(t.Aliases, a)
		p.stmt = &a.Comments
		p.endStmt("alias")
	case p.tok.kind == tInt:
		r := p.parseRegRef()
		p.expect(tAssign, "after register in initial value")
		v, _ := p.int64Lit("initial value (an integer)")
		in := &Init{Pos: r.Pos, Reg: r, Value: v}
		t.Inits = append(t.Inits, in)
		p.stmt = &in.Comments
		p.endStmt("initial value")
	default:
		p.expected(`"win", an alias "x = W@r[d]" or an initial value`)
	}
}

var typeList = strings.Join(typeNames[1:], ", ")

func (p *parser) parseType() Type {
	name, pos := p.name("type")
	ty, ok := TypeByName(name)
	if !ok {
		p.softf(pos, "unknown type %q (types: %s)", name, typeList)
	}
	return ty
}

func (p *parser) parseRegRef() *RegRef {
	pos := p.tpos()
	n, _ := p.intLit("rank")
	p.expect(tColon, "between rank and register (P:reg)")
	reg, _ := p.name("register name")
	return &RegRef{Pos: pos, Proc: n, Reg: reg}
}

// locAhead reports whether the "@" at the current token starts "@rank" (not a request
// "@q"): a rank literal, or a rank register or null followed by "[" (parse_target.go).
func (p *parser) locAhead() bool {
	k := p.peek().kind
	return k == tInt || k == tMinus || k == tIdent && p.peek2().kind == tLBrack
}

// parseLoc parses an alias name or W@rank[disp]. "x @q" (a request handle) is the alias x.
func (p *parser) parseLoc() Loc {
	name, pos := p.name("location (alias or W@rank[disp])")
	if p.tok.kind != tAt || !p.locAhead() {
		return Loc{Pos: pos, Alias: name}
	}
	p.next()
	l := Loc{Pos: pos, Win: name}
	p.parseLocRank(&l)
	p.expect(tLBrack, "after rank in W@rank[disp]")
	if p.tok.kind == tIdent {
		p.parseLocDisp(&l) // a register (parse_target.go)
	} else {
		p.parseDisp(&l) // a literal or a range (range.go)
	}
	p.expect(tRBrack, "after displacement in W@rank[disp]")
	return l
}

func (p *parser) intList(what string) []int {
	p.expect(tLBrack, "")
	var l []int
	for p.tok.kind != tRBrack {
		n, _ := p.intLit(what)
		l = append(l, n)
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	p.expect(tRBrack, "to close the list")
	if l == nil {
		l = []int{}
	}
	return l
}

func flavorByName(s string) (Flavor, bool) {
	for i, n := range flavorNames {
		if n == s {
			return Flavor(i), true
		}
	}
	return 0, false
}

var windowKeys = map[string]bool{"size": true, "bytes": true, "type": true, "disp_unit": true,
	"model": true, "ranks": true, "over": true}

func init() {
	for _, k := range InfoKeys {
		windowKeys[k] = true
	}
}

func (p *parser) parseWin() *Window {
	w := &Window{Pos: p.tpos()}
	p.next()
	w.Name, _ = p.name("window name")
	if p.tok.kind != tIdent {
		p.expected("window flavor (create, allocate, allocate_shared or dynamic)")
	}
	f, ok := flavorByName(p.tok.text)
	if !ok {
		p.fail("unknown window flavor %q (flavors: create, allocate, allocate_shared, dynamic)", p.tok.text)
	}
	w.Flavor = f
	p.next()
	seen := map[string]bool{}
	for p.tok.kind == tIdent {
		if p.newLine() && !windowKeys[p.tok.text] {
			break // a missing ";": the next statement starts here
		}
		key, kpos := p.tok.text, p.tpos()
		p.next()
		p.expect(tAssign, "after window key "+strconv.Quote(key))
		if seen[key] {
			p.softf(kpos, "duplicate key %q in window %s", key, w.Name)
		}
		seen[key] = true
		switch key {
		case "size":
			w.SizePos = kpos
			if p.tok.kind == tLBrack {
				w.Size, w.SizeList = p.intList("size"), true
			} else {
				n, _ := p.intLit("size (an integer or [n0,n1,..])")
				w.Size, w.SizeList = []int{n}, false
			}
		case "bytes":
			w.BytesPos = kpos
			w.Bytes = p.intList("byte size")
		case "type":
			w.TypePos = kpos
			w.Type = p.parseType()
		case "disp_unit":
			w.DispUnitPos = kpos
			w.DispUnit, _ = p.intLit("disp_unit (an integer)")
		case "model":
			w.ModelPos = kpos
			if p.tok.kind != tIdent || (p.tok.text != "unified" && p.tok.text != "separate") {
				p.expected("model unified or separate")
			}
			w.Model, w.ModelSet = Unified, true
			if p.tok.text == "separate" {
				w.Model = Separate
			}
			p.next()
		case "ranks":
			w.RanksPos = kpos
			var rs []int
			for {
				n, _ := p.intLit("rank")
				rs = append(rs, n)
				if p.tok.kind != tComma {
					break
				}
				p.next()
			}
			w.Ranks = rs
		case "over":
			w.OverPos = p.tpos()
			w.Over, _ = p.name("window name after over=")
		default:
			vpos := p.tpos()
			var val string
			switch p.tok.kind {
			case tString:
				val = strings.Join(strings.Fields(p.tok.text), "")
				p.next()
			case tIdent, tInt:
				val = p.tok.text
				p.next()
				for p.tok.kind == tComma { // unquoted list: accumulate_ordering=rar,raw
					p.next()
					if p.tok.kind != tIdent {
						p.expected("list item")
					}
					val += "," + p.tok.text
					p.next()
				}
			case tMinus:
				v, _ := p.int64Lit("value")
				val = strconv.FormatInt(v, 10)
			default:
				p.expected(fmt.Sprintf("value for info key %q", key))
			}
			w.Info = append(w.Info, Info{Pos: kpos, Key: key, Value: val})
			_ = vpos
		}
	}
	return w
}

// ---- process table ----

func (p *parser) parseTable() {
	t := p.t
	if !(p.tok.kind == tIdent && strings.HasPrefix(p.tok.text, "P")) {
		if p.hard && p.tok.kind == tEOF {
			return
		}
		p.errorf(p.tpos(), `expected process table header "P0 | P1 ... ;", found %s`, p.tok.describe())
		for !p.isStop() {
			p.next()
		}
		return
	}
	start := p.tok.off
	for {
		if p.tok.kind != tIdent || !strings.HasPrefix(p.tok.text, "P") {
			p.errorf(p.tpos(), `expected process name "P%d", found %s`, len(t.Procs), p.tok.describe())
			break
		}
		want := fmt.Sprintf("P%d", len(t.Procs))
		if p.tok.text != want {
			p.softf(p.tpos(), "expected process name %q (columns are P0, P1, ... in order), found %q", want, p.tok.text)
		}
		t.Procs = append(t.Procs, &Proc{Pos: p.tpos()})
		p.next()
		if p.tok.kind == tBar {
			p.next()
			continue
		}
		if p.tok.kind == tSemi {
			p.next()
		} else {
			p.errorf(p.tpos(), `expected "|" or ";" in the process table header, found %s`, p.tok.describe())
		}
		break
	}
	p.nprocs = len(t.Procs)
	p.addLine(start, max(p.prevEnd, start+1), p.rowComments(0))
	for !p.isStop() {
		start := p.tok.off
		p.parseRow()
		p.addLine(start, max(p.prevEnd, start+1), p.rowComments(t.Rows))
	}
}

// rowComments finds the comments of table row r (0: the header row), making room for them.
func (p *parser) rowComments(r int) func() *Comments {
	t := p.t
	return func() *Comments {
		for len(t.RowComments) <= r {
			t.RowComments = append(t.RowComments, Comments{})
		}
		return &t.RowComments[r]
	}
}

func (p *parser) parseRow() {
	t := p.t
	n := len(t.Procs)
	rowPos := p.tpos()
	nerr := len(p.errs)
	var cells []*Instr
	for {
		var ins *Instr
		if p.tok.kind != tBar && p.tok.kind != tSemi {
			startLine := p.lx.line(p.tok.off)
			ok := p.recover(func() { ins = p.parseInstr(len(cells)) })
			if !ok {
				ins = nil
				p.dropped |= 1 << uint(len(cells)%64)
				for p.tok.kind != tBar && p.tok.kind != tSemi && p.tok.kind != tEOF &&
					p.lx.line(p.tok.off) == startLine {
					p.next()
				}
				if p.tok.kind != tBar && p.tok.kind != tSemi {
					cells = append(cells, nil)
					break // the row ended with its line
				}
			}
		}
		cells = append(cells, ins)
		if p.tok.kind == tBar {
			p.next()
			continue
		}
		if p.tok.kind == tSemi {
			p.next()
			break
		}
		report := func(pos Pos, format string, args ...any) {
			p.dropped = ^uint64(0) // cells may be in the wrong columns: no process is whole
			was := p.recovering
			p.recovering = true
			p.errorf(pos, format, args...)
			p.recovering = was
		}
		if p.newLine() || p.isStop() {
			// the row simply ended with its line: the AST is whole, and the error is
			// where the ";" is missing, not on the next line
			p.softf(p.pos(p.prevEnd), `expected ";" at the end of the row (each row of the table ends with ";")`)
			break
		}
		if len(cells) >= n {
			report(p.tpos(), `expected ";" after instruction, found %s`, p.tok.describe())
		} else {
			report(p.tpos(), `expected "|" or ";" after instruction, found %s`, p.tok.describe())
		}
		if p.newLine() || p.isStop() {
			break
		}
		for p.tok.kind != tBar && p.tok.kind != tSemi && p.tok.kind != tEOF && !p.newLine() {
			p.next()
		}
		if p.tok.kind == tBar {
			p.next()
			continue
		}
		if p.tok.kind == tSemi {
			p.next()
		}
		break
	}
	if t.Rows == MaxRows {
		p.softf(rowPos, "row %d: rmacheck models at most %d rows (empty cells count)", t.Rows+1, MaxRows)
	}
	if len(cells) != n && len(p.errs) == nerr {
		p.softf(rowPos, "row %d has %d columns, expected %d (one per process P0..P%d)", t.Rows+1, len(cells), n, n-1)
	}
	for i, pr := range t.Procs {
		var c *Instr
		if i < len(cells) {
			c = cells[i]
		}
		pr.Code = append(pr.Code, c)
	}
	t.Rows++
}

func (p *parser) parseValue() Value {
	pos := p.tpos()
	switch p.tok.kind {
	case tInt, tMinus:
		v, _ := p.int64Lit("value")
		return Value{Pos: pos, Imm: v}
	case tIdent:
		if keywords[p.tok.text] {
			p.fail("expected a value (integer or register), found keyword %q", p.tok.text)
		}
		r := p.tok.text
		p.next()
		return Value{Pos: pos, Reg: r}
	}
	p.expected("a value (integer or register)")
	return Value{}
}

var accOpList = strings.Join(accOpNames[1:], ", ")

func (p *parser) parseAccOp() AccOp {
	if p.tok.kind != tIdent {
		p.expected("accumulate op (" + accOpList + ")")
	}
	op, ok := AccOpByName(p.tok.text)
	if !ok {
		p.fail("unknown accumulate op %q (ops: %s)", p.tok.text, accOpList)
	}
	p.next()
	return op
}

func (p *parser) parseWinName(ins *Instr) {
	ins.WinPos = p.tpos()
	ins.Win, _ = p.name("window name")
}

func (p *parser) parseTarget(ins *Instr, what string) {
	ins.TargetPos = p.tpos()
	ins.Target, _ = p.intLit(what)
}

func (p *parser) parseReq(ins *Instr) {
	p.expect(tAt, "before the request handle (@q)")
	ins.ReqPos = p.tpos()
	ins.Req, _ = p.name("request handle")
}

func (p *parser) parseGroup(ins *Instr) {
	ins.GroupPos = p.tpos()
	p.expect(tLBrace, "to open the group {r,..}")
	g := []int{}
	for p.tok.kind != tRBrace {
		n, _ := p.intLit("rank in group")
		g = append(g, n)
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	p.expect(tRBrace, "to close the group")
	ins.Group = g
}

// resultOps are the instructions of the form "r = OP ...".
var resultOps = map[string]Op{
	"load": OpLoad, "get": OpGet, "gacc": OpGacc, "fop": OpFop, "cas": OpCas, "rget": OpRget,
	"rgacc": OpRgacc, "shared_query": OpSharedQuery, "recv": OpRecv, "await": OpAwait,
	"attach": OpAttach, "test": OpTest, "testreq": OpTestReq,
}

func (p *parser) parseInstr(col int) *Instr {
	var g *Guard
	if p.tok.kind == tLBrack {
		g = &Guard{Pos: p.tpos()}
		p.next()
		g.Reg, _ = p.name("register in predicate")
		switch p.tok.kind {
		case tNe:
		case tEq:
			g.Eq = true
		default:
			p.expected(`"!=" or "==" in predicate`)
		}
		p.next()
		g.Val = p.parseValue()
		p.expect(tRBrack, "to close the predicate")
	}
	ins := &Instr{Pos: p.tpos(), Guard: g}
	startLine := p.lx.line(p.tok.off)
	if p.tok.kind == tLParen {
		p.parseDsts(ins) // (r0,r1,..) = get ...
	} else if p.tok.kind != tIdent {
		p.expected("an instruction")
	} else if !keywords[p.tok.text] && p.peek().kind == tAssign {
		ins.Dst, ins.DstPos = p.tok.text, p.tpos()
		p.next()
		p.next()
		if p.tok.kind == tIdent && keywords[p.tok.text] {
			op, ok := resultOps[p.tok.text]
			if !ok {
				p.fail("%s produces no value (after \"r =\" expected load, get, gacc, fop, cas, rget, rgacc, shared_query, recv, await, attach, test, testreq or a value)", p.tok.text)
			}
			ins.Op = op
			p.next()
			p.parseOperands(ins)
		} else {
			v := p.parseValue()
			ins.Op, ins.Args = OpMov, []Value{v}
			if p.tok.kind == tPlus || p.tok.kind == tMinus {
				ins.Op = OpAdd
				if p.tok.kind == tMinus {
					ins.Op = OpSub
				}
				p.next()
				ins.Args = append(ins.Args, p.parseValue())
			}
		}
	} else {
		word := p.tok.text
		op, ok := opByName[word]
		if !ok || op == OpMov || op == OpAdd || op == OpSub {
			if lit, ok := mpiNames[strings.ToLower(word)]; ok {
				p.fail("unknown instruction %q: %s is written %s", word, word, lit)
			}
			p.fail("unknown instruction %q", word)
		}
		if _, res := resultOps[word]; res && op != OpRecv {
			p.fail("%s needs a result register: write \"r = %s ...\"", word, word)
		}
		ins.Op = op
		p.next()
		p.parseOperands(ins)
	}
	for p.tok.kind == tIdent && !keywords[p.tok.text] && p.lx.line(p.tok.off) == startLine {
		ins.Asserts = append(ins.Asserts, Assert{Pos: p.tpos(), Name: p.tok.text})
		p.next()
	}
	return ins
}

var opByName = map[string]Op{}

func init() {
	for i, n := range opNames {
		opByName[n] = Op(i)
	}
}

// parseOperands parses what follows the op name.
func (p *parser) parseOperands(ins *Instr) {
	loc := func() {
		l := p.parseLoc()
		ins.Loc = &l
	}
	switch ins.Op {
	case OpStore:
		loc()
		ins.Args = []Value{p.parseValue()}
	case OpPut:
		loc()
		p.parseOrigin(ins)
	case OpLoad, OpGet:
		loc()
	case OpFop:
		loc()
		ins.AccOp = p.parseAccOp()
		ins.Args = []Value{p.parseValue()}
	case OpAcc, OpGacc:
		loc()
		ins.AccOp = p.parseAccOp()
		p.parseOrigin(ins)
	case OpCas:
		loc()
		a := p.parseValue()
		b := p.parseValue()
		ins.Args = []Value{a, b}
	case OpRput:
		loc()
		p.parseOrigin(ins)
		p.parseReq(ins)
	case OpRget:
		loc()
		p.parseReq(ins)
	case OpRacc, OpRgacc:
		loc()
		ins.AccOp = p.parseAccOp()
		p.parseOrigin(ins)
		p.parseReq(ins)
	case OpWaitReq, OpTestReq:
		ins.ReqPos = p.tpos()
		ins.Req, _ = p.name("request handle")
	case OpTest:
		p.parseWinName(ins)
	case OpAttach, OpDetach: // r = attach W N, detach W r
		p.parseWinName(ins)
		ins.Args = []Value{p.parseValue()}
	case OpFence, OpComplete, OpWait, OpLockAll, OpUnlockAll, OpFlushAll, OpFlushLocalAll, OpSync, OpFree:
		p.parseWinName(ins)
	case OpPost, OpStart:
		p.parseWinName(ins)
		p.parseGroup(ins)
	case OpLock:
		p.parseWinName(ins)
		p.parseRMATarget(ins)
		switch {
		case p.isIdent("excl"):
			ins.LockType = LockExclusive
		case p.isIdent("shared"):
			ins.LockType = LockShared
		case ins.TargetNull:
			ins.LockType = LockShared // lock W null: the type matters to no process
			return
		default:
			p.expected("lock type excl or shared")
		}
		p.next()
	case OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
		p.parseWinName(ins)
		p.parseRMATarget(ins)
	case OpBarrier:
	case OpSend:
		p.parseTarget(ins, "destination rank")
		if !p.newLine() && (p.tok.kind == tInt || p.tok.kind == tMinus ||
			p.tok.kind == tIdent && !keywords[p.tok.text]) {
			ins.Args = []Value{p.parseValue()}
		}
	case OpRecv:
		p.parseTarget(ins, "source rank")
	case OpRepeat:
	case OpUntil:
		ins.Until = p.parseLoopCond()
	case OpAwait:
		loc()
		g := Guard{Pos: p.tpos(), Reg: ins.Dst}
		switch p.tok.kind {
		case tEq:
			g.Eq = true
		case tNe:
		default:
			p.expected(`"==" or "!=" after the location of await`)
		}
		p.next()
		g.Val = p.parseValue()
		ins.Until = &LoopCond{Pos: g.Pos, Terms: [][]Guard{{g}}}
	}
}

// parseLoopCond reads an until condition: r == V and r != V joined by /\ and \/.
func (p *parser) parseLoopCond() *LoopCond {
	c := &LoopCond{Pos: p.tpos()}
	for {
		var term []Guard
		for {
			g := Guard{Pos: p.tpos()}
			if p.tok.kind == tLParen {
				p.fail("an until condition takes no parentheses: r == V and r != V joined by /\\ (binding tighter) and \\/")
			}
			g.Reg, _ = p.name("register in the until condition (until r == V)")
			switch p.tok.kind {
			case tEq:
				g.Eq = true
			case tNe:
			case tAssign:
				p.fail("until compares with ==, not =: write until %s == ...", g.Reg)
			default:
				p.expected(`"==" or "!=" in the until condition`)
			}
			p.next()
			g.Val = p.parseValue()
			term = append(term, g)
			if p.tok.kind != tAnd {
				break
			}
			p.next()
		}
		c.Terms = append(c.Terms, term)
		if p.tok.kind != tOr {
			return c
		}
		p.next()
	}
}

// ---- locations, filter, condition, expect ----

func (p *parser) skipToSection() {
	for {
		p.next()
		if p.tok.kind == tEOF || p.tok.kind == tTilde && p.newLine() {
			return
		}
		if p.tok.kind == tIdent && p.newLine() {
			switch p.tok.text {
			case "locations", "filter", "exists", "forall", "expect":
				return
			}
		}
	}
}

func (p *parser) parseTail() {
	t := p.t
	if p.isIdent("locations") {
		start := p.tok.off
		if !p.recover(p.parseLocations) {
			p.skipToSection()
		}
		p.addLine(start, max(p.prevEnd, start+1), at(&t.LocsComments))
	}
	if p.isIdent("filter") {
		start := p.tok.off
		if !p.recover(func() {
			p.next()
			t.Filter = p.parseCond()
		}) {
			p.skipToSection()
		}
		p.addLine(start, max(p.prevEnd, start+1), at(&t.FilterComments))
	}
	qoff := p.tok.off // of "exists", "forall" or the "~" of "~exists"
	switch {
	case p.isIdent("exists"):
		t.Quant, t.QuantPos = Exists, p.tpos()
	case p.isIdent("forall"):
		t.Quant, t.QuantPos = Forall, p.tpos()
	case p.tok.kind == tTilde && p.peek().kind == tIdent && p.peek().text == "exists":
		t.Quant, t.QuantPos = NotExists, p.tpos()
		p.next()
	default:
		if !p.hard || p.tok.kind != tEOF {
			p.errorf(p.tpos(), `expected final condition "exists", "~exists" or "forall", found %s`, p.tok.describe())
		}
		if p.tok.kind != tEOF && !p.isIdent("expect") {
			p.skipToSection()
		}
	}
	if t.QuantPos.IsValid() {
		if !p.recover(func() {
			p.next()
			t.Cond = p.parseCond()
		}) {
			t.Cond = &Bool{Pos: t.QuantPos, V: true} // there is one, unreadable: not missing too
			p.skipToSection()
		}
		p.addLine(qoff, max(p.prevEnd, qoff+1), at(&t.CondComments))
	}
	for p.isIdent("expect") {
		start := p.tok.off
		n := len(t.Expects)
		if !p.recover(p.parseExpect) {
			t.Expects = t.Expects[:n] // unreadable: not checked as if it listed nothing
			p.skipToSection()
		}
		if len(t.Expects) > n {
			p.addLine(start, max(p.prevEnd, start+1), at(&t.Expects[n].Comments))
		}
	}
	if p.tok.kind != tEOF {
		p.errorf(p.tpos(), `expected "expect" or end of file, found %s`, p.tok.describe())
	}
}

func (p *parser) parseLocations() {
	t := p.t
	t.HasLocs = true
	p.next()
	p.expect(tLBrack, `after "locations"`)
	for p.tok.kind != tRBrack {
		r := p.parseRef()
		t.Locations = append(t.Locations, &r)
		if p.tok.kind != tSemi {
			break
		}
		p.next()
	}
	p.expect(tRBrack, "to close the locations list")
	if p.tok.kind == tSemi {
		p.next()
	}
}

func (p *parser) parseRef() Ref {
	if p.tok.kind == tInt {
		return Ref{Reg: p.parseRegRef()}
	}
	if p.tok.kind != tIdent {
		p.expected("a register P:reg or a location")
	}
	l := p.parseLoc()
	return Ref{Loc: &l}
}

// maxDepth bounds the nesting of conditions, so no input exhausts the stack.
const maxDepth = 200

func (p *parser) parseCond() Cond {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.fail("condition nested deeper than %d levels", maxDepth)
	}
	l := p.parseOr()
	if p.tok.kind == tImplies {
		p.next()
		return &Implies{L: l, R: p.parseCond()}
	}
	return l
}

func (p *parser) parseOr() Cond {
	l := p.parseAnd()
	for p.tok.kind == tOr {
		p.next()
		l = &Or{L: l, R: p.parseAnd()}
	}
	return l
}

func (p *parser) parseAnd() Cond {
	l := p.parseNot()
	for p.tok.kind == tAnd || (p.outcome && p.tok.kind == tSemi) {
		p.next()
		if p.outcome && p.tok.kind == tEOF {
			break // herd7's outcome lines end with ';'
		}
		l = &And{L: l, R: p.parseNot()}
	}
	return l
}

func (p *parser) parseNot() Cond {
	if p.tok.kind == tTilde {
		pos := p.tpos()
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			p.fail("condition nested deeper than %d levels", maxDepth)
		}
		return &Not{Pos: pos, C: p.parseNot()}
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() Cond {
	switch {
	case p.tok.kind == tLParen:
		p.next()
		c := p.parseCond()
		p.expect(tRParen, "to close the parenthesis")
		return c
	case p.isIdent("true") || p.isIdent("false"):
		b := &Bool{Pos: p.tpos(), V: p.tok.text == "true"}
		p.next()
		return b
	case p.tok.kind == tIdent && procName(p.tok.text) && p.peek().kind == tColon:
		name, pos := p.tok.text, p.tpos()
		p.next()
		p.next()
		reg := p.tok.text
		p.errorf(pos, "a register is named by its rank, not its column: write %s:%s, not %s:%s", name[1:], reg, name, reg)
		panic(bailout{})
	case p.tok.kind == tInt || p.tok.kind == tIdent:
		pos := p.tpos()
		r := p.parseRef()
		p.expect(tAssign, "in condition atom")
		if p.tok.kind == tIdent || (p.tok.kind == tInt && p.peek().kind == tColon) {
			other := p.parseRef() // P:reg=Q:reg, LOC=P:reg: two items compared
			return &Atom{Pos: pos, Ref: r, Other: &other}
		}
		v, _ := p.int64Lit("value (an integer) in condition")
		return &Atom{Pos: pos, Ref: r, Value: v}
	}
	p.expected(`condition (P:reg=V, LOC=V, "~", "(", true or false)`)
	return nil
}

// mpiNames maps MPI's C names (lower case) to the instructions that stand for them,
// for a newcomer who writes the call as in C (docs/language.md#instructions).
var mpiNames = map[string]string{
	"mpi_put": "put", "mpi_get": "get", "mpi_accumulate": "acc", "mpi_get_accumulate": "gacc",
	"mpi_fetch_and_op": "fop", "mpi_compare_and_swap": "cas", "mpi_rput": "rput", "mpi_rget": "rget",
	"mpi_raccumulate": "racc", "mpi_rget_accumulate": "rgacc", "mpi_wait": "waitreq",
	"mpi_win_fence": "fence", "mpi_win_post": "post", "mpi_win_start": "start", "mpi_win_complete": "complete",
	"mpi_win_wait": "wait", "mpi_win_lock": "lock", "mpi_win_unlock": "unlock",
	"mpi_win_lock_all": "lock_all", "mpi_win_unlock_all": "unlock_all", "mpi_win_flush": "flush",
	"mpi_win_flush_all": "flush_all", "mpi_win_flush_local": "flush_local", "mpi_win_flush_local_all": "flush_local_all",
	"mpi_win_sync": "sync", "mpi_win_shared_query": "shared_query", "mpi_barrier": "barrier", "mpi_send": "send",
	"mpi_recv": "recv", "mpi_win_free": "free",
}

// procName: P followed by digits, a column header.
func procName(s string) bool {
	if len(s) < 2 || s[0] != 'P' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

func (p *parser) word(what string) (string, Pos) {
	p.tok = p.lx.scanWord(p.tok.off)
	if p.tok.kind != tWord {
		p.expected(what)
	}
	s, pos := p.tok.text, p.tpos()
	p.next()
	return s, pos
}

// raceRules reads the race-class part of an expect item, "+RACE+U2" or "+none": one
// word (words may hold '+'), split at each '+'.
func (p *parser) raceRules(it *ExpectItem) {
	w, pos := p.word("race-class rules after the observation (+RACE, +U2, +U3 or +none)")
	it.RaceChecked = true
	col := pos.Col
	for i, rule := range strings.Split(w, "+") {
		if i == 0 {
			col++ // the leading '+'
			continue
		}
		if rule == "" {
			p.errorf(Pos{Line: pos.Line, Col: col}, "expected a race-class rule (RACE, U2, U3) or none after +")
		}
		if rule == "none" {
			if w != "+none" {
				p.errorf(Pos{Line: pos.Line, Col: col}, "+none stands alone: it means no race-class rule at all")
			}
		} else if id, ok := spec.ParseRuleID(rule); ok {
			it.Race = append(it.Race, id)
			it.RacePos = append(it.RacePos, Pos{Line: pos.Line, Col: col})
		} else if rule != "" {
			p.softf(Pos{Line: pos.Line, Col: col}, "unknown race-class rule %q (race-class rules: %s, or none)", rule, strings.Join(raceRules(), " "))
		}
		col += len(rule) + 1
	}
}

// expectQualifiers reads `hw=MODEL` and `SWITCH=on|off` before an expect line's
// ":" (docs/language.md#expect-lines). A switch name is told from a preset name by the catalogue.
func (p *parser) expectQualifiers(e *Expect) {
	last := ""
	for p.tok.kind == tIdent && p.peek().kind == tAssign {
		name, pos := p.tok.text, p.tpos()
		if name != "hw" && !knownSwitch(name) {
			break
		}
		p.next()
		p.next()
		if name == "hw" {
			e.HW, e.HWPos = p.hardwareModel()
			e.HWSet = true
			last = "hw=MODEL"
		} else {
			val, _ := p.word("on or off")
			e.Switches = append(e.Switches, ExpectSwitch{Pos: pos, Name: name, Value: val})
			last = name + "=on|off"
		}
		if p.tok.kind == tColon {
			p.next()
			return
		}
	}
	if last != "" {
		p.expect(tColon, "after "+last)
	}
}

// erroneousRule reads the RULE of Erroneous(RULE): ids are resolved here, at the parse
// edge; the validator judges a known id's class. An unknown id is reported at the item.
func (p *parser) erroneousRule(item Pos) spec.RuleID {
	w, _ := p.word("rule id")
	id, ok := spec.ParseRuleID(w)
	if !ok {
		p.softf(item, "unknown rule %q in Erroneous(...) (rules: %s)", w, strings.Join(erroneousRules(), " "))
	}
	return id
}

// hardwareModel reads the MODEL of hw=MODEL: names are resolved here, at the parse
// edge; an unknown one is reported and read as relaxed.
func (p *parser) hardwareModel() (spec.HW, Pos) {
	w, pos := p.word("hardware model (" + spec.HWNames(", ") + ")")
	hw, err := spec.ParseHW(w)
	if err != nil {
		p.softf(pos, "unknown hardware model %q (hw: %s)", w, spec.HWNames(", "))
		return spec.Relaxed, pos
	}
	return hw, pos
}

func (p *parser) parseExpect() {
	e := &Expect{Pos: p.tpos(), HW: spec.Relaxed}
	p.next()
	p.t.Expects = append(p.t.Expects, e)
	p.expectQualifiers(e)
	for p.tok.kind != tEOF && !p.isIdent("expect") {
		it := ExpectItem{Pos: p.tpos()}
		it.Preset, _ = p.word("preset name")
		p.expect(tAssign, "after preset name")
		if p.tok.kind != tIdent {
			p.expected("observation (Always, Sometimes, Never or Erroneous(RULE))")
		}
		switch p.tok.text {
		case "Always":
			it.Obs = ObsAlways
		case "Sometimes":
			it.Obs = ObsSometimes
		case "Never":
			it.Obs = ObsNever
		case "Erroneous":
			it.Obs = ObsErroneous
		default:
			p.expected("observation (Always, Sometimes, Never or Erroneous(RULE))")
		}
		p.next()
		if it.Obs == ObsErroneous && p.tok.kind == tLParen && p.tok.off == p.prevEnd {
			p.next()
			it.Rule = p.erroneousRule(it.Pos)
			p.expect(tRParen, "after rule id")
		}
		if p.tok.kind == tPlus && p.tok.off == p.prevEnd {
			p.raceRules(&it)
		}
		e.Items = append(e.Items, it)
	}
	if len(e.Items) == 0 {
		p.softf(e.Pos, "expect line lists no PRESET=OBS item")
	}
}
