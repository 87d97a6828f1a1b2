package record

import (
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// Run is one (test, semantics, hw) search, as `run --json` prints it, one a line.
type Run struct {
	Format      int                 `json:"format"`
	Test        string              `json:"test"`
	File        string              `json:"file"`
	Preset      string              `json:"preset"`
	Switches    []string            `json:"switches"`
	HW          spec.HW             `json:"hw"`
	States      int                 `json:"states"`
	Transitions int                 `json:"transitions"`
	Outcomes    []Outcome           `json:"outcomes"`
	Condition   string              `json:"condition"`
	Positive    int                 `json:"positive"`
	Negative    int                 `json:"negative"`
	Observation string              `json:"observation"`
	Flags       []Flag              `json:"flags"`
	Expect      litmus.ExpectStatus `json:"expect"`
	Expected    string              `json:"expected,omitempty"`
	TimeS       float64             `json:"time_s"`
	StoreBytes  int                 `json:"store_bytes"`
	// PairTimeS and PairStates: for tso and sc, the relaxed search the conflict and
	// race flags come from (time_s + pair_time_s is the verdict's cost; the relaxed
	// search may be shared with the relaxed run of the same preset).
	PairTimeS  float64 `json:"pair_time_s,omitempty"`
	PairStates int     `json:"pair_states,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// Outcome is one final outcome of a search.
type Outcome struct {
	Values map[string]int64 `json:"values"`
	Sat    bool             `json:"sat"`
	Flags  []spec.RuleID    `json:"flags"`
	// Erroneous: the outcome of executions that broke a rule (Flags); the same
	// values from clean executions are another record.
	Erroneous bool `json:"erroneous"`
}

// Flag is one diagnostic: the rule, its class, the message, where (the first
// site, then every site), and the witness trace.
type Flag struct {
	Rule    spec.RuleID `json:"rule"`
	Class   string      `json:"class"`
	Message string      `json:"message"`
	Text    string      `json:"text"` // FILE:LINE:COL: RULE: message [node]
	File    string      `json:"file"`
	Line    int         `json:"line"`
	Col     int         `json:"col"`
	Procs   []int       `json:"procs"`
	Rows    []int       `json:"rows"`
	Sites   []Site      `json:"sites"`
	Trace   []string    `json:"trace"` // the witness, a line a step
	Steps   []Step      `json:"steps"` // the same steps as data
}

// Site is one instruction a diagnostic names.
type Site struct {
	Proc int `json:"proc"`
	Row  int `json:"row"`
	Line int `json:"line"`
	Col  int `json:"col"`
}

// NewRun turns a job's result into its record.
func NewRun(jr *explorer.JobResult) Run {
	j := Run{Format: FormatVersion, Test: jr.Test.Name, File: jr.Test.File, Preset: jr.Sem.Name,
		Switches: []string{}, HW: jr.HW, Condition: jr.Test.Quant.String() + " (" + litmus.CondString(jr.Test.Cond) + ")",
		Expect: jr.ExpectStatus(), Outcomes: []Outcome{}, Flags: []Flag{}}
	if s := jr.Sem.Switches.String(); s != "" {
		j.Switches = strings.Split(s, ",")
	}
	if jr.Expect != nil {
		j.Expected = jr.Expect.ObsString()
	}
	if jr.Err != nil {
		j.Error = jr.Err.Error()
		return j
	}
	r := jr.Result
	p := r.Program
	j.States, j.Transitions, j.Positive, j.Negative = r.States, r.Transitions, r.Positive, r.Negative
	j.Observation, j.TimeS, j.StoreBytes = r.Verdict().ObsString(), r.Time.Seconds(), r.StoreBytes
	j.PairTimeS, j.PairStates = r.PairTime.Seconds(), r.PairStates
	for _, o := range r.Outcomes {
		flags := o.Flags
		if flags == nil {
			flags = []spec.RuleID{}
		}
		j.Outcomes = append(j.Outcomes, Outcome{Values: ValueMap(p, o.Values), Sat: o.Sat, Flags: flags, Erroneous: len(o.Flags) > 0})
	}
	for i := range r.Flags {
		j.Flags = append(j.Flags, NewFlag(jr.Test.File, &r.Flags[i]))
	}
	return j
}

// NewFlag is the record of a flag, with its witness's trace.
func NewFlag(file string, fl *explorer.Flag) Flag {
	d, tr := &fl.Diagnostic, fl.Trace()
	f := Flag{Rule: d.Rule, Class: d.Class.String(), Message: d.Message, Text: output.DiagnosticLine(file, d),
		File: file, Line: d.At.Pos.Line, Col: d.At.Pos.Col, Procs: []int{}, Rows: []int{}, Sites: []Site{},
		Trace: output.TraceText(tr), Steps: Steps(tr, d.Rule)}
	for _, s := range d.Sites() {
		f.Procs = append(f.Procs, s.Proc)
		f.Rows = append(f.Rows, s.Row)
		f.Sites = append(f.Sites, Site{Proc: s.Proc, Row: s.Row, Line: s.Pos.Line, Col: s.Pos.Col})
	}
	return f
}

// ReadRun reads the records `rmacheck run --json` writes.
func ReadRun(path string) ([]Run, error) { return readLines[Run](path) }

// ValueMap names outcome values by their items (Program.Out).
func ValueMap(p *model.Program, vals []int64) map[string]int64 {
	m := make(map[string]int64, len(vals))
	for i, o := range p.Out {
		m[o.Name] = vals[i]
	}
	return m
}

// Step is one step of a trace in the JSON records.
type Step struct {
	N         int           `json:"n"`
	Kind      string        `json:"kind"` // exec, return, perform, drain
	Proc      int           `json:"proc"`
	Row       int           `json:"row,omitempty"`
	Text      string        `json:"text"`
	Early     []int         `json:"early,omitempty"` // rows before it not yet executed
	ReadsFrom []ReadFrom    `json:"reads_from,omitempty"`
	Raised    []spec.RuleID `json:"raised,omitempty"`
	Mark      spec.RuleID   `json:"mark,omitempty"` // the rule whose access this step is
}

// ReadFrom is where a read's value came from.
type ReadFrom struct {
	Cell    string `json:"cell"`
	Private bool   `json:"private,omitempty"`
	From    int    `json:"from"`              // the step (n) that wrote it; 0: the initial value
	FwdRow  int    `json:"fwd_row,omitempty"` // forwarded from this row's unexecuted store
}

var stepKinds = [...]string{model.StepExec: "exec", model.StepReturn: "return", model.StepPerform: "perform", model.StepDrain: "drain", model.StepLocal: "local"}

// Steps is a trace as JSON records; mark is the rule of the marked steps.
func Steps(tr *model.Trace, mark spec.RuleID) []Step {
	out := make([]Step, 0, len(tr.Steps))
	for i := range tr.Steps {
		st := &tr.Steps[i]
		r := Step{N: i + 1, Kind: stepKinds[st.Step.Kind], Proc: st.Proc, Row: st.Row, Text: st.Text}
		for _, e := range st.Early {
			r.Early = append(r.Early, e.Row)
		}
		if st.Marked {
			r.Mark = mark
		}
		for _, rf := range st.ReadsFrom {
			r.ReadsFrom = append(r.ReadsFrom, ReadFrom{Cell: rf.Cell, Private: rf.Copy.Private, From: rf.Step + 1, FwdRow: rf.FwdRow})
		}
		for _, d := range st.Raised {
			r.Raised = append(r.Raised, d.Rule)
		}
		out = append(out, r)
	}
	return out
}
