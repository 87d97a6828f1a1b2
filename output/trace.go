package output

import (
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/model"
)

// TraceStep is one step of a replayed trace, kept as data until it is printed.
type TraceStep struct {
	Text   string             // what the step did: "P1 row 2: r0 = load x  (reads W@0[0]=0)"
	Raised []model.Diagnostic // the rules the step breaks
}

// Trace replays steps on p, and gives the state the trace ends in. A trace that
// stops replaying (a program changed under it) ends with the steps that replayed
// and the error.
func Trace(p *model.Program, steps []model.Step) ([]TraceStep, model.State, error) {
	recs, last, err := p.Replay(steps)
	out := make([]TraceStep, len(recs))
	for i, r := range recs {
		out[i] = TraceStep{Text: r.Text, Raised: r.Raised}
	}
	return out, last, err
}

// TraceText is a trace as plain lines, one a step.
func TraceText(p *model.Program, steps []model.Step) []string {
	tr, _, err := Trace(p, steps)
	lines := make([]string, 0, len(tr)+1)
	for _, st := range tr {
		lines = append(lines, st.Text)
	}
	if err != nil {
		lines = append(lines, "replay failed: "+err.Error())
	}
	return lines
}

// WriteTrace prints a trace, one numbered step a line, each rule a step breaks on a
// line of its own after it; it returns the state the trace ends in, and the error
// of a trace that does not replay (also printed).
func WriteTrace(w io.Writer, p *model.Program, steps []model.Step, indent string) (model.State, error) {
	tr, last, err := Trace(p, steps)
	for i, st := range tr {
		fmt.Fprintf(w, "%s%2d  %s\n", indent, i+1, st.Text)
		for k := range st.Raised {
			d := &st.Raised[k]
			fmt.Fprintf(w, "%s    ! %s: %s%s\n", indent, d.Rule, d.Message, Citation(d.Rule))
		}
	}
	if err != nil {
		fmt.Fprintf(w, "%sreplay failed: %v\n", indent, err)
	}
	return last, err
}
