package evidence

import (
	"fmt"
	"html"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// css sets every font size in px, none below 12 px (TestLegibleFontSizes).
const css = `body{font-family:system-ui,sans-serif;font-size:16px;line-height:1.45;max-width:1340px;margin:24px auto;padding:0 16px;color:#1d1d1d}
h1{font-size:28px}h2{font-size:22px;border-bottom:1px solid #ccc;margin-top:36px}h3{font-size:18px;margin-top:28px}
table{border-collapse:collapse;margin:10px 0;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid #bbb;padding:4px 8px;vertical-align:top;font-size:14px;text-align:left}
th{background:#eee}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px}pre{background:#f5f5f5;padding:8px;overflow-x:auto}
.sat{font-weight:bold}.err{color:#a00}.race{color:#8a5a00}.diff{background:#fff4d6}.bad{color:#b00020;font-weight:bold}
.answer{background:#eef6ee;border-left:4px solid #1a7f37;padding:8px 14px}.checks{font-size:14px;color:#444}
.findings li{margin:4px 0}.note{font-size:14px;color:#444}
.diagram-box{overflow-x:auto;margin:8px 0 18px}svg.diagram{background:#fcfcfc;border:1px solid #ddd}
.witness-title{font-size:15px;margin:14px 0 2px}
table.summary td,table.summary th{font-size:13px;padding:3px 6px}`

// HTML renders the report as one self-contained page: inline style, inline SVG, no
// script, no external resource.
func (r *Report) HTML() []byte {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	e := html.EscapeString
	w("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n", e(r.Title), css)
	w("<h1>%s</h1>\n", e(r.Title))
	if q := r.Question; q != nil {
		w("<div class=\"answer\"><p><strong>Question.</strong> %s</p><p><strong>Answer.</strong> %s</p><p class=\"checks\">%s</p></div>\n",
			q.Question.HTML(), q.Answer.HTML(), q.checksText().HTML())
	}
	w("<h2 id=\"findings\">Findings</h2>\n")
	for _, s := range r.FindingsText() {
		w("<h3>%s</h3>\n", e(s.Title))
		if len(s.Intro) > 0 {
			w("<p>%s</p>\n", s.Intro.HTML())
		}
		w("<ul class=\"findings\">\n")
		for _, it := range s.Items {
			w("<li>%s", it.Text.HTML())
			if len(it.Sub) > 0 {
				w("<ul>")
				for _, sub := range it.Sub {
					w("<li>%s</li>", sub.HTML())
				}
				w("</ul>")
			}
			w("</li>\n")
		}
		w("</ul>\n")
	}
	w("<h2 id=\"summary\">Summary</h2>\n<p class=\"note\">%s</p>\n<table class=\"summary\"><tr>", r.summaryNote().HTML())
	for _, h := range r.summaryHeader() {
		w("<th>%s</th>", strings.ReplaceAll(e(h), ",", ",<wbr>"))
	}
	w("</tr>\n")
	for _, tr := range r.Tests {
		w("<tr>")
		for k, c := range r.summaryRow(tr) {
			if k >= 1 && k <= len(r.Sems) {
				w("<td>%s</td>", verdictCellHTML(c.Text()))
				continue
			}
			w("<td>%s</td>", c.HTML())
		}
		w("</tr>\n")
	}
	w("</table>\n")
	if q := r.Question; q != nil && len(q.Cites) > 0 {
		w("<h2 id=\"standard\">The sentences of the standard the answer rests on</h2>\n<p>From the MPI-4.1 report:</p>\n<ul>\n")
		for _, c := range q.Cites {
			w("<li><a href=\"%s\">%s</a>: %s</li>\n", spec.NodeURL(c.Node), e(c.Node), c.Text.HTML())
		}
		w("</ul>\n")
	}
	if r.hasSmallest() {
		w("<h2 id=\"smallest\">Smallest distinguishing tests</h2>\n<p class=\"note\">Found by <code>rmacheck distinguish</code> (the generated family of <code>rmacheck gen --mix</code>, smallest first, each distinguishing test shrunk by delta debugging).</p>\n")
		for _, s := range r.Smallest {
			if s.Diff != nil {
				r.smallestHTML(&b, s)
			}
		}
	}
	w("<h2>The readings and the sentences they rest on</h2>\n<table><tr><th>switch</th><th>when on</th><th>rests on</th></tr>\n")
	for _, si := range spec.Switches {
		w("<tr><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", si.Name, e(si.Meaning), e(si.Basis))
	}
	w("</table>\n<table><tr><th>preset</th><th>switches on</th></tr>\n")
	for _, p := range spec.Presets {
		on := p.Switches.String()
		if on == "" {
			on = "none"
		}
		w("<tr><td><code>%s</code></td><td>%s</td></tr>\n", p.Name, e(on))
	}
	w("</table>\n<p>Sentences that pull two ways:</p><ul>\n")
	for _, c := range spec.Contradictions {
		w("<li>%s: %s — but %s. %s</li>\n", e(c.Node), e(c.First), e(c.Second), e(c.Note))
	}
	w("</ul>\n<h2 id=\"tests\">Tests</h2>\n<p class=\"note\">%s</p>\n", r.testsNote().HTML())
	for _, tr := range r.Tests {
		r.testHTML(&b, tr)
	}
	for i := range r.Probes {
		probeHTML(&b, &r.Probes[i])
	}
	w("<h2>About this report</h2>\n<p class=\"note\">Produced by <code>%s</code> (rmacheck %s) on %s.</p>\n", e(r.Command), e(r.Version), e(r.Date))
	w("</body></html>\n")
	return []byte(b.String())
}

// verdictCellHTML colours a verdict: erroneous red, racy amber.
func verdictCellHTML(v string) string {
	text := html.EscapeString(v)
	switch {
	case strings.HasPrefix(v, "Erroneous"):
		return `<span class="err">` + text + `</span>`
	case strings.Contains(v, "+"):
		return `<span class="race">` + text + `</span>`
	}
	return text
}

func (r *Report) smallestHTML(b *strings.Builder, s *Smallest) {
	e := html.EscapeString
	d := s.Diff
	fmt.Fprintf(b, "<h3 id=\"%s\">%s vs %s: %s</h3>\n", smallestAnchor(s), e(s.X.Name), e(s.Y.Name), e(d.Test.Name))
	fmt.Fprintf(b, "<p>%d instructions, shrunk from <code>%s</code> (hw %s). %s: %s; %s: %s.</p>\n<pre>%s</pre>\n",
		s.Instrs, e(s.From), s.HW, e(s.X.Name), verdictCellHTML(d.A.Verdict().String()), e(s.Y.Name), verdictCellHTML(d.B.Verdict().String()), e(string(s.Source)))
	tr := &TestReport{Test: d.Test, Distinctions: []*explorer.Diff{d}, Anchor: smallestAnchor(s)}
	tr.collectWitnesses()
	pairsHTML(b, tr)
}

func (r *Report) testHTML(b *strings.Builder, tr *TestReport) {
	t := tr.Test
	e := html.EscapeString
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("<h3 id=\"%s\">%s</h3>\n", anchor(t.Name), e(t.Name))
	if t.HasDoc {
		w("<p>%s</p>\n", e(t.Doc))
	}
	w("<p>File <code>%s</code>", e(t.File))
	for _, m := range t.Meta {
		w("; %s=%s", e(m.Key), e(m.Value))
	}
	w(".</p>\n<pre>%s</pre>\n<table><tr>", e(strings.Join(initText(t), "\n")))
	header, rows := programRows(t)
	for _, h := range header {
		w("<th>%s</th>", h)
	}
	w("</tr>\n")
	for _, row := range rows {
		w("<tr>")
		for _, c := range row {
			w("<td><code>%s</code></td>", e(c))
		}
		w("</tr>\n")
	}
	w("</table>\n<p>Condition: <code>%s (%s)</code></p>\n", t.Quant, e(litmus.CondString(t.Cond)))
	if ex := expectLines(t); len(ex) > 0 {
		w("<p>The test's expect lines (what it must give; <code>make</code> checks them):</p><pre>%s</pre>\n", e(strings.Join(ex, "\n")))
	}
	w("<table><tr><th>semantics</th><th>hw</th><th>verdict</th><th>outcomes</th><th>flags</th></tr>\n")
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			res := tr.Result(s, hw)
			w("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(s.Name), hw, verdictCellHTML(res.Verdict().String()), outcomesHTML(res), flagsHTML(res))
		}
	}
	w("</table>\n")
	for _, line := range r.exploitLines(tr) {
		w("<p>%s</p>\n", line.HTML())
	}
	pairsHTML(b, tr)
	if len(tr.Conform) > 0 || len(tr.Errors) > 0 {
		w("<p>Conformance (each run compared with the model on the hw model it names; reference: the model's own steps on real memory):</p>\n<table><tr><th>target</th><th>semantics</th><th>model (hw)</th><th>runs</th><th>outcomes seen</th><th>allowed, unseen</th><th>result</th></tr>\n")
		for _, c := range tr.Conform {
			w("<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				e(targetCell(c)), e(c.Preset), e(modelCell(tr, c.Preset, c.HW)), c.Runs, histogramText(c).HTML(), unseenText(c).HTML(), resultText(c).HTML())
		}
		for _, er := range tr.Errors {
			w("<tr><td>%s</td><td>%s</td><td>%s</td><td>-</td><td>-</td><td>-</td><td><span class=\"bad\">%s</span>: %s</td></tr>\n",
				e(er.Target.Name()), e(er.Preset), e(modelCell(tr, er.Preset, er.HW)), e(er.Status.String()), e(er.Error))
		}
		w("</table>\n")
	}
}

// pairsHTML is the table of differences, then each distinct witness drawn once.
func pairsHTML(b *strings.Builder, tr *TestReport) {
	e := html.EscapeString
	if c := tr.Condition; c != nil {
		fmt.Fprintf(b, "<p>An execution that satisfies the condition: <a href=\"#%s\">%s</a>.</p>\n", witnessAnchor(tr, c), c.Label())
	}
	if len(tr.Pairs) > 0 {
		b.WriteString("<table><tr><th>readings</th><th>difference</th><th>witness</th></tr>\n")
	}
	for _, row := range tr.Rows() {
		wl := ""
		if row.Witness != nil {
			wl = fmt.Sprintf(`<a href="#%s">%s</a>`, witnessAnchor(tr, row.Witness), row.Witness.Label())
		}
		fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", strings.Join(escapeAll(row.Pairs), "<br>"), e(upperFirst(row.Text)), wl)
	}
	if len(tr.Pairs) > 0 {
		b.WriteString("</table>\n")
	}
	for _, wt := range tr.Witnesses {
		fmt.Fprintf(b, "<p class=\"witness-title\" id=\"%s\"><strong>%s</strong>: %s, under %s</p>\n<div class=\"diagram-box\">%s</div>\n",
			witnessAnchor(tr, wt), wt.Label(), e(wt.What), e(strings.Join(wt.Sems, ", ")), scopeIDs(Diagram(&wt.Trace, wt.Mark), witnessAnchor(tr, wt)))
	}
}

// scopeIDs prefixes the ids a diagram defines (its arrow markers) and its references
// to them with the witness's anchor: every diagram defines the same markers, and ids
// must be unique in a page.
func scopeIDs(svg, prefix string) string {
	return strings.NewReplacer(`id="arrow-`, `id="`+prefix+`-arrow-`, `url(#arrow-`, `url(#`+prefix+`-arrow-`).Replace(svg)
}

func escapeAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = html.EscapeString(s)
	}
	return out
}

func outcomesHTML(res *explorer.Result) string {
	var parts []string
	for _, o := range res.Outcomes {
		s := "<code>" + html.EscapeString(res.Program.OutcomeString(o.Values)) + "</code>"
		if o.Sat {
			s = `<span class="sat">` + s + `</span>`
		}
		if len(o.Flags) > 0 {
			s += " (" + html.EscapeString(strings.Join(spec.RuleNames(o.Flags), ",")) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "<br>")
}

func flagsHTML(res *explorer.Result) string {
	var parts []string
	seen := map[spec.RuleID]bool{}
	for _, f := range res.Flags {
		if seen[f.Rule] {
			continue
		}
		seen[f.Rule] = true
		title := html.EscapeString(f.Message + output.Citation(f.Rule))
		if link := ruleLink(f.Rule); link != "" {
			parts = append(parts, fmt.Sprintf(`<a href="%s" title="%s">%s</a>`, link, title, f.Rule))
		} else {
			parts = append(parts, fmt.Sprintf(`<span title="%s">%s</span>`, title, f.Rule))
		}
	}
	return strings.Join(parts, ", ")
}

func probeHTML(b *strings.Builder, pr *Probe) {
	e := html.EscapeString
	fmt.Fprintf(b, "<h2>What the library says: <code>%s</code></h2>\n<p>%s (MPI %s), from <code>rmacheck probe --target %s --json</code>.</p>\n<table><tr><th>topic</th><th>item</th><th>value</th><th>verdict</th></tr>\n",
		e(pr.Name), e(pr.Library), e(pr.Version), e(pr.Target.String()))
	for _, res := range pr.Results {
		v := e(res.Verdict)
		if strings.Contains(res.Verdict, "VIOLATES") {
			v = `<span class="err">` + v + `</span>`
		}
		fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(res.Topic), e(res.Item), e(res.Value), v)
	}
	b.WriteString("</table>\n")
}
