package spec

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeneratedDocs: docs/rules.md and the generated sections of docs/semantics.md
// are what the data makes of them; `go generate ./spec` rewrites them.
func TestGeneratedDocs(t *testing.T) {
	rules, err := os.ReadFile(filepath.Join("..", RulesPage))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(RulesMarkdown(), string(rules)); diff != "" {
		t.Errorf("%s differs from the catalogue (run go generate ./spec) (-generated +committed):\n%s", RulesPage, diff)
	}
	sem, err := os.ReadFile(filepath.Join("..", SemanticsPage))
	if err != nil {
		t.Fatal(err)
	}
	filled, err := FillGenerated(string(sem))
	if err != nil {
		t.Fatalf("%s: %v", SemanticsPage, err)
	}
	if diff := cmp.Diff(filled, string(sem)); diff != "" {
		t.Errorf("%s: a generated section differs from the data (run go generate ./spec) (-generated +committed):\n%s", SemanticsPage, diff)
	}
	for name := range generatedSections {
		if !strings.Contains(string(sem), "<!-- begin generated: "+name+" -->") {
			t.Errorf("%s has no generated section %q", SemanticsPage, name)
		}
	}
}

func TestFillGenerated(t *testing.T) {
	good := "a\n<!-- begin generated: hw -->\nOLDTEXT\n<!-- end generated: hw -->\nb\n"
	got, err := FillGenerated(good)
	if err != nil || !strings.Contains(got, hwMarkdown()) || strings.Contains(got, "OLDTEXT") {
		t.Errorf("FillGenerated(good) = %q, %v", got, err)
	}
	for _, bad := range []string{
		"<!-- begin generated: nope -->\n<!-- end generated: nope -->",
		"<!-- begin generated: hw -->\n<!-- end generated: presets -->",
		"<!-- begin generated: hw -->\nnever closed",
	} {
		if _, err := FillGenerated(bad); err == nil {
			t.Errorf("FillGenerated(%q): no error", bad)
		}
	}
}

var nodeName = regexp.MustCompile(`^node[0-9]+$`)

// TestQuotes: every rule the report states has a sentence of it, quoted whole
// (the words were checked against the MPI-4.1 pages when they were written; here
// only their form: no elision, whole sentences, a node name).
func TestQuotes(t *testing.T) {
	for _, r := range Rules {
		if len(r.Nodes) > 0 && len(r.Quotes) == 0 {
			t.Errorf("%s rests on %v but quotes no sentence of it", r.ID, r.Nodes)
		}
		if len(r.Quotes) > 0 && !slices.ContainsFunc(r.Quotes, func(q Quote) bool { return slices.Contains(r.Nodes, q.Node) }) && len(r.Nodes) > 0 {
			t.Errorf("%s quotes none of its own nodes %v", r.ID, r.Nodes)
		}
		for _, q := range r.Quotes {
			switch {
			case !nodeName.MatchString(q.Node):
				t.Errorf("%s: quote's node %q is not nodeNNN", r.ID, q.Node)
			case strings.Contains(q.Text, "...") || strings.Contains(q.Text, "…"):
				t.Errorf("%s: quote leaves words out: %q", r.ID, q.Text)
			case !strings.HasSuffix(q.Text, "."):
				t.Errorf("%s: quote is not a whole sentence: %q", r.ID, q.Text)
			case q.Text[0] < 'A' && q.Text[0] != '"' || q.Text[0] > 'Z' && q.Text[0] < 'a':
				t.Errorf("%s: quote does not start a sentence: %q", r.ID, q.Text)
			}
		}
	}
}

// TestExamples: every rule has an example, every example file belongs to a rule,
// and an example fits in 80 columns, as explain prints it. cmd/rmacheck runs them.
func TestExamples(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range Rules {
		ids[r.ID.String()+".lit"] = true
		ex := r.Example()
		if ex == "" {
			t.Errorf("%s has no example %s", r.ID, r.ExamplePath())
			continue
		}
		if !strings.HasPrefix(ex, "MPI "+r.ID.String()) {
			t.Errorf("%s: the example's name does not start with the rule's id: %q", r.ID, strings.SplitN(ex, "\n", 2)[0])
		}
		for i, l := range strings.Split(ex, "\n") {
			if len(l) > 80 {
				t.Errorf("%s:%d: %d columns, more than 80", r.ExamplePath(), i+1, len(l))
			}
		}
	}
	for _, name := range ExampleFiles() {
		if !ids[name] {
			t.Errorf("%s/%s belongs to no rule", ExampleDir, name)
		}
	}
}
