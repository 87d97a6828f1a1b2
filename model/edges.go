package model

import (
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// EdgeKind is what an edge between two steps of a trace says.
type EdgeKind uint8

const (
	// EdgeReadsFrom: the step that wrote a value to the step that read it
	// (TraceStep.ReadsFrom: a store, a put's perform, an accumulate).
	EdgeReadsFrom EdgeKind = iota
	// EdgeIssue: an RMA operation's issue to its perform at the target.
	EdgeIssue
	// EdgeComplete: an RMA operation's perform to the call that completes it at
	// the origin.
	EdgeComplete
	// EdgeSync: process synchronization: send -> receive, the last arrival at a
	// fence or barrier -> each other process's return, post -> start (when start
	// waits), complete -> wait (or a test that returns 1), unlock -> the next
	// conflicting lock.
	EdgeSync
)

// Edge is an edge between two steps of a trace (indexes into Trace.Steps).
type Edge struct {
	From, To int
	Kind     EdgeKind
}

// edges finds the edges of a trace: for each step, the edges that end at it (and
// the completion edge of a perform, which starts there).
func (p *Program) edges(tr []TraceStep) []Edge {
	f := &edgeFinder{p: p, tr: tr, issued: map[int]int{}, sends: map[[2]int][]int{}}
	for i := range tr {
		for _, rf := range tr[i].ReadsFrom {
			if rf.Step >= 0 && rf.Step != i && rf.FwdRow == 0 {
				f.add(rf.Step, i, EdgeReadsFrom)
			}
		}
		switch tr[i].Step.Kind {
		case StepPerform:
			f.perform(i)
		case StepReturn:
			f.release(i)
		case StepExec:
			f.exec(i)
		}
	}
	return f.edges
}

// edgeFinder is the walk of edges over a trace.
type edgeFinder struct {
	p      *Program
	tr     []TraceStep
	issued map[int]int      // slot -> the step that issued it
	sends  map[[2]int][]int // (sender, receiver) -> the sends not yet received
	edges  []Edge
}

func (f *edgeFinder) add(from, to int, kind EdgeKind) {
	f.edges = append(f.edges, Edge{from, to, kind})
}

// instr is the instruction step i executes or returns from.
func (f *edgeFinder) instr(i int) *Instr {
	st := f.tr[i].Step
	return &f.p.Procs[st.Proc].Code[st.Index]
}

// perform: the issue before it, and the later call of the origin that completes it.
func (f *edgeFinder) perform(i int) {
	st := f.tr[i].Step
	if from, ok := f.issued[int(st.Index)]; ok {
		f.add(from, i, EdgeIssue)
	}
	sl := f.p.Slots[st.Index]
	c := f.p.Procs[sl.Proc].Code[sl.Instr].Completer
	if c < 0 {
		return
	}
	done := -1
	for j := i + 1; j < len(f.tr); j++ {
		if s := f.tr[j].Step; (s.Kind == StepExec || s.Kind == StepReturn) && int(s.Proc) == sl.Proc && s.Index == c {
			done = j
		}
	}
	if done >= 0 {
		f.add(i, done, EdgeComplete)
	}
}

// release: the last arrival at a two-phase call releases the others' returns. The
// call a return ends is its process's n-th of that kind on that window; the other
// processes' n-th calls are the ones it waits for (not a later one they may already
// have arrived at).
func (f *edgeFinder) release(i int) {
	in := f.instr(i)
	same := func(x *Instr) bool { return x.Kind == in.Kind && x.Win == in.Win }
	proc := int(f.tr[i].Step.Proc)
	n := f.arrivals(i, proc, same)
	last := -1
	for o := 0; o < f.p.NProcs; o++ {
		if o == proc {
			continue
		}
		if j := f.nthArrival(i, o, n, same); j > last {
			last = j
		}
	}
	if last >= 0 {
		f.add(last, i, EdgeSync)
	}
}

// arrivals counts the exec steps of proc before i whose instruction ok accepts.
func (f *edgeFinder) arrivals(i, proc int, ok func(*Instr) bool) int {
	n := 0
	for j := 0; j < i; j++ {
		if st := f.tr[j].Step; st.Kind == StepExec && int(st.Proc) == proc && ok(f.instr(j)) {
			n++
		}
	}
	return n
}

// nthArrival is the n-th (from 1) exec step of proc before i whose instruction ok
// accepts (-1: none).
func (f *edgeFinder) nthArrival(i, proc, n int, ok func(*Instr) bool) int {
	for j := 0; j < i; j++ {
		if st := f.tr[j].Step; st.Kind == StepExec && int(st.Proc) == proc && ok(f.instr(j)) {
			if n--; n == 0 {
				return j
			}
		}
	}
	return -1
}

// exec: an RMA issue is noted for its perform; a receive, start, wait or lock gets
// the edge from the call it synchronizes with.
func (f *edgeFinder) exec(i int) {
	in := f.instr(i)
	proc := int(f.tr[i].Step.Proc)
	switch {
	case in.Slot >= 0:
		f.issued[int(in.Slot)] = i
	case in.Kind == KSend:
		key := [2]int{proc, int(in.Target)}
		f.sends[key] = append(f.sends[key], i)
	case in.Kind == KRecv:
		key := [2]int{int(in.Target), proc}
		if q := f.sends[key]; len(q) > 0 {
			f.add(q[0], i, EdgeSync)
			f.sends[key] = q[1:]
		}
	case in.Kind == KStart && f.p.Sem.Has(spec.PostStartLS):
		f.fromGroup(i, in.Group, KPost, in.Win)
	case in.Kind == KWait, in.Kind == KTest && f.tr[i].Ended: // a test that returned 1 as wait
		group := in.Group
		if group == 0 { // the group of the post the wait ends
			if j := f.latestOf(i, proc, func(x *Instr) bool { return x.Kind == KPost && x.Win == in.Win }); j >= 0 {
				group = f.instr(j).Group
			}
		}
		f.fromGroup(i, group, KComplete, in.Win)
	case in.Kind == KLock:
		f.lock(i, in)
	}
}

// fromGroup adds an edge to step i from the latest call of kind on win of each
// other process of group.
func (f *edgeFinder) fromGroup(i int, group uint32, kind Kind, win int8) {
	proc := int(f.tr[i].Step.Proc)
	for o := 0; o < f.p.NProcs; o++ {
		if group&(1<<uint(o)) == 0 || o == proc {
			continue
		}
		if j := f.latestOf(i, o, func(x *Instr) bool { return x.Kind == kind && x.Win == win }); j >= 0 {
			f.add(j, i, EdgeSync)
		}
	}
}

// lock: the latest unlock of the same lock by another process, when one of the two
// locks is exclusive (the unlock's own lock decides whether they conflict).
func (f *edgeFinder) lock(i int, in *Instr) {
	j := f.latest(i, -1, int(f.tr[i].Step.Proc), func(x *Instr) bool {
		return x.Kind == KUnlock && x.Win == in.Win && x.Target == in.Target && x.Computed == nil && in.Computed == nil
	})
	if j >= 0 && (in.LockType == litmus.LockExclusive || f.instr(j).LockType == litmus.LockExclusive) {
		f.add(j, i, EdgeSync)
	}
}

// latestOf is the last exec step before i of process proc whose instruction ok
// accepts (-1: none).
func (f *edgeFinder) latestOf(i, proc int, ok func(*Instr) bool) int {
	return f.latest(i, proc, -1, ok)
}

// latest finds the last exec step before i of process proc (of any process but not
// when proc < 0) whose instruction ok accepts (-1: none).
func (f *edgeFinder) latest(i, proc, not int, ok func(*Instr) bool) int {
	for j := i - 1; j >= 0; j-- {
		st := f.tr[j].Step
		if st.Kind != StepExec || (proc >= 0 && int(st.Proc) != proc) || int(st.Proc) == not {
			continue
		}
		if ok(&f.p.Procs[st.Proc].Code[st.Index]) {
			return j
		}
	}
	return -1
}
