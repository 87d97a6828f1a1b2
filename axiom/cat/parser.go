package cat

import (
	"path"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tZero
	tPunct // | & \ ; * + ? ~ [ ] ( ) = ^-1
)

type token struct {
	kind tokKind
	text string
	pos  Pos
	doc  string // the comment just before the token (only blanks between)
}

// isIdentStart / isIdentChar: names are herd's: letters, digits, '_', '-', '.'
// and '\” (po-loc, rf-e, ob'), starting with a letter (or '_' followed by more).
func isIdentStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '\''
}

func lex(file string, src []byte) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	doc := ""
	advance := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		p := Pos{File: file, Line: line, Col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if c == '\n' && i+1 < len(src) && blankLineFollows(src[i+1:]) {
				doc = "" // a blank line detaches a comment from what follows
			}
			advance(1)
		case c == '(' && i+1 < len(src) && src[i+1] == '*':
			start := i
			depth := 0
			for {
				if i >= len(src) {
					return nil, errorf(p, "comment not closed (a \"(*\" without its \"*)\")")
				}
				if src[i] == '(' && i+1 < len(src) && src[i+1] == '*' {
					depth++
					advance(2)
					continue
				}
				if src[i] == '*' && i+1 < len(src) && src[i+1] == ')' {
					depth--
					advance(2)
					if depth == 0 {
						break
					}
					continue
				}
				advance(1)
			}
			doc = commentText(string(src[start:i]))
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				j++
			}
			if j >= len(src) || src[j] != '"' {
				return nil, errorf(p, "string not closed on its line")
			}
			toks = append(toks, token{kind: tString, text: string(src[i+1 : j]), pos: p, doc: doc})
			doc = ""
			advance(j + 1 - i)
		case c == '0':
			toks = append(toks, token{kind: tZero, text: "0", pos: p, doc: doc})
			doc = ""
			advance(1)
		case c == '_' && (i+1 >= len(src) || !isIdentChar(src[i+1])):
			toks = append(toks, token{kind: tIdent, text: "_", pos: p, doc: doc})
			doc = ""
			advance(1)
		case isIdentStart(c) || c == '_':
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: string(src[i:j]), pos: p, doc: doc})
			doc = ""
			advance(j - i)
		case c == '^':
			if i+2 < len(src) && src[i+1] == '-' && src[i+2] == '1' {
				toks = append(toks, token{kind: tPunct, text: "^-1", pos: p})
				advance(3)
				continue
			}
			return nil, errorf(p, "expected ^-1 (inverse), found %q", string(src[i:min(i+3, len(src))]))
		case strings.IndexByte("|&\\;*+?~[]()=,", c) >= 0:
			toks = append(toks, token{kind: tPunct, text: string(c), pos: p, doc: doc})
			doc = ""
			advance(1)
		default:
			return nil, errorf(p, "unexpected character %q", string(c))
		}
	}
	toks = append(toks, token{kind: tEOF, pos: Pos{File: file, Line: line, Col: col}})
	return toks, nil
}

func blankLineFollows(rest []byte) bool {
	for _, c := range rest {
		switch c {
		case '\n':
			return true
		case ' ', '\t', '\r':
			continue
		}
		return false
	}
	return false
}

// commentText is a comment without its delimiters, its lines joined by spaces.
func commentText(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "(*"), "*)")
	return strings.Join(strings.Fields(s), " ")
}

// Resolver reads an included file, named as the include statement names it, relative
// to the including file; it returns the name to report positions under.
type Resolver func(from, name string) (src []byte, file string, err error)

// Parse reads a model file, inlining its includes through resolve (nil: includes are
// refused).
func Parse(file string, src []byte, resolve Resolver) (*Model, error) {
	m := &Model{File: file}
	if err := parseInto(m, file, src, resolve, map[string]bool{file: true}, true); err != nil {
		return nil, err
	}
	return m, nil
}

func parseInto(m *Model, file string, src []byte, resolve Resolver, open map[string]bool, top bool) error {
	toks, err := lex(file, src)
	if err != nil {
		return err
	}
	p := &parser{toks: toks}
	if p.peek().kind == tString {
		t := p.next()
		if top {
			m.Title = t.text
		}
	}
	for p.peek().kind != tEOF {
		t := p.peek()
		if t.kind != tIdent {
			return errorf(t.pos, "expected a statement (let, acyclic, irreflexive, empty, flag, include, option), found %s", describe(t))
		}
		switch t.text {
		case "include":
			p.next()
			name := p.next()
			if name.kind != tString {
				return errorf(name.pos, "expected the file to include, in quotes, found %s", describe(name))
			}
			if resolve == nil {
				return errorf(name.pos, "include %q: this model cannot include files", name.text)
			}
			inc, incFile, err := resolve(file, name.text)
			if err != nil {
				return errorf(name.pos, "include %q: %v", name.text, err)
			}
			if open[incFile] {
				return errorf(name.pos, "include %q: the file includes itself", name.text)
			}
			open[incFile] = true
			if err := parseInto(m, incFile, inc, resolve, open, false); err != nil {
				return err
			}
			delete(open, incFile)
		case "option":
			p.next()
			name := p.next()
			if name.kind != tIdent {
				return errorf(name.pos, "expected a switch name after option, found %s", describe(name))
			}
			m.Options = append(m.Options, name.text)
		default:
			s, err := p.stmt()
			if err != nil {
				return err
			}
			m.Stmts = append(m.Stmts, s)
		}
	}
	return nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the file"
	case tString:
		return "\"" + t.text + "\""
	}
	return "\"" + t.text + "\""
}

type parser struct {
	toks []token
	at   int
}

func (p *parser) peek() token { return p.toks[p.at] }

func (p *parser) next() token {
	t := p.toks[p.at]
	if t.kind != tEOF {
		p.at++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}

func (p *parser) expect(text, what string) (token, error) {
	t := p.next()
	if (t.kind != tPunct && t.kind != tIdent) || t.text != text {
		return t, errorf(t.pos, "expected %q %s, found %s", text, what, describe(t))
	}
	return t, nil
}

var checkKinds = map[string]bool{"acyclic": true, "irreflexive": true, "empty": true}

var keywords = map[string]bool{
	"let": true, "rec": true, "and": true, "as": true, "acyclic": true, "irreflexive": true,
	"empty": true, "flag": true, "include": true, "option": true, "if": true, "then": true,
	"else": true, "relaxed": true, "domain": true, "range": true,
}

func (p *parser) stmt() (Stmt, error) {
	t := p.next()
	switch {
	case t.text == "let":
		return p.let(t)
	case checkKinds[t.text]:
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		c := &Check{P: t.pos, Kind: t.text, X: x, Doc: t.doc}
		if p.is("as") {
			p.next()
			n := p.next()
			if n.kind != tIdent {
				return nil, errorf(n.pos, "expected a name after as, found %s", describe(n))
			}
			c.Name = n.text
		}
		return c, nil
	case t.text == "flag":
		f := &Flag{P: t.pos, Doc: t.doc}
		if p.is("relaxed") {
			p.next()
			f.Relaxed = true
		}
		if _, err := p.expect("~", "(flag ~empty EXPR as RULE)"); err != nil {
			return nil, err
		}
		if _, err := p.expect("empty", "(flag ~empty EXPR as RULE)"); err != nil {
			return nil, err
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		f.X = x
		if _, err := p.expect("as", "and the rule the flag raises (flag ~empty EXPR as RULE)"); err != nil {
			return nil, err
		}
		n := p.next()
		if n.kind != tIdent {
			return nil, errorf(n.pos, "expected the rule a flag raises after as, found %s", describe(n))
		}
		f.Name = n.text
		return f, nil
	}
	return nil, errorf(t.pos, "expected a statement (let, acyclic, irreflexive, empty, flag, include, option), found %s", describe(t))
}

func (p *parser) let(t token) (Stmt, error) {
	l := &Let{P: t.pos, Doc: t.doc}
	if p.is("rec") {
		p.next()
		l.Rec = true
	}
	for {
		n := p.next()
		if n.kind != tIdent || keywords[n.text] || n.text == "_" {
			return nil, errorf(n.pos, "expected a name to bind, found %s", describe(n))
		}
		if _, err := p.expect("=", "after the name a let binds"); err != nil {
			return nil, err
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		l.Bindings = append(l.Bindings, Binding{P: n.pos, Name: n.text, X: x})
		if !p.is("and") {
			break
		}
		p.next()
	}
	return l, nil
}

// Precedence, loosest first: if, |, \, &, ;, * (product), prefix ~, postfix.
func (p *parser) expr() (Expr, error) {
	if p.is("if") {
		t := p.next()
		c := p.next()
		if c.kind != tString {
			return nil, errorf(c.pos, "expected a quoted hardware model or switch name after if, found %s", describe(c))
		}
		if _, err := p.expect("then", "after the if's condition"); err != nil {
			return nil, err
		}
		th, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("else", "(an if needs its else)"); err != nil {
			return nil, err
		}
		el, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &If{P: t.pos, Cond: c.text, Then: th, Else: el}, nil
	}
	return p.binary(0)
}

var levels = []byte{'|', '\\', '&', ';', '*'}

func (p *parser) binary(level int) (Expr, error) {
	if level == len(levels) {
		return p.prefix()
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	op := levels[level]
	for {
		t := p.peek()
		if t.kind != tPunct || t.text != string(op) {
			return l, nil
		}
		if op == '*' && !p.operandFollows(p.at+1) {
			return l, nil // a postfix closure, taken by postfix
		}
		p.next()
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = &Binary{P: t.pos, Op: op, L: l, R: r}
	}
}

// operandFollows: the token at k can start an operand (so a '*' before it is the
// cartesian product, not the reflexive-transitive closure).
func (p *parser) operandFollows(k int) bool {
	t := p.toks[k]
	switch t.kind {
	case tIdent:
		return !keywords[t.text] || t.text == "domain" || t.text == "range" || t.text == "if"
	case tZero:
		return true
	case tPunct:
		return t.text == "(" || t.text == "[" || t.text == "~"
	}
	return false
}

func (p *parser) prefix() (Expr, error) {
	if p.is("~") {
		t := p.next()
		x, err := p.prefix()
		if err != nil {
			return nil, err
		}
		return &Unary{P: t.pos, Op: "~", X: x}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (Expr, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tPunct {
			return x, nil
		}
		switch t.text {
		case "^-1", "+", "?":
		case "*":
			if p.operandFollows(p.at + 1) {
				return x, nil
			}
		default:
			return x, nil
		}
		p.next()
		x = &Unary{P: t.pos, Op: t.text, X: x}
	}
}

func (p *parser) atom() (Expr, error) {
	t := p.next()
	switch {
	case t.kind == tZero:
		return &Empty{P: t.pos}, nil
	case t.kind == tIdent && t.text == "_":
		return &Universe{P: t.pos}, nil
	case t.kind == tIdent && (t.text == "domain" || t.text == "range"):
		if _, err := p.expect("(", "after "+t.text); err != nil {
			return nil, err
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "closing "+t.text+"("); err != nil {
			return nil, err
		}
		return &Unary{P: t.pos, Op: t.text, X: x}, nil
	case t.kind == tIdent && t.text == "if":
		p.at--
		return p.expr()
	case t.kind == tIdent && !keywords[t.text]:
		return &Name{P: t.pos, Name: t.text}, nil
	case t.kind == tPunct && t.text == "(":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "closing the parenthesis"); err != nil {
			return nil, err
		}
		return x, nil
	case t.kind == tPunct && t.text == "[":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect("]", "closing [S]"); err != nil {
			return nil, err
		}
		return &Unary{P: t.pos, Op: "[]", X: x}, nil
	}
	return nil, errorf(t.pos, "expected a set or relation (a name, 0, _, (...), [S], ~S, domain(r), range(r), if), found %s", describe(t))
}

// DirResolver resolves includes relative to the including file's directory, then
// through fallback (the models built into rmacheck, say) when not found there.
func DirResolver(read func(string) ([]byte, error), fallback func(name string) ([]byte, bool)) Resolver {
	return func(from, name string) ([]byte, string, error) {
		p := path.Join(path.Dir(from), name)
		if src, err := read(p); err == nil {
			return src, p, nil
		}
		if fallback != nil {
			if src, ok := fallback(name); ok {
				return src, name, nil
			}
		}
		_, err := read(p)
		return nil, p, err
	}
}
