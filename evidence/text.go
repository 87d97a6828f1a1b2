package evidence

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

// The sentences of a report are built once, as prose (prose.go), which the
// Markdown and the HTML page both print.

// FindingsSection is a part of the Findings: a heading and items.
type FindingsSection struct {
	Title string
	Intro Prose
	Items []FindingItem
}

// FindingItem is one finding: a line and the lines under it.
type FindingItem struct {
	Text Prose
	Sub  []Prose
}

// FindingsText renders the Findings.
func (r *Report) FindingsText() []FindingsSection {
	f := r.Findings()
	var out []FindingsSection
	readings, progress := splitProgress(apartPairs(f.Pairs))
	if pairs := readings; len(pairs) > 0 {
		s := FindingsSection{Title: "Readings compared"}
		s.Intro = P(Pf("The pairs of readings that some of this report's %d tests tell apart (hw relaxed; a race named differently by two readings is not a difference), and which tests; the other pairs answer every test alike.", len(r.Tests)))
		for _, sm := range r.Smallest {
			if sm != nil {
				s.Intro = P(Pf("The pairs of readings that some of this report's %d tests tell apart (hw relaxed; a race named differently by two readings is not a difference), which tests, and the smallest generated test that does (", len(r.Tests)),
					Code("rmacheck distinguish"), Pf(" over the %d generated tests of at most %d processes × %d instructions, each distinguishing test shrunk; hw %s).",
						sm.Candidates, sm.MaxProcs, sm.MaxInstrs, sm.HW))
				break
			}
		}
		for _, p := range pairs {
			s.Items = append(s.Items, r.pairItem(p))
		}
		out = append(out, s)
	}
	if len(progress) > 0 {
		s := FindingsSection{Title: "Without asynchronous progress"}
		s.Intro = P("Whether an RMA operation completes while its target makes no MPI call is not a reading of the standard but a property of implementations, which MPI-4.1 leaves open (Progress, node340). ",
			Code(spec.Switches[spec.WeakProgress].Name+"=on"), " is an implementation without asynchronous progress; the tests below finish with it on and off only as listed.")
		for _, p := range progress {
			s.Items = append(s.Items, r.progressItem(p))
		}
		out = append(out, s)
	}
	if len(f.Targets) > 0 {
		s := FindingsSection{Title: "Conformance"}
		s.Intro = P(Pf("Each run is compared with the outcomes the model allows for its semantics on hw %s, the hardware model of this machine (amd64), in the tables of the tests as in the lists below (the reference runtime runs the model's own steps on real memory); NON-CONFORMING: a run showed an outcome the model forbids.", r.comparedHW()))
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

// apartPairs keeps the pairs some test of the report, or a generated test, tells
// apart: a pair none does is no finding, and a list of "none" lines buried the
// findings of reports whose question is not about the readings.
func apartPairs(pairs []PairFinding) []PairFinding {
	var out []PairFinding
	for _, p := range pairs {
		if len(p.Tests) > 0 || (p.Smallest != nil && p.Smallest.Diff != nil) {
			out = append(out, p)
		}
	}
	return out
}

// splitProgress parts the pairs into those of two readings and those of a semantics
// with and without asynchronous progress (weak_progress): a pair that differs in
// weak_progress and in some reading as well is left out, since it mixes the two.
func splitProgress(pairs []PairFinding) (readings, progress []PairFinding) {
	for _, p := range pairs {
		wx, wy := p.X.Has(spec.WeakProgress), p.Y.Has(spec.WeakProgress)
		switch {
		case wx == wy:
			readings = append(readings, p)
		case p.X.With(spec.WeakProgress, false).Switches == p.Y.With(spec.WeakProgress, false).Switches:
			progress = append(progress, p)
		}
	}
	return readings, progress
}

// progressItem is one semantics with and without asynchronous progress, in words.
func (r *Report) progressItem(p PairFinding) FindingItem {
	base := p.X.With(spec.WeakProgress, false)
	links, verb := testLinks(p.Tests)
	return FindingItem{Text: P(Strong{Pf("%s with and without asynchronous progress", base.Name)},
		Pf(": %d of the %d tests %s them apart (most hang, LIVELOCK, when the target's progress waits for its MPI calls): ", len(p.Tests), len(r.Tests), verb), listProse(links, 8), ".")}
}

// testLinks links each test to its section, with the verb that agrees with their number.
func testLinks(tests []string) (links []Prose, verb string) {
	for _, n := range tests {
		links = append(links, P(Link{Text: P(n), URL: "#" + anchor(n)}))
	}
	if len(tests) == 1 {
		return links, "tells"
	}
	return links, "tell"
}

func (r *Report) pairItem(p PairFinding) FindingItem {
	it := FindingItem{}
	pair := Strong{Pf("%s vs %s", p.X.Name, p.Y.Name)}
	switch len(p.Tests) {
	case 0:
		it.Text = P(pair, Pf(": none of the %d tests tells them apart.", len(r.Tests)))
	default:
		links, verb := testLinks(p.Tests)
		it.Text = P(pair, Pf(": %d of the %d tests %s them apart: ", len(p.Tests), len(r.Tests), verb), listProse(links, 8), ".")
	}
	s := p.Smallest
	switch {
	case s == nil:
	case s.Diff == nil:
		it.Sub = append(it.Sub, P("No generated test tells them apart."))
	default:
		it.Sub = append(it.Sub, P("Smallest generated test that does: ", Link{Text: P(Code(s.Diff.Test.Name)), URL: "#" + smallestAnchor(s)},
			Pf(", %d instructions (one of %d distinct distinguishing tests): %s %s, %s %s: ", s.Instrs, s.Found, s.X.Name, s.Diff.A.Verdict(), s.Y.Name, s.Diff.B.Verdict()),
			firstDifference(s.Diff), "."))
	}
	return it
}

// firstDifference is the difference of a Diff in one phrase: an outcome only one
// side allows, else a rule only one side raises.
func firstDifference(d *explorer.Diff) Prose {
	sides := d.Sides()
	// when one side is erroneous, the rule is the difference
	for _, s := range sides {
		for i := range s.Flags {
			if fl := &s.Flags[i]; fl.Class == spec.ClassErroneous {
				return raisesAt(s, fl)
			}
		}
	}
	for k, s := range sides {
		for _, o := range s.Only {
			// output.Allows words it; the outcome is its one code span
			const mark = "\x00"
			before, after, _ := strings.Cut(output.Allows(s, sides[1-k], mark), mark)
			return P(before, Code(s.Result.Program.OutcomeString(o.Values)), after)
		}
	}
	for _, s := range sides {
		for i := range s.Flags {
			return raisesAt(s, &s.Flags[i])
		}
	}
	return P("the observations differ")
}

// raisesAt is "only A raises E-EPOCH, at P0 row 2: `put`".
func raisesAt(s explorer.Side, fl *explorer.Flag) Prose {
	return P(Pf("only %s raises %s, at %s", s.Name, fl.Rule, siteText(&fl.Diagnostic)), Code(instrAt(s.Result, &fl.Diagnostic)))
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

// hangsText says what the model makes of a spin-limited test's runs (with and
// without asynchronous progress), or "" when it was not asked.
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

// onceText says once what the model makes of every test of a group (hangsText),
// instead of once per test.
func onceText(hangs string, n int) Prose {
	if hangs == "" {
		return nil
	}
	text := strings.TrimSuffix(strings.TrimPrefix(hangs, " [the model: "), "]")
	if n == 1 {
		return P(" The model: ", text, ".")
	}
	return P(" The model, for each of them: ", text, ".")
}

func allSame(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// elsewhere is the page that tells an upstream finding in full when the report's
// question does not bear on it (question file, elsewhere:), else "".
func (r *Report) elsewhere(up *UpstreamEntry) string {
	if up == nil || r.Question == nil {
		return ""
	}
	return r.Question.Elsewhere[up.ID]
}

// elsewhereText names the tests a library bug unrelated to the report's question
// touched, in one sentence that points to the page telling it.
func elsewhereText(kind conform.Status, up *UpstreamEntry, tests []string, page string) Prose {
	var links []Prose
	for _, t := range tests {
		links = append(links, P(testLink(t)))
	}
	cause := "a library bug"
	if up.Cause != "" {
		cause, _, _ = strings.Cut(up.Cause, ":")
	}
	return P(statusWord(kind), " on ", Join(links, ", "), ": ", ParseProse(cause),
		", a bug this question does not bear on, told in full in ", Link{Text: P(detailName(page)), URL: page}, ".")
}

func (r *Report) targetItem(t TargetFinding) FindingItem {
	it := FindingItem{}
	var counts []Prose
	for _, st := range []conform.Status{conform.StatusOK, conform.StatusNonConforming, conform.StatusSpinLimit, conform.StatusFailed, conform.StatusSkipped, conform.StatusRefused} {
		if n := t.Statuses[st]; n > 0 {
			c := P(Pf("%d %s", n, st))
			if st == conform.StatusSkipped {
				c = P(c, " (", ParseProse(r.skipReasons(t.Target)), ")")
			}
			counts = append(counts, c)
		}
	}
	var how Prose
	if l := launcher(t.Target); l != "" {
		how = P(", run with ", Code(l))
	}
	name := t.Name
	if t.Target.Kind == conform.KindReference {
		name = upperFirst(name)
	}
	it.Text = P(Strong{Verbatim(name)}, how, Pf(": of %d runs (one per test and semantics), ", t.Records), Join(counts, ", "), ".")
	if t.Target.Kind == conform.KindReference {
		it.Text = P(it.Text, " The reference runtime executes the model's own steps on real memory: its runs are evidence about the hardware and the runtime, not an independent check of the model.")
	}
	if su := r.Upstream.Setup(t.Target.Family); su != nil {
		it.Text = P(it.Text, " ", ParseProse(su.Text))
		if su.Link != "" {
			it.Text = P(it.Text, " (", Link{Text: P("details"), URL: su.Link}, ")")
		}
	}
	// one line per kind of result and upstream entry: the tests it covers, then what
	// they break and what upstream knows, once
	type group struct {
		kind  conform.Status
		up    *UpstreamEntry
		tests []Prose
		names []string
		hangs []string // what the model makes of each spin-limited test's runs
	}
	var groups []*group
	add := func(kind conform.Status, up *UpstreamEntry, test string, text Prose, hangs string) {
		for _, g := range groups {
			if g.kind == kind && g.up != nil && g.up == up {
				g.tests, g.names, g.hangs = append(g.tests, text), append(g.names, test), append(g.hangs, hangs)
				return
			}
		}
		groups = append(groups, &group{kind, up, []Prose{text}, []string{test}, []string{hangs}})
	}
	for _, nc := range t.NonConf {
		add(conform.StatusNonConforming, nc.Upstream, nc.Test, nonConfText(nc), "")
	}
	for _, sp := range t.Spins {
		add(conform.StatusSpinLimit, sp.Upstream, sp.Test, P(testLink(sp.Test), " "+r.runsText(t.Target, sp.Test, sp.Presets)+": ", Code(strings.TrimPrefix(sp.Message, "SPIN-LIMIT "))), hangsText(sp.Hangs))
	}
	for _, f := range t.Failures {
		add(conform.StatusFailed, f.Upstream, f.Test, P(testLink(f.Test), " "+r.runsText(t.Target, f.Test, f.Presets)+": ", messageProse(f.Message)), "")
	}
	for _, g := range groups {
		if page := r.elsewhere(g.up); page != "" {
			it.Sub = append(it.Sub, elsewhereText(g.kind, g.up, g.names, page))
			continue
		}
		what := map[conform.Status]string{conform.StatusNonConforming: "an outcome the model forbids", conform.StatusSpinLimit: "a spin loop that did not exit (the run stopped there)",
			conform.StatusFailed: "no histogram (the run failed)"}[g.kind]
		if g.up != nil && g.up.Cause != "" {
			what += ", from " + g.up.Cause
		}
		tests, once := g.tests, ""
		if allSame(g.hangs) {
			once = g.hangs[0]
		} else {
			tests = nil
			for i, tp := range g.tests {
				tests = append(tests, P(tp, g.hangs[i]))
			}
		}
		it.Sub = append(it.Sub, P(statusWord(g.kind), ", "+what+": ", Join(tests, "; "), ".", onceText(once, len(tests)), upstreamText(g.up, true)))
	}
	if len(t.Refused) > 0 {
		it.Sub = append(it.Sub, P("Not run: ", codeList(t.Refused), " (more ranks than this machine's cores, which conform refuses for a library that busy-polls)."))
	}
	if len(t.NonConf)+len(t.Spins)+len(t.Failures) == 0 {
		it.Sub = append(it.Sub, P("No run showed an outcome the model forbids."))
	}
	return it
}

// testLink is a test's name as code, linked to its section.
func testLink(test string) Link { return Link{Text: P(Code(test)), URL: "#" + anchor(test)} }

// nonConfText is a test with forbidden outcomes: which, how often, and which
// semantics forbid them.
func nonConfText(nc NonConfFinding) Prose {
	var presets []string
	for _, c := range nc.Runs {
		presets = append(presets, c.Preset)
	}
	text := P(testLink(nc.Test), ": ", codeList(nc.Outcomes), Pf(" in %s of %d iterations (%s)",
		rangeText(nc.Min, nc.Max), nc.RunsEach, percentRange(nc.Min, nc.Max, nc.RunsEach)))
	if len(nc.Runs) > 1 {
		text = P(text, Pf(" in each of its %d runs", len(nc.Runs)))
	}
	if sameSet(nc.Forbid, presets) && len(nc.Allow) == 0 {
		return P(text, ", which the model forbids under "+everyOf(presets, nc.HW))
	}
	text = P(text, Pf(" (%s), which the model forbids under %s (hw %s)", strings.Join(presets, ", "), strings.Join(nc.Forbid, ", "), nc.HW))
	if len(nc.Allow) > 0 {
		text = P(text, " and allows under "+strings.Join(nc.Allow, ", "))
	}
	return text
}

// runsText is "in every run (4)" when presets are all the runs of the test on the
// target that were not skipped, else "in 1 of its 4 runs (mpi-4.1)".
func (r *Report) runsText(target conform.TargetInfo, test string, presets []string) string {
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
func (r *Report) skipReasons(target conform.TargetInfo) string {
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
func upstreamText(u *UpstreamEntry, withRule bool) Prose {
	if u == nil {
		return P(" Upstream: not yet looked up (no entry in reports/upstream/status.json).")
	}
	var p Prose
	if withRule {
		p = P(" Breaks: ", ParseProse(strings.TrimSuffix(u.Breaks, ".")), ".")
	}
	p = P(p, " Upstream: ", ParseProse(strings.TrimSuffix(u.Status, ".")))
	var links []Prose
	for _, l := range u.Links {
		links = append(links, P(Link{Text: ParseProse(l.Text), URL: l.URL}))
	}
	if len(links) > 0 {
		p = P(p, " (", Join(links, ", "), ")")
	}
	p = P(p, ".")
	if u.Draft != "" {
		p = P(p, " Draft report: ", Link{Text: P(strings.TrimPrefix(u.Draft, "../")), URL: u.Draft}, ".")
	}
	if u.Details != "" {
		p = P(p, " Details: ", Link{Text: P(detailName(u.Details)), URL: u.Details}, ".")
	}
	if u.Note != "" {
		p = P(p, " ", ParseProse(u.Note))
	}
	return p
}

func detailName(link string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(link, "../"), "#")
	return name
}

func probeItem(p ProbeFinding) FindingItem {
	pr := p.Probe
	it := FindingItem{Text: P(Strong{Verbatim(strings.Join(strings.Fields(pr.Library), " "))}, " (", Code(pr.Name), Pf("; it claims MPI %s):", pr.Version))}
	if len(p.Groups) == 0 {
		it.Text = P(it.Text, " every result meets MPI-4.0 and MPI-4.1.")
		return it
	}
	// the violations of a version it claims, one line per upstream entry
	var claimed []*ProbeGroup
	var unclaimed []Prose
	var unclaimedUp []*UpstreamEntry
	for i := range p.Groups {
		g := &p.Groups[i]
		if !g.Claimed {
			unclaimed = append(unclaimed, P(Code(g.Call), Pf(": %s (%d results)", g.Verdict, len(g.Items))))
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
		var parts []Prose
		for _, h := range claimed {
			if h == g || (g.Upstream != nil && h.Upstream == g.Upstream) {
				done[h] = true
				parts = append(parts, P(Code(h.Call), Pf(": %s in %d results (", h.Verdict, len(h.Items)), listProse(codeItems(h.Items), 4), ")"))
			}
		}
		it.Sub = append(it.Sub, P("Against a version it claims: ", Join(parts, "; "), ".", upstreamText(g.Upstream, false)))
	}
	if len(unclaimed) > 0 {
		line := P("Against versions it does not claim (not a non-conformance): ", Join(unclaimed, "; "), ".")
		for _, u := range unclaimedUp {
			line = P(line, upstreamText(u, false))
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

func codeItems(items []string) []Prose {
	out := make([]Prose, len(items))
	for i, s := range items {
		out[i] = P(Code(s))
	}
	return out
}

func codeList(items []string) Prose { return Join(codeItems(items), ", ") }

// messageProse is a run's error message: a code span, or, when it quotes code in
// backquotes itself, its own spans.
func messageProse(s string) Prose {
	if strings.Contains(s, "`") {
		return ParseProse(s)
	}
	return P(Code(s))
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
	targets := r.targets()
	for _, t := range targets {
		head = append(head, columnName(t, targets))
	}
	return head
}

// summaryRow is one test's row of the one-screen table: a verdict per semantics (on
// the first hw model, with the others when they differ), the number of pairs it
// tells apart, and a status per conformance target.
func (r *Report) summaryRow(tr *TestReport) []Prose {
	row := []Prose{P(Link{Text: P(tr.Test.Name), URL: "#" + anchor(tr.Test.Name)})}
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
		row = append(row, verdictProse(cell))
	}
	if n := len(r.Sems); n > 1 {
		row = append(row, P(Pf("%d/%d", len(tr.Distinctions), n*(n-1)/2)))
	}
	for _, t := range r.targets() {
		row = append(row, statusCell(r.conformStatuses(tr, is(t))))
	}
	return row
}

// statusCell is "ok", "NON-CONFORMING 4 of 4", "ok 2, skipped 2", "-".
func statusCell(sts []conform.Status) Prose {
	if len(sts) == 0 {
		return P("-")
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
		return statusWord(order[0])
	}
	var parts []Prose
	for _, s := range order {
		parts = append(parts, P(statusWord(s), Pf(" %d", count[s])))
	}
	return Join(parts, ", ")
}

// statusWord is a status, strong only for NON-CONFORMING: the one status that breaks
// the standard (a SPIN-LIMIT in bold read as a violation).
func statusWord(s conform.Status) Prose {
	if s == conform.StatusNonConforming {
		return P(Strong{Plain(s.String())})
	}
	return P(s.String())
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
func (q *Question) checksText() Prose {
	var parts []string
	for _, c := range q.Checks {
		parts = append(parts, c.String())
	}
	return P("Checked against this report's results: " + strings.Join(parts, "; ") + ".")
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
