package evidence

import (
	"cmp"
	"fmt"
	"html"
	"strings"
)

// A report is built once as a document, a list of blocks (as go/doc/comment parses
// a comment into one), and the document is printed twice: as Markdown and as HTML.
// What the two pages say is decided where the blocks are built (page.go); the
// printers below decide only how a kind of block looks, so the pages cannot say
// different things and no part of a report is written twice.

// Block is one part of a page.
type Block interface{ block() }

// Heading is a heading of level 1 to 3. ID, when set, is an anchor the page links to
// (a test's section), written in the Markdown too; other headings get the anchor
// GitHub gives them (slug), in the HTML.
type Heading struct {
	Level int
	Text  Prose
	ID    string
}

// Paragraph is a paragraph; ID, when set, is an anchor (a witness's title), and
// Class the HTML class that styles it (note, checks, witness-title).
type Paragraph struct {
	Text  Prose
	ID    string
	Class string
}

// List is a bulleted list, each item with the lines under it.
type List struct {
	Items []ListItem
	Class string
}

// ListItem is a line of a list and the lines under it.
type ListItem struct {
	Text Prose
	Sub  []Prose
}

// Table is a table with a header row.
type Table struct {
	Header []Prose
	Rows   [][]Prose
	Class  string
}

// Pre is preformatted text: a test's source, its init block.
type Pre struct{ Text string }

// Box groups blocks that the HTML sets apart (the question and its answer).
type Box struct {
	Class  string
	Blocks []Block
}

// Execution is a witness execution: its steps as numbered lines in the Markdown, as
// a diagram in the HTML.
type Execution struct{ Witness *Witness }

// DiagramKey is the key of the HTML page's execution diagrams, once a page, before
// the first of them (Markdown has no diagrams, so nothing).
type DiagramKey struct{}

func (Heading) block()    {}
func (Paragraph) block()  {}
func (List) block()       {}
func (Table) block()      {}
func (Pre) block()        {}
func (Box) block()        {}
func (Execution) block()  {}
func (DiagramKey) block() {}

// Page is a document with its title.
type Page struct {
	Title  string
	Blocks []Block
}

// Markdown prints the page as GitHub-flavoured Markdown: blocks apart by a blank line.
func (pg *Page) Markdown() []byte {
	var b strings.Builder
	writeMarkdown(&b, append([]Block{Heading{Level: 1, Text: P(Verbatim(pg.Title))}}, pg.Blocks...))
	return []byte(b.String())
}

func writeMarkdown(b *strings.Builder, blocks []Block) {
	first := true
	for _, bl := range blocks {
		var s strings.Builder
		markdownBlock(&s, bl)
		if s.Len() == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		b.WriteString(s.String())
	}
}

// markdownBlock prints one block, ending with a newline ("" for a block Markdown
// does not show).
func markdownBlock(b *strings.Builder, bl Block) {
	anchor := func(id string) {
		if id != "" {
			fmt.Fprintf(b, `<a id="%s"></a>`, id)
		}
	}
	switch bl := bl.(type) {
	case Heading:
		b.WriteString(strings.Repeat("#", bl.Level) + " ")
		anchor(bl.ID)
		b.WriteString(bl.Text.Markdown() + "\n")
	case Paragraph:
		anchor(bl.ID)
		b.WriteString(bl.Text.Markdown() + "\n")
	case List:
		for _, it := range bl.Items {
			b.WriteString("- " + it.Text.Markdown() + "\n")
			for _, sub := range it.Sub {
				b.WriteString("  - " + sub.Markdown() + "\n")
			}
		}
	case Table:
		row := func(cells []Prose) {
			b.WriteString("|")
			for _, c := range cells {
				b.WriteString(" " + mdCell(c.Markdown()) + " |")
			}
			b.WriteString("\n")
		}
		row(bl.Header)
		b.WriteString("|" + strings.Repeat("---|", len(bl.Header)) + "\n")
		for _, r := range bl.Rows {
			row(r)
		}
	case Pre:
		b.WriteString("```\n" + bl.Text + "\n```\n")
	case Box:
		writeMarkdown(b, bl.Blocks)
	case Execution:
		w := bl.Witness
		for i, line := range w.Lines {
			if i < len(w.Trace.Steps) && w.Trace.Steps[i].Marked {
				line += "  <- " + w.Mark.String()
			}
			fmt.Fprintf(b, "%d. %s\n", i+1, mdEscape(line))
		}
	}
}

// HTML prints the page as one self-contained page: inline style, inline SVG, no
// script, no external resource.
func (pg *Page) HTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n<h1>%s</h1>\n",
		e(pg.Title), css, e(pg.Title))
	for _, bl := range pg.Blocks {
		htmlBlock(&b, bl)
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// htmlBlock prints one block, ending with a newline.
func htmlBlock(b *strings.Builder, bl Block) {
	attrs := func(id, class string) string {
		s := ""
		if class != "" {
			s += ` class="` + class + `"`
		}
		if id != "" {
			s += ` id="` + id + `"`
		}
		return s
	}
	switch bl := bl.(type) {
	case Heading:
		fmt.Fprintf(b, "<h%d%s>%s</h%d>\n", bl.Level, attrs(cmp.Or(bl.ID, slug(bl.Text.Text())), ""), bl.Text.HTML(), bl.Level)
	case Paragraph:
		fmt.Fprintf(b, "<p%s>%s</p>\n", attrs(bl.ID, bl.Class), bl.Text.HTML())
	case List:
		fmt.Fprintf(b, "<ul%s>\n", attrs("", bl.Class))
		for _, it := range bl.Items {
			b.WriteString("<li>" + it.Text.HTML())
			if len(it.Sub) > 0 {
				b.WriteString("<ul>")
				for _, sub := range it.Sub {
					b.WriteString("<li>" + sub.HTML() + "</li>")
				}
				b.WriteString("</ul>")
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ul>\n")
	case Table:
		fmt.Fprintf(b, "<table%s><tr>", attrs("", bl.Class))
		for _, h := range bl.Header {
			b.WriteString("<th>" + strings.ReplaceAll(h.HTML(), ",", ",<wbr>") + "</th>") // long semantics names break after a comma
		}
		b.WriteString("</tr>\n")
		for _, r := range bl.Rows {
			b.WriteString("<tr>")
			for _, c := range r {
				b.WriteString("<td>" + c.HTML() + "</td>")
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n")
	case Pre:
		b.WriteString("<pre>" + html.EscapeString(bl.Text) + "</pre>\n")
	case Box:
		fmt.Fprintf(b, "<div%s>\n", attrs("", bl.Class))
		for _, inner := range bl.Blocks {
			htmlBlock(b, inner)
		}
		b.WriteString("</div>\n")
	case Execution:
		w := bl.Witness
		b.WriteString(`<div class="diagram-box">` + Diagram(&w.Trace, w.Mark) + "</div>\n")
	case DiagramKey:
		b.WriteString(`<div class="diagram-box">` + DiagramKeySVG() + "</div>\n")
	}
}

// slug is the anchor GitHub gives a heading: lower case, spaces as hyphens, other
// punctuation dropped.
func slug(text string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(text) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// css sets every font size in px, none below 12 px (TestLegibleFontSizes).
var css = `body{font-family:system-ui,sans-serif;font-size:16px;line-height:1.45;max-width:1340px;margin:24px auto;padding:0 16px;color:#1d1d1d}
h1{font-size:28px}h2{font-size:22px;border-bottom:1px solid #ccc;margin-top:36px}h3{font-size:18px;margin-top:28px}
table{border-collapse:collapse;margin:10px 0;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid #bbb;padding:4px 8px;vertical-align:top;font-size:14px;text-align:left}
th{background:#eee}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px}pre{background:#f5f5f5;padding:8px;overflow-x:auto}
.err{color:#a00}.race{color:#8a5a00}.bad{color:#b00020;font-weight:bold}
.answer{background:#eef6ee;border-left:4px solid #1a7f37;padding:8px 14px}.checks{font-size:14px;color:#444}
.findings li{margin:4px 0}.note{font-size:14px;color:#444}
.diagram-box{overflow-x:auto;margin:8px 0 18px}.witness-title{font-size:15px;margin:14px 0 2px}
table.summary td,table.summary th{font-size:13px;padding:3px 6px}
` + diagramCSS

func anchor(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			b.WriteRune(c)
		case c == '+' || c == '.' || c == '_' || c == ',' || c == '=' || c == ' ':
			b.WriteByte('-')
		}
	}
	return "t-" + b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// titleEscape keeps a report's title (--title, any text) from being read as Markdown
// or HTML (links, tags, code, emphasis); intraword underscores, as in MPI_Win_sync,
// stay as they are.
func titleEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "`", "\\`", "|", `\|`)
	return r.Replace(s)
}

// mdEscape keeps a trace line from being read as Markdown.
func mdEscape(s string) string {
	r := strings.NewReplacer("*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, "|", `\|`)
	return r.Replace(s)
}
