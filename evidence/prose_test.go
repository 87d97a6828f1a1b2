package evidence

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// regexHTML is how reports turned their Markdown sentences into HTML before they
// were built as spans (regular expressions over the Markdown): ParseProse must
// read hand-written Markdown as it did, so the pages stay the same.
func regexHTML(md string) string {
	link := regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	code := regexp.MustCompile("`([^`]+)`")
	strong := regexp.MustCompile(`\*\*([^*]+)\*\*`)
	var codes []string
	md = code.ReplaceAllStringFunc(md, func(m string) string {
		codes = append(codes, m[1:len(m)-1])
		return fmt.Sprintf("\x00%d\x00", len(codes)-1)
	})
	s := html.EscapeString(md)
	s = link.ReplaceAllStringFunc(s, func(m string) string {
		sub := link.FindStringSubmatch(m)
		return `<a href="` + sub[2] + `">` + sub[1] + `</a>`
	})
	s = strong.ReplaceAllString(s, "<strong>$1</strong>")
	for i, c := range codes {
		s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), "<code>"+html.EscapeString(c)+"</code>")
	}
	return s
}

// TestParseProse: hand-written Markdown reads as spans that print back to the same
// Markdown, and to the HTML the regular expressions gave, for text that uses the
// markup as the report inputs do (a link's URL and a strong text hold no other
// markup).
func TestParseProse(t *testing.T) {
	for _, md := range []string{
		"plain & <text>",
		"a `code <x>` b",
		"see [`MP+fence`](#t-mp-fence), **NON-CONFORMING** 2 of 4",
		"**[E-EPOCH](https://x.org/a?b=1&c=2)**: in `1:r0=0;`",
		"Examples 12.20 to 12.22 (`Ex12.20-counting-semaphore`, `Ex12.21-peterson`) [...]",
		"a ` b `` c ** d [e] (f) [g](h i)",
		"**[`**`](u)**", // stars in a code span are not markup (a rapid find)
	} {
		p := ParseProse(md)
		if got := p.Markdown(); got != md {
			t.Errorf("%q prints back as %q", md, got)
		}
		if got, want := p.HTML(), regexHTML(md); got != want {
			t.Errorf("%q: HTML\n%s\nwant\n%s", md, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.SampledFrom([]string{"a", "b c", "<&>", "`", "`x`", "**", "*", "[", "]", "(", ")", "](u)", " ", "[t](#u)"})
		md := strings.Join(rapid.SliceOfN(word, 0, 12).Draw(t, "words"), "")
		p := ParseProse(md)
		if got := p.Markdown(); got != md {
			t.Fatalf("%q prints back as %q", md, got)
		}
		// where the expressions made tags that cross, or a URL of a code span, the
		// spans differ: that was a defect
		if got, want := p.HTML(), regexHTML(md); got != want && wellNested(want) && !strings.Contains(want, "<a href=\"<code>") {
			t.Fatalf("%q: HTML\n%s\nwant\n%s", md, got, want)
		}
	})
}

// wellNested reports whether the a, strong and code tags of s nest.
func wellNested(s string) bool {
	var open []string
	for _, m := range regexp.MustCompile(`<(/?)(a|strong|code)\b`).FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] == "":
			open = append(open, m[2])
		case len(open) == 0 || open[len(open)-1] != m[2]:
			return false
		default:
			open = open[:len(open)-1]
		}
	}
	return len(open) == 0
}
