package output

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Judged is a search's result as run answers it: with whether its LIVELOCK is one
// only weak progress causes (a search of the same semantics with weak_progress off
// finds none), which MPI-4.1 allows: a hang of the implementation, not an error of
// the program (docs/semantics.md#progress).
type Judged struct {
	*explorer.JobResult
	ProgressHang bool
}

// Erroneous are the erroneous-class rules the search's executions break, but a
// LIVELOCK only weak progress causes.
func (jr Judged) Erroneous() []spec.RuleID { return jr.judge(jr.Result.Verdict().Erroneous) }

// judge drops LIVELOCK from rules when only weak progress causes it.
func (jr Judged) judge(rules []spec.RuleID) []spec.RuleID {
	if !jr.ProgressHang {
		return rules
	}
	return slices.DeleteFunc(slices.Clone(rules), func(r spec.RuleID) bool { return r == spec.Livelock })
}

// MayHangWords is how every command says that a test needs asynchronous progress.
const MayHangWords = "may hang without asynchronous progress (allowed: MPI-4.1 leaves progress to the implementation; rmacheck explain weak_progress)"

// VerdictWriter prints run's default answer: for each test, one line per group of
// semantics (and hw model) that give the same verdict, in plain words ("correct
// under mpi-4.1 (and A, B): ...", "erroneous under A: E-EPOCH at sb.lit:7:3"), then a
// line for each broken expectation. The codes behind the words (Sometimes+U2,
// Erroneous(E-EPOCH)) are run -v's table (TableWriter). Lines longer than Width
// (0: no limit) continue on the next, indented past the test's name.
type VerdictWriter struct {
	w     io.Writer
	name  int // the width of the test names' column
	Width int
}

// NewVerdicts starts the verdict lines of the tests.
func NewVerdicts(w io.Writer, tests []*litmus.Test, width int) *VerdictWriter {
	v := &VerdictWriter{w: w, Width: width}
	for _, t := range tests {
		v.name = max(v.name, len(t.Name))
	}
	return v
}

// Test prints the lines of one test, from its results in any order: the groups in the
// order of their first result.
func (v *VerdictWriter) Test(results []Judged) {
	var keys []string
	sems := map[string][]string{}
	words := map[string]Words{}
	var failures []string
	for _, jr := range results {
		w := VerdictWords(jr)
		key := jr.HW.String() + "\x00" + w.Kind + "\x00" + w.Detail
		if _, ok := sems[key]; !ok {
			keys = append(keys, key)
			words[key] = w
		}
		sems[key] = append(sems[key], jr.Sem.Name)
		if jr.ExpectStatus() == litmus.ExpectBroken && jr.Err == nil {
			failures = append(failures, fmt.Sprintf("FAIL %s (%s): %s hw=%s: expected %s, found %s",
				jr.Test.Name, jr.Test.File, jr.Sem.Name, jr.HW, jr.Expect.ObsString(), jr.Result.Verdict()))
		}
	}
	name := results[0].Test.Name
	for _, key := range keys {
		hw, _, _ := strings.Cut(key, "\x00")
		w := words[key]
		under := SemGroup(sems[key])
		if hw != spec.Relaxed.String() {
			under += " on hw " + hw
		}
		v.line(name, w.Kind+" under "+under+w.Detail)
	}
	for _, f := range failures {
		v.line("", f)
	}
}

// MayHang prints the line of a test that may hang without asynchronous progress under
// the semantics sems (run found LIVELOCK only with weak_progress on).
func (v *VerdictWriter) MayHang(t *litmus.Test, sems []string) { v.line(t.Name, MayHangUnder(sems)) }

// MayHangUnder says that a test may hang without asynchronous progress under sems.
func MayHangUnder(sems []string) string {
	return "may hang without asynchronous progress under " + SemGroup(sems) +
		" (allowed: MPI-4.1 leaves progress to the implementation; rmacheck explain weak_progress)"
}

// line prints text after the name's column (no column when name is ""), wrapped at
// the writer's width.
func (v *VerdictWriter) line(name, text string) {
	head, indent := "", ""
	if name != "" {
		head = fmt.Sprintf("%-*s  ", v.name, name)
		indent = strings.Repeat(" ", v.name+4)
	}
	fmt.Fprint(v.w, Wrap(head, text, v.Width, indent))
}

// Wrap is head then text, broken at blanks into lines of at most width columns (a
// word longer than that has a line of its own; runs of blanks become one), every line
// after the first starting with indent; width 0 leaves it one line, as it is. The
// result ends with a newline. Every wrapped text of rmacheck, --help's included, is
// wrapped here.
func Wrap(head, text string, width int, indent string) string {
	if width <= 0 {
		return head + text + "\n"
	}
	var b strings.Builder
	b.WriteString(head)
	col := len(head)
	for i, word := range strings.Fields(text) {
		switch {
		case i == 0:
		case col+1+len(word) > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String() + "\n"
}

// SemGroup names a group of semantics: "mpi-4.1" or "mpi-4.1 (and A, B)", the last
// (with every preset, the newest: the reading most users ask about) first.
func SemGroup(names []string) string {
	last := len(names) - 1
	if last == 0 {
		return names[0]
	}
	return names[last] + " (and " + strings.Join(names[:last], ", ") + ")"
}

// The kinds of Words that run --fail-on gates on.
const (
	KindErroneous = "erroneous"
	KindMayHang   = "may hang without asynchronous progress"
)

// Words is a verdict in plain words: its kind ("correct", "racy", "erroneous", "may
// hang without asynchronous progress", "no result") and what follows the semantics
// it holds under (": E-EPOCH at FILE:LINE:COL", ": the condition holds in some
// outcomes").
type Words struct{ Kind, Detail string }

// VerdictWords is the verdict of one search in plain words: the kinds a CI gates on
// (run --fail-on) and where the first rule of the kind is broken.
func VerdictWords(jr Judged) Words {
	if jr.Err != nil {
		return Words{"no result", ": " + jr.Err.Error()}
	}
	v := jr.Result.Verdict()
	erroneous := jr.Erroneous()
	switch {
	case len(erroneous) > 0:
		d := ": " + erroneous[0].String() + at(jr.JobResult, erroneous[0])
		if len(erroneous) > 1 {
			d += " (and " + strings.Join(spec.RuleNames(erroneous[1:]), ", ") + ")"
		}
		return Words{KindErroneous, d}
	case jr.ProgressHang:
		return Words{KindMayHang, " (allowed: MPI-4.1 leaves progress to the " +
			"implementation): LIVELOCK under weak_progress=on only" + at(jr.JobResult, spec.Livelock)}
	}
	cond := "the condition holds in " + map[litmus.Obs]string{litmus.ObsNever: "no outcome",
		litmus.ObsSometimes: "some outcomes", litmus.ObsAlways: "every outcome"}[v.Obs]
	switch {
	case slices.Contains(v.Race, spec.Race):
		return Words{"racy", ": data race" + at(jr.JobResult, spec.Race) + "; " + cond}
	case len(v.Race) > 0: // U2, U3: valid MPI, as polling a flag is
		return Words{"correct", ": " + cond + "; polling: a read may see the old or the new value"}
	}
	return Words{"correct", ": " + cond}
}

// at is " at FILE:LINE:COL", where the search first raises rule ("" when it has no
// position).
func at(jr *explorer.JobResult, rule spec.RuleID) string {
	for i := range jr.Result.Flags {
		if f := &jr.Result.Flags[i]; f.Rule == rule {
			if pos := Position(jr.Test.File, f.At); pos != "" {
				return " at " + pos
			}
			break
		}
	}
	return ""
}
