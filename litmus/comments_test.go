package litmus

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
)

// countComments counts the comments of a .lit source independently of the lexer: `#` to
// the end of the line and `(* ... *)`, outside double-quoted strings. (A `#` in a key=value
// line counts too; Format keeps those lines as they are.)
func countComments(src []byte) int {
	n := 0
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '"':
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case src[i] == '#':
			n++
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case src[i] == '(' && i+1 < len(src) && src[i+1] == '*':
			n++
			end := bytes.Index(src[i+2:], []byte("*)"))
			if end < 0 {
				return n
			}
			i += 2 + end + 1
		}
	}
	return n
}

func TestCountComments(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"", 0},
		{"MPI x\n", 0},
		{"MPI x # a comment\n# another\n", 2},
		{"MPI x\n\"doc with # and (* inside\"\n", 0},
		{"(* one *) (* two\nlines *) # three\n", 3},
		{"(* unterminated", 1},
		{"\"esc \\\" # still doc\" # real\n", 1},
	}
	for _, tt := range tests {
		if got := countComments([]byte(tt.src)); got != tt.want {
			t.Errorf("countComments(%q) = %d, want %d", tt.src, got, tt.want)
		}
	}
}

// testComments lists the comments of a test in the order Format prints them.
func testComments(t *Test) []Comment {
	var l []Comment
	add := func(c Comments) { l = append(append(l, c.Lead...), c.Trail...) }
	add(t.HeaderComments)
	add(t.DocComments)
	for _, m := range t.Meta {
		add(m.Comments)
	}
	add(t.OpenComments)
	for _, w := range t.Windows {
		add(w.Comments)
	}
	for _, a := range t.Aliases {
		add(a.Comments)
	}
	for _, in := range t.Inits {
		if in.Reg == nil {
			add(in.Comments)
		}
	}
	for _, in := range t.Inits {
		if in.Reg != nil {
			add(in.Comments)
		}
	}
	add(t.CloseComments)
	for _, c := range t.RowComments {
		add(c)
	}
	add(t.LocsComments)
	add(t.FilterComments)
	add(t.CondComments)
	for _, e := range t.Expects {
		add(e.Comments)
	}
	return append(l, t.EndComments...)
}

func commentTexts(cs []Comment) []string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Text
	}
	return s
}

// checkComments checks that Format keeps every comment of src, in order, and is idempotent.
func checkComments(t *testing.T, name string, src []byte) {
	t.Helper()
	tst, _ := Parse(name, src)
	if tst == nil {
		return
	}
	out := Format(tst)
	if n, m := countComments(src), countComments(out); n != m {
		t.Fatalf("%s: %d comments, %d after Format:\n%s", name, n, m, out)
	}
	t2, _ := Parse(name, out)
	if t2 == nil {
		t.Fatalf("%s: the formatted output does not parse:\n%s", name, out)
	}
	if a, b := commentTexts(testComments(tst)), commentTexts(testComments(t2)); !slices.Equal(a, b) {
		t.Fatalf("%s: comments changed through Format:\n%q\n%q\n%s", name, a, b, out)
	}
	if out2 := Format(t2); !bytes.Equal(out, out2) {
		t.Fatalf("%s: Format is not idempotent:\n%s\n----\n%s", name, out, out2)
	}
}

// TestFormatKeepsCorpusComments formats every file of the corpus (litmus/*/*.lit) and of
// the acceptance suite: the comment count stays and Format is a fixed point.
func TestFormatKeepsCorpusComments(t *testing.T) {
	root := moduleRoot(t)
	for _, f := range corpus.All(t) {
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkComments(t, f, src)
		})
	}
}
