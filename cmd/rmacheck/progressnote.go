package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// progressNotes tell a hang of the program from one of the implementation, for tests
// with spin loops (docs/semantics.md#progress; MPI-4.1 Progress, node340, leaves
// asynchronous progress to the implementation):
//   - before a library hangs, that a test needs asynchronous progress: run searches
//     each asked semantics once more with weak_progress on, shows none of those
//     searches, and says so when one finds LIVELOCK where the asked semantics does not;
//   - that a LIVELOCK a search with weak_progress on finds is such a hang, allowed,
//     not an error of the program: run searches the same semantics with the switch
//     off first, unshown, and finds none there.
type progressNotes struct {
	twin     map[int]bool                      // job index: a search run for a note, not shown
	hw       map[*litmus.Test]spec.HW          // per test: the hw model of the note's twins
	livelock map[*litmus.Test]map[string]bool  // per test and semantics/hw: LIVELOCK found
	asked    map[*litmus.Test][]spec.Semantics // per test: the semantics whose twin ran, in order
}

func newProgressNotes() *progressNotes {
	return &progressNotes{twin: map[int]bool{}, hw: map[*litmus.Test]spec.HW{},
		livelock: map[*litmus.Test]map[string]bool{}, asked: map[*litmus.Test][]spec.Semantics{}}
}

// searchKey names a search of a test: its semantics' switches (what the search
// reads of them) and hw model.
func searchKey(sem spec.Semantics, hw spec.HW) string { return fmt.Sprintf("%d/%s", sem.Switches, hw) }

// add appends job to jobs, after the unshown search with weak_progress off that
// judges its LIVELOCK when job has the switch on and the test has spin loops.
func (n *progressNotes) add(jobs []explorer.Job, job explorer.Job) []explorer.Job {
	if job.Sem.Has(spec.WeakProgress) && job.Test.HasSpinLoops() {
		n.twin[len(jobs)] = true
		strong := job
		strong.Sem = strongProgress(job.Sem)
		jobs = append(jobs, strong)
	}
	return append(jobs, job)
}

// twins adds, after a test's jobs (from index first on), a weak_progress search for
// each job on the first hw model whose semantics has the switch off, for the note,
// unless the jobs hold that search already (--sem or an expect line with
// weak_progress=on), whose verdict then says whether the test may hang.
func (n *progressNotes) twins(jobs []explorer.Job, first int) []explorer.Job {
	own := jobs[first:]
	if len(own) == 0 || !own[0].Test.HasSpinLoops() {
		return jobs
	}
	n.hw[own[0].Test] = own[0].HW
	ran := map[string]bool{}
	for i, j := range own {
		if !n.twin[first+i] {
			ran[searchKey(j.Sem, j.HW)] = true
		}
	}
	for i, j := range own {
		if j.HW != own[0].HW || j.Sem.Has(spec.WeakProgress) || n.twin[first+i] {
			continue
		}
		w := weakProgress(j.Sem)
		if ran[searchKey(w, j.HW)] { // asked for: its own verdict says whether it may hang
			continue
		}
		n.asked[j.Test] = append(n.asked[j.Test], j.Sem)
		ran[searchKey(w, j.HW)] = true
		n.twin[len(jobs)] = true
		jobs = append(jobs, explorer.Job{Test: j.Test, Sem: w, HW: j.HW, Exploit: j.Exploit})
	}
	return jobs
}

// weakProgress is sem with weak_progress on, named as --sem names it.
func weakProgress(sem spec.Semantics) spec.Semantics { return sem.With(spec.WeakProgress, true) }

// strongProgress is sem with weak_progress off: "mpi-4.1" for "mpi-4.1,weak_progress=on".
func strongProgress(sem spec.Semantics) spec.Semantics {
	s := sem.With(spec.WeakProgress, false)
	if name, ok := strings.CutSuffix(sem.Name, ","+spec.WeakProgress.Setting(true)); ok {
		s.Name = name
	}
	return s
}

// record notes whether a search found LIVELOCK, and judges it: the result as run shows
// it, and whether it is a twin (not to be shown or counted).
func (n *progressNotes) record(i int, jr *explorer.JobResult) (output.Judged, bool) {
	kept := *jr // Stream reuses jr once this returns; a test's results are kept till its last
	judged := output.Judged{JobResult: &kept}
	if jr.Result == nil || !jr.Test.HasSpinLoops() {
		return judged, n.twin[i]
	}
	ll := slices.Contains(jr.Result.Verdict().Erroneous, spec.Livelock)
	if n.livelock[jr.Test] == nil {
		n.livelock[jr.Test] = map[string]bool{}
	}
	n.livelock[jr.Test][searchKey(jr.Sem, jr.HW)] = ll
	if ll && jr.Sem.Has(spec.WeakProgress) {
		strong, searched := n.livelock[jr.Test][searchKey(strongProgress(jr.Sem), jr.HW)]
		judged.ProgressHang = searched && !strong
	}
	return judged, n.twin[i]
}

// mayHang lists the asked semantics under which the test's verdict changes under weak
// progress (the test may hang without asynchronous progress), and forgets the test.
func (n *progressNotes) mayHang(t *litmus.Test) []string {
	var changed []string
	hw := n.hw[t]
	for _, sem := range n.asked[t] {
		if ll := n.livelock[t]; ll[searchKey(weakProgress(sem), hw)] && !ll[searchKey(sem, hw)] {
			changed = append(changed, sem.Name)
		}
	}
	delete(n.asked, t)
	delete(n.livelock, t)
	delete(n.hw, t)
	return changed
}

// note prints the note of a test that may hang without asynchronous progress under
// sems, as the blocks and the table of codes show it.
func note(w io.Writer, t *litmus.Test, sems []string) {
	fmt.Fprintf(w, "note: %s %s\n", t.Name, output.MayHangUnder(sems))
}
