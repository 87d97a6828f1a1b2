package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
)

// jsonVersion is the version of the JSON output format; a change that removes or
// renames a field raises it.
const jsonVersion = 1

// jsonRun is one (test, preset, hw) search, as `run --json` prints it.
type jsonRun struct {
	Format      int           `json:"format"`
	Test        string        `json:"test"`
	File        string        `json:"file"`
	Preset      string        `json:"preset"`
	Switches    []string      `json:"switches"`
	HW          string        `json:"hw"`
	States      int           `json:"states"`
	Transitions int           `json:"transitions"`
	Outcomes    []jsonOutcome `json:"outcomes"`
	Condition   string        `json:"condition"`
	Positive    int           `json:"positive"`
	Negative    int           `json:"negative"`
	Observation string        `json:"observation"`
	Flags       []jsonFlag    `json:"flags"`
	Expect      string        `json:"expect"`
	Expected    string        `json:"expected,omitempty"`
	TimeS       float64       `json:"time_s"`
	StoreBytes  int           `json:"store_bytes"`
	Error       string        `json:"error,omitempty"`
}

type jsonOutcome struct {
	Values map[string]int64 `json:"values"`
	Sat    bool             `json:"sat"`
	Flags  []string         `json:"flags"`
}

type jsonFlag struct {
	Rule    string   `json:"rule"`
	Class   string   `json:"class"`
	Message string   `json:"message"`
	Procs   []int    `json:"procs"`
	Rows    []int    `json:"rows"`
	Trace   []string `json:"trace"`
}

func writeJSONResults(w io.Writer, results []explorer.JobResult) {
	enc := json.NewEncoder(w)
	for i := range results {
		enc.Encode(toJSON(&results[i]))
	}
}

func toJSON(jr *explorer.JobResult) jsonRun {
	j := jsonRun{Format: jsonVersion, Test: jr.Test.Name, File: jr.Test.File, Preset: jr.Sem.Name,
		Switches: switchList(jr), HW: jr.HW.String(), Condition: jr.Test.Quant.String() + " (" + litmus.CondString(jr.Test.Cond) + ")",
		Expect: jr.ExpectStatus(), Outcomes: []jsonOutcome{}, Flags: []jsonFlag{}}
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
	j.Observation, j.TimeS, j.StoreBytes = r.ObservationString(), r.Time.Seconds(), r.StoreBytes
	for _, o := range r.Outcomes {
		vals := map[string]int64{}
		for k, item := range p.Out {
			vals[item.Name] = o.Values[k]
		}
		j.Outcomes = append(j.Outcomes, jsonOutcome{Values: vals, Sat: o.Sat, Flags: nonNil(o.Flags)})
	}
	for _, f := range r.Flags {
		j.Flags = append(j.Flags, jsonFlag{Rule: f.Rule, Class: f.Class.String(), Message: f.Message,
			Procs: nonNilInts(f.Procs), Rows: nonNilInts(f.Rows), Trace: r.TraceProgram(&f).TraceLines(f.Trace, false)})
	}
	return j
}

func switchList(jr *explorer.JobResult) []string {
	s := jr.Sem.Switches.String()
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
