package output

import (
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/litmus"
)

// Histogram prints a conformance run in litmus7's style (the histogram, *> on the
// outcomes that satisfy the condition, Ok/No, Witnesses, Condition, Observation,
// Rate), then how it compares with the model: the outcomes it forbids that were
// seen (NON-CONFORMING), and those it allows that were not (unseen). A run stopped at
// its spin limit has no histogram but hang, what the model makes of the hang (the
// words of conform's message on standard error). known, when the NON-CONFORMING
// result is a recorded library finding, says which ("known: pmodels/mpich#6140, fixed
// in MPICH 4.0.3"), on the result's lines.
func Histogram(w io.Writer, rep *conform.Report, hang, known string) {
	t := rep.Test
	p := rep.Model.Program
	target := rep.Target.String()
	if rep.Skipped == "" && rep.SpinLimit == "" {
		fmt.Fprintln(w, withKnown(plainConform(rep, target), known))
	}
	fmt.Fprintf(w, "Test %s %s (target %s, semantics %s, compared with hw %s)\n", t.Name, t.Quant.VerdictWord(), target, rep.Sem.Name, rep.HW)
	if rep.Placement != nil {
		fmt.Fprintf(w, "Placement %s\n", rep.Placement)
	}
	if rep.Skipped != "" {
		fmt.Fprintf(w, "%s\n\n", rep.Skipped)
		return
	}
	if rep.SpinLimit != "" {
		fmt.Fprintf(w, "%s\nNo histogram: the run stopped there. The model allows %s for %s/%s; %s\n\n",
			rep.SpinLimit, Plural(len(rep.Model.Outcomes), "outcome"), rep.Sem.Name, rep.HW, hang)
		return
	}
	fmt.Fprintf(w, "Histogram (%s)\n", Plural(len(rep.Bins), "state"))
	width := len(fmt.Sprint(rep.Runs))
	for _, b := range rep.Bins {
		mark := ":>"
		if b.Sat {
			mark = "*>"
		}
		line := fmt.Sprintf("%-*d %s%s", width, b.Count, mark, p.OutcomeString(b.Values))
		if !b.Allowed {
			line += "  NON-CONFORMING: the model forbids it"
		}
		fmt.Fprintln(w, line)
	}
	holds := t.Quant.Holds(rep.Positive, rep.Negative)
	fmt.Fprintln(w, map[bool]string{true: "Ok", false: "No"}[holds])
	fmt.Fprintf(w, "Witnesses\nPositive: %d, Negative: %d\n", rep.Positive, rep.Negative)
	validated := map[bool]string{true: "is validated", false: "is NOT validated"}
	fmt.Fprintf(w, "Condition %s (%s) %s\n", t.Quant, litmus.CondString(t.Cond), validated[holds])
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, rep.Observation(), rep.Positive, rep.Negative)
	fmt.Fprintf(w, "Rate %s %.0f runs/s (%d runs, seed %d)\n", t.Name, rep.Rate, rep.Runs, rep.Seed)
	fmt.Fprintf(w, "Model %s/%s allows %s; %s\n", rep.Sem.Name, rep.HW, Plural(len(rep.Model.Outcomes), "outcome"), withKnown(conformVerdict(rep), known))
	for _, u := range rep.Unseen {
		fmt.Fprintf(w, "unseen %s\n", p.OutcomeString(u))
	}
	fmt.Fprintf(w, "Time %s %.2f\n\n", t.Name, rep.Elapsed.Seconds())
}

// plainConform is the result of a conformance run in plain words, as PlainVerdict
// says a search's: "condition seen on reference: no (never), in 0 of 10000 runs;
// outcomes mpi-4.1 (hw tso) forbids: none".
func plainConform(rep *conform.Report, target string) string {
	line := fmt.Sprintf("condition seen on %s: %s, in %d of %s; outcomes %s (hw %s) forbids: ",
		target, plainObs(litmus.ObsOf(rep.Positive, rep.Negative)), rep.Positive, Plural(rep.Runs, "run"), rep.Sem.Name, rep.HW)
	if rep.NonConforming > 0 {
		return line + fmt.Sprintf("seen in %d (NON-CONFORMING)", rep.NonConforming)
	}
	return line + "none seen"
}

// withKnown appends the known-finding note to a result's line.
func withKnown(line, known string) string {
	if known == "" {
		return line
	}
	return line + " (" + known + ")"
}

func conformVerdict(rep *conform.Report) string {
	if rep.NonConforming > 0 {
		return fmt.Sprintf("NON-CONFORMING: outcomes it forbids in %s", Plural(rep.NonConforming, "run"))
	}
	return "every observed outcome is allowed"
}
