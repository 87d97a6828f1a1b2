package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Trace replays steps on p (model.Trace: the steps as data, with program order and
// reads-from), and gives the state the trace ends in. A trace that stops replaying
// (a program changed under it) ends with the steps that replayed and the error.
func Trace(p *model.Program, steps []model.Step) ([]model.TraceStep, model.State, error) {
	return p.Trace(steps)
}

// StepLine is one step as text: what it did, then, in brackets, that it ran out of
// program order and where each value it read came from.
func StepLine(p *model.Program, tr []model.TraceStep, i int) string {
	st := &tr[i]
	line := st.Text
	if len(st.Early) > 0 {
		var before []string
		for _, row := range st.Early {
			before = append(before, fmt.Sprintf("row %d %s", row, p.InstrAt(model.Site{Proc: st.Proc, Row: row}).Text))
		}
		line += "  [early: before " + strings.Join(before, ", ") + "]"
	}
	for _, rf := range st.ReadsFrom {
		line += "  [" + readFrom(p, tr, rf) + "]"
	}
	return line
}

// readFrom says where a read's value came from: "W@1[0] from step 7", "from the
// initial value", "forwarded from row 2".
func readFrom(p *model.Program, tr []model.TraceStep, rf model.ReadFrom) string {
	name := p.Cells[rf.Copy.Cell].Name
	if rf.Copy.Private {
		name += " (private copy)"
	}
	switch {
	case rf.FwdRow > 0:
		return fmt.Sprintf("%s forwarded from row %d, not yet executed", name, rf.FwdRow)
	case rf.Step < 0:
		return name + ": the initial value"
	}
	return fmt.Sprintf("%s from step %d", name, rf.Step+1)
}

// TraceText is a trace as plain lines, one a step.
func TraceText(p *model.Program, steps []model.Step) []string {
	tr, _, err := p.Trace(steps)
	lines := make([]string, 0, len(tr)+1)
	for i := range tr {
		lines = append(lines, StepLine(p, tr, i))
	}
	if err != nil {
		lines = append(lines, "replay failed: "+err.Error())
	}
	return lines
}

// WriteTrace prints a trace, one numbered step a line, each rule a step breaks on a
// line of its own after it, and marks (step index -> rule) after the steps that are
// a flag's accesses; it returns the state the trace ends in, and the error of a
// trace that does not replay (also printed).
func WriteTrace(w io.Writer, p *model.Program, steps []model.Step, indent string, marks map[int]spec.RuleID) (model.State, error) {
	tr, last, err := p.Trace(steps)
	for i := range tr {
		line := StepLine(p, tr, i)
		if m, ok := marks[i]; ok {
			line += "  <- " + m.String()
		}
		fmt.Fprintf(w, "%s%2d  %s\n", indent, i+1, line)
		for k := range tr[i].Raised {
			d := &tr[i].Raised[k]
			fmt.Fprintf(w, "%s    ! %s: %s%s\n", indent, d.Rule, d.Message, Citation(d.Rule))
		}
	}
	if err != nil {
		fmt.Fprintf(w, "%sreplay failed: %v\n", indent, err)
	}
	return last, err
}

// Marks are a diagnostic's marks for WriteTrace: its rule after each of the steps
// that are the accesses it is about.
func Marks(d *model.Diagnostic) map[int]spec.RuleID {
	if len(d.Marks) == 0 {
		return nil
	}
	m := map[int]spec.RuleID{}
	for _, i := range d.Marks {
		m[i] = d.Rule
	}
	return m
}
