package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestTraceEdges: a replayed witness names the edges a reader draws: the put's issue
// to its perform, the perform to the fence that completes it, the last arrival at
// the fence to the other process's return, and the perform to the load that reads
// its value.
func TestTraceEdges(t *testing.T) {
	r := search(t, putFence, "mpi-3.0", spec.Relaxed)
	var w *model.Witness
	for i := range r.Outcomes {
		if r.Outcomes[i].Sat {
			w = &r.Outcomes[i].Witness
		}
	}
	if w == nil {
		t.Fatal("no execution reads 1")
	}
	tr := w.Replay()
	if tr.Err != nil || !tr.Ended || tr.Outcome != "1:r0=1;" {
		t.Fatalf("replay: err %v, ended %v, outcome %q", tr.Err, tr.Ended, tr.Outcome)
	}
	// a step as process.row and kind, an edge as kind: from -> to
	kindName := [...]string{model.StepExec: "exec", model.StepReturn: "return", model.StepPerform: "perform", model.StepDrain: "drain"}
	step := func(i int) string {
		st := &tr.Steps[i]
		return fmt.Sprintf("P%d.%d %s", st.Proc, st.Row, kindName[st.Step.Kind])
	}
	edgeName := [...]string{model.EdgeReadsFrom: "rf", model.EdgeIssue: "issue", model.EdgeComplete: "complete", model.EdgeSync: "sync"}
	var got []string
	for _, e := range tr.Edges {
		got = append(got, edgeName[e.Kind]+": "+step(e.From)+" -> "+step(e.To))
	}
	want := []string{
		"sync: P1.1 exec -> P0.1 return", // the last arrival at the opening fence releases P0
		"sync: P0.1 exec -> P1.1 return",
		"issue: P0.2 exec -> P0.2 perform",
		"complete: P0.2 perform -> P0.3 return",
		"sync: P1.3 exec -> P0.3 return",
		"sync: P0.3 exec -> P1.3 return",
		"rf: P0.2 perform -> P1.4 exec",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("edges\n%q\nwant\n%q", got, want)
	}
	if at := tr.Steps[slices.IndexFunc(tr.Steps, func(s model.TraceStep) bool { return s.Step.Kind == model.StepPerform })].At; at != 1 {
		t.Errorf("the perform takes effect at P%d, want P1 (the target)", at)
	}
}
