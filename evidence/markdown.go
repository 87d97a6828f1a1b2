package evidence

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

// Markdown renders the report as GitHub-flavoured Markdown.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n", titleEscape(r.Title))
	if q := r.Question; q != nil {
		w("**Question.** %s\n\n**Answer.** %s\n\n_%s_\n", q.Question.Markdown(), q.Answer.Markdown(), q.checksText().Markdown())
	}
	w("\n## Findings\n")
	for _, s := range r.FindingsText() {
		w("\n### %s\n\n", s.Title)
		if len(s.Intro) > 0 {
			w("%s\n\n", s.Intro.Markdown())
		}
		for _, it := range s.Items {
			w("- %s\n", it.Text.Markdown())
			for _, sub := range it.Sub {
				w("  - %s\n", sub.Markdown())
			}
		}
	}
	w("\n## Summary\n\n")
	w("%s\n\n", r.summaryNote().Markdown())
	head := r.summaryHeader()
	w("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, tr := range r.Tests {
		w("| %s |\n", strings.Join(mdCells(r.summaryRow(tr)), " | "))
	}
	if q := r.Question; q != nil && len(q.Cites) > 0 {
		w("\n## The sentences of the standard the answer rests on\n\nFrom the MPI-4.1 report:\n\n")
		for _, c := range q.Cites {
			w("- [%s](%s): %s\n", c.Node, spec.NodeURL(c.Node), c.Text.Markdown())
		}
	}
	if r.hasSmallest() {
		w("\n## Smallest distinguishing tests\n\n")
		w("Found by `rmacheck distinguish` (the generated family of `rmacheck gen --mix`, smallest first, each distinguishing test shrunk by delta debugging).\n")
		for _, s := range r.Smallest {
			if s.Diff != nil {
				r.smallestMarkdown(&b, s)
			}
		}
	}
	w("\n## The readings and the sentences they rest on\n\n")
	w("| switch | when on | rests on |\n|---|---|---|\n")
	for _, si := range spec.Switches {
		w("| `%s` | %s | %s |\n", si.Name, mdCell(si.Meaning), mdCell(si.Basis))
	}
	w("\n| preset | switches on |\n|---|---|\n")
	for _, p := range spec.Presets {
		on := p.Switches.String()
		if on == "" {
			on = "none"
		}
		w("| `%s` | %s |\n", p.Name, on)
	}
	w("\nSentences that pull two ways:\n\n")
	for _, c := range spec.Contradictions {
		w("- %s: %s — but %s. %s\n", c.Node, c.First, c.Second, c.Note)
	}
	w("\n## Tests\n\n%s\n", r.testsNote().Markdown())
	for _, tr := range r.Tests {
		r.testMarkdown(&b, tr)
	}
	for i := range r.Probes {
		r.probeMarkdown(&b, &r.Probes[i])
	}
	w("\n## About this report\n\nProduced by `%s` (rmacheck %s) on %s.\n", r.Command, r.Version, r.Date)
	return []byte(b.String())
}

func (r *Report) hasSmallest() bool {
	for _, s := range r.Smallest {
		if s.Diff != nil {
			return true
		}
	}
	return false
}

// summaryNote says how to read the summary table.
func (r *Report) summaryNote() Prose {
	var hws []string
	for _, hw := range r.HWs[1:] {
		hws = append(hws, hw.String())
	}
	s := P(Pf("Each cell is the verdict of the test under that reading on hw %s, spelled as an expect line spells it: the observation of the condition (Never, Sometimes, Always), then each race-class rule some execution raises (", r.HWs[0]),
		Code("Sometimes+RACE"), "), or ", Code("Erroneous(RULES)"), " when some execution breaks an erroneous-class rule.")
	if len(hws) > 0 {
		s = P(s, Pf(" Where hw %s gives another verdict, it follows in parentheses.", strings.Join(hws, " or ")))
	}
	if len(r.Sems) > 1 {
		s = P(s, " Pairs apart: how many pairs of readings the test tells apart (hw relaxed).")
	}
	if ts := r.targets(); len(ts) > 0 {
		s = P(s, Pf(" The last columns give the status of the test's conformance runs on each target (one run per semantics), compared with the model on hw %s.", r.comparedHW()))
	}
	return s
}

// testsNote says how to read a test's section.
func (r *Report) testsNote() Prose {
	s := P("Each test: its question, its expect lines, the program, the verdict and outcomes under each reading and hw model (", Strong{Plain("bold")},
		": outcomes that satisfy the condition), each difference between two readings with the witness execution that shows it (each distinct witness once, ",
		Code("W1"), ", ", Code("W2"), ", …: a step marked ", Code("[early: ...]"),
		" runs before earlier rows of its process that have not executed, which the hw model allows; ", Code("[X from step N]"), " says which step wrote the value a step read)")
	if len(r.Conform) > 0 {
		s = P(s, Pf(", and its conformance runs: what each target showed, compared with the outcomes the model allows on hw %s (allowed outcomes no run showed are listed as unseen: not an error, only not observed; the reference runtime executes the model's own steps on real memory, so its rows are evidence about the hardware and the runtime, not an independent check of the model)", r.comparedHW()))
	}
	return P(s, ".")
}

func mdCells(cells []Prose) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdCell(c.Markdown())
	}
	return out
}

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

func (r *Report) smallestMarkdown(b *strings.Builder, s *Smallest) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	d := s.Diff
	w("\n### <a id=\"%s\"></a>%s vs %s: %s\n\n", smallestAnchor(s), s.X.Name, s.Y.Name, d.Test.Name)
	w("%d instructions, shrunk from `%s` (hw %s). %s: %s; %s: %s.\n\n```\n%s```\n", s.Instrs, s.From, s.HW, s.X.Name, d.A.Verdict(), s.Y.Name, d.B.Verdict(), string(s.Source))
	tr := &TestReport{Test: d.Test, Distinctions: []*explorer.Diff{d}, Anchor: smallestAnchor(s)}
	tr.collectWitnesses()
	pairsMarkdown(b, tr)
}

func (r *Report) testMarkdown(b *strings.Builder, tr *TestReport) {
	t := tr.Test
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("\n### <a id=\"%s\"></a>%s\n\n", anchor(t.Name), t.Name)
	if t.HasDoc {
		w("%s\n\n", t.Doc)
	}
	w("File `%s`", t.File)
	for _, m := range t.Meta {
		w("; %s=%s", m.Key, m.Value)
	}
	w(".\n\n```\n%s\n```\n\n", strings.Join(initText(t), "\n"))
	header, rows := programRows(t)
	w("| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, row := range rows {
		for i := range row {
			row[i] = "`" + mdCell(row[i]) + "`"
			if row[i] == "``" {
				row[i] = ""
			}
		}
		w("| %s |\n", strings.Join(row, " | "))
	}
	w("\nCondition: `%s (%s)`\n", t.Quant, litmus.CondString(t.Cond))
	if ex := expectLines(t); len(ex) > 0 {
		w("\nThe test's expect lines (what it must give; `make` checks them):\n\n```\n%s\n```\n", strings.Join(ex, "\n"))
	}
	w("\n| semantics | hw | verdict | outcomes | flags |\n|---|---|---|---|---|\n")
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			res := tr.Result(s, hw)
			w("| %s | %s | %s | %s | %s |\n", s.Name, hw, res.Verdict().String(), outcomeList(res), flagLinks(res))
		}
	}
	if r.Exploit {
		r.exploitMarkdown(b, tr)
	}
	pairsMarkdown(b, tr)
	if len(tr.Conform) > 0 || len(tr.Errors) > 0 {
		w("\nConformance (each run compared with the model on the hw model it names; reference: the model's own steps on real memory):\n\n")
		w("| target | semantics | model (hw) | runs | outcomes seen | allowed, unseen | result |\n|---|---|---|---|---|---|---|\n")
		for _, c := range tr.Conform {
			w("| %s | %s | %s | %d | %s | %s | %s |\n", targetCell(c), c.Preset, mdCell(modelCell(tr, c.Preset, c.HW)), c.Runs,
				mdCell(histogramText(c).Markdown()), mdCell(unseenText(c).Markdown()), mdCell(resultText(c).Markdown()))
		}
		for _, e := range tr.Errors {
			w("| %s | %s | %s | - | - | - | %s |\n", e.Target.Name(), e.Preset, mdCell(modelCell(tr, e.Preset, e.HW)), mdCell(e.Status.String()+": "+e.Error))
		}
	}
}

// pairsMarkdown lists each difference of each pair with its witness, then the
// witnesses, each once.
func pairsMarkdown(b *strings.Builder, tr *TestReport) {
	if c := tr.Condition; c != nil {
		fmt.Fprintf(b, "\nAn execution that satisfies the condition: [%s](#%s).\n", c.Label(), witnessAnchor(tr, c))
	}
	if len(tr.Pairs) > 0 {
		b.WriteString("\n| readings | difference | witness |\n|---|---|---|\n")
	}
	for _, row := range tr.Rows() {
		wl := ""
		if row.Witness != nil {
			wl = "[" + row.Witness.Label() + "](#" + witnessAnchor(tr, row.Witness) + ")"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", mdCell(strings.Join(row.Pairs, "; ")), mdCell(upperFirst(row.Text)), wl)
	}
	for _, wt := range tr.Witnesses {
		fmt.Fprintf(b, "\n<a id=\"%s\"></a>**%s** (%s, under %s):\n\n", witnessAnchor(tr, wt), wt.Label(), wt.What, strings.Join(wt.Sems, ", "))
		for i, line := range wt.Lines {
			if i < len(wt.Trace.Steps) && wt.Trace.Steps[i].Marked {
				line += "  <- " + wt.Mark.String()
			}
			fmt.Fprintf(b, "%d. %s\n", i+1, mdEscape(line))
		}
	}
}

func witnessAnchor(tr *TestReport, w *Witness) string {
	return tr.anchor() + "-" + strings.ToLower(w.Label())
}

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

// targetCell names a run's target: the library, where it is installed (when not
// the Debian package), its transport, and where its ranks ran when the launcher
// placed them (conform --launcher, --hostfile).
func targetCell(c record.Conform) string {
	var parts []string
	if c.Target.Version != "" {
		parts = append(parts, c.Target.Version)
	}
	if c.Target.Prefix != "" {
		parts = append(parts, "at "+c.Target.Prefix)
	}
	if c.Target.Transport != "" {
		parts = append(parts, "over "+c.Target.Transport)
	}
	if p := c.Placement; p != nil && p.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d ranks on %d node(s) via %s", len(p.Hosts), p.Nodes, p.Launcher))
	}
	if len(parts) == 0 {
		return c.Target.Name()
	}
	return c.Target.Name() + " (" + strings.Join(parts, "; ") + ")"
}

// modelCell is the model's verdict for the semantics on the hw model a run was
// compared with, and how many outcomes it allows.
func modelCell(tr *TestReport, preset string, hw spec.HW) string {
	res := tr.Results[ResultKey{preset, hw}]
	if res == nil {
		return "-"
	}
	return fmt.Sprintf("%s (hw %s), %s allowed", res.Verdict(), hw, output.Plural(len(res.Outcomes), "outcome"))
}

func histogramText(c record.Conform) Prose {
	if c.Skipped != "" || c.SpinLimit != "" {
		return P("-")
	}
	var parts []Prose
	for _, h := range c.Histogram {
		part := P(Pf("%d × ", h.Count), Code(valuesText(h.Values)))
		if !h.Allowed {
			part = P(part, " ", Strong{Plain(conform.StatusNonConforming.String())})
		}
		parts = append(parts, part)
	}
	return cellLines(parts)
}

func unseenText(c record.Conform) Prose {
	if c.Skipped != "" || c.SpinLimit != "" {
		return P("-")
	}
	if len(c.Unseen) == 0 {
		return P("none")
	}
	var parts []Prose
	for _, u := range c.Unseen {
		parts = append(parts, P(Code(valuesText(u))))
	}
	return cellLines(parts)
}

// cellLines puts each piece on a line of its own in a table cell.
func cellLines(parts []Prose) Prose {
	var p Prose
	for i, x := range parts {
		if i > 0 {
			p = append(p, Break{})
		}
		p = append(p, x...)
	}
	return p
}

func resultText(c record.Conform) Prose {
	switch c.Status {
	case conform.StatusSpinLimit:
		// weak progress, no violation: not bold as NON-CONFORMING is
		return P(Plain(c.Status.String()), ": ", ParseProse(strings.TrimPrefix(c.SpinLimit, "SPIN-LIMIT ")))
	case conform.StatusSkipped:
		return ParseProse(c.Skipped)
	case conform.StatusNonConforming:
		return P(Strong{Plain(c.Status.String())}, Pf(": %d of %d runs (%s)", c.NonConforming, c.Runs, percent(c.NonConforming, c.Runs)))
	}
	return P("ok")
}

func valuesText(v map[string]int64) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d;", k, v[k])
	}
	return b.String()
}

func outcomeList(res *explorer.Result) string {
	var parts []string
	for _, o := range res.Outcomes {
		s := "`" + res.Program.OutcomeString(o.Values) + "`"
		if o.Sat {
			s = "**" + s + "**"
		}
		if len(o.Flags) > 0 {
			s += " (" + strings.Join(spec.RuleNames(o.Flags), ",") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "<br>")
}

func flagLinks(res *explorer.Result) string {
	var parts []string
	seen := map[spec.RuleID]bool{}
	for _, f := range res.Flags {
		if seen[f.Rule] {
			continue
		}
		seen[f.Rule] = true
		if link := ruleLink(f.Rule); link != "" {
			parts = append(parts, fmt.Sprintf("[%s](%s)", f.Rule, link))
		} else {
			parts = append(parts, f.Rule.String())
		}
	}
	return strings.Join(parts, ", ")
}

func (r *Report) exploitLines(tr *TestReport) []Prose {
	var out []Prose
	for _, s := range r.Sems {
		ex, def := tr.Exploit[s.Name], tr.Result(s, spec.Relaxed)
		if ex == nil || def == nil {
			continue
		}
		added := explorer.Compare(ex, def).OnlyX
		if len(added) == 0 {
			continue
		}
		var parts []Prose
		for _, o := range added {
			parts = append(parts, P(Code(ex.Program.OutcomeString(o.Values))))
		}
		out = append(out, P("Exploiting the assertions under "+s.Name+" (", Code("--assert exploit"), ") adds ", Join(parts, ", "), "."))
	}
	return out
}

func (r *Report) exploitMarkdown(b *strings.Builder, tr *TestReport) {
	for _, line := range r.exploitLines(tr) {
		fmt.Fprintf(b, "\n%s\n", line.Markdown())
	}
}

func (r *Report) probeMarkdown(b *strings.Builder, pr *Probe) {
	fmt.Fprintf(b, "\n## What the library says: `%s`\n\n%s (MPI %s), from `rmacheck probe --target %s --json`.\n\n", pr.Name, pr.Library, pr.Version, pr.Target)
	b.WriteString("| topic | item | value | verdict |\n|---|---|---|---|\n")
	for _, res := range pr.Results {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", res.Topic, mdCell(res.Item), mdCell(res.Value), mdCell(res.Verdict))
	}
}
