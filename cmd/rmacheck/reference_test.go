package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The reference in docs/ (language.md, rules.md, semantics.md) is checked here against
// the tool: its examples run, the rule examples raise their rules, explain prints what
// rules.md says, and every link and citation of the README and docs/ resolves inside
// the repository. litmus's and spec's tests check that the pages cover the language and
// the catalogue, and that the generated parts are up to date.

// litBlock is a fenced block of a page marked "lit": a whole test.
type litBlock struct {
	line int // of the opening fence, 1-based
	text string
}

func litBlocks(t *testing.T, path string) []litBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []litBlock
	var cur *litBlock
	var body []string
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && (l == "```lit" || strings.HasPrefix(l, "```lit ")):
			cur = &litBlock{line: i + 1}
			body = nil
		case cur != nil && strings.HasPrefix(l, "```"):
			cur.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		}
	}
	return blocks
}

// TestLanguageExamples runs every example of the language reference against its
// expect lines, and checks that together they use every instruction.
func TestLanguageExamples(t *testing.T) {
	t.Chdir(corpus.Root())
	const page = "docs/language.md"
	blocks := litBlocks(t, page)
	if len(blocks) < 15 {
		t.Fatalf("%s has %d lit examples, want one per construct", page, len(blocks))
	}
	used := map[litmus.Op]bool{}
	dir := t.TempDir()
	for _, b := range blocks {
		t.Run(fmt.Sprintf("line%d", b.line), func(t *testing.T) {
			test, err := litmus.Parse(fmt.Sprintf("%s:%d", page, b.line), []byte(b.text))
			if err != nil {
				t.Fatalf("%s:%d: %v", page, b.line, err)
			}
			if len(test.Expects) == 0 {
				t.Errorf("%s:%d: the example has no expect line, so nothing checks what it shows", page, b.line)
			}
			for _, p := range test.Procs {
				for _, ins := range p.Code {
					if ins != nil {
						used[ins.Op] = true
					}
				}
			}
			file := filepath.Join(dir, fmt.Sprintf("line%d.lit", b.line))
			if err := os.WriteFile(file, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, stdout, stderr := runCLI("run", file); code != 0 || !strings.Contains(stdout, ", 0 failed") {
				t.Errorf("%s:%d: run: exit %d\n%s%s", page, b.line, code, stdout, stderr)
			}
			if code, stdout, _ := runCLI("fmt", "-l", file); code != 0 || stdout != "" {
				t.Errorf("%s:%d: the example is not in canonical form (rmacheck fmt)", page, b.line)
			}
		})
	}
	for op := litmus.Op(0); op < litmus.NumOps; op++ {
		if !used[op] {
			t.Errorf("no example of %s uses %s", page, op)
		}
	}
}

// restatedAs are the rules reported under another id (their text says so).
var restatedAs = map[spec.RuleID]spec.RuleID{spec.U4: spec.CConflict, spec.S2: spec.CConflict}

// TestRuleExamples: each rule's example meets its expect lines, and those lines
// show the rule: an erroneous rule as Erroneous(RULE), a race-class rule in the
// race list, a rule the model executes by an observation alone.
func TestRuleExamples(t *testing.T) {
	t.Chdir(corpus.Root())
	for _, r := range spec.Rules {
		t.Run(r.ID.String(), func(t *testing.T) {
			path := r.ExamplePath()
			test, err := litmus.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := r.ID
			if id, ok := restatedAs[r.ID]; ok {
				want = id
			}
			shows := false
			for _, e := range test.Expects {
				for _, it := range e.Items {
					switch r.Class {
					case spec.ClassErroneous:
						shows = shows || it.Obs == litmus.ObsErroneous && it.Rule == want
					case spec.ClassRace:
						shows = shows || slices.Contains(it.Race, want)
					default:
						shows = shows || it.Obs != litmus.ObsErroneous
					}
				}
			}
			if !shows {
				t.Errorf("%s: no expect item shows %s", path, want)
			}
			if code, stdout, stderr := runCLI("run", path); code != 0 || !strings.Contains(stdout, ", 0 failed") {
				t.Errorf("run %s: exit %d\n%s%s", path, code, stdout, stderr)
			}
			if code, stdout, _ := runCLI("fmt", "-l", path); code != 0 || stdout != "" {
				t.Errorf("%s is not in canonical form (rmacheck fmt -w)", path)
			}
		})
	}
}

// words is text with its blanks and line breaks collapsed, for comparing what two
// printers wrap differently.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestExplainPrintsTheRulesPage: `rmacheck explain ID` and the rule's section of
// docs/rules.md say the same: title, class, text, the report's sentences and pages,
// and the example.
func TestExplainPrintsTheRulesPage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(corpus.Root(), spec.RulesPage))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range spec.Rules {
		_, out, _ := runCLI("explain", r.ID.String())
		start := strings.Index(string(page), "\n## "+r.ID.String()+"\n")
		if start < 0 {
			t.Errorf("%s has no section %s", spec.RulesPage, r.ID)
			continue
		}
		section := string(page[start+1:])
		if end := strings.Index(section, "\n## "); end >= 0 {
			section = section[:end]
		}
		parts := []string{r.Title, r.Class.String(), r.Class.Meaning(), r.Text}
		for _, q := range r.Quotes {
			parts = append(parts, q.Text, q.URL())
		}
		for _, n := range r.Nodes {
			parts = append(parts, spec.NodeURL(n))
		}
		if len(r.Nodes) == 0 {
			parts = append(parts, spec.NoPage)
		}
		for _, p := range parts {
			if !strings.Contains(words(out), words(p)) {
				t.Errorf("explain %s does not print %q", r.ID, p)
			}
			if !strings.Contains(words(section), words(p)) {
				t.Errorf("%s, section %s, does not say %q", spec.RulesPage, r.ID, p)
			}
		}
		if ex := r.Example(); !strings.Contains(out, ex) || !strings.Contains(section, ex) {
			t.Errorf("explain %s and %s must both show the example %s verbatim", r.ID, spec.RulesPage, r.ExamplePath())
		}
	}
}

// TestReferenceNamesEverySwitchAndPreset: docs/semantics.md explains every switch,
// preset and hardware model in its own words, beside the generated tables.
func TestReferenceNamesEverySwitchAndPreset(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Root(), spec.SemanticsPage))
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile(`(?s)<!-- begin generated: [a-z]+ -->.*?<!-- end generated: [a-z]+ -->`).ReplaceAllString(string(data), "")
	var names []string
	for _, si := range spec.Switches {
		names = append(names, si.Name)
	}
	names = append(names, spec.PresetNames()...)
	names = append(names, strings.Fields(spec.HWNames(" "))...)
	for _, n := range names {
		if !strings.Contains(prose, "`"+n+"`") && !strings.Contains(prose, "`"+n+",") {
			t.Errorf("%s says nothing of %s outside its generated tables", spec.SemanticsPage, n)
		}
	}
}

// citedPath finds the files a page names in running text or code: a path with a
// directory and a file extension (litmus/rma/x.lit, ../shared/acceptance/01-SB.lit),
// or a bare Markdown page name (SEMANTICS.md).
var citedPath = regexp.MustCompile(`(?:^|[\s(` + "`" + `'"\[])((?:\.\.?/)?(?:[\w.+-]+/)+[\w.+*-]+\.(?:lit|md|go|c|json|txt|golden|htm)|\.\./[\w.+/-]*|[A-Za-z][\w.-]*\.md)\b`)

// placeholder is a path component that stands for any name (NAME/report.md,
// spec/examples/ID.lit): capitals only.
var placeholder = regexp.MustCompile(`(^|/)[A-Z]{2,}(/|\.[a-z]+$)`)

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

var explainCite = regexp.MustCompile("rmacheck explain ([A-Za-z][\\w.-]*)")

// TestDocLinks: every relative link of README.md and docs/*.md leads to a file of the
// repository (and to a heading of it, for an anchor), every file they cite exists,
// and every `rmacheck explain NAME` names something explain knows.
func TestDocLinks(t *testing.T) {
	root := corpus.Root()
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		text := string(data)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			checkLink(t, root, p, rel, m[1])
		}
		for _, m := range citedPath.FindAllStringSubmatch(text, -1) {
			cite := strings.TrimSuffix(m[1], ".")
			if strings.Contains(cite, "/") && placeholder.MatchString(cite) || resolves(root, filepath.Dir(p), cite) {
				continue
			}
			t.Errorf("%s cites %s, which is not in the repository", rel, cite)
		}
		for _, m := range explainCite.FindAllStringSubmatch(text, -1) {
			if !explainKnows(m[1]) {
				t.Errorf("%s: rmacheck explain %s names no rule, switch, preset or hardware model", rel, m[1])
			}
		}
	}
}

// checkLink checks one Markdown link of page (rel: its path from the root).
func checkLink(t *testing.T, root, page, rel, target string) {
	t.Helper()
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return
	}
	path, anchor, _ := strings.Cut(target, "#")
	file := page
	if path != "" {
		file = filepath.Join(filepath.Dir(page), path)
		if !inside(root, file) {
			t.Errorf("%s links %s, outside the repository", rel, target)
			return
		}
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s links %s, which does not exist", rel, target)
			return
		}
	}
	if anchor == "" {
		return
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.HasSuffix(file, ".md") {
		t.Errorf("%s links %s: an anchor needs a Markdown page", rel, target)
		return
	}
	if !slices.Contains(anchors(string(data)), anchor) {
		t.Errorf("%s links %s, but %s has no heading with that anchor", rel, target, filepath.Base(file))
	}
}

// anchors are the anchors GitHub gives a page's headings: lower case, punctuation
// other than - and _ dropped, blanks turned into -, and -1, -2 ... for repeats.
func anchors(page string) []string {
	var out []string
	seen := map[string]int{}
	inCode := false
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, c := range strings.ToLower(h) {
			switch {
			case c == ' ':
				b.WriteRune('-')
			case c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				b.WriteRune(c)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", a, n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// resolves reports whether a cited path names a file of the repository, relative to
// the citing page's folder or to the root (a pattern with * needs one match); a bare
// page name (NOTES.md, where the text says whose) may stand anywhere in it.
func resolves(root, dir, cite string) bool {
	if !strings.Contains(cite, "/") {
		return baseNames(root)[cite]
	}
	for _, base := range []string{dir, root} {
		p := filepath.Join(base, cite)
		if !inside(root, p) {
			continue
		}
		if matches, _ := filepath.Glob(p); len(matches) > 0 {
			return true
		}
	}
	return false
}

// baseNames returns the names of the files under root, outside .git.
func baseNames(root string) map[string]bool {
	names := map[string]bool{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Name() == ".git" && d.IsDir():
			return filepath.SkipDir
		case !d.IsDir():
			names[d.Name()] = true
		}
		return nil
	})
	return names
}

func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func explainKnows(name string) bool {
	if _, ok := spec.LookupRule(name); ok {
		return true
	}
	if _, ok := spec.SwitchByName(name); ok {
		return true
	}
	if _, ok := spec.LookupPreset(spec.PresetName(name)); ok {
		return true
	}
	if _, err := spec.ParseHW(strings.ToLower(name)); err == nil || strings.EqualFold(name, "hw") {
		return true
	}
	return slices.Contains([]string{"RULE", "ID", "SWITCH", "PRESET", "NAME"}, name) // placeholders
}

// anchoredCite is a citation of a page's heading in a message or a comment:
// docs/semantics.md#concurrency, docs/rules.md#e-epoch.
var anchoredCite = regexp.MustCompile(`((?:[\w.-]+/)*[\w.-]+\.md)#([\w-]+)`)

// TestMessageCitations: every message (a string of the program) and every code
// comment that cites a file names one of the repository, a cited heading exists, and
// every `rmacheck explain NAME` names something explain knows. What a user reads in
// an error, a help text or a generated page comes from these strings, so a citation
// of the design notes outside the repository (../shared) fails here, not in a clone.
// Tests are left out, and internal/corpus, which finds files for tests only: they
// name ../shared/acceptance, which they run when it is present.
func TestMessageCitations(t *testing.T) {
	root := corpus.Root()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, "internal/corpus/") {
			return nil
		}
		// a path is read from the module root (commands and tests run there), from the
		// file's folder (a comment naming a file beside it), and for evidence, which
		// writes the pages of reports/, from there
		bases := []string{root, filepath.Dir(path)}
		if strings.HasPrefix(rel, "evidence/") {
			bases = append(bases, filepath.Join(root, "reports"))
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range file.Comments {
			checkCitations(t, root, bases, fmt.Sprintf("%s:%d", rel, fset.Position(cg.Pos()).Line), cg.Text())
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					checkCitations(t, root, bases, fmt.Sprintf("%s:%d", rel, fset.Position(lit.Pos()).Line), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkCitations checks the citations of one message or comment (where: file:line),
// whose paths are read from one of bases.
func checkCitations(t *testing.T, root string, bases []string, where, text string) {
	t.Helper()
	for _, m := range citedPath.FindAllStringSubmatch(text, -1) {
		cite := strings.TrimSuffix(m[1], ".")
		if strings.Contains(cite, "/") && placeholder.MatchString(cite) ||
			slices.ContainsFunc(bases, func(b string) bool { return resolves(root, b, cite) }) {
			continue
		}
		t.Errorf("%s cites %s, which is not in the repository", where, cite)
	}
	for _, m := range anchoredCite.FindAllStringSubmatch(text, -1) {
		page := filepath.Join(root, m[1])
		if !strings.Contains(m[1], "/") {
			page = filepath.Join(root, "docs", m[1]) // rules.md#ID, beside the pages that cite it
		}
		data, err := os.ReadFile(page)
		if err != nil {
			continue // the path check above reports it
		}
		if !slices.Contains(anchors(string(data)), m[2]) {
			t.Errorf("%s cites %s#%s, but the page has no heading with that anchor", where, m[1], m[2])
		}
	}
	for _, m := range explainCite.FindAllStringSubmatch(text, -1) {
		if !explainKnows(m[1]) {
			t.Errorf("%s: rmacheck explain %s names no rule, switch, preset or hardware model", where, m[1])
		}
	}
}
