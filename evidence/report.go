package evidence

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Report is everything a report page says, computed once; Markdown and HTML are
// two renderings of it.
type Report struct {
	Title   string
	Command string // the exact command that produced it
	Version string // rmacheck's
	Date    string
	Sems    []spec.Semantics
	HWs     []model.HW
	Exploit bool // also run with --assert exploit and show what it adds
	Tests   []*TestReport
	Conform []ConformRun // conformance results given with --conform
	Probes  []Probe      // what libraries said to rmacheck probe, given with --probe
}

// Probe is the text output of `rmacheck probe` for one library.
type Probe struct {
	Name string // the file it came from
	Text string
}

// TestReport is one test's section.
type TestReport struct {
	Test    *litmus.Test
	Results map[string]*explorer.Result // key: semName + "/" + hw
	Exploit map[string]*explorer.Result // key: semName (hw relaxed), when Report.Exploit
	// Distinctions: for each pair of semantics that differ, the diff (hw relaxed).
	Distinctions []*Diff
}

// Result is the result for a semantics and hw model.
func (tr *TestReport) Result(sem spec.Semantics, hw model.HW) *explorer.Result {
	return tr.Results[sem.Name+"/"+hw.String()]
}

// ConformRun is one line of `rmacheck conform --json` output.
type ConformRun struct {
	Test          string            `json:"test"`
	File          string            `json:"file"`
	Target        string            `json:"target"`
	Library       string            `json:"library,omitempty"`
	Preset        string            `json:"preset"`
	HW            string            `json:"hw"`
	Runs          int               `json:"runs"`
	Positive      int               `json:"positive"`
	Negative      int               `json:"negative"`
	Observation   string            `json:"observation"`
	Histogram     []ConformBin      `json:"histogram"`
	NonConforming int               `json:"nonconforming"`
	Unseen        []map[string]int  `json:"unseen"`
	Rate          float64           `json:"rate"`
	Skipped       string            `json:"skipped,omitempty"`
	Placement     *ConformPlacement `json:"placement,omitempty"`
}

// ConformPlacement is where a real-MPI run's ranks ran: the launcher and each rank's node.
type ConformPlacement struct {
	Launcher string   `json:"launcher"`
	Nodes    int      `json:"nodes,omitempty"`
	Hosts    []string `json:"hosts,omitempty"`
}

// ConformBin is one outcome of a conformance histogram.
type ConformBin struct {
	Values  map[string]int64 `json:"values"`
	Count   int              `json:"count"`
	Allowed bool             `json:"allowed"`
}

// ReadConform reads the JSON lines `rmacheck conform --json` writes.
func ReadConform(path string) ([]ConformRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []ConformRun
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r ConformRun
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// Build explores every test under every semantics and hw model of the report.
func (r *Report) Build(tests []*litmus.Test, opt explorer.Options) error {
	for _, t := range tests {
		tr := &TestReport{Test: t, Results: map[string]*explorer.Result{}, Exploit: map[string]*explorer.Result{}}
		for _, hw := range r.HWs {
			for _, sem := range r.Sems {
				jr := explorer.Job{Test: t, Sem: sem, HW: hw}.Run(opt)
				if jr.Err != nil {
					return fmt.Errorf("%s: %v", t.File, jr.Err)
				}
				tr.Results[sem.Name+"/"+hw.String()] = jr.Result
				if r.Exploit && hw == model.Relaxed {
					ex := explorer.Job{Test: t, Sem: sem, HW: hw, Exploit: true}.Run(opt)
					if ex.Err != nil {
						return fmt.Errorf("%s: %v", t.File, ex.Err)
					}
					tr.Exploit[sem.Name] = ex.Result
				}
			}
		}
		for i := range r.Sems {
			for j := i + 1; j < len(r.Sems); j++ {
				d, err := Compare(t, r.Sems[i], r.Sems[j], model.Relaxed, opt)
				if err != nil {
					return err
				}
				if d.Differs() {
					tr.Distinctions = append(tr.Distinctions, d)
				}
			}
		}
		r.Tests = append(r.Tests, tr)
	}
	return nil
}

// ConformFor lists the conformance runs of a test.
func (r *Report) ConformFor(t *litmus.Test) []ConformRun {
	var out []ConformRun
	for _, c := range r.Conform {
		if c.Test == t.Name {
			out = append(out, c)
		}
	}
	return out
}

// Contradictions are sentences of the standard that pull two ways, with the switch
// whose reading each supports.
var Contradictions = []struct{ Node, First, Second, Note string }{
	{"node329", `MPI_WIN_COMPLETE: "All updates to shared memory in win through load/store accesses executed during this epoch will be visible at the target when the call returns."`,
		`the next sentence: the call "completes ... at the origin, but not at the target"`,
		"complete_wait_ls reads the first sentence; without it (mpi-3.0, A) complete orders nothing at the target."},
	{"node328 / node329", `MPI_WIN_FENCE: "Store accesses to shared-memory of win will become visible before the fence call returns at the target."`,
		`MPI_WIN_START: start only delays RMA accesses "until the target process executed the matching call to MPI_WIN_POST"`,
		"fence_ls on and post_start_ls off (mpi-4.1) give fence a guarantee for load/store that start does not get."},
}

// ruleLink is the report node address of a rule's first citation ("" for none).
func ruleLink(rule string) string {
	r, ok := spec.LookupRule(rule)
	if !ok || len(r.Nodes) == 0 {
		return ""
	}
	return spec.NodeURL(r.Nodes[0])
}

// programRows renders the process table: a header and one row per table row.
func programRows(t *litmus.Test) (header []string, rows [][]string) {
	for i := range t.Procs {
		header = append(header, fmt.Sprintf("P%d", i))
	}
	for row := 0; row < t.Rows; row++ {
		var cells []string
		for _, p := range t.Procs {
			cell := ""
			if row < len(p.Code) && p.Code[row] != nil {
				cell = litmus.InstrString(p.Code[row])
			}
			cells = append(cells, strings.TrimSpace(cell))
		}
		rows = append(rows, cells)
	}
	return header, rows
}

// initText is the init block of the test, one statement a line.
func initText(t *litmus.Test) []string {
	var lines []string
	for _, w := range t.Windows {
		lines = append(lines, litmus.WindowString(w)+";")
	}
	for _, a := range t.Aliases {
		line := a.Name + " = " + litmus.LocString(a.Loc)
		if a.Type != litmus.TypeDefault {
			line += " : " + a.Type.String()
		}
		lines = append(lines, line+";")
	}
	for _, in := range t.Inits {
		switch {
		case in.Reg != nil:
			lines = append(lines, fmt.Sprintf("%d:%s = %d;", in.Reg.Proc, in.Reg.Reg, in.Value))
		case in.Loc != nil:
			lines = append(lines, fmt.Sprintf("%s = %d;", litmus.LocString(*in.Loc), in.Value))
		}
	}
	return lines
}
