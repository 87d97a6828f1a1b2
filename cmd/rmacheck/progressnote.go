package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// progressNotes warn, before a library hangs, that a test needs asynchronous
// progress: run searches each test with spin loops once more per semantics with
// weak_progress on (docs/semantics.md#progress), shows none of those searches, and prints one
// line when one finds LIVELOCK where the asked semantics does not.
type progressNotes struct {
	twin     map[int]bool                     // job index: a weak-progress search
	hw       map[*litmus.Test]spec.HW         // per test: the hw model of its twins
	livelock map[*litmus.Test]map[string]bool // per test and semantics name, on that hw: LIVELOCK found
	asked    map[*litmus.Test][]string        // per test: the semantics whose twin ran, in order
}

func newProgressNotes() *progressNotes {
	return &progressNotes{twin: map[int]bool{}, hw: map[*litmus.Test]spec.HW{},
		livelock: map[*litmus.Test]map[string]bool{}, asked: map[*litmus.Test][]string{}}
}

// twins adds, after a test's jobs (from index first on), a weak_progress search for
// each job on the first hw model whose semantics has the switch off, unless the
// jobs hold that search already (an expect line with weak_progress=on).
func (n *progressNotes) twins(jobs []explorer.Job, first int) []explorer.Job {
	own := jobs[first:]
	if len(own) == 0 || !own[0].Test.HasSpinLoops() {
		return jobs
	}
	n.hw[own[0].Test] = own[0].HW
	ran := map[string]bool{}
	for _, j := range own {
		ran[j.Sem.Name+"/"+j.HW.String()] = true
	}
	for _, j := range own {
		if j.HW != own[0].HW || j.Sem.Has(spec.WeakProgress) {
			continue
		}
		w := weakProgress(j.Sem)
		n.asked[j.Test] = append(n.asked[j.Test], j.Sem.Name)
		if ran[w.Name+"/"+j.HW.String()] {
			continue
		}
		ran[w.Name+"/"+j.HW.String()] = true
		n.twin[len(jobs)] = true
		jobs = append(jobs, explorer.Job{Test: j.Test, Sem: w, HW: j.HW, Exploit: j.Exploit})
	}
	return jobs
}

// weakProgress is sem with weak_progress on, named as --sem names it.
func weakProgress(sem spec.Semantics) spec.Semantics { return sem.With(spec.WeakProgress, true) }

// record notes whether a search found LIVELOCK, and reports whether it is a twin
// (not to be shown or counted).
func (n *progressNotes) record(i int, jr *explorer.JobResult) bool {
	if hw, ok := n.hw[jr.Test]; ok && jr.Result != nil && jr.HW == hw {
		if n.livelock[jr.Test] == nil {
			n.livelock[jr.Test] = map[string]bool{}
		}
		n.livelock[jr.Test][jr.Sem.Name] = slices.Contains(jr.Result.Verdict().Erroneous, spec.Livelock)
	}
	return n.twin[i]
}

// note prints the test's line, if its verdict changes under weak progress.
func (n *progressNotes) note(w io.Writer, t *litmus.Test) {
	var changed []string
	for _, name := range n.asked[t] {
		if ll := n.livelock[t]; ll[weakProgress(spec.Semantics{Name: name}).Name] && !ll[name] {
			changed = append(changed, name)
		}
	}
	if len(changed) > 0 {
		fmt.Fprintf(w, "note: %s needs asynchronous progress: LIVELOCK under weak_progress=on (%s), a hang MPI-4.1 allows on libraries without it (rmacheck explain weak_progress)\n",
			t.Name, strings.Join(changed, ", "))
	}
	delete(n.asked, t)
	delete(n.livelock, t)
	delete(n.hw, t)
}
