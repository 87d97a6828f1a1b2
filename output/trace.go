package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// StepLine is one step as text: what it did, then, in brackets, that it ran out of
// program order and where each value it read came from.
func StepLine(st *model.TraceStep) string {
	line := st.Text
	if len(st.Early) > 0 {
		var before []string
		for _, e := range st.Early {
			before = append(before, fmt.Sprintf("row %d %s", e.Row, e.Text))
		}
		line += "  [early: before " + strings.Join(before, ", ") + "]"
	}
	for _, rf := range st.ReadsFrom {
		line += "  [" + ReadFromText(rf) + "]"
	}
	return line
}

// ReadFromText says where a read's value came from: "W@1[0] from step 7", "from
// the initial value", "forwarded from row 2".
func ReadFromText(rf model.ReadFrom) string {
	name := rf.Cell
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
func TraceText(tr *model.Trace) []string {
	lines := make([]string, 0, len(tr.Steps)+1)
	for i := range tr.Steps {
		lines = append(lines, StepLine(&tr.Steps[i]))
	}
	if tr.Err != nil {
		lines = append(lines, "replay failed: "+tr.Err.Error())
	}
	return lines
}

// WriteTrace prints a trace, one numbered step a line, each rule a step breaks on a
// line of its own after it, and mark (a flag's rule) after the steps that are the
// flag's accesses; a trace that did not replay ends with the error.
func WriteTrace(w io.Writer, tr *model.Trace, indent string, mark spec.RuleID) {
	for i := range tr.Steps {
		st := &tr.Steps[i]
		line := StepLine(st)
		if st.Marked {
			line += "  <- " + mark.String()
		}
		fmt.Fprintf(w, "%s%2d  %s\n", indent, i+1, line)
		for k := range st.Raised {
			d := &st.Raised[k]
			fmt.Fprintf(w, "%s    ! %s: %s%s\n", indent, d.Rule, d.Message, Citation(d.Rule))
		}
	}
	if tr.Err != nil {
		fmt.Fprintf(w, "%sreplay failed: %v\n", indent, tr.Err)
	}
}
