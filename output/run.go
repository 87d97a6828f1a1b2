package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Show says what a herd7-style block prints beside the outcomes.
type Show string

const (
	ShowOutcomes Show = "outcomes" // the outcomes and flags (also the default, "")
	ShowWitness  Show = "witness"  // and the witness of each outcome that satisfies the condition, and of each flag
	ShowAll      Show = "all"      // and the witness of every outcome
)

// MaxFlagLines is how many flags a block prints (JSON lists every one).
const MaxFlagLines = 20

// Block prints one search, its long lines wrapped at width (0: none): the answer in
// plain words (PlainVerdict), then as herd7
// does: Test, States, the outcomes (*> on those that
// satisfy the condition, the rules raised after #), Ok/No, Witnesses, one Flag line per
// rule, Condition, Observation (with the expectation, when the test has one) and Time.
func Block(w io.Writer, jr Judged, show Show, width int) {
	t := jr.Test
	if jr.Err != nil {
		fmt.Fprintf(w, "Test %s (%s, hw %s): no result: %v\n\n", t.Name, jr.Sem.Name, jr.HW, jr.Err)
		return
	}
	r := jr.Result
	p := r.Program
	v := r.Verdict()
	v.Erroneous = jr.Erroneous()
	line := PlainVerdict(t.Quant, jr.Sem.Name, jr.HW.String(), v, r.Positive, r.Negative)
	if jr.ProgressHang {
		line += "; " + MayHangWords
	}
	fmt.Fprint(w, Wrap("", line, width, "  "))
	fmt.Fprintf(w, "Test %s %s (semantics %s, hw %s)\n", t.Name, t.Quant.VerdictWord(), jr.Sem.Name, jr.HW)
	fmt.Fprintf(w, "States %d\n", r.Positive+r.Negative)
	for _, o := range r.Outcomes {
		mark := "  "
		if o.Sat {
			mark = "*>"
		}
		line := mark + " " + p.OutcomeString(o.Values)
		if len(o.Flags) > 0 {
			line += "  # " + outcomeFlags(jr, o.Flags)
		}
		fmt.Fprintln(w, line)
		if show == ShowAll || (show == ShowWitness && o.Sat) {
			WriteTrace(w, o.Trace(), "     ", spec.NoRule)
		}
	}
	if t.Quant.Holds(r.Positive, r.Negative) {
		fmt.Fprintln(w, "Ok")
	} else {
		fmt.Fprintln(w, "No")
	}
	fmt.Fprintf(w, "Witnesses\nPositive: %d Negative: %d\n", r.Positive, r.Negative)
	for i := range r.Flags {
		if i == MaxFlagLines && len(r.Flags) > MaxFlagLines+1 {
			fmt.Fprintf(w, "Flag ... and %d more (--json lists them all)\n", len(r.Flags)-i)
			break
		}
		f := &r.Flags[i]
		class := f.Class.String()
		if jr.ProgressHang && f.Rule == spec.Livelock {
			class = "allowed hang"
		}
		fmt.Fprint(w, Wrap(fmt.Sprintf("Flag %s (%s): ", f.Rule, class), DiagnosticLine(t.File, &f.Diagnostic), width, "     "))
		if show == ShowWitness || show == ShowAll {
			WriteTrace(w, f.Trace(), "     ", f.Rule)
		}
	}
	fmt.Fprintf(w, "Condition %s (%s)\n", t.Quant, litmus.CondString(t.Cond))
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, r.Verdict().ObsString(), r.Positive, r.Negative)
	if jr.Expect != nil {
		fmt.Fprintf(w, "Expect %s %s: %s\n", jr.Expect.ObsString(), jr.Sem.Name, jr.ExpectStatus())
	}
	fmt.Fprintf(w, "Time %s %.3f\n\n", t.Name, r.Time.Seconds())
}

// outcomeFlags names the erroneous-class rules an outcome's executions break, with
// a LIVELOCK only weak progress causes (Judged) apart: "erroneous: E-EPOCH; may hang:
// LIVELOCK".
func outcomeFlags(jr Judged, rules []spec.RuleID) string {
	judged := jr.judge(rules)
	hang := len(judged) < len(rules)
	var parts []string
	if len(judged) > 0 {
		parts = append(parts, "erroneous: "+strings.Join(spec.RuleNames(judged), ","))
	}
	if hang {
		parts = append(parts, "may hang: LIVELOCK")
	}
	return strings.Join(parts, "; ")
}

// PlainVerdict is the answer of one search in words a reader who does not know
// herd7 reads right: "condition reachable under mpi-4.1 (hw relaxed): no (never), 0
// of 2 outcomes; erroneous: none". herd7's "Test NAME Allowed" names the question
// an exists condition asks, not its answer, and Positive/Negative count outcomes.
// A forall condition asks whether the condition holds in every outcome.
func PlainVerdict(q litmus.Quant, sem, hw string, v litmus.Verdict, positive, negative int) string {
	question, answer := "condition reachable", plainObs(v.Obs)
	if q == litmus.Forall {
		question = "condition holds in every outcome"
		answer = map[litmus.Obs]string{litmus.ObsNever: "no (never)", litmus.ObsSometimes: "no (sometimes)", litmus.ObsAlways: "yes (always)"}[v.Obs]
	}
	line := fmt.Sprintf("%s under %s (hw %s): %s, %d of %s; erroneous: ",
		question, sem, hw, answer, positive, Plural(positive+negative, "outcome"))
	if v.IsErroneous() {
		line += strings.Join(spec.RuleNames(v.Erroneous), ", ") + " (not valid MPI: its outcomes are undefined)"
	} else {
		line += "none"
	}
	if len(v.Race) > 0 {
		line += "; races: " + strings.Join(spec.RuleNames(v.Race), ", ")
	}
	return line
}

// plainObs answers "is the condition reachable (or seen)?" with the observation.
func plainObs(o litmus.Obs) string {
	return map[litmus.Obs]string{litmus.ObsNever: "no (never)", litmus.ObsSometimes: "yes (sometimes)", litmus.ObsAlways: "yes (always)"}[o]
}

// Plural is "1 test", "2 tests", "1 search", "2 searches", "0 classes".
func Plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "s"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// TableWriter prints results side by side as they come, a test at a time: one row
// per test and hw model, one column per semantics, each cell the verdict
// (Sometimes+RACE, Erroneous(E-EPOCH)) marked ok when it meets the test's expect line
// and FAIL when it breaks it; after a test's rows, a line for each broken
// expectation. Columns start with widths from the test names and the semantics, so
// the first test prints before the last is run; a verdict wider than its column
// (Erroneous(C-CONFLICT,E-ORIGIN-BUF) FAIL) widens it for its test's rows and every
// later row, so no row's columns drift.
type TableWriter struct {
	w      io.Writer
	sems   []spec.Semantics
	widths []int
}

// verdictWidth is the least width of a verdict column: most verdicts and a mark fit.
const verdictWidth = 22

// NewTable starts a table of the tests' results under sems, and prints its header.
func NewTable(w io.Writer, sems []spec.Semantics, tests []*litmus.Test) *TableWriter {
	t := &TableWriter{w: w, sems: sems, widths: []int{len("Test"), len(spec.Relaxed.String())}}
	for _, lt := range tests {
		t.widths[0] = max(t.widths[0], len(lt.Name))
		for _, e := range lt.Expects { // a line with switches has rows of its own
			if q := e.Qualifier(); q != "" {
				t.widths[1] = max(t.widths[1], len("relaxed "+q))
			}
		}
	}
	header := []string{"Test", "hw"}
	for _, s := range sems {
		t.widths = append(t.widths, max(len(s.Name), verdictWidth, expectedWidth(tests, s)))
		header = append(header, s.Name)
	}
	t.row(header)
	return t
}

// expectedWidth is the width of the widest cell the tests' expect lines foresee under
// sem (a verdict as expected, marked FAIL: the widest): most tests meet them, so the
// header, printed before any result, is as wide as the rows below it.
func expectedWidth(tests []*litmus.Test, sem spec.Semantics) int {
	w := 0
	for _, lt := range tests {
		for _, e := range lt.Expects {
			for _, it := range e.Items {
				if string(it.Preset) == string(sem.Preset) {
					w = max(w, len(it.ObsString()+" FAIL"))
				}
			}
		}
	}
	return w
}

func (t *TableWriter) row(cells []string) {
	var b strings.Builder
	for i, c := range cells {
		if i == len(cells)-1 {
			b.WriteString(c)
		} else {
			fmt.Fprintf(&b, "%-*s  ", t.widths[i], c)
		}
	}
	fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
}

// Test prints the rows of one test: its results, in any order of hw and semantics.
// A result under a semantics that is no column (a preset with the switches of an
// expect line, docs/language.md#expect-lines) goes in its preset's column, on a row of its own
// labelled by the hw model and the switches: "relaxed weak_progress=on".
func (t *TableWriter) Test(results []Judged) {
	var rows []string
	cells := map[string][]string{}
	var failures []string
	for _, jr := range results {
		col, label := t.column(jr)
		if _, ok := cells[label]; !ok {
			rows = append(rows, label)
			cells[label] = make([]string, len(t.sems))
		}
		cells[label][col] = tableCell(jr)
		if jr.ExpectStatus() == litmus.ExpectBroken && jr.Err == nil {
			failures = append(failures, fmt.Sprintf("FAIL %s (%s): %s hw=%s: expected %s, found %s",
				jr.Test.Name, jr.Test.File, jr.Sem.Name, jr.HW, jr.Expect.ObsString(), jr.Result.Verdict()))
		}
	}
	var lines [][]string
	for _, label := range rows {
		lines = append(lines, append([]string{results[0].Test.Name, label}, cells[label]...))
	}
	t.widen(lines)
	for _, l := range lines {
		t.row(l)
	}
	for _, f := range failures {
		fmt.Fprintln(t.w, f)
	}
}

// widen makes each column (but the last, which is not padded) as wide as its
// widest cell in rows.
func (t *TableWriter) widen(rows [][]string) {
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			t.widths[i] = max(t.widths[i], len(c))
		}
	}
}

// column finds a result's column and the label of its row (see Test).
func (t *TableWriter) column(jr Judged) (col int, label string) {
	for i := range t.sems {
		if t.sems[i].Name == jr.Sem.Name {
			return i, jr.HW.String()
		}
	}
	label = jr.HW.String()
	if c := jr.Sem.Changes(); c != "" {
		label += " " + c
	}
	for i := range t.sems {
		if t.sems[i].Name == string(jr.Sem.Preset) {
			return i, label
		}
	}
	return 0, label
}

func tableCell(jr Judged) string {
	if jr.Err != nil {
		return "?"
	}
	cell := jr.Result.Verdict().String()
	if jr.ProgressHang && cell == "Erroneous(LIVELOCK)" { // allowed, not erroneous (Judged)
		cell = "MayHang(LIVELOCK)"
	}
	switch jr.ExpectStatus() {
	case litmus.ExpectMet:
		cell += " ok"
	case litmus.ExpectBroken:
		cell += " FAIL"
	}
	return cell
}

// Columns prints rows with every column padded to its widest cell.
func Columns(w io.Writer, rows [][]string) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(&b, "%-*s  ", width[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
