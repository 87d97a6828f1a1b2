package evidence

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
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
		for _, sm := range r.Smallest {
			if sm != nil {
				s.Intro = fmt.Sprintf("For each pair of readings: how many of this report's %d tests tell them apart (hw relaxed), and the smallest generated test that does (`rmacheck distinguish` over the %d generated tests of at most %d processes × %d instructions, each distinguishing test shrunk; hw %s).",
					len(r.Tests), sm.Candidates, sm.MaxProcs, sm.MaxInstrs, sm.HW)
				break
			}
		}
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
		it.Sub = append(it.Sub, "No generated test tells them apart.")
	default:
		it.Sub = append(it.Sub, fmt.Sprintf("Smallest generated test that does: [`%s`](#%s), %d instructions (one of %d distinct distinguishing tests): %s %s, %s %s: %s.",
			s.Diff.Test.Name, smallestAnchor(s), s.Instrs, s.Found,
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

// hangsText says what the model makes of a spin-limited test's runs (both readings
// of MPI-4.1 Progress), or "" when it was not asked.
func hangsText(hangs []conform.Hang) string {
	var parts []string
	for _, h := range hangs {
		parts = append(parts, h.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return " [the model: " + strings.Join(parts, "; ") + "]"
}

func (r *Report) targetItem(t TargetFinding) FindingItem {
	it := FindingItem{}
	var counts []string
	for _, st := range []conform.Status{conform.StatusOK, conform.StatusNonConforming, conform.StatusSpinLimit, conform.StatusFailed, conform.StatusSkipped, conform.StatusRefused} {
		if n := t.Statuses[st]; n > 0 {
			c := fmt.Sprintf("%d %s", n, st)
			if st == conform.StatusSkipped {
				c += " (" + r.skipReasons(t.Target) + ")"
			}
			counts = append(counts, c)
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
	// one line per kind of result and upstream entry: the tests it covers, then what
	// they break and what upstream knows, once
	type group struct {
		kind  conform.Status
		up    *UpstreamEntry
		tests []string
	}
	var groups []*group
	add := func(kind conform.Status, up *UpstreamEntry, text string) {
		for _, g := range groups {
			if g.kind == kind && g.up != nil && g.up == up {
				g.tests = append(g.tests, text)
				return
			}
		}
		groups = append(groups, &group{kind, up, []string{text}})
	}
	for _, nc := range t.NonConf {
		var presets []string
		for _, c := range nc.Runs {
			presets = append(presets, c.Preset)
		}
		text := fmt.Sprintf("[`%s`](#%s): %s in %s of %d iterations (%s)", nc.Test, anchor(nc.Test), codeList(nc.Outcomes),
			rangeText(nc.Min, nc.Max), nc.RunsEach, percentRange(nc.Min, nc.Max, nc.RunsEach))
		if len(nc.Runs) > 1 {
			text += fmt.Sprintf(" in each of its %d runs", len(nc.Runs))
		}
		if sameSet(nc.Forbid, presets) && len(nc.Allow) == 0 {
			text += ", which the model forbids under " + everyOf(presets, nc.HW)
		} else {
			text += fmt.Sprintf(" (%s), which the model forbids under %s (hw %s)", strings.Join(presets, ", "), strings.Join(nc.Forbid, ", "), nc.HW)
			if len(nc.Allow) > 0 {
				text += " and allows under " + strings.Join(nc.Allow, ", ")
			}
		}
		add(conform.StatusNonConforming, nc.Upstream, text)
	}
	for _, sp := range t.Spins {
		add(conform.StatusSpinLimit, sp.Upstream, fmt.Sprintf("[`%s`](#%s) %s: `%s`%s", sp.Test, anchor(sp.Test), r.runsText(t.Target, sp.Test, sp.Presets), strings.TrimPrefix(sp.Message, "SPIN-LIMIT "), hangsText(sp.Hangs)))
	}
	for _, f := range t.Failures {
		add(conform.StatusFailed, f.Upstream, fmt.Sprintf("[`%s`](#%s) %s: %s", f.Test, anchor(f.Test), r.runsText(t.Target, f.Test, f.Presets), mdCode(f.Message)))
	}
	for _, g := range groups {
		what := map[conform.Status]string{conform.StatusNonConforming: "an outcome the model forbids", conform.StatusSpinLimit: "a spin loop that did not exit (the run stopped there)",
			conform.StatusFailed: "no histogram (the run failed)"}[g.kind]
		line := fmt.Sprintf("**%s**, %s: %s.", g.kind, what, strings.Join(g.tests, "; "))
		it.Sub = append(it.Sub, line+upstreamText(g.up, true))
	}
	if len(t.Refused) > 0 {
		it.Sub = append(it.Sub, fmt.Sprintf("Not run: %s (more ranks than this machine's cores, which conform refuses for a library that busy-polls).", codeList(t.Refused)))
	}
	if len(t.NonConf)+len(t.Spins)+len(t.Failures) == 0 {
		it.Sub = append(it.Sub, "No run showed an outcome the model forbids.")
	}
	return it
}

// runsText is "in every run (4)" when presets are all the runs of the test on the
// target that were not skipped, else "in 1 of its 4 runs (mpi-4.1)".
func (r *Report) runsText(target, test string, presets []string) string {
	var all []string
	skipped := 0
	if tr := r.test(test); tr != nil {
		for _, c := range tr.Conform {
			switch {
			case c.Target != target:
			case c.Skipped != "":
				skipped++
			default:
				all = append(all, c.Preset)
			}
		}
		for _, e := range tr.Errors {
			if e.Target == target && !slices.Contains(all, e.Preset) {
				all = append(all, e.Preset)
			}
		}
	}
	switch {
	case sameSet(all, presets) && len(all) == 1 && skipped > 0:
		return fmt.Sprintf("in its one run (%s; %d skipped)", presets[0], skipped)
	case sameSet(all, presets) && len(all) == 1:
		return "in its one run (" + presets[0] + ")"
	case sameSet(all, presets):
		return fmt.Sprintf("in every run (%d)", len(presets))
	}
	return fmt.Sprintf("in %d of its %d runs (%s)", len(presets), len(all), strings.Join(presets, ", "))
}

// everyOf is "each of them (mpi-3.0, A; hw tso)" or "B (hw tso)".
func everyOf(presets []string, hw spec.HW) string {
	if len(presets) == 1 {
		return presets[0] + " (hw " + hw.String() + ")"
	}
	return "each of them (" + strings.Join(presets, ", ") + "; hw " + hw.String() + ")"
}

// skipReasons says why a target's runs were skipped.
func (r *Report) skipReasons(target string) string {
	var reasons []string
	for _, c := range r.Conform {
		if c.Target != target || c.Skipped == "" {
			continue
		}
		why := "not run: " + strings.TrimPrefix(c.Skipped, "skipped: ")
		switch {
		case strings.Contains(c.Skipped, "the model finds it"):
			why = "the model finds the test erroneous under that semantics: undefined behaviour"
		}
		if !slices.Contains(reasons, why) {
			reasons = append(reasons, why)
		}
	}
	return strings.Join(reasons, "; ")
}

// sameSet reports whether a and b hold the same strings (neither repeats one).
func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(x string) bool { return !slices.Contains(b, x) })
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
	// the violations of a version it claims, one line per upstream entry
	var claimed []*ProbeGroup
	var unclaimed []string
	var unclaimedUp []*UpstreamEntry
	for i := range p.Groups {
		g := &p.Groups[i]
		if !g.Claimed {
			unclaimed = append(unclaimed, fmt.Sprintf("`%s`: %s (%d results)", g.Call, g.Verdict, len(g.Items)))
			if g.Upstream != nil && !containsEntry(unclaimedUp, g.Upstream) {
				unclaimedUp = append(unclaimedUp, g.Upstream)
			}
			continue
		}
		claimed = append(claimed, g)
	}
	done := map[*ProbeGroup]bool{}
	for _, g := range claimed {
		if done[g] {
			continue
		}
		var parts []string
		for _, h := range claimed {
			if h == g || (g.Upstream != nil && h.Upstream == g.Upstream) {
				done[h] = true
				parts = append(parts, fmt.Sprintf("`%s`: %s in %d results (%s)", h.Call, h.Verdict, len(h.Items), listNames(codeItems(h.Items), 4)))
			}
		}
		it.Sub = append(it.Sub, "Against a version it claims: "+strings.Join(parts, "; ")+"."+upstreamText(g.Upstream, false))
	}
	if len(unclaimed) > 0 {
		line := "Against versions it does not claim (not a non-conformance): " + strings.Join(unclaimed, "; ") + "."
		for _, u := range unclaimedUp {
			line += upstreamText(u, false)
		}
		it.Sub = append(it.Sub, line)
	}
	return it
}

func containsEntry(list []*UpstreamEntry, e *UpstreamEntry) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
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
		head = append(head, "pairs apart")
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
		row = append(row, fmt.Sprintf("%d/%d", len(tr.Distinctions), n*(n-1)/2))
	}
	for _, t := range r.targets() {
		row = append(row, statusCell(r.conformStatuses(tr, t)))
	}
	return row
}

// statusCell is "ok", "NON-CONFORMING 4 of 4", "ok 2, skipped 2", "-".
func statusCell(sts []conform.Status) string {
	if len(sts) == 0 {
		return "-"
	}
	count := map[conform.Status]int{}
	var order []conform.Status
	for _, s := range sts {
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	sort.SliceStable(order, func(i, j int) bool { return statusRank(order[i]) < statusRank(order[j]) })
	if len(order) == 1 {
		if order[0] == conform.StatusNonConforming || order[0] == conform.StatusSpinLimit || order[0] == conform.StatusFailed {
			return "**" + order[0].String() + "**"
		}
		return order[0].String()
	}
	var parts []string
	for _, s := range order {
		w := s.String()
		if s == conform.StatusNonConforming || s == conform.StatusSpinLimit || s == conform.StatusFailed {
			w = "**" + w + "**"
		}
		parts = append(parts, fmt.Sprintf("%s %d", w, count[s]))
	}
	return strings.Join(parts, ", ")
}

func statusRank(s conform.Status) int {
	for i, x := range []conform.Status{conform.StatusNonConforming, conform.StatusSpinLimit, conform.StatusFailed, conform.StatusOK, conform.StatusSkipped, conform.StatusRefused} {
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
