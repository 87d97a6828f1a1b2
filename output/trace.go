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

// StepRecord is one step of a trace in the JSON records.
type StepRecord struct {
	N         int              `json:"n"`
	Kind      string           `json:"kind"` // exec, return, perform, drain
	Proc      int              `json:"proc"`
	Row       int              `json:"row,omitempty"`
	Text      string           `json:"text"`
	Early     []int            `json:"early,omitempty"` // rows before it not yet executed
	ReadsFrom []ReadFromRecord `json:"reads_from,omitempty"`
	Raised    []spec.RuleID    `json:"raised,omitempty"`
	Mark      spec.RuleID      `json:"mark,omitempty"` // the rule whose access this step is
}

// ReadFromRecord is where a read's value came from.
type ReadFromRecord struct {
	Cell    string `json:"cell"`
	Private bool   `json:"private,omitempty"`
	From    int    `json:"from"`              // the step (n) that wrote it; 0: the initial value
	FwdRow  int    `json:"fwd_row,omitempty"` // forwarded from this row's unexecuted store
}

var stepKinds = [...]string{model.StepExec: "exec", model.StepReturn: "return", model.StepPerform: "perform", model.StepDrain: "drain"}

// StepRecords is a trace as JSON records; mark is the rule of the marked steps.
func StepRecords(tr *model.Trace, mark spec.RuleID) []StepRecord {
	out := make([]StepRecord, 0, len(tr.Steps))
	for i := range tr.Steps {
		st := &tr.Steps[i]
		r := StepRecord{N: i + 1, Kind: stepKinds[st.Step.Kind], Proc: st.Proc, Row: st.Row, Text: st.Text}
		for _, e := range st.Early {
			r.Early = append(r.Early, e.Row)
		}
		if st.Marked {
			r.Mark = mark
		}
		for _, rf := range st.ReadsFrom {
			r.ReadsFrom = append(r.ReadsFrom, ReadFromRecord{Cell: rf.Cell, Private: rf.Copy.Private, From: rf.Step + 1, FwdRow: rf.FwdRow})
		}
		for _, d := range st.Raised {
			r.Raised = append(r.Raised, d.Rule)
		}
		out = append(out, r)
	}
	return out
}
