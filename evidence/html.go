package evidence

import (
	"fmt"
	"html"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

const css = `body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #bbb;padding:.25rem .5rem;vertical-align:top;font-size:.9rem}
th{background:#eee}code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f6f6f6;padding:.5rem}
.sat{font-weight:bold}.err{color:#a00}.race{color:#a60}.diff{background:#fff4d6}svg{background:#fcfcfc;border:1px solid #ddd;margin:.4rem 0}
h2{border-bottom:1px solid #ccc;margin-top:2.2rem}`

// HTML renders the report as one self-contained page: inline style, inline SVG, no
// script, no external resource.
func (r *Report) HTML() []byte {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	e := html.EscapeString
	w("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n", e(r.Title), css)
	w("<h1>%s</h1>\n<p>Produced by <code>%s</code> (rmacheck %s) on %s.", e(r.Title), e(r.Command), e(r.Version), e(r.Date))
	if libs := r.libraries(); libs != "" {
		w(" Conformance results: %s.", e(libs))
	}
	w("</p>\n<h2>Summary</h2>\n<table><tr><th>test</th>")
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			w("<th>%s (%s)</th>", e(s.Name), hw)
		}
	}
	w("<th>distinguishes</th></tr>\n")
	for _, tr := range r.Tests {
		cls := ""
		if len(tr.Distinctions) > 0 {
			cls = ` class="diff"`
		}
		w("<tr%s><td><a href=\"#%s\">%s</a></td>", cls, anchor(tr.Test.Name), e(tr.Test.Name))
		for _, hw := range r.HWs {
			for _, s := range r.Sems {
				w("<td>%s</td>", verdictHTML(tr.Result(s, hw)))
			}
		}
		var pairs []string
		for _, d := range tr.Distinctions {
			pairs = append(pairs, d.SemA.Name+" / "+d.SemB.Name)
		}
		w("<td>%s</td></tr>\n", e(strings.Join(pairs, ", ")))
	}
	w("</table>\n<h2>The readings and the sentences they rest on</h2>\n<table><tr><th>switch</th><th>when on</th><th>rests on</th></tr>\n")
	for _, si := range spec.Switches {
		w("<tr><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", si.Name, e(si.Meaning), e(si.Basis))
	}
	w("</table>\n<table><tr><th>preset</th><th>switches on</th></tr>\n")
	for _, p := range spec.Presets {
		w("<tr><td><code>%s</code></td><td>%s</td></tr>\n", p.Name, e(p.Switches.String()))
	}
	w("</table>\n<p>Sentences that pull two ways:</p><ul>\n")
	for _, c := range Contradictions {
		w("<li>%s: %s — but %s. %s</li>\n", e(c.Node), e(c.First), e(c.Second), e(c.Note))
	}
	w("</ul>\n")
	for _, pr := range r.Probes {
		w("<h2>What the library says: <code>%s</code></h2>\n<pre>%s</pre>\n", e(pr.Name), e(strings.TrimRight(pr.Text, "\n")))
	}
	for _, tr := range r.Tests {
		r.testHTML(&b, tr)
	}
	w("</body></html>\n")
	return []byte(b.String())
}

func verdictHTML(res *explorer.Result) string {
	v := res.Verdict()
	text := html.EscapeString(v.String())
	switch {
	case v.IsErroneous():
		return `<span class="err">` + text + `</span>`
	case len(v.Race) > 0:
		return `<span class="race">` + text + `</span>`
	}
	return text
}

func (r *Report) testHTML(b *strings.Builder, tr *TestReport) {
	t := tr.Test
	e := html.EscapeString
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("<h2 id=\"%s\">%s</h2>\n", anchor(t.Name), e(t.Name))
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
	w("<table><tr><th>semantics</th><th>hw</th><th>observation</th><th>outcomes</th><th>flags</th></tr>\n")
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			res := tr.Result(s, hw)
			w("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(s.Name), hw, verdictHTML(res), outcomesHTML(res), flagsHTML(res))
		}
	}
	w("</table>\n")
	if r.Exploit {
		var md strings.Builder
		r.exploitMarkdown(&md, tr)
		for _, line := range strings.Split(strings.TrimSpace(md.String()), "\n") {
			if line != "" {
				w("<p>%s</p>\n", e(strings.ReplaceAll(line, "`", "")))
			}
		}
	}
	for _, d := range tr.Distinctions {
		distinctionHTML(b, d)
	}
	if runs := r.ConformFor(t); len(runs) > 0 {
		w("<p>Conformance:</p><table><tr><th>target</th><th>semantics</th><th>runs</th><th>observation</th><th>histogram</th><th>non-conforming</th></tr>\n")
		for _, c := range runs {
			w("<tr><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%d</td></tr>\n",
				e(c.Target+libSuffix(c)), e(c.Preset), c.Runs, e(c.Observation+c.Skipped), histogramHTML(c), c.NonConforming)
		}
		w("</table>\n")
	}
}

func outcomesHTML(res *explorer.Result) string {
	var parts []string
	for _, o := range res.Outcomes {
		s := "<code>" + html.EscapeString(res.Program.OutcomeString(o.Values)) + "</code>"
		if o.Sat {
			s = `<span class="sat">` + s + `</span>`
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "<br>")
}

func flagsHTML(res *explorer.Result) string {
	var parts []string
	for _, f := range res.Flags {
		title := html.EscapeString(f.Message + output.Citation(f.Rule))
		if link := ruleLink(f.Rule); link != "" {
			parts = append(parts, fmt.Sprintf(`<a href="%s" title="%s">%s</a>`, link, title, f.Rule))
		} else {
			parts = append(parts, fmt.Sprintf(`<span title="%s">%s</span>`, title, f.Rule))
		}
	}
	return strings.Join(parts, ", ")
}

func histogramHTML(c output.ConformRecord) string {
	var parts []string
	for _, h := range c.Histogram {
		s := fmt.Sprintf("%d × <code>%s</code>", h.Count, html.EscapeString(valuesText(h.Values)))
		if !h.Allowed {
			s += ` <span class="err">NON-CONFORMING</span>`
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "<br>")
}

func distinctionHTML(b *strings.Builder, d *explorer.Diff) {
	e := html.EscapeString
	fmt.Fprintf(b, "<h3>%s vs %s</h3>\n", e(d.SemA.Name), e(d.SemB.Name))
	sides := d.Sides()
	for k, s := range sides {
		for _, o := range s.Only {
			fmt.Fprintf(b, "<p>%s, for instance so:</p>\n", e(upperFirst(output.Allows(s, sides[1-k], s.Result.Program.OutcomeString(o.Values)))))
			b.WriteString(Diagram(s.Result.Program, o.Witness))
		}
	}
	for _, s := range d.Sides() {
		for i := range s.Flags {
			fmt.Fprintf(b, "<p>Only %s raises %s</p>\n", e(s.Name), e(output.DiagnosticLine(d.Test.File, &s.Flags[i].Diagnostic)))
		}
	}
}

// Diagram draws an execution as SVG: one column per process, one row per step (a
// perform in its target's column, a drain in its process's), an arrow from each RMA
// issue to its perform, from each send to its receive, and from the last arrival
// at a fence or barrier to the others' returns.
func Diagram(p *model.Program, steps []model.Step) string {
	recs, _, _ := p.Replay(steps)
	const colW, rowH, top, left = 230, 22, 30, 10
	n := p.NProcs
	width, height := left*2+colW*n, top+rowH*len(recs)+10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">`, width, height)
	b.WriteString(`<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="#36c"/></marker></defs>`)
	for i := 0; i < n; i++ {
		x := left + colW*i
		fmt.Fprintf(&b, `<text x="%d" y="18" font-weight="bold">P%d</text><line x1="%d" y1="22" x2="%d" y2="%d" stroke="#ccc"/>`, x+4, i, x+2, x+2, height-4)
	}
	type pos struct{ x, y int }
	at := func(col, row int) pos { return pos{left + colW*col + 8, top + rowH*row + 12} }
	issued := map[int]pos{} // slot -> where it was issued
	sends := map[[2]int][]pos{}
	lastArrival := map[int]pos{}
	for i, st := range steps {
		col := int(st.Proc)
		text := ""
		if i < len(recs) {
			text = recs[i].Text
		}
		switch st.Kind {
		case model.StepPerform:
			sl := p.Slots[st.Index]
			col = int(p.Procs[sl.Proc].Code[sl.Instr].Target)
			if from, ok := issued[int(st.Index)]; ok {
				arrow(&b, from, at(col, i))
			}
		case model.StepExec, model.StepReturn:
			in := &p.Procs[st.Proc].Code[st.Index]
			here := at(col, i)
			switch {
			case st.Kind == model.StepExec && in.Slot >= 0:
				issued[int(in.Slot)] = here
			case st.Kind == model.StepExec && in.Kind == model.KSend:
				key := [2]int{int(st.Proc), int(in.Target)}
				sends[key] = append(sends[key], here)
			case st.Kind == model.StepExec && in.Kind == model.KRecv:
				key := [2]int{int(in.Target), int(st.Proc)}
				if q := sends[key]; len(q) > 0 {
					arrow(&b, q[0], here)
					sends[key] = q[1:]
				}
			case st.Kind == model.StepExec && in.TwoPhase:
				lastArrival[int(in.Kind)] = here
			case st.Kind == model.StepReturn:
				if from, ok := lastArrival[int(in.Kind)]; ok && from.x != here.x {
					arrow(&b, from, here)
				}
			}
		}
		p0 := at(col, i)
		label := text
		if j := strings.Index(label, ": "); j >= 0 && strings.HasPrefix(label, "P") {
			label = label[j+2:]
		}
		if len(label) > 34 {
			label = label[:33] + "…"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="3" fill="#333"/><text x="%d" y="%d"><title>%s</title>%d %s</text>`,
			p0.x-4, p0.y-4, p0.x+2, p0.y, html.EscapeString(text), i+1, html.EscapeString(label))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func arrow(b *strings.Builder, from, to struct{ x, y int }) {
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#36c" stroke-width="1.2" marker-end="url(#a)"/>`, from.x-4, from.y-4, to.x-6, to.y-6)
}
