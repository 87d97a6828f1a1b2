package output

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// RunRecord is one (test, semantics, hw) search, as `run --json` prints it, one a line.
type RunRecord struct {
	Format      int             `json:"format"`
	Test        string          `json:"test"`
	File        string          `json:"file"`
	Preset      string          `json:"preset"`
	Switches    []string        `json:"switches"`
	HW          string          `json:"hw"`
	States      int             `json:"states"`
	Transitions int             `json:"transitions"`
	Outcomes    []OutcomeRecord `json:"outcomes"`
	Condition   string          `json:"condition"`
	Positive    int             `json:"positive"`
	Negative    int             `json:"negative"`
	Observation string          `json:"observation"`
	Flags       []FlagRecord    `json:"flags"`
	Expect      string          `json:"expect"`
	Expected    string          `json:"expected,omitempty"`
	TimeS       float64         `json:"time_s"`
	StoreBytes  int             `json:"store_bytes"`
	// PairTimeS and PairStates: for tso and sc, the relaxed search the conflict and
	// race flags come from (time_s + pair_time_s is the verdict's cost; the relaxed
	// search may be shared with the relaxed run of the same preset).
	PairTimeS  float64 `json:"pair_time_s,omitempty"`
	PairStates int     `json:"pair_states,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// OutcomeRecord is one final outcome of a search.
type OutcomeRecord struct {
	Values map[string]int64 `json:"values"`
	Sat    bool             `json:"sat"`
	Flags  []spec.RuleID    `json:"flags"`
	// Erroneous: the outcome of executions that broke a rule (Flags); the same
	// values from clean executions are another record.
	Erroneous bool `json:"erroneous"`
}

// FlagRecord is one diagnostic: the rule, its class, the message, where (the first
// site, then every site), and the witness trace.
type FlagRecord struct {
	Rule    spec.RuleID  `json:"rule"`
	Class   string       `json:"class"`
	Message string       `json:"message"`
	Text    string       `json:"text"` // FILE:LINE:COL: RULE: message [node]
	File    string       `json:"file"`
	Line    int          `json:"line"`
	Col     int          `json:"col"`
	Procs   []int        `json:"procs"`
	Rows    []int        `json:"rows"`
	Sites   []SiteRecord `json:"sites"`
	Trace   []string     `json:"trace"` // the witness, a line a step
	Steps   []StepRecord `json:"steps"` // the same steps as data
}

// SiteRecord is one instruction a diagnostic names.
type SiteRecord struct {
	Proc int `json:"proc"`
	Row  int `json:"row"`
	Line int `json:"line"`
	Col  int `json:"col"`
}

// NewRunRecord turns a job's result into its record.
func NewRunRecord(jr *explorer.JobResult) RunRecord {
	j := RunRecord{Format: FormatVersion, Test: jr.Test.Name, File: jr.Test.File, Preset: jr.Sem.Name,
		Switches: []string{}, HW: jr.HW.String(), Condition: jr.Test.Quant.String() + " (" + litmus.CondString(jr.Test.Cond) + ")",
		Expect: jr.ExpectStatus(), Outcomes: []OutcomeRecord{}, Flags: []FlagRecord{}}
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
		j.Outcomes = append(j.Outcomes, OutcomeRecord{Values: ValueMap(p, o.Values), Sat: o.Sat, Flags: flags, Erroneous: len(o.Flags) > 0})
	}
	for i := range r.Flags {
		j.Flags = append(j.Flags, NewFlagRecord(jr.Test.File, r.TraceProgram(&r.Flags[i]), &r.Flags[i].Diagnostic))
	}
	return j
}

// NewFlagRecord is the record of a diagnostic whose trace replays on p.
func NewFlagRecord(file string, p *model.Program, d *model.Diagnostic) FlagRecord {
	f := FlagRecord{Rule: d.Rule, Class: d.Class.String(), Message: d.Message, Text: DiagnosticLine(file, d),
		File: file, Line: d.At.Pos.Line, Col: d.At.Pos.Col, Procs: []int{}, Rows: []int{}, Sites: []SiteRecord{},
		Trace: TraceText(p, d.Trace), Steps: StepRecords(p, d.Trace, Marks(d))}
	for _, s := range d.Sites() {
		f.Procs = append(f.Procs, s.Proc)
		f.Rows = append(f.Rows, s.Row)
		f.Sites = append(f.Sites, SiteRecord{Proc: s.Proc, Row: s.Row, Line: s.Pos.Line, Col: s.Pos.Col})
	}
	return f
}

// ValueMap names outcome values by their items (Program.Out).
func ValueMap(p *model.Program, vals []int64) map[string]int64 {
	m := make(map[string]int64, len(vals))
	for i, o := range p.Out {
		m[o.Name] = vals[i]
	}
	return m
}

// ConformRecord is one test on one target under one semantics, as `conform --json`
// prints it, one a line; reports read these back (ReadConformRecords).
type ConformRecord struct {
	Format        int                `json:"format"`
	Test          string             `json:"test"`
	File          string             `json:"file"`
	Target        string             `json:"target"`
	Library       string             `json:"library,omitempty"`
	Transport     string             `json:"transport,omitempty"` // shm, net (conform --transport)
	Preset        string             `json:"preset"`
	HW            string             `json:"hw"`
	Runs          int                `json:"runs"`
	Positive      int                `json:"positive"`
	Negative      int                `json:"negative"`
	Observation   string             `json:"observation"`
	Histogram     []BinRecord        `json:"histogram"`
	NonConforming int                `json:"nonconforming"`
	Unseen        []map[string]int64 `json:"unseen"`
	Rate          float64            `json:"rate"`
	Seed          int64              `json:"seed"`
	TimeS         float64            `json:"time_s"`
	Skipped       string             `json:"skipped,omitempty"`
	SpinLimit     string             `json:"spin_limit,omitempty"`
	// Placement (real-MPI targets): the launcher's command line and each rank's node.
	Placement *PlacementRecord `json:"placement,omitempty"`
}

// PlacementRecord is where a real-MPI run's ranks ran.
type PlacementRecord struct {
	Launcher string   `json:"launcher"`
	Nodes    int      `json:"nodes,omitempty"`
	Hosts    []string `json:"hosts,omitempty"`
}

// BinRecord is one outcome of a histogram.
type BinRecord struct {
	Values  map[string]int64 `json:"values"`
	Count   int              `json:"count"`
	Allowed bool             `json:"allowed"`
}

// NewConformRecord turns a conformance report into its record.
func NewConformRecord(rep *conform.Report) ConformRecord {
	p := rep.Model.Program
	j := ConformRecord{Format: FormatVersion, Test: rep.Test.Name, File: rep.Test.File, Target: rep.Target, Library: rep.Library, Transport: rep.Transport, Preset: rep.Sem.Name,
		HW: rep.HW.String(), Runs: rep.Runs, Positive: rep.Positive, Negative: rep.Negative, Observation: rep.Observation(),
		Histogram: []BinRecord{}, NonConforming: rep.NonConforming, Unseen: []map[string]int64{}, Rate: rep.Rate,
		Seed: rep.Seed, TimeS: rep.Elapsed.Seconds(), Skipped: rep.Skipped, SpinLimit: rep.SpinLimit}
	if pl := rep.Placement; pl != nil {
		j.Placement = &PlacementRecord{Launcher: pl.Launcher, Nodes: pl.Nodes, Hosts: pl.Hosts}
	}
	for _, b := range rep.Bins {
		j.Histogram = append(j.Histogram, BinRecord{Values: ValueMap(p, b.Values), Count: b.Count, Allowed: b.Allowed})
	}
	for _, u := range rep.Unseen {
		j.Unseen = append(j.Unseen, ValueMap(p, u))
	}
	return j
}

// ReadConformRecords reads the JSON lines `rmacheck conform --json` writes.
func ReadConformRecords(path string) ([]ConformRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []ConformRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r ConformRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		runs = append(runs, r)
	}
	return runs, sc.Err()
}
