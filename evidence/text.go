package evidence

import (
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// The sentences of a report are written once, in Markdown's inline syntax (`code`,
// **strong**, [text](link)); the HTML page turns them into HTML with inlineHTML. So
// the two pages can never say different things.

// FindingsSection is a part of the Findings as Markdown: a heading and items.
type FindingsSection struct {
	Title string
	Intro string
	Items []FindingItem
}

// FindingItem is one finding: a line and the lines under it.
type FindingItem struct {
	Text string
	Sub  []string
}

// FindingsText renders the Findings.
func (r *Report) FindingsText() []FindingsSection {
	f := r.Findings()
	var out []FindingsSection
	if len(f.Pairs) > 0 {
		s := FindingsSection{Title: "Readings compared"}
		s.Intro = fmt.Sprintf("For each pair of readings: how many of this report's %d tests tell them apart (hw relaxed), and the smallest generated test that does.", len(r.Tests))
		for _, p := range f.Pairs {
			s.Items = append(s.Items, r.pairItem(p))
		}
		out = append(out, s)
	}
	if len(f.Targets) > 0 {
		s := FindingsSection{Title: "Conformance"}
		s.Intro = fmt.Sprintf("Each run is compared with the outcomes the model allows for its semantics on hw %s, the hardware model of this machine (amd64); NON-CONFORMING: a run showed an outcome the model forbids.", r.comparedHW())
		for _, t := range f.Targets {
			s.Items = append(s.Items, r.targetItem(t))
		}
		out = append(out, s)
	}
	if len(f.Probes) > 0 {
		s := FindingsSection{Title: "What the libraries say (rmacheck probe)"}
		for _, p := range f.Probes {
			s.Items = append(s.Items, probeItem(p))
		}
		out = append(out, s)
	}
	return out
}

func (r *Report) pairItem(p PairFinding) FindingItem {
	it := FindingItem{}
	pair := fmt.Sprintf("**%s vs %s**", p.X.Name, p.Y.Name)
	switch len(p.Tests) {
	case 0:
		it.Text = fmt.Sprintf("%s: none of the %d tests tells them apart.", pair, len(r.Tests))
	default:
		var links []string
		for _, n := range p.Tests {
			links = append(links, "["+n+"](#"+anchor(n)+")")
		}
		verb := "tell"
		if len(p.Tests) == 1 {
			verb = "tells"
		}
		it.Text = fmt.Sprintf("%s: %d of the %d tests %s them apart: %s.", pair, len(p.Tests), len(r.Tests), verb, listNames(links, 8))
	}
	s := p.Smallest
	switch {
	case s == nil:
	case s.Diff == nil:
		it.Sub = append(it.Sub, fmt.Sprintf("No generated test of at most %d processes × %d instructions tells them apart (%d searched, hw %s).", s.MaxProcs, s.MaxInstrs, s.Candidates, s.HW))
	default:
		it.Sub = append(it.Sub, fmt.Sprintf("Smallest generated test that does: [`%s`](#%s), %d instructions (searched: %d generated tests of at most %d processes × %d instructions, hw %s; %d distinct distinguishing tests once shrunk): %s %s, %s %s: %s.",
			s.Diff.Test.Name, smallestAnchor(s), s.Instrs, s.Candidates, s.MaxProcs, s.MaxInstrs, s.HW, s.Found,
			s.X.Name, s.Diff.A.Verdict(), s.Y.Name, s.Diff.B.Verdict(), firstDifference(s.Diff)))
	}
	return it
}

// firstDifference is the difference of a Diff in one phrase: an outcome only one
// side allows, else a rule only one side raises.
func firstDifference(d *explorer.Diff) string {
	sides := d.Sides()
	// when one side is erroneous, the rule is the difference
	for _, s := range sides {
		for i := range s.Flags {
			if fl := &s.Flags[i]; fl.Class == spec.ClassErroneous {
				return fmt.Sprintf("only %s raises %s, at %s`%s`", s.Name, fl.Rule, siteText(&fl.Diagnostic), instrAt(s.Result, &fl.Diagnostic))
			}
		}
	}
	for k, s := range sides {
		for _, o := range s.Only {
			return output.Allows(s, sides[1-k], "`"+s.Result.Program.OutcomeString(o.Values)+"`")
		}
	}
	for _, s := range sides {
		for i := range s.Flags {
			fl := &s.Flags[i]
			return fmt.Sprintf("only %s raises %s, at %s`%s`", s.Name, fl.Rule, siteText(&fl.Diagnostic), instrAt(s.Result, &fl.Diagnostic))
		}
	}
	return "the observations differ"
}

// instrAt is the text of a diagnostic's first instruction.
func instrAt(res *explorer.Result, d *model.Diagnostic) string {
	sites := d.Sites()
	if len(sites) == 0 {
		return ""
	}
	if in := res.Program.InstrAt(sites[0]); in != nil {
		return in.Text
	}
	return ""
}

func (r *Report) targetItem(t TargetFinding) FindingItem {
	it := FindingItem{}
	var counts []string
	for _, st := range []string{statusOK, statusNonConforming, statusSpinLimit, statusFailed, statusSkipped, statusRefused} {
		if n := t.Statuses[st]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, st))
		}
	}
	how := ""
	if l := launcher(t.Target); l != "" {
		how = fmt.Sprintf(", run with `%s`", l)
	}
	name := t.Name
	if t.Target == "reference" {
		name = upperFirst(name)
	}
	it.Text = fmt.Sprintf("**%s**%s: of %d runs (one per test and semantics), %s.", name, how, t.Records, strings.Join(counts, ", "))
	if t.Target == "reference" {
		it.Text += " The reference runtime executes the model's own steps on real memory: its runs are evidence about the hardware and the runtime, not an independent check of the model."
	}
	if su := r.Upstream.Setup(t.Target); su != nil {
		it.Text += " " + su.Text
		if su.Link != "" {
			it.Text += " ([details](" + su.Link + "))"
		}
	}
	for _, nc := range t.NonConf {
		var presets []string
		for _, c := range nc.Runs {
			presets = append(presets, c.Preset)
		}
		seen := fmt.Sprintf("in %s of %d iterations (%s), compared with %s", rangeText(nc.Min, nc.Max), nc.RunsEach, percentRange(nc.Min, nc.Max, nc.RunsEach), presets[0])
		if len(nc.Runs) > 1 {
			seen = fmt.Sprintf("in %s of %d iterations (%s) in each of the %d runs of the same program, compared with %s", rangeText(nc.Min, nc.Max), nc.RunsEach,
				percentRange(nc.Min, nc.Max, nc.RunsEach), len(nc.Runs), strings.Join(presets, ", "))
		}
		line := fmt.Sprintf("**NON-CONFORMING** [`%s`](#%s): %s seen %s; the model forbids it under %s (hw %s)",
			nc.Test, anchor(nc.Test), codeList(nc.Outcomes), seen, strings.Join(nc.Forbid, ", "), nc.HW)
		if len(nc.Allow) > 0 {
			line += " and allows it under " + strings.Join(nc.Allow, ", ")
		}
		line += "."
		line += upstreamText(nc.Upstream, true)
		it.Sub = append(it.Sub, line)
	}
	for _, s := range t.Spins {
		it.Sub = append(it.Sub, fmt.Sprintf("**SPIN-LIMIT** [`%s`](#%s) (%s): `%s`; the run stopped there.%s",
			s.Test, anchor(s.Test), strings.Join(s.Presets, ", "), s.Message, upstreamText(s.Upstream, true)))
	}
	for _, f := range t.Failures {
		it.Sub = append(it.Sub, fmt.Sprintf("**failed** [`%s`](#%s) (%s): %s; no histogram.%s",
			f.Test, anchor(f.Test), strings.Join(f.Presets, ", "), mdCode(f.Message), upstreamText(f.Upstream, true)))
	}
	if len(t.Refused) > 0 {
		it.Sub = append(it.Sub, fmt.Sprintf("Not run: %s (more ranks than this machine's cores, which conform refuses for a library that busy-polls).", codeList(t.Refused)))
	}
	if len(t.NonConf)+len(t.Spins)+len(t.Failures) == 0 {
		it.Sub = append(it.Sub, "No run showed an outcome the model forbids.")
	}
	return it
}

// upstreamText is what the report says of a finding's status upstream.
func upstreamText(u *UpstreamEntry, withRule bool) string {
	if u == nil {
		return " Upstream: not yet looked up (no entry in reports/upstream/status.json)."
	}
	var b strings.Builder
	if withRule {
		fmt.Fprintf(&b, " Breaks: %s.", strings.TrimSuffix(u.Breaks, "."))
	}
	fmt.Fprintf(&b, " Upstream: %s", strings.TrimSuffix(u.Status, "."))
	for i, l := range u.Links {
		if i == 0 {
			b.WriteString(" (")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "[%s](%s)", l.Text, l.URL)
		if i == len(u.Links)-1 {
			b.WriteString(")")
		}
	}
	b.WriteString(".")
	if u.Draft != "" {
		fmt.Fprintf(&b, " Draft report: [%s](%s).", strings.TrimPrefix(u.Draft, "../"), u.Draft)
	}
	if u.Details != "" {
		fmt.Fprintf(&b, " Details: [%s](%s).", detailName(u.Details), u.Details)
	}
	if u.Note != "" {
		fmt.Fprintf(&b, " %s", u.Note)
	}
	return b.String()
}

func detailName(link string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(link, "../"), "#")
	return name
}

func probeItem(p ProbeFinding) FindingItem {
	pr := p.Probe
	it := FindingItem{Text: fmt.Sprintf("**%s** (`%s`; it claims MPI %s):", strings.Join(strings.Fields(pr.Library), " "), pr.Name, pr.Version)}
	if len(p.Groups) == 0 {
		it.Text += " every result meets MPI-4.0 and MPI-4.1."
		return it
	}
	for _, g := range p.Groups {
		claim := fmt.Sprintf("MPI %s, which it does not claim", strings.Join(g.Versions, " and "))
		if g.Claimed {
			claim = "a version it claims"
		}
		line := fmt.Sprintf("`%s`: %s (%s) in %d results: %s.", g.Call, g.Verdict, claim, len(g.Items), listNames(codeItems(g.Items), 4))
		if g.Upstream != nil {
			line += upstreamText(g.Upstream, false)
		} else if g.Claimed {
			line += upstreamText(nil, false)
		}
		it.Sub = append(it.Sub, line)
	}
	return it
}

func codeItems(items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = "`" + s + "`"
	}
	return out
}

func codeList(items []string) string { return strings.Join(codeItems(items), ", ") }

// mdCode puts text in a code span, or in plain text when it has backquotes.
func mdCode(s string) string {
	if strings.Contains(s, "`") {
		return s
	}
	return "`" + s + "`"
}

func percentRange(lo, hi, of int) string {
	if lo == hi {
		return percent(lo, of)
	}
	return percent(lo, of) + "–" + percent(hi, of)
}

func smallestAnchor(s *Smallest) string {
	return "s-" + strings.TrimPrefix(anchor(s.X.Name+"-vs-"+s.Y.Name), "t-")
}

// summaryHeader heads the one-screen table.
func (r *Report) summaryHeader() []string {
	head := []string{"test"}
	for _, s := range r.Sems {
		head = append(head, s.Name)
	}
	if len(r.Sems) > 1 {
		head = append(head, "pairs told apart")
	}
	for _, t := range r.targets() {
		head = append(head, t)
	}
	return head
}

// summaryRow is one test's row of the one-screen table: a verdict per semantics (on
// the first hw model, with the others when they differ), the number of pairs it
// tells apart, and a status per conformance target.
func (r *Report) summaryRow(tr *TestReport) []string {
	row := []string{"[" + tr.Test.Name + "](#" + anchor(tr.Test.Name) + ")"}
	first := r.HWs[0]
	for _, s := range r.Sems {
		v := tr.Result(s, first).Verdict().String()
		cell := v
		// the other hw models that answer differently, those that agree together
		var order []string
		byVerdict := map[string][]string{}
		for _, hw := range r.HWs[1:] {
			if o := tr.Result(s, hw).Verdict().String(); o != v {
				if byVerdict[o] == nil {
					order = append(order, o)
				}
				byVerdict[o] = append(byVerdict[o], hw.String())
			}
		}
		var others []string
		for _, o := range order {
			others = append(others, strings.Join(byVerdict[o], ", ")+": "+o)
		}
		if len(others) > 0 {
			cell += " (" + strings.Join(others, "; ") + ")"
		}
		row = append(row, cell)
	}
	if n := len(r.Sems); n > 1 {
		row = append(row, fmt.Sprintf("%d of %d", len(tr.Distinctions), n*(n-1)/2))
	}
	for _, t := range r.targets() {
		row = append(row, statusCell(r.conformStatuses(tr, t)))
	}
	return row
}

// statusCell is "ok", "NON-CONFORMING 4 of 4", "ok 2, skipped 2", "-".
func statusCell(sts []string) string {
	if len(sts) == 0 {
		return "-"
	}
	count := map[string]int{}
	var order []string
	for _, s := range sts {
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	sort.SliceStable(order, func(i, j int) bool { return statusRank(order[i]) < statusRank(order[j]) })
	if len(order) == 1 {
		if order[0] == statusNonConforming || order[0] == statusSpinLimit || order[0] == statusFailed {
			return "**" + order[0] + "**"
		}
		return order[0]
	}
	var parts []string
	for _, s := range order {
		w := s
		if s == statusNonConforming || s == statusSpinLimit || s == statusFailed {
			w = "**" + s + "**"
		}
		parts = append(parts, fmt.Sprintf("%s %d", w, count[s]))
	}
	return strings.Join(parts, ", ")
}

func statusRank(s string) int {
	for i, x := range []string{statusNonConforming, statusSpinLimit, statusFailed, statusOK, statusSkipped, statusRefused} {
		if x == s {
			return i
		}
	}
	return 9
}

// checksText is the line under the answer: what it was checked against.
func (q *Question) checksText() string {
	var parts []string
	for _, c := range q.Checks {
		parts = append(parts, c.String())
	}
	return "Checked against this report's results: " + strings.Join(parts, "; ") + "."
}

var (
	mdLink   = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	mdCodeRE = regexp.MustCompile("`([^`]+)`")
	mdStrong = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inlineHTML turns a sentence in Markdown's inline syntax into HTML.
func inlineHTML(md string) string {
	// code spans first, so that their text is kept as is
	var codes []string
	md = mdCodeRE.ReplaceAllStringFunc(md, func(m string) string {
		codes = append(codes, m[1:len(m)-1])
		return fmt.Sprintf("\x00%d\x00", len(codes)-1)
	})
	s := html.EscapeString(md)
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := mdLink.FindStringSubmatch(m)
		return `<a href="` + sub[2] + `">` + sub[1] + `</a>`
	})
	s = mdStrong.ReplaceAllString(s, "<strong>$1</strong>")
	for i, c := range codes {
		s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), "<code>"+html.EscapeString(c)+"</code>")
	}
	// the one HTML element the sentences use: a line break in a table cell
	return strings.ReplaceAll(s, "&lt;br&gt;", "<br>")
}
