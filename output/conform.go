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
// seen (NON-CONFORMING), and those it allows that were not (unseen).
func Histogram(w io.Writer, rep *conform.Report) {
	t := rep.Test
	p := rep.Model.Program
	target := rep.Target
	if rep.Library != "" {
		target += ": " + rep.Library
	}
	if rep.Transport != "" {
		target += " over " + rep.Transport
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
		fmt.Fprintf(w, "%s\nNo histogram: the run stopped there. The model allows %d outcomes for %s/%s; a loop that never exits on the target is a finding about the target (or the test is a LIVELOCK)\n\n",
			rep.SpinLimit, len(rep.Model.Outcomes), rep.Sem.Name, rep.HW)
		return
	}
	fmt.Fprintf(w, "Histogram (%d states)\n", len(rep.Bins))
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
	fmt.Fprintf(w, "Model %s/%s allows %d outcomes; %s\n", rep.Sem.Name, rep.HW, len(rep.Model.Outcomes), conformVerdict(rep))
	for _, u := range rep.Unseen {
		fmt.Fprintf(w, "unseen %s\n", p.OutcomeString(u))
	}
	fmt.Fprintf(w, "Time %s %.2f\n\n", t.Name, rep.Elapsed.Seconds())
}

func conformVerdict(rep *conform.Report) string {
	if rep.NonConforming > 0 {
		return fmt.Sprintf("NON-CONFORMING: %d runs show outcomes it forbids", rep.NonConforming)
	}
	return "every observed outcome is allowed"
}
