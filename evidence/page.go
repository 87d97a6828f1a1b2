package evidence

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

// Markdown renders the report as GitHub-flavoured Markdown.
func (r *Report) Markdown() []byte { return r.Page().Markdown() }

// HTML renders the report as one self-contained page.
func (r *Report) HTML() []byte { return r.Page().HTML() }

// Page is the report as a document, built once (after Build): what both renderings
// say.
func (r *Report) Page() *Page {
	if r.page == nil {
		r.page = r.document()
	}
	return r.page
}

// document builds the report's blocks: the question and its checked answer, the
// Findings, the summary, the standard's sentences, the smallest distinguishing
// tests, the readings, each test, each probe, and how the report was made.
func (r *Report) document() *Page {
	var bs []Block
	if q := r.Question; q != nil {
		bs = append(bs, Box{Class: "answer", Blocks: []Block{
			Paragraph{Text: P(Strong{Plain("Question.")}, " ", q.Question)},
			Paragraph{Text: P(Strong{Plain("Answer.")}, " ", q.Answer)},
			Paragraph{Text: P(Em(q.checksText())), Class: "checks"}}})
	}
	bs = append(bs, Heading{Level: 2, Text: P("Findings")})
	for _, s := range r.FindingsText() {
		bs = append(bs, Heading{Level: 3, Text: P(s.Title)})
		if len(s.Intro) > 0 {
			bs = append(bs, Paragraph{Text: s.Intro})
		}
		list := List{Class: "findings"}
		for _, it := range s.Items {
			list.Items = append(list.Items, ListItem(it))
		}
		bs = append(bs, list)
	}
	bs = append(bs, Heading{Level: 2, Text: P("Summary")}, Paragraph{Text: r.summaryNote(), Class: "note"}, r.summaryTable())
	if q := r.Question; q != nil && len(q.Cites) > 0 {
		bs = append(bs, Heading{Level: 2, Text: P("The sentences of the standard the answer rests on")}, Paragraph{Text: P("From the MPI-4.1 report:")})
		var cites List
		for _, c := range q.Cites {
			cites.Items = append(cites.Items, ListItem{Text: P(Link{Text: P(c.Node), URL: spec.NodeURL(c.Node)}, ": ", c.Text)})
		}
		bs = append(bs, cites)
	}
	key := false // the diagrams' key, before the first diagram
	if len(r.smallest) > 0 {
		bs = append(bs, Heading{Level: 2, Text: P("Smallest distinguishing tests")},
			Paragraph{Text: P("Found by ", Code("rmacheck distinguish"), " (the generated family of ", Code("rmacheck gen --mix"), ", smallest first, each distinguishing test shrunk by delta debugging)."), Class: "note"},
			DiagramKey{})
		key = true
		for _, tr := range r.smallest {
			bs = append(bs, r.smallestBlocks(tr)...)
		}
	}
	bs = append(bs, readingsBlocks()...)
	bs = append(bs, Heading{Level: 2, Text: P("Tests")}, Paragraph{Text: r.testsNote(), Class: "note"})
	if !key {
		bs = append(bs, DiagramKey{})
	}
	for _, tr := range r.Tests {
		bs = append(bs, r.testBlocks(tr)...)
	}
	for i := range r.Probes {
		bs = append(bs, probeBlocks(&r.Probes[i])...)
	}
	bs = append(bs, Heading{Level: 2, Text: P("About this report")},
		Paragraph{Text: P("Produced by ", Code(r.Command), Pf(" (rmacheck %s) on %s.", r.Version, r.Date)), Class: "note"})
	return &Page{Title: r.Title, Blocks: bs}
}

// summaryTable is the one-screen table: a row per test.
func (r *Report) summaryTable() Table {
	t := Table{Class: "summary"}
	for _, h := range r.summaryHeader() {
		t.Header = append(t.Header, P(Verbatim(h))) // library names: no markup (issue 38 row 17)
	}
	for _, tr := range r.Tests {
		t.Rows = append(t.Rows, r.summaryRow(tr))
	}
	return t
}

// readingsBlocks are the switches, the presets and the sentences that pull two ways.
func readingsBlocks() []Block {
	switches := Table{Header: []Prose{P("switch"), P("when on"), P("rests on")}}
	var progress Prose
	for _, si := range spec.Switches {
		if si.Switch == spec.WeakProgress { // a property of implementations, not a reading
			progress = P(Code(si.Name), " is not a reading of the standard: when on, ", si.Meaning, ". MPI-4.1 leaves that to implementations: ", si.Basis, ".")
			continue
		}
		switches.Rows = append(switches.Rows, []Prose{P(Code(si.Name)), P(si.Meaning), P(si.Basis)})
	}
	presets := Table{Header: []Prose{P("preset"), P("switches on")}}
	for _, p := range spec.Presets {
		on := p.Switches.String()
		if on == "" {
			on = "none"
		}
		presets.Rows = append(presets.Rows, []Prose{P(Code(string(p.Name))), P(on)})
	}
	var pulls List
	for _, c := range spec.Contradictions {
		pulls.Items = append(pulls.Items, ListItem{Text: P(fmt.Sprintf("%s: %s — but %s. %s", c.Node, c.First, c.Second, c.Note))})
	}
	return []Block{Heading{Level: 2, Text: P("The readings and the sentences they rest on")}, switches, presets,
		Paragraph{Text: progress}, Paragraph{Text: P("Sentences that pull two ways:")}, pulls}
}

// smallestBlocks is the section of the smallest generated test that tells a pair apart.
func (r *Report) smallestBlocks(tr *TestReport) []Block {
	s := r.smallestOf(tr)
	d := s.Diff
	return append([]Block{
		Heading{Level: 3, Text: P(fmt.Sprintf("%s vs %s: %s", s.X.Name, s.Y.Name, d.Test.Name)), ID: tr.anchor()},
		Paragraph{Text: P(Pf("%d instructions, shrunk from ", s.Instrs), Code(s.From), Pf(" (hw %s). %s: ", s.HW, s.X.Name),
			verdictProse(d.A.Verdict().String()), "; "+s.Y.Name+": ", verdictProse(d.B.Verdict().String()), ".")},
		Pre{Text: strings.TrimSuffix(string(s.Source), "\n")}}, pairsBlocks(tr)...)
}

// smallestOf is the smallest test whose section tr is.
func (r *Report) smallestOf(tr *TestReport) *Smallest {
	for _, s := range r.Smallest {
		if s.Diff != nil && s.Diff == tr.Distinctions[0] {
			return s
		}
	}
	panic("evidence: a section of Smallest without its test")
}

// testBlocks is one test's section: what it asks, its program, its verdicts, the
// differences between readings with their witnesses, and its conformance runs.
func (r *Report) testBlocks(tr *TestReport) []Block {
	t := tr.Test
	bs := []Block{Heading{Level: 3, Text: P(t.Name), ID: anchor(t.Name)}}
	if t.HasDoc {
		bs = append(bs, Paragraph{Text: P(t.Doc)})
	}
	file := P("File ", Code(t.File))
	for _, m := range t.Meta {
		file = P(file, "; "+m.Key+"="+m.Value)
	}
	bs = append(bs, Paragraph{Text: P(file, ".")}, Pre{Text: strings.Join(initText(t), "\n")}, programTable(t),
		Paragraph{Text: P("Condition: ", Code(t.Quant.String()+" ("+litmus.CondString(t.Cond)+")"))})
	if ex := expectLines(t); len(ex) > 0 {
		bs = append(bs, Paragraph{Text: P("The test's expect lines (what it must give; ", Code("make"), " checks them):")}, Pre{Text: strings.Join(ex, "\n")})
	}
	verdicts := Table{Header: []Prose{P("semantics"), P("hw"), P("verdict"), P("outcomes"), P("flags")}}
	for _, hw := range r.HWs {
		for _, s := range r.Sems {
			res := tr.Result(s, hw)
			verdicts.Rows = append(verdicts.Rows, []Prose{P(s.Name), P(hw.String()), verdictProse(res.Verdict().String()), outcomeList(res), flagLinks(res)})
		}
	}
	bs = append(bs, verdicts)
	for _, line := range r.exploitLines(tr) {
		bs = append(bs, Paragraph{Text: line})
	}
	bs = append(bs, pairsBlocks(tr)...)
	if len(tr.Conform) > 0 || len(tr.Errors) > 0 {
		bs = append(bs, Paragraph{Text: P("Conformance:")},
			conformTable(tr))
	}
	return bs
}

// programTable is the process table: a column per process, a row per table row.
func programTable(t *litmus.Test) Table {
	var tb Table
	for i := range t.Procs {
		tb.Header = append(tb.Header, P(Pf("P%d", i)))
	}
	for row := 0; row < t.Rows; row++ {
		var cells []Prose
		for _, p := range t.Procs {
			var cell Prose
			if row < len(p.Code) && p.Code[row] != nil {
				if text := strings.TrimSpace(litmus.InstrString(p.Code[row])); text != "" {
					cell = P(Code(text))
				}
			}
			cells = append(cells, cell)
		}
		tb.Rows = append(tb.Rows, cells)
	}
	return tb
}

// conformTable is a test's conformance runs, those that failed or were refused last.
func conformTable(tr *TestReport) Table {
	tb := Table{Header: []Prose{P("target"), P("semantics"), P("model (hw)"), P("runs"), P("outcomes seen"), P("allowed, unseen"), P("result")}}
	for _, c := range tr.Conform {
		tb.Rows = append(tb.Rows, []Prose{P(Verbatim(targetCell(c))), P(c.Preset), P(modelCell(tr, c.Preset, c.HW)), P(Pf("%d", c.Runs)),
			histogramText(c), unseenText(c), resultText(c)})
	}
	for _, e := range tr.Errors {
		tb.Rows = append(tb.Rows, []Prose{P(e.Target.Name()), P(e.Preset), P(modelCell(tr, e.Preset, e.HW)), P("-"), P("-"), P("-"),
			P(Styled{"bad", P(e.Status.String())}, ": "+e.Error)})
	}
	return tb
}

// pairsBlocks lists each difference of each pair with its witness, then the
// witnesses, each once.
func pairsBlocks(tr *TestReport) []Block {
	var bs []Block
	if c := tr.Condition; c != nil {
		bs = append(bs, Paragraph{Text: P("An execution that satisfies the condition: ", Link{Text: P(c.Label()), URL: "#" + witnessAnchor(tr, c)}, ".")})
	}
	if len(tr.Pairs) > 0 {
		tb := Table{Header: []Prose{P("readings"), P("difference"), P("witness")}}
		for _, row := range tr.Rows() {
			var wl Prose
			if row.Witness != nil {
				wl = P(Link{Text: P(row.Witness.Label()), URL: "#" + witnessAnchor(tr, row.Witness)})
			}
			tb.Rows = append(tb.Rows, []Prose{P(strings.Join(row.Pairs, "; ")), P(upperFirst(row.Text)), wl})
		}
		bs = append(bs, tb)
	}
	for _, wt := range tr.Witnesses {
		id := witnessAnchor(tr, wt)
		bs = append(bs, Paragraph{Text: P(Strong{Plain(wt.Label())}, " ("+wt.What+", under "+strings.Join(wt.Sems, ", ")+"):"), ID: id, Class: "witness-title"},
			Execution{Witness: wt})
	}
	return bs
}

// probeBlocks is what a library said to rmacheck probe.
func probeBlocks(pr *Probe) []Block {
	tb := Table{Header: []Prose{P("topic"), P("item"), P("value"), P("verdict")}}
	for _, res := range pr.Results {
		verdict := P(res.Verdict)
		if strings.Contains(res.Verdict, "VIOLATES") {
			verdict = P(Styled{"err", verdict})
		}
		tb.Rows = append(tb.Rows, []Prose{P(res.Topic), P(res.Item), P(res.Value), verdict})
	}
	return []Block{Heading{Level: 2, Text: P("What the library says: ", Code(pr.Name))},
		Paragraph{Text: P(Verbatim(pr.Library), " (MPI "+pr.Version+"), from ", Code("rmacheck probe --target "+pr.Target.String()+" --json"), ".")}, tb}
}

// verdictProse is a verdict, coloured on the HTML page: erroneous red, racy amber.
func verdictProse(v string) Prose {
	switch {
	case strings.HasPrefix(v, "Erroneous"):
		return P(Styled{"err", P(v)})
	case strings.Contains(v, "+"):
		return P(Styled{"race", P(v)})
	}
	return P(v)
}

// outcomeList is a result's outcomes, those that satisfy the condition strong, each
// with the rules its executions break.
func outcomeList(res *explorer.Result) Prose {
	var parts []Prose
	for _, o := range res.Outcomes {
		s := P(Code(res.Program.OutcomeString(o.Values)))
		if o.Sat {
			s = P(Strong(s))
		}
		if len(o.Flags) > 0 {
			s = P(s, " ("+strings.Join(spec.RuleNames(o.Flags), ",")+")")
		}
		parts = append(parts, s)
	}
	return cellLines(parts)
}

// flagLinks is the rules a result raises, each once, linked to its node of the
// standard, with its message on hover.
func flagLinks(res *explorer.Result) Prose {
	var parts []Prose
	seen := map[spec.RuleID]bool{}
	for _, f := range res.Flags {
		if seen[f.Rule] {
			continue
		}
		seen[f.Rule] = true
		if link := ruleLink(f.Rule); link != "" {
			parts = append(parts, P(Link{Text: P(f.Rule.String()), URL: link, Title: f.Message + output.Citation(f.Rule)}))
		} else {
			parts = append(parts, P(f.Rule.String()))
		}
	}
	return Join(parts, ", ")
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

func witnessAnchor(tr *TestReport, w *Witness) string {
	return tr.anchor() + "-" + strings.ToLower(w.Label())
}
