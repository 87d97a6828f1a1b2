package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// AxiomBlock prints one run of the axiomatic engine as Block prints a search: the
// answer in words, then herd7's lines (Executions in place of States: the candidate
// executions the model allows, of those judged), the model file, and expect's line
// when exp is not nil.
func AxiomBlock(w io.Writer, r *axiom.Result, exp *litmus.ExpectItem, show Show) {
	t := r.Test
	v := r.Verdict()
	fmt.Fprintln(w, PlainVerdict(t.Quant, r.Model.Name, r.HW.String(), v, r.Positive, r.Negative))
	fmt.Fprintf(w, "Test %s %s (axiomatic, model %s, hw %s)\n", t.Name, t.Quant.VerdictWord(), r.Model.File, r.HW)
	fmt.Fprintf(w, "Executions %d of %d candidates\n", r.Executions, r.Candidates)
	for _, o := range r.Outcomes {
		mark := "  "
		if o.Sat {
			mark = "*>"
		}
		line := mark + " " + r.OutcomeString(o.Values)
		if len(o.Flags) > 0 {
			line += "  # erroneous: " + strings.Join(spec.RuleNames(o.Flags), ",")
		}
		fmt.Fprintln(w, line)
		if show == ShowAll || (show == ShowWitness && o.Sat) {
			writeIndented(w, o.Witness.String(), "     ")
		}
	}
	if t.Quant.Holds(r.Positive, r.Negative) {
		fmt.Fprintln(w, "Ok")
	} else {
		fmt.Fprintln(w, "No")
	}
	fmt.Fprintf(w, "Witnesses\nPositive: %d Negative: %d\n", r.Positive, r.Negative)
	for i := range r.Flags {
		f := &r.Flags[i]
		fmt.Fprintf(w, "Flag %s (%s): %s%s\n", f.Rule, f.Rule.Class(), strings.Join(f.Events, " / "), Citation(f.Rule))
		if show == ShowWitness || show == ShowAll {
			writeIndented(w, f.Witness.String(), "     ")
		}
	}
	fmt.Fprintf(w, "Condition %s (%s)\n", t.Quant, litmus.CondString(t.Cond))
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, v.ObsString(), r.Positive, r.Negative)
	if exp != nil {
		status := "broken"
		if exp.Met(v) {
			status = "met"
		}
		fmt.Fprintf(w, "Expect %s %s: %s\n", exp.ObsString(), r.Model.Name, status)
	}
	fmt.Fprintf(w, "Time %s %.3f\n\n", t.Name, r.Time.Seconds())
}

func writeIndented(w io.Writer, text, indent string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(w, "%s%s\n", indent, strings.TrimLeft(l, " "))
	}
}
