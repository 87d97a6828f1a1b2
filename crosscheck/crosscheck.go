// Package crosscheck runs a test under both formalizations of MPI RMA, the
// operational model (explorer) and the axiomatic one (axiom), and compares what
// they allow: per preset and hardware model, the outcomes (each with the rules its
// executions raise) and the rules raised. A difference comes with a witness from the
// engine that has it: the operational model's trace, the axiomatic engine's
// execution. The two share the parser and nothing of the semantics, so a departure
// of either from docs/semantics.md shows here.
package crosscheck

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// Case is one test under one preset and one hardware model.
type Case struct {
	File   string
	Test   *litmus.Test
	Preset string
	HW     spec.HW
}

func (c Case) String() string { return fmt.Sprintf("%s %s %s", c.File, c.Preset, c.HW) }

// Difference is one thing only one engine allows or raises.
type Difference struct {
	Only    string // "model" or "axiom": the engine that has it
	What    string // "outcome" or "rule"
	Detail  string // the outcome (with its rules) or the rule
	Witness []string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s only in the %s engine: %s", d.What, engineName(d.Only), d.Detail)
}

func engineName(only string) string {
	if only == "model" {
		return "operational"
	}
	return "axiomatic"
}

// Report is the comparison of one case.
type Report struct {
	Case
	Model *explorer.Result
	Axiom *axiom.Result
	// OutOfScope: the axiomatic engine refuses the test (its constructs and where).
	OutOfScope *axiom.ScopeError
	Err        error
	Diffs      []Difference
}

// Agree reports whether both engines ran and found the same.
func (r *Report) Agree() bool { return r.OutOfScope == nil && r.Err == nil && len(r.Diffs) == 0 }

// Cases lists a test's cases: every preset with a built-in axiomatic model, under
// each of hws.
func Cases(file string, t *litmus.Test, hws []spec.HW) []Case {
	var out []Case
	for _, hw := range hws {
		for _, p := range axiom.PresetNames() {
			out = append(out, Case{File: file, Test: t, Preset: p, HW: hw})
		}
	}
	return out
}

// Run compares the engines on one case; m is the axiomatic model (nil: the preset's).
func Run(c Case, m *axiom.Model, opt explorer.Options) Report {
	rep := Report{Case: c}
	if m == nil {
		var err error
		if m, err = axiom.Preset(c.Preset); err != nil {
			rep.Err = err
			return rep
		}
	}
	sem, ok := spec.Preset(spec.PresetName(c.Preset))
	if !ok {
		rep.Err = fmt.Errorf("unknown preset %q", c.Preset)
		return rep
	}
	if err := axiom.CheckScope(c.Test, sem); err != nil {
		if se, ok := err.(axiom.ScopeError); ok {
			rep.OutOfScope = &se
			return rep
		}
		rep.Err = err
		return rep
	}
	jr := explorer.Job{Test: c.Test, Sem: sem, HW: c.HW}.Run(opt)
	if jr.Err != nil {
		rep.Err = fmt.Errorf("operational engine: %w", jr.Err)
		return rep
	}
	ar, err := axiom.Run(c.Test, m, c.HW)
	if err != nil {
		rep.Err = fmt.Errorf("axiomatic engine: %w", err)
		return rep
	}
	rep.Model, rep.Axiom = jr.Result, ar
	rep.Diffs = Compare(jr.Result, ar)
	return rep
}

// Compare lists what only one of two results of one test has: outcomes (by the
// values of the outcome items, named, with the rules of their executions) and rules.
func Compare(mr *explorer.Result, ar *axiom.Result) []Difference {
	var diffs []Difference
	mOut := map[string]int{}
	for i, o := range mr.Outcomes {
		mOut[outcomeKey(itemNamesModel(mr), o.Values, o.Flags, itemNamesModel(mr))] = i
	}
	aOut := map[string]int{}
	for i, o := range ar.Outcomes {
		aOut[outcomeKey(ar.Items, o.Values, o.Flags, itemNamesModel(mr))] = i
	}
	for _, k := range sortedKeys(mOut) {
		if _, ok := aOut[k]; !ok {
			tr := mr.Outcomes[mOut[k]].Trace() // the result's own replay, made once
			diffs = append(diffs, Difference{Only: "model", What: "outcome", Detail: k, Witness: output.TraceText(tr)})
		}
	}
	for _, k := range sortedKeys(aOut) {
		if _, ok := mOut[k]; !ok {
			o := ar.Outcomes[aOut[k]]
			diffs = append(diffs, Difference{Only: "axiom", What: "outcome", Detail: k, Witness: lines(o.Witness.String())})
		}
	}
	mRules := map[spec.RuleID]*explorer.Flag{}
	for i := range mr.Flags {
		if _, ok := mRules[mr.Flags[i].Rule]; !ok {
			mRules[mr.Flags[i].Rule] = &mr.Flags[i]
		}
	}
	aRules := map[spec.RuleID]*axiom.Flag{}
	for i := range ar.Flags {
		if _, ok := aRules[ar.Flags[i].Rule]; !ok {
			aRules[ar.Flags[i].Rule] = &ar.Flags[i]
		}
	}
	for i := range mr.Flags {
		f := &mr.Flags[i]
		if _, ok := aRules[f.Rule]; ok || mRules[f.Rule] != f {
			continue
		}
		w := append([]string{f.Message}, output.TraceText(f.Trace())...)
		diffs = append(diffs, Difference{Only: "model", What: "rule", Detail: f.Rule.String(), Witness: w})
	}
	for _, f := range ar.Flags {
		if _, ok := mRules[f.Rule]; ok {
			continue
		}
		w := append([]string{"at " + strings.Join(f.Events, " / ")}, lines(f.Witness.String())...)
		diffs = append(diffs, Difference{Only: "axiom", What: "rule", Detail: f.Rule.String(), Witness: w})
	}
	return diffs
}

func itemNamesModel(mr *explorer.Result) []string {
	var names []string
	for _, o := range mr.Program.Out {
		names = append(names, o.Name)
	}
	return names
}

// outcomeKey prints an outcome in the order of names (the operational model's
// items): "0:r0=1; x=2;", and its rules.
func outcomeKey(items []string, vals []int64, flags []spec.RuleID, names []string) string {
	byName := map[string]int64{}
	for i, n := range items {
		byName[n] = vals[i]
	}
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d;", n, byName[n])
	}
	if len(flags) > 0 {
		var rs []string
		for _, r := range flags {
			rs = append(rs, r.String())
		}
		slices.Sort(rs)
		b.WriteString(" [" + strings.Join(rs, " ") + "]")
	}
	return b.String()
}

func sortedKeys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

// Write prints the comparison of one case: one line when the engines agree (or the
// axiomatic engine refuses the test), else a line per difference and, with
// witnesses, the execution of the engine that has it.
func (r *Report) Write(w io.Writer, witnesses bool) {
	switch {
	case r.OutOfScope != nil:
		fmt.Fprintf(w, "%s: out of scope: %s\n", r.Case, strings.Join(r.OutOfScope.Constructs(), "; "))
	case r.Err != nil:
		fmt.Fprintf(w, "%s: no result: %v\n", r.Case, r.Err)
	case len(r.Diffs) == 0:
		rules := "no rule"
		if rs := r.Axiom.Rules(); len(rs) > 0 {
			rules = strings.Join(spec.RuleNames(rs), ",")
		}
		fmt.Fprintf(w, "%s: agree (%s, %s)\n", r.Case, output.Plural(len(r.Axiom.Outcomes), "outcome"), rules)
	default:
		fmt.Fprintf(w, "%s: DISAGREE\n", r.Case)
		for _, d := range r.Diffs {
			fmt.Fprintf(w, "  %s\n", d)
			if witnesses {
				for _, l := range d.Witness {
					fmt.Fprintf(w, "      %s\n", strings.TrimLeft(l, " "))
				}
			}
		}
	}
}
