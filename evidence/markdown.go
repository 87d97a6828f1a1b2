package evidence

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// Markdown renders the report as GitHub-flavoured Markdown.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n", r.Title)
	w("Produced by `%s` (rmacheck %s) on %s.\n", r.Command, r.Version, r.Date)
	if libs := r.libraries(); libs != "" {
		w("Conformance results: %s.\n", libs)
	}
	w("\n## Summary\n\n")
	r.summaryMarkdown(&b)
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
	for _, c := range Contradictions {
		w("- %s: %s — but %s. %s\n", c.Node, c.First, c.Second, c.Note)
	}
	for _, pr := range r.Probes {
		w("\n## What the library says: `%s`\n\n```\n%s\n```\n", pr.Name, strings.TrimRight(pr.Text, "\n"))
	}
	for _, tr := range r.Tests {
		r.testMarkdown(&b, tr)
	}
	return []byte(b.String())
}

func (r *Report) libraries() string {
	seen := map[string]bool{}
	var out []string
	for _, c := range r.Conform {
		name := c.Target
		if c.Library != "" {
			name += " (" + c.Library + ")"
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

func (r *Report) summaryMarkdown(b *strings.Builder) {
	head := []string{"test"}
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			head = append(head, s.Name+" ("+hw.String()+")")
		}
	}
	head = append(head, "distinguishes")
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, tr := range r.Tests {
		row := []string{"[" + tr.Test.Name + "](#" + anchor(tr.Test.Name) + ")"}
		for _, hw := range r.HWs {
			for _, s := range r.Sems {
				row = append(row, tr.Result(s, hw).Verdict().String())
			}
		}
		var pairs []string
		for _, d := range tr.Distinctions {
			pairs = append(pairs, d.SemA.Name+" / "+d.SemB.Name)
		}
		row = append(row, strings.Join(pairs, ", "))
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	}
}

func anchor(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			b.WriteRune(c)
		case c == '+' || c == '.' || c == '_':
			b.WriteByte('-')
		}
	}
	return "t-" + b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func (r *Report) testMarkdown(b *strings.Builder, tr *TestReport) {
	t := tr.Test
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("\n## <a id=\"%s\"></a>%s\n\n", anchor(t.Name), t.Name)
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
	w("\nCondition: `%s (%s)`\n\n", t.Quant, litmus.CondString(t.Cond))
	w("| semantics | hw | observation | outcomes | flags |\n|---|---|---|---|---|\n")
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			res := tr.Result(s, hw)
			w("| %s | %s | %s | %s | %s |\n", s.Name, hw, res.Verdict().String(), outcomeList(res), flagLinks(res))
		}
	}
	if r.Exploit {
		r.exploitMarkdown(b, tr)
	}
	for _, d := range tr.Distinctions {
		w("\n**%s vs %s.**", d.SemA.Name, d.SemB.Name)
		distinctionMarkdown(b, d)
	}
	if runs := r.ConformFor(t); len(runs) > 0 {
		w("\nConformance:\n\n| target | semantics | runs | observation | histogram | non-conforming |\n|---|---|---|---|---|---|\n")
		for _, c := range runs {
			w("| %s | %s | %d | %s | %s | %d |\n", c.Target+libSuffix(c), c.Preset, c.Runs, c.Observation+c.Skipped, histogramText(c), c.NonConforming)
		}
	}
}

func libSuffix(c output.ConformRecord) string {
	var parts []string
	if c.Library != "" {
		parts = append(parts, c.Library)
	}
	if p := c.Placement; p != nil {
		where := p.Launcher
		if p.Nodes > 0 {
			where = fmt.Sprintf("%d ranks on %d node(s) via %s", len(p.Hosts), p.Nodes, p.Launcher)
		}
		parts = append(parts, where)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func histogramText(c output.ConformRecord) string {
	var parts []string
	for _, h := range c.Histogram {
		mark := ""
		if !h.Allowed {
			mark = " **NON-CONFORMING**"
		}
		parts = append(parts, fmt.Sprintf("%d × %s%s", h.Count, valuesText(h.Values), mark))
	}
	return strings.Join(parts, "<br>")
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
		parts = append(parts, s)
	}
	return strings.Join(parts, "<br>")
}

func flagLinks(res *explorer.Result) string {
	var parts []string
	for _, f := range res.Flags {
		if link := ruleLink(f.Rule); link != "" {
			parts = append(parts, fmt.Sprintf("[%s](%s)", f.Rule, link))
		} else {
			parts = append(parts, f.Rule)
		}
	}
	return strings.Join(parts, ", ")
}

func (r *Report) exploitMarkdown(b *strings.Builder, tr *TestReport) {
	for _, s := range r.Sems {
		ex, def := tr.Exploit[s.Name], tr.Result(s, model.Relaxed)
		if ex == nil || def == nil {
			continue
		}
		added := explorer.Compare(ex, def).OnlyX
		if len(added) == 0 {
			continue
		}
		var parts []string
		for _, o := range added {
			parts = append(parts, "`"+ex.Program.OutcomeString(o.Values)+"`")
		}
		fmt.Fprintf(b, "\nExploiting the assertions under %s (`--assert exploit`) adds %s.\n", s.Name, strings.Join(parts, ", "))
	}
}

func distinctionMarkdown(b *strings.Builder, d *explorer.Diff) {
	sides := d.Sides()
	for k, s := range sides {
		for _, o := range s.Only {
			fmt.Fprintf(b, " %s, for instance so:\n\n", upperFirst(output.Allows(s, sides[1-k], "`"+s.Result.Program.OutcomeString(o.Values)+"`")))
			for i, line := range output.TraceText(s.Result.Program, o.Witness) {
				fmt.Fprintf(b, "%d. %s\n", i+1, line)
			}
			b.WriteString("\n")
		}
	}
	for _, s := range d.Sides() {
		for i := range s.Flags {
			fmt.Fprintf(b, " Only %s raises %s\n", s.Name, output.DiagnosticLine(d.Test.File, &s.Flags[i].Diagnostic))
		}
	}
	b.WriteString("\n")
}
