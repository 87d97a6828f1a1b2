package evidence

import (
	"fmt"
	"html"
	"strings"
)

// The sentences of a report are built once, as typed spans (as go/doc/comment
// types a comment's text): plain text, code, strong emphasis, links, and the line
// break of a table cell. The Markdown and the HTML page print the same spans, so
// the two can never say different things, and neither is converted from the other.
// Text written by hand in Markdown (a question file, the upstream status) is parsed
// into spans where it is read (ParseProse).

// Span is one piece of a sentence.
type Span interface {
	markdown(b *strings.Builder)
	html(b *strings.Builder)
}

// Prose is a sentence, or a part of one: spans in reading order.
type Prose []Span

// Plain is text as it reads.
type Plain string

// Code is a code span: a name, an outcome, a command.
type Code string

// Strong is text in strong emphasis.
type Strong Prose

// Link is text that links to a URL (or a #fragment of the page); Title, when set,
// is what the HTML page shows on hover (a rule's message and citation).
type Link struct {
	Text  Prose
	URL   string
	Title string
}

// Break is a line break inside a table cell.
type Break struct{}

// Em is text in emphasis.
type Em Prose

// Verbatim is text that reads as itself on both pages: what a user wrote (a
// report's --title), whose markup characters Markdown must not take for markup.
type Verbatim string

// Styled is text that the HTML page styles by a class of its style sheet (a
// verdict's colour: err, race; a failed run: bad); Markdown prints the text.
type Styled struct {
	Class string
	Text  Prose
}

func (s Plain) markdown(b *strings.Builder) { b.WriteString(string(s)) }
func (s Plain) html(b *strings.Builder)     { b.WriteString(html.EscapeString(string(s))) }
func (s Code) markdown(b *strings.Builder)  { b.WriteString("`" + string(s) + "`") }
func (s Code) html(b *strings.Builder) {
	b.WriteString("<code>" + html.EscapeString(string(s)) + "</code>")
}

func (s Strong) markdown(b *strings.Builder) { enclose(b, "**", Prose(s).writeMarkdown, "**") }
func (s Strong) html(b *strings.Builder)     { enclose(b, "<strong>", Prose(s).writeHTML, "</strong>") }

func (l Link) markdown(b *strings.Builder) {
	b.WriteString("[")
	l.Text.writeMarkdown(b)
	b.WriteString("](" + l.URL + ")")
}

func (l Link) html(b *strings.Builder) {
	b.WriteString(`<a href="` + html.EscapeString(l.URL) + `"`)
	if l.Title != "" {
		b.WriteString(` title="` + html.EscapeString(l.Title) + `"`)
	}
	b.WriteString(`>`)
	l.Text.writeHTML(b)
	b.WriteString("</a>")
}

func (Break) markdown(b *strings.Builder) { b.WriteString("<br>") }
func (Break) html(b *strings.Builder)     { b.WriteString("<br>") }

func (s Em) markdown(b *strings.Builder) { enclose(b, "_", Prose(s).writeMarkdown, "_") }
func (s Em) html(b *strings.Builder)     { enclose(b, "<em>", Prose(s).writeHTML, "</em>") }

func (s Verbatim) markdown(b *strings.Builder) { b.WriteString(titleEscape(string(s))) }
func (s Verbatim) html(b *strings.Builder)     { b.WriteString(html.EscapeString(string(s))) }

func (s Styled) markdown(b *strings.Builder) { s.Text.writeMarkdown(b) }
func (s Styled) html(b *strings.Builder) {
	enclose(b, `<span class="`+s.Class+`">`, s.Text.writeHTML, "</span>")
}

// enclose writes what write writes between open and close: the markup of a span.
func enclose(b *strings.Builder, open string, write func(*strings.Builder), close string) {
	b.WriteString(open)
	write(b)
	b.WriteString(close)
}

// Markdown prints the prose in Markdown's inline syntax.
func (p Prose) Markdown() string {
	var b strings.Builder
	p.writeMarkdown(&b)
	return b.String()
}

// HTML prints the prose as HTML.
func (p Prose) HTML() string {
	var b strings.Builder
	p.writeHTML(&b)
	return b.String()
}

// Text is the prose's words without markup (a verdict cell, which the HTML page
// colours by its words).
func (p Prose) Text() string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case Plain:
			b.WriteString(string(s))
		case Code:
			b.WriteString(string(s))
		case Strong:
			b.WriteString(Prose(s).Text())
		case Link:
			b.WriteString(s.Text.Text())
		case Em:
			b.WriteString(Prose(s).Text())
		case Verbatim:
			b.WriteString(string(s))
		case Styled:
			b.WriteString(s.Text.Text())
		}
	}
	return b.String()
}

func (p Prose) writeMarkdown(b *strings.Builder) {
	for _, s := range p {
		s.markdown(b)
	}
}

func (p Prose) writeHTML(b *strings.Builder) {
	for _, s := range p {
		s.html(b)
	}
}

// P builds prose from its parts: a string is plain text, a Span itself, a Prose
// its spans (nil and empty strings add nothing).
func P(parts ...any) Prose {
	var p Prose
	for _, x := range parts {
		switch x := x.(type) {
		case string:
			if x != "" {
				p = append(p, Plain(x))
			}
		case Prose:
			p = append(p, x...)
		case Span:
			p = append(p, x)
		case nil:
		default:
			panic(fmt.Sprintf("evidence.P: a %T is not prose", x))
		}
	}
	return p
}

// Pf is plain text formatted by fmt.Sprintf.
func Pf(format string, args ...any) Plain { return Plain(fmt.Sprintf(format, args...)) }

// Join puts sep between the pieces.
func Join(pieces []Prose, sep string) Prose {
	var p Prose
	for i, x := range pieces {
		if i > 0 {
			p = append(p, Plain(sep))
		}
		p = append(p, x...)
	}
	return p
}

// ParseProse reads text written by hand in Markdown's inline syntax: `code`,
// **strong** and [text](url) (a URL without spaces); any other character is
// plain text. Code spans are read first, so nothing inside one is markup.
func ParseProse(md string) Prose {
	return parseLinks(splitCode(md))
}

// splitCode cuts text into plain strings and code spans.
func splitCode(md string) Prose {
	var p Prose
	plain := 0
	for i := 0; i < len(md); i++ {
		if md[i] != '`' {
			continue
		}
		end := strings.IndexByte(md[i+1:], '`')
		if end <= 0 { // none closes it, or an empty span: a plain backquote
			continue
		}
		if plain < i {
			p = append(p, Plain(md[plain:i]))
		}
		p = append(p, Code(md[i+1:i+1+end]))
		i += end + 1
		plain = i + 1
	}
	if plain < len(md) {
		p = append(p, Plain(md[plain:]))
	}
	return p
}

// parseLinks finds [text](url) across the spans (the text may hold code), then
// strong emphasis in what is left and in each link's text.
func parseLinks(in Prose) Prose {
	return parseStrong(scanMarkup(in, "[", func(in Prose, k, at int) (Span, Plain, int, bool) {
		text, url, rest, next, ok := linkAt(in, k, at)
		return Link{Text: parseStrong(text), URL: url}, rest, next, ok
	}))
}

// parseStrong finds **strong** text in the plain spans (it may hold code and links,
// not a '*').
func parseStrong(in Prose) Prose {
	return scanMarkup(in, "**", func(in Prose, k, at int) (Span, Plain, int, bool) {
		inner, rest, next, ok := strongAt(in, k, at)
		return Strong(inner), rest, next, ok
	})
}

// scanMarkup finds each opener in the plain spans of in and reads the markup it
// opens with read (from offset at of span k, just after the opener: the span, what
// remains of the span the markup ends in, the index of the span after that one).
// An opener that opens nothing is plain text, and the search goes on after its
// first character, as a regular expression's would.
func scanMarkup(in Prose, opener string, read func(in Prose, k, at int) (Span, Plain, int, bool)) Prose {
	var out Prose
	for k := 0; k < len(in); k++ {
		s, ok := in[k].(Plain)
		open := strings.Index(string(s), opener)
		if !ok || open < 0 {
			out = append(out, in[k])
			continue
		}
		span, rest, next, found := read(in, k, open+len(opener))
		if !found {
			out = append(out, s[:open+1])
			in = append(Prose{s[open+1:]}, in[k+1:]...)
			k = -1
			continue
		}
		if open > 0 {
			out = append(out, s[:open])
		}
		out = append(out, span)
		in = append(Prose{rest}, in[next:]...)
		k = -1
	}
	return mergePlain(out)
}

// linkAt reads a link's text from offset at of span k (a Plain) up to "](", then
// its URL up to ")": the text, the URL, what remains of the span the link ends
// in, and the index of the span after that one.
func linkAt(in Prose, k, at int) (text Prose, url string, rest Plain, next int, ok bool) {
	first := string(in[k].(Plain))[at:]
	for j := k; j < len(in); j++ {
		var s string
		if j == k {
			s = first
		} else if ps, isPlain := in[j].(Plain); isPlain {
			s = string(ps)
		} else {
			text = append(text, in[j])
			continue
		}
		close := strings.IndexByte(s, ']')
		if close < 0 {
			text = append(text, Plain(s))
			continue
		}
		text = append(text, Plain(s[:close]))
		tail := s[close+1:]
		end := strings.IndexByte(tail, ')')
		if !strings.HasPrefix(tail, "(") || end < 2 || strings.ContainsAny(tail[1:end], " \t\n") || len(mergePlain(text)) == 0 {
			return nil, "", "", 0, false
		}
		return mergePlain(text), tail[1:end], Plain(tail[end+1:]), j + 1, true
	}
	return nil, "", "", 0, false
}

// strongAt reads strong text from offset at of span k up to the next "**", with no
// '*' before it.
func strongAt(in Prose, k, at int) (inner Prose, rest Plain, next int, ok bool) {
	for j := k; j < len(in); j++ {
		s, isPlain := in[j].(Plain)
		if l, isLink := in[j].(Link); isLink && hasStar(Prose{l}) {
			return nil, "", 0, false // a link's '*' ends it
		}
		if !isPlain {
			inner = append(inner, in[j])
			continue
		}
		if j == k {
			s = s[at:]
		}
		star := strings.IndexByte(string(s), '*')
		if star < 0 {
			inner = append(inner, s)
			continue
		}
		if !strings.HasPrefix(string(s[star:]), "**") {
			return nil, "", 0, false
		}
		inner = mergePlain(append(inner, s[:star]))
		if len(inner) == 0 {
			return nil, "", 0, false
		}
		return inner, s[star+2:], j + 1, true
	}
	return nil, "", 0, false
}

// hasStar reports whether p's markup or plain text holds a '*': a code span's
// text is not markup, so its stars do not count.
func hasStar(p Prose) bool {
	for _, sp := range p {
		switch sp := sp.(type) {
		case Plain:
			if strings.Contains(string(sp), "*") {
				return true
			}
		case Strong:
			return true
		case Link:
			if strings.Contains(sp.URL, "*") || hasStar(sp.Text) {
				return true
			}
		}
	}
	return false
}

// mergePlain joins neighbouring plain spans and drops empty ones.
func mergePlain(in Prose) Prose {
	var out Prose
	for _, s := range in {
		ps, ok := s.(Plain)
		if !ok {
			out = append(out, s)
			continue
		}
		if ps == "" {
			continue
		}
		if n := len(out); n > 0 {
			if last, ok := out[n-1].(Plain); ok {
				out[n-1] = last + ps
				continue
			}
		}
		out = append(out, ps)
	}
	return out
}
