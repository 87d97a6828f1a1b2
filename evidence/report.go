// Package evidence turns explorer results and conformance records into evidence for
// standards discussions: reports (Markdown and self-contained HTML) where every claim
// is a litmus test, an outcome table, a witness and a citation. It searches nothing:
// a report lists the searches it needs (Report.Jobs), explorer runs them, and the
// report is built from their results (Report.Build).
package evidence

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

// Report is everything a report page says, computed once; Markdown and HTML are
// two renderings of it. A report opens with its question and checked answer, then
// the Findings (computed from its data: Findings), a one-screen summary table, and
// then the details per test.
type Report struct {
	Title    string
	Command  string // the exact command that produced it
	Version  string // rmacheck's
	Date     string
	Question *Question // the question and its checked answer (--question)
	Upstream *Upstream // what library maintainers know of each finding (--upstream)
	Sems     []spec.Semantics
	HWs      []spec.HW
	Exploit  bool // also run with --assert exploit and show what it adds
	Tests    []*TestReport
	Conform  []record.Conform // conformance records given with --conform, failed runs included
	Probes   []Probe          // what libraries said to rmacheck probe --json (--probe)
	// Smallest holds, for pairs of Sems, the smallest generated test that tells them
	// apart (gen.Distinguish, run by the caller); a pair without an entry was not
	// searched.
	Smallest []*Smallest
	findings *Findings
	page     *Page
	smallest []*TestReport // the sections of Smallest, each collected once (Build)
}

// Probe is `rmacheck probe --json` for one library.
type Probe struct {
	Name string // the file it came from
	conform.Probe
}

// Smallest is the smallest generated test that tells a pair of semantics apart
// (gen.SmallestTests finds them).
type Smallest = gen.Smallest

// ResultKey names one search of a test: a semantics, by name, and a hardware model.
type ResultKey struct {
	Sem string
	HW  spec.HW
}

// TestReport is one test's section.
type TestReport struct {
	Test    *litmus.Test
	Results map[ResultKey]*explorer.Result
	Exploit map[string]*explorer.Result // key: semName (hw relaxed), when Report.Exploit
	// Distinctions: for each pair of semantics that differ, the diff (hw relaxed),
	// and each difference of it as a line with its witness.
	Distinctions []*explorer.Diff
	Pairs        []PairDiff
	// Witnesses are the distinct witness executions of the distinctions, each drawn
	// once and referred to from every pair it tells apart.
	Witnesses []*Witness
	// Condition is a witness of an outcome that satisfies the condition, when no
	// difference already shows one (nil when no semantics allows such an outcome).
	Condition *Witness
	Conform   []record.Conform // the runs of this test that ran or were skipped
	Errors    []record.Conform // those that failed or were refused: no histogram
	// Hangs: for each record that stopped at its spin limit, what the model makes of
	// it under weak_progress on and off (conform.HangOf).
	Hangs map[ResultKey]conform.Hang
	// Anchor names the section (default: from the test's name).
	Anchor string
}

// anchor is the id of the test's section.
func (tr *TestReport) anchor() string {
	if tr.Anchor != "" {
		return tr.Anchor
	}
	return anchor(tr.Test.Name)
}

// PairDiff is how one pair of semantics answers a test differently.
type PairDiff struct {
	Diff  *explorer.Diff
	Items []DiffItem
}

// DiffRow is one difference and every pair of semantics it tells apart: the same
// sentence with the same witness is one row, however many pairs share it.
type DiffRow struct {
	Pairs []string // "A vs B"
	DiffItem
}

// Rows groups the differences of the pairs.
func (tr *TestReport) Rows() []DiffRow {
	var rows []DiffRow
	index := map[string]int{}
	for _, pd := range tr.Pairs {
		pair := pd.Diff.SemA.Name + " vs " + pd.Diff.SemB.Name
		for _, it := range pd.Items {
			key := it.Text
			if it.Witness != nil {
				key += "\x00" + it.Witness.Label()
			}
			k, ok := index[key]
			if !ok {
				k = len(rows)
				index[key] = k
				rows = append(rows, DiffRow{DiffItem: it})
			}
			if !slices.Contains(rows[k].Pairs, pair) {
				rows[k].Pairs = append(rows[k].Pairs, pair)
			}
		}
	}
	return rows
}

// DiffItem is one difference: an outcome only one side allows, or a rule only one
// side raises, with the execution that shows it.
type DiffItem struct {
	Text    string
	Witness *Witness
}

// Result is the result for a semantics and hw model.
func (tr *TestReport) Result(sem spec.Semantics, hw spec.HW) *explorer.Result {
	return tr.Results[ResultKey{sem.Name, hw}]
}

// search names one search of a test: what explorer.Job names, compared by value.
type search struct {
	test     *litmus.Test
	sem      string
	switches spec.Set
	hw       spec.HW
	exploit  bool
}

func searchOf(j explorer.Job) search {
	return search{j.Test, j.Sem.Name, j.Sem.Switches, j.HW, j.Exploit}
}

// Jobs lists the searches a report of the tests needs, each once: every semantics on
// every hw model (and, with Exploit, exploited on relaxed), every semantics on relaxed
// for the pairs, the semantics and hw model each conformance record was compared
// with, and, for a record that stopped at its spin limit, its semantics with
// weak_progress off and on (conform.HangSemantics). explorer runs them; Build reads
// their results.
func (r *Report) Jobs(tests []*litmus.Test) ([]explorer.Job, error) {
	var jobs []explorer.Job
	seen := map[search]bool{}
	add := func(j explorer.Job) {
		if !seen[searchOf(j)] {
			seen[searchOf(j)] = true
			jobs = append(jobs, j)
		}
	}
	for _, t := range tests {
		for _, hw := range r.HWs {
			for _, sem := range r.Sems {
				add(explorer.Job{Test: t, Sem: sem, HW: hw})
				if r.Exploit && hw == spec.Relaxed {
					add(explorer.Job{Test: t, Sem: sem, HW: hw, Exploit: true})
				}
			}
		}
		if len(r.Sems) > 1 {
			for _, sem := range r.Sems {
				add(explorer.Job{Test: t, Sem: sem, HW: spec.Relaxed})
			}
		}
		for _, c := range r.Conform {
			if c.Test != t.Name || c.Status == conform.StatusFailed || c.Status == conform.StatusRefused {
				continue
			}
			sem, err := spec.ParseSemantics(c.Preset)
			if err != nil {
				return nil, fmt.Errorf("conformance record of %s: %v", t.Name, err)
			}
			add(explorer.Job{Test: t, Sem: sem, HW: c.HW})
			if c.SpinLimit != "" {
				for _, s := range conform.HangSemantics(sem) {
					add(explorer.Job{Test: t, Sem: s, HW: c.HW})
				}
			}
		}
	}
	return jobs, nil
}

// Build makes the report from the results of its Jobs (in any order): for each test
// the results, the differences of each pair of semantics and their witnesses, its
// conformance records checked against the model and its hangs read; then the
// Findings, and the answer checked.
func (r *Report) Build(tests []*litmus.Test, results []explorer.JobResult) error {
	found := map[search]*explorer.Result{}
	for i := range results {
		jr := &results[i]
		if jr.Err != nil {
			return fmt.Errorf("%s: %v", jr.Test.File, jr.Err)
		}
		found[searchOf(jr.Job)] = jr.Result
	}
	result := func(j explorer.Job) (*explorer.Result, error) {
		if res := found[searchOf(j)]; res != nil {
			return res, nil
		}
		return nil, fmt.Errorf("%s: no result of the search under %s (hw %s) the report needs (Report.Jobs)", j.Test.File, j.Sem.Name, j.HW)
	}
	for _, t := range tests {
		tr, err := r.testReport(t, result)
		if err != nil {
			return err
		}
		r.Tests = append(r.Tests, tr)
	}
	for _, s := range r.Smallest {
		if s.Diff != nil {
			tr := &TestReport{Test: s.Diff.Test, Distinctions: []*explorer.Diff{s.Diff}, Anchor: smallestAnchor(s)}
			tr.collectWitnesses()
			r.smallest = append(r.smallest, tr)
		}
	}
	r.findings = r.computeFindings()
	return r.checkQuestion()
}

// testReport is one test's section, from the results of its searches.
func (r *Report) testReport(t *litmus.Test, result func(explorer.Job) (*explorer.Result, error)) (*TestReport, error) {
	tr := &TestReport{Test: t, Results: map[ResultKey]*explorer.Result{}, Exploit: map[string]*explorer.Result{}}
	var err error
	for _, hw := range r.HWs {
		for _, sem := range r.Sems {
			if tr.Results[ResultKey{sem.Name, hw}], err = result(explorer.Job{Test: t, Sem: sem, HW: hw}); err != nil {
				return nil, err
			}
			if r.Exploit && hw == spec.Relaxed {
				if tr.Exploit[sem.Name], err = result(explorer.Job{Test: t, Sem: sem, HW: hw, Exploit: true}); err != nil {
					return nil, err
				}
			}
		}
	}
	for i := range r.Sems {
		for j := i + 1; j < len(r.Sems); j++ {
			a, b := r.Sems[i], r.Sems[j]
			ra, err := result(explorer.Job{Test: t, Sem: a, HW: spec.Relaxed})
			if err != nil {
				return nil, err
			}
			rb, err := result(explorer.Job{Test: t, Sem: b, HW: spec.Relaxed})
			if err != nil {
				return nil, err
			}
			if d := explorer.NewDiff(t, spec.Relaxed, a, b, ra, rb); d.Differs() {
				tr.Distinctions = append(tr.Distinctions, d)
			}
		}
	}
	tr.collectWitnesses()
	tr.conditionWitness(r.Sems, r.HWs[0])
	for _, c := range r.Conform {
		switch {
		case c.Test != t.Name:
		case c.Status == conform.StatusFailed || c.Status == conform.StatusRefused:
			tr.Errors = append(tr.Errors, c)
		default:
			tr.Conform = append(tr.Conform, c)
		}
	}
	// the model the conformance runs were compared with (the machine's hw), and
	// what it makes of a run that stopped at its spin limit
	for _, c := range tr.Conform {
		sem, err := spec.ParseSemantics(c.Preset)
		if err != nil {
			return nil, RecordError{fmt.Errorf("conformance record of %s: %v", t.Name, err)}
		}
		key := ResultKey{c.Preset, c.HW}
		if tr.Results[key] == nil {
			if tr.Results[key], err = result(explorer.Job{Test: t, Sem: sem, HW: c.HW}); err != nil {
				return nil, err
			}
		}
		if err := checkAllowed(c, tr.Results[key]); err != nil {
			return nil, RecordError{err}
		}
		if c.SpinLimit != "" {
			if err := tr.readHang(c, sem, result); err != nil {
				return nil, err
			}
		}
	}
	return tr, nil
}

// readHang reads a spin-limited conformance run under both readings of MPI-4.1's
// Progress section: with weak_progress on and off.
func (tr *TestReport) readHang(c record.Conform, sem spec.Semantics, result func(explorer.Job) (*explorer.Result, error)) error {
	var res [2]*explorer.Result
	for i, s := range conform.HangSemantics(sem) {
		var err error
		if res[i], err = result(explorer.Job{Test: tr.Test, Sem: s, HW: c.HW}); err != nil {
			return err
		}
	}
	if tr.Hangs == nil {
		tr.Hangs = map[ResultKey]conform.Hang{}
	}
	tr.Hangs[ResultKey{c.Preset, c.HW}] = conform.HangOf(res[0], res[1])
	return nil
}

// collectWitnesses turns the distinctions into lines, one per difference, and keeps
// each distinct witness execution once.
func (tr *TestReport) collectWitnesses() {
	byKey := map[string]*Witness{}
	add := func(sem string, trace *model.Trace, mark spec.RuleID, what string) *Witness {
		lines := output.TraceText(trace)
		key := what + "\x00" + strings.Join(lines, "\n")
		if w := byKey[key]; w != nil {
			if !slices.Contains(w.Sems, sem) {
				w.Sems = append(w.Sems, sem)
			}
			return w
		}
		w := &Witness{ID: len(tr.Witnesses) + 1, Sems: []string{sem}, What: what, Trace: *trace, Mark: mark, Lines: lines}
		byKey[key] = w
		tr.Witnesses = append(tr.Witnesses, w)
		return w
	}
	for _, d := range tr.Distinctions {
		pd := PairDiff{Diff: d}
		sides := d.Sides()
		for k, s := range sides {
			p := s.Result.Program
			for _, o := range s.Only {
				out := p.OutcomeString(o.Values)
				text := output.Allows(s, sides[1-k], out)
				if o.Sat {
					text += " (it satisfies the condition)"
				}
				w := add(s.Name, o.Trace(), spec.NoRule, "outcome "+out)
				w.Sat = w.Sat || o.Sat
				pd.Items = append(pd.Items, DiffItem{Text: text, Witness: w})
			}
			for i := range s.Flags {
				fl := &s.Flags[i]
				text := "only " + s.Name + " raises " + fl.Rule.String() + ": " + siteText(&fl.Diagnostic) + fl.Message
				var w *Witness
				if len(fl.Witness.Steps) > 0 {
					w = add(s.Name, fl.Trace(), fl.Rule, fl.Rule.String()+": "+siteText(&fl.Diagnostic)+fl.Message)
				}
				pd.Items = append(pd.Items, DiffItem{Text: text, Witness: w})
			}
		}
		tr.Pairs = append(tr.Pairs, pd)
	}
}

// conditionWitness shows an execution that satisfies the test's condition when no
// difference shows one: the first such outcome of the first semantics that has one.
func (tr *TestReport) conditionWitness(sems []spec.Semantics, hw spec.HW) {
	for _, w := range tr.Witnesses {
		if w.Sat {
			return
		}
	}
	for _, s := range sems {
		res := tr.Result(s, hw)
		if res == nil {
			continue
		}
		for i := range res.Outcomes {
			o := &res.Outcomes[i]
			if !o.Sat || len(o.Witness.Steps) == 0 {
				continue
			}
			p := res.Program
			var also []string
			for _, s2 := range sems {
				if r2 := tr.Result(s2, hw); r2 != nil && s2.Name != s.Name && hasOutcome(r2, o.Values) {
					also = append(also, s2.Name)
				}
			}
			trace := o.Trace()
			w := &Witness{ID: len(tr.Witnesses) + 1, Sems: append([]string{s.Name}, also...), What: "outcome " + p.OutcomeString(o.Values) + " (it satisfies the condition), hw " + hw.String(),
				Trace: *trace, Lines: output.TraceText(trace), Sat: true}
			tr.Witnesses = append(tr.Witnesses, w)
			tr.Condition = w
			return
		}
	}
}

func hasOutcome(res *explorer.Result, vals []int64) bool {
	k := model.KeyOf(vals)
	for _, o := range res.Outcomes {
		if model.KeyOf(o.Values) == k {
			return true
		}
	}
	return false
}

// siteText is "P1 row 4: " for a diagnostic's first site (the message names the
// instruction, not where it stands).
func siteText(d *model.Diagnostic) string {
	if len(d.Sites()) == 0 {
		return ""
	}
	s := d.Sites()[0]
	return fmt.Sprintf("P%d row %d: ", s.Proc, s.Row)
}

// Witness is one execution that shows a difference.
type Witness struct {
	ID    int
	Sems  []string // the semantics it is a witness under
	What  string   // the outcome, or the rule and message
	Trace model.Trace
	Mark  spec.RuleID // the rule whose accesses the marked steps are (NoRule: none)
	Lines []string
	Sat   bool // the outcome satisfies the condition
}

// Label is "W2".
func (w *Witness) Label() string { return fmt.Sprintf("W%d", w.ID) }

// test finds a test of the report by name.
func (r *Report) test(name string) *TestReport {
	for _, tr := range r.Tests {
		if tr.Test.Name == name {
			return tr
		}
	}
	return nil
}

// conformStatuses lists the status of every conformance run of a test on the targets
// that match.
func (r *Report) conformStatuses(tr *TestReport, match func(conform.TargetInfo) bool) []conform.Status {
	var out []conform.Status
	for _, c := range tr.Conform {
		if match(c.Target) {
			out = append(out, c.Status)
		}
	}
	for _, e := range tr.Errors {
		if match(e.Target) {
			out = append(out, e.Status)
		}
	}
	return out
}

// is matches the runs of one target.
func is(target conform.TargetInfo) func(conform.TargetInfo) bool {
	return func(t conform.TargetInfo) bool { return t == target }
}

// targets lists the conformance targets of the report: the libraries in the order
// their records come (two installs of one family, or one over two transports, are
// two targets), then the reference runtime.
func (r *Report) targets() []conform.TargetInfo {
	var libs []conform.TargetInfo
	var ref []conform.TargetInfo
	for _, c := range r.Conform {
		switch {
		case c.Target.Kind == conform.KindReference:
			if !slices.Contains(ref, c.Target) {
				ref = append(ref, c.Target)
			}
		case !slices.Contains(libs, c.Target):
			libs = append(libs, c.Target)
		}
	}
	return append(libs, ref...)
}

// targetName is "MPICH 4.0.2" for a library target (with where it is installed,
// when it is not the Debian package), "the reference runtime" for the reference
// runtime.
func targetName(t conform.TargetInfo) string {
	if t.Kind == conform.KindReference {
		return "the reference runtime"
	}
	name := cmp.Or(t.Version, t.Name())
	if t.Prefix != "" {
		name += " at " + t.Prefix
	}
	return name
}

// columnName heads a target's column of the summary table: its name (mpich), and
// when another target of the report has that name too, what tells them apart (their
// versions, installs or transports, else their launchers).
func columnName(t conform.TargetInfo, all []conform.TargetInfo) string {
	var same []conform.TargetInfo
	for _, u := range all {
		if u.Name() == t.Name() {
			same = append(same, u)
		}
	}
	if len(same) < 2 {
		return t.Name()
	}
	var parts []string
	differ := func(f func(conform.TargetInfo) string) bool {
		return slices.ContainsFunc(same, func(u conform.TargetInfo) bool { return f(u) != f(t) })
	}
	for _, part := range []struct {
		field func(conform.TargetInfo) string
		word  string
	}{{func(u conform.TargetInfo) string { return u.Version }, ""}, {func(u conform.TargetInfo) string { return u.Prefix }, "at "},
		{func(u conform.TargetInfo) string { return u.Transport }, "over "}, {func(u conform.TargetInfo) string { return u.Launcher }, "via "}} {
		if v := part.field(t); v != "" && differ(part.field) && (part.word != "via " || len(parts) == 0) {
			parts = append(parts, part.word+v)
		}
	}
	return t.Name() + " (" + strings.Join(parts, ", ") + ")"
}

// launcher is how conform ran a library target: its launcher, then -n N ("" when
// its records do not say).
func launcher(t conform.TargetInfo) string {
	if t.Launcher == "" {
		return ""
	}
	return t.Launcher + " -n N"
}

// comparedHW lists the hw models the conformance runs were compared with, by name.
func (r *Report) comparedHW() string {
	var hws []string
	for _, c := range r.Conform {
		if c.Status != conform.StatusFailed && c.Status != conform.StatusRefused && !slices.Contains(hws, c.HW.String()) {
			hws = append(hws, c.HW.String())
		}
	}
	sort.Strings(hws)
	return strings.Join(hws, ", ")
}

// ruleLink is the report node address of a rule's first citation ("" for none).
func ruleLink(rule spec.RuleID) string {
	r := rule.Rule()
	if len(r.Nodes) == 0 {
		return ""
	}
	return spec.NodeURL(r.Nodes[0])
}

// programRows renders the process table: a header and one row per table row.
func programRows(t *litmus.Test) (header []string, rows [][]string) {
	for i := range t.Procs {
		header = append(header, fmt.Sprintf("P%d", i))
	}
	for row := 0; row < t.Rows; row++ {
		var cells []string
		for _, p := range t.Procs {
			cell := ""
			if row < len(p.Code) && p.Code[row] != nil {
				cell = litmus.InstrString(p.Code[row])
			}
			cells = append(cells, strings.TrimSpace(cell))
		}
		rows = append(rows, cells)
	}
	return header, rows
}

// initText is the init block of the test, one statement a line.
func initText(t *litmus.Test) []string {
	var lines []string
	for _, w := range t.Windows {
		lines = append(lines, litmus.WindowString(w)+";")
	}
	for _, a := range t.Aliases {
		line := a.Name + " = " + litmus.LocString(a.Loc)
		if a.Type != litmus.TypeDefault {
			line += " : " + a.Type.String()
		}
		lines = append(lines, line+";")
	}
	for _, in := range t.Inits {
		switch {
		case in.Reg != nil:
			lines = append(lines, fmt.Sprintf("%d:%s = %d;", in.Reg.Proc, in.Reg.Reg, in.Value))
		case in.Loc != nil:
			lines = append(lines, fmt.Sprintf("%s = %d;", litmus.LocString(*in.Loc), in.Value))
		}
	}
	return lines
}

// expectLines are the test's expect lines, as written.
func expectLines(t *litmus.Test) []string {
	var out []string
	for _, e := range t.Expects {
		out = append(out, e.String())
	}
	return out
}

// upperFirst capitalizes a sentence's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// RecordError is a conformance record the report cannot use (a preset it does not
// know, outcomes marked otherwise than the model says): bad input, not a finding.
type RecordError struct{ Err error }

func (e RecordError) Error() string { return e.Err.Error() }
func (e RecordError) Unwrap() error { return e.Err }

// checkAllowed refuses a conformance record whose outcomes are marked allowed or
// forbidden otherwise than the model says: a record edited by hand (an impossible
// outcome marked allowed was reported "ok"), or one of another version of the model.
func checkAllowed(c record.Conform, res *explorer.Result) error {
	if res == nil {
		return nil
	}
	allowed := map[string]bool{}
	for _, o := range res.Outcomes {
		allowed[valuesText(record.ValueMap(res.Program, o.Values))] = true
	}
	for _, b := range c.Histogram {
		v := valuesText(b.Values)
		if b.Allowed != allowed[v] {
			verb := map[bool]string{true: "allowed", false: "forbidden"}
			return fmt.Errorf("conformance record of %s (%s, %s, %s): outcome %s is marked %s, but the model finds it %s: the record was not written by this version of rmacheck",
				c.Test, c.Target.Name(), c.Preset, c.HW, v, verb[b.Allowed], verb[allowed[v]])
		}
	}
	return nil
}
