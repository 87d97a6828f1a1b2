package litmus

import (
	"fmt"
	"sort"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tString
	tWord // a run of [A-Za-z0-9_.+-], produced only by scanWord
	tSemi
	tBar
	tLBrace
	tRBrace
	tLBrack
	tRBrack
	tLParen
	tRParen
	tComma
	tColon
	tAssign
	tAt
	tPlus
	tMinus
	tTilde
	tAnd     // /\
	tOr      // \/
	tImplies // =>
	tNe      // !=
	tEq      // ==
	tDotDot  // .. (a range lo..hi)
	tIllegal
)

var tokText = [...]string{
	tSemi: ";", tBar: "|", tLBrace: "{", tRBrace: "}", tLBrack: "[", tRBrack: "]",
	tLParen: "(", tRParen: ")", tComma: ",", tColon: ":", tAssign: "=", tAt: "@",
	tPlus: "+", tMinus: "-", tTilde: "~", tAnd: `/\`, tOr: `\/`, tImplies: "=>", tNe: "!=", tEq: "==", tDotDot: "..",
}

type token struct {
	kind     tokKind
	off, end int // byte offsets in the source
	text     string
}

// lexer turns source bytes into tokens on demand. Its only state is an offset,
// so the parser can rescan from any token (scanWord) or jump to a line's end.
type lexer struct {
	src        []byte
	off        int
	lineStarts []int
	errs       *ErrorList
	file       string
	comments   []rawComment // every comment skipped, in source order
}

// rawComment is a comment as the lexer found it, before the parser attaches it to a line.
type rawComment struct {
	off, end int
	Comment
}

// addComment records the comment src[off:end], once: the parser's look-ahead and rescans
// skip the same comments again.
func (lx *lexer) addComment(off, end int) {
	if n := len(lx.comments); n > 0 && lx.comments[n-1].off >= off {
		return
	}
	text := string(lx.src[off:end])
	if text[0] == '#' {
		text = strings.TrimRight(text, " \t\r\f\v")
	}
	// A blank line before it: two newlines in the blanks that precede it.
	nl, i := 0, off-1
	for ; i >= 0 && isSpace(lx.src[i]); i-- {
		if lx.src[i] == '\n' {
			nl++
		}
	}
	lx.comments = append(lx.comments, rawComment{off: off, end: end,
		Comment: Comment{Pos: lx.pos(off), Text: text, Blank: nl >= 2 && i >= 0}})
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func newLexer(file string, src []byte, errs *ErrorList) *lexer {
	lx := &lexer{src: src, errs: errs, file: file, lineStarts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			lx.lineStarts = append(lx.lineStarts, i+1)
		}
	}
	return lx
}

// pos turns a byte offset into a line and column.
func (lx *lexer) pos(off int) Pos {
	i := sort.Search(len(lx.lineStarts), func(i int) bool { return lx.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Line: i + 1, Col: off - lx.lineStarts[i] + 1}
}

func (lx *lexer) line(off int) int { return lx.pos(off).Line }

// lineEnd is the offset of the newline ending the line holding off (or len(src)).
func (lx *lexer) lineEnd(off int) int {
	for off < len(lx.src) && lx.src[off] != '\n' {
		off++
	}
	return off
}

func (lx *lexer) errorf(off int, format string, args ...any) {
	lx.errs.Add(lx.file, lx.pos(off), format, args...)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isWordChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '.' || c == '+' || c == '-'
}

// skipSpace skips blanks and both kinds of comments.
func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case isSpace(c):
			lx.off++
		case c == '#':
			start := lx.off
			lx.off = lx.lineEnd(lx.off)
			lx.addComment(start, lx.off)
		case c == '(' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '*':
			start := lx.off
			lx.off += 2
			closed := false
			for lx.off+1 < len(lx.src) {
				if lx.src[lx.off] == '*' && lx.src[lx.off+1] == ')' {
					lx.off += 2
					closed = true
					break
				}
				lx.off++
			}
			if !closed {
				lx.off = len(lx.src)
				lx.errorf(start, `unterminated comment: "(*" has no closing "*)"`)
			}
			lx.addComment(start, lx.off)
		default:
			return
		}
	}
}

// next scans the token at the current offset.
func (lx *lexer) next() token {
	lx.skipSpace()
	start := lx.off
	if start >= len(lx.src) {
		return token{kind: tEOF, off: start, end: start, text: "end of file"}
	}
	c := lx.src[start]
	tok := func(k tokKind, n int) token {
		lx.off = start + n
		return token{kind: k, off: start, end: start + n, text: string(lx.src[start : start+n])}
	}
	peek := byte(0)
	if start+1 < len(lx.src) {
		peek = lx.src[start+1]
	}
	switch {
	case isLetter(c):
		n := 1
		for start+n < len(lx.src) && (isLetter(lx.src[start+n]) || isDigit(lx.src[start+n])) {
			n++
		}
		return tok(tIdent, n)
	case isDigit(c):
		n := 1
		for start+n < len(lx.src) && isDigit(lx.src[start+n]) {
			n++
		}
		return tok(tInt, n)
	case c == '"':
		n := 1
		for start+n < len(lx.src) && lx.src[start+n] != '"' && lx.src[start+n] != '\n' {
			n++
		}
		if start+n >= len(lx.src) || lx.src[start+n] != '"' {
			lx.errorf(start, "unterminated string: missing closing \" on this line")
			t := tok(tString, n)
			t.text = string(lx.src[start+1 : start+n])
			return t
		}
		t := tok(tString, n+1)
		t.text = string(lx.src[start+1 : start+n])
		return t
	case c == ';':
		return tok(tSemi, 1)
	case c == '|':
		return tok(tBar, 1)
	case c == '{':
		return tok(tLBrace, 1)
	case c == '}':
		return tok(tRBrace, 1)
	case c == '[':
		return tok(tLBrack, 1)
	case c == ']':
		return tok(tRBrack, 1)
	case c == '(':
		return tok(tLParen, 1)
	case c == ')':
		return tok(tRParen, 1)
	case c == ',':
		return tok(tComma, 1)
	case c == ':':
		return tok(tColon, 1)
	case c == '@':
		return tok(tAt, 1)
	case c == '+':
		return tok(tPlus, 1)
	case c == '-':
		return tok(tMinus, 1)
	case c == '~':
		return tok(tTilde, 1)
	case c == '=' && peek == '>':
		return tok(tImplies, 2)
	case c == '=' && peek == '=':
		return tok(tEq, 2)
	case c == '=':
		return tok(tAssign, 1)
	case c == '!' && peek == '=':
		return tok(tNe, 2)
	case c == '/' && peek == '\\':
		return tok(tAnd, 2)
	case c == '\\' && peek == '/':
		return tok(tOr, 2)
	case c == '.' && peek == '.':
		return tok(tDotDot, 2)
	}
	// One illegal character (a whole UTF-8 sequence, so messages stay readable).
	n := 1
	for start+n < len(lx.src) && lx.src[start+n]&0xC0 == 0x80 && n < 4 {
		n++
	}
	return tok(tIllegal, n)
}

// scanWord rescans from off as a word ([A-Za-z0-9_.+-]+), for names such as mpi-4.1 or E-EPOCH.
func (lx *lexer) scanWord(off int) token {
	lx.off = off
	n := 0
	for off+n < len(lx.src) && isWordChar(lx.src[off+n]) {
		n++
	}
	if n == 0 {
		return lx.next()
	}
	lx.off = off + n
	return token{kind: tWord, off: off, end: off + n, text: string(lx.src[off : off+n])}
}

// describe names a token for "found X" in messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return fmt.Sprintf("string %q", t.text)
	case tIllegal:
		return fmt.Sprintf("illegal character %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}
