package model

import (
	"fmt"
	"slices"
)

// NextInstr is the first instruction process proc has not executed in s.
func (p *Program) NextInstr(s State, proc int) (j int, ok bool) {
	done := p.done(s, proc)
	for j := range p.Procs[proc].Code {
		if done&(1<<uint(j)) == 0 {
			return j, true
		}
	}
	return 0, false
}

// Witness is an execution a search found, as a value: the program it runs on (a
// tso or sc flag's runs on the relaxed program, docs/semantics.md#concurrency) and its steps from
// the initial state. Replay is the one way to read it, so no printer needs to know
// which program a witness belongs to or how to re-run it.
type Witness struct {
	Program *Program
	Steps   []Step
	// Marks are the indexes in Steps of the steps that are the accesses a flag is
	// about (a racing pair's two accesses), for printers to point at.
	Marks []int
	// Arrange, when set, says that Steps are as a reduced search took them: Replay
	// (and Arranged) first put them in program order where they commute (InOrder).
	// That work is done only for the witnesses someone reads; done for every
	// outcome of every search it was 16% of a run's CPU (issue 22).
	Arrange *Arrangement
}

// Arrangement is the rearranging a witness still needs: InOrder over its first
// Early steps, on the program the search ran (By, which may differ from the
// program the witness replays on: a shared or relaxed pair search's), and, when
// SpeculativeRead is set, a mark on the first step equal to the last one (the
// speculative read that the last step, its commit, repeats).
type Arrangement struct {
	By              *Program
	Early           int
	SpeculativeRead bool
}

// Arranged is the witness with its steps in the order a reader should see them
// and every mark set; a witness with no Arrange is returned as is.
func (w Witness) Arranged() Witness {
	a := w.Arrange
	if a == nil {
		return w
	}
	w.Arrange = nil
	w.Steps = a.By.InOrder(w.Steps, a.Early)
	if a.SpeculativeRead && len(w.Steps) > 0 {
		commit := w.Steps[len(w.Steps)-1]
		for i, st := range w.Steps[:len(w.Steps)-1] {
			if st == commit {
				w.Marks = append([]int{i}, w.Marks...)
				break
			}
		}
	}
	return w
}

// Trace is a witness replayed: every step described with what its readers print
// (text, JSON, the execution diagram), so that none of them reads the program.
type Trace struct {
	Steps []TraceStep
	// Procs is the number of processes.
	Procs int
	// Edges are the trace's reads-from, RMA and synchronization edges between steps
	// (edges.go), in the order of the step they were found at.
	Edges []Edge
	// Err: a step did not replay (the witness is of an older program version or of
	// another semantics); Steps ends before it.
	Err error
	// Final is the state the trace ends in; Ended: no step is enabled there (every
	// process finished, or DEADLOCK); Outcome: the outcome items' values there.
	Final   State
	Ended   bool
	Outcome string
}

// Replay re-runs the witness from the initial state and describes each step. It
// stops at the first step that is not enabled, so a witness from an older program
// version (or another semantics) is refused rather than misread. The zero Witness
// (a diagnostic no search filled in) replays to the empty trace.
func (w Witness) Replay() Trace {
	w = w.Arranged()
	p := w.Program
	if p == nil {
		return Trace{}
	}
	tr := p.trace(w.Steps)
	for _, m := range w.Marks {
		if m < len(tr.Steps) {
			tr.Steps[m].Marked = true
		}
	}
	tr.Procs = p.NProcs
	tr.Edges = p.edges(tr.Steps)
	tr.Ended = p.Terminal(tr.Final)
	tr.Outcome = p.OutcomeString(p.OutcomeValues(tr.Final))
	return tr
}

// enabled reports whether st is among the steps Successors offers in s.
func (p *Program) enabled(s State, st Step) bool {
	found := false
	scratch := make(State, len(s))
	p.Successors(s, scratch, false, nil, func(got Step, _ State) {
		if got == st {
			found = true
		}
	})
	return found
}

// StepName is a short name for a step, without executing it.
func (p *Program) StepName(st Step) string {
	switch st.Kind {
	case StepPerform:
		sl := p.Slots[st.Index]
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		if sl.Multi {
			return fmt.Sprintf("perform element %d of %s of P%d row %d", st.Choice, in.Text, sl.Proc, in.Row)
		}
		return fmt.Sprintf("perform %s of P%d row %d", in.Text, sl.Proc, in.Row)
	case StepDrain:
		return fmt.Sprintf("P%d store buffer drains", st.Proc)
	case StepLocal:
		sl := p.Slots[st.Index]
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		return fmt.Sprintf("P%d row %d: %s completes locally", sl.Proc, in.Row, in.Text)
	}
	in := &p.Procs[st.Proc].Code[st.Index]
	if st.Kind == StepReturn {
		return fmt.Sprintf("P%d row %d: %s returns", st.Proc, in.Row, in.Text)
	}
	return fmt.Sprintf("P%d row %d: %s", st.Proc, in.Row, in.Text)
}

// Terminal reports whether no step is enabled in s: the execution has ended (every
// process finished, or DEADLOCK).
func (p *Program) Terminal(s State) bool {
	n := 0
	p.Successors(s, make(State, len(s)), false, nil, func(Step, State) { n++ })
	return n == 0
}

// TraceStep is one step of a replayed trace, with what a reader of the trace needs
// beyond its text: the process, row and rule marks are the printer's; Early and
// ReadsFrom are the model's, since only the model knows program order and memory.
type TraceStep struct {
	Step Step
	Record
	// Proc is the process the step belongs to: its own for exec, return and drain
	// steps, the origin for a perform or a local completion. Row is the instruction's
	// row (0 for a drain).
	Proc, Row int
	// At is the process where the step takes effect: the target of a perform, else
	// Proc (the diagram's column).
	At int
	// Marked: the step is one of the accesses a flag is about (Witness.Marks).
	Marked bool
	// Early lists the rows of the process that stand before the instruction and have
	// not executed: the step runs out of program order (docs/semantics.md#hardware-models).
	Early []EarlyRow
	// ReadsFrom says, for each memory read of the step, which step wrote the value.
	ReadsFrom []ReadFrom
}

// EarlyRow is a row a step runs before, with its instruction as written.
type EarlyRow struct {
	Row  int
	Text string
}

// ReadFrom is where a read's value comes from.
type ReadFrom struct {
	Copy Copy
	// Cell is the cell's name.
	Cell string
	// Step is the index (in the trace) of the step that wrote it: a store, the
	// perform of a put or accumulate, or, in a tso trace, the store whose buffered
	// value the drain wrote. -1: the initial value.
	Step int
	// FwdRow: the value comes from the process's own store on this row, which has
	// not executed yet (store forwarding, docs/semantics.md#hardware-models); 0 otherwise.
	FwdRow int
}

// trace replays steps and describes each, with program order and reads-from.
func (p *Program) trace(steps []Step) Trace {
	s := p.Initial()
	out := make([]TraceStep, 0, len(steps))
	writer := map[Copy]int{}    // who wrote each copy last (absent: the initial value)
	buffered := map[int][]int{} // tso: per process, the steps of its buffered stores, oldest first
	lastBuffered := map[[2]int]int{}
	for i, st := range steps {
		ts := TraceStep{Step: st, Proc: int(st.Proc)}
		var in *Instr
		switch st.Kind {
		case StepPerform, StepLocal:
			sl := p.Slots[st.Index]
			ts.Proc, in = sl.Proc, &p.Procs[sl.Proc].Code[sl.Instr]
		case StepExec, StepReturn:
			in = &p.Procs[st.Proc].Code[st.Index]
		}
		ts.At = ts.Proc
		if in != nil {
			ts.Row = in.Row
		}
		if st.Kind == StepPerform {
			ts.At = int(p.slotOp(s, int(st.Index)).Target)
		}
		if st.Kind == StepExec && (in.Spec < 0 || p.specRead(s, int(st.Proc))&(1<<uint(st.Index)) == 0) {
			ts.Early = p.earlyRows(s, int(st.Proc), int(st.Index))
		}
		cell := -1 // the cell of a plain access, through its address register's value now
		if in != nil && (in.Kind == KPlainLoad || in.Kind == KPlainStore) {
			if r := p.peekResolved(s, int(st.Proc), in); r != nil {
				cell = int(r.Cell)
			}
		}
		if !p.enabled(s, st) || !p.Apply(s, st, &ts.Record) {
			return Trace{Steps: out, Final: s, Err: fmt.Errorf("step %d (%s) is not enabled", i+1, p.StepName(st))}
		}
		for _, c := range ts.Reads {
			from, ok := writer[c]
			if !ok {
				from = -1
			}
			ts.ReadsFrom = append(ts.ReadsFrom, p.readFrom(c, from, 0))
		}
		switch {
		case ts.Forwarded > 0:
			ts.ReadsFrom = append(ts.ReadsFrom, p.readFrom(p.localCopy(cell), -1, p.Procs[st.Proc].Code[ts.Forwarded-1].Row))
		case ts.Buffered && in != nil && in.Kind == KPlainLoad:
			ts.ReadsFrom = append(ts.ReadsFrom, p.readFrom(p.localCopy(cell), lastBuffered[[2]int{ts.Proc, cell}], 0))
		case ts.Buffered: // a tso store: into the buffer, in order
			buffered[ts.Proc] = append(buffered[ts.Proc], i)
			lastBuffered[[2]int{ts.Proc, cell}] = i
		}
		for _, c := range ts.Writes {
			writer[c] = i
			if st.Kind == StepDrain && len(buffered[ts.Proc]) > 0 {
				writer[c] = buffered[ts.Proc][0] // the value the store buffered
				buffered[ts.Proc] = buffered[ts.Proc][1:]
			}
		}
		for _, cp := range ts.Copies {
			if from, ok := writer[cp[0]]; ok {
				writer[cp[1]] = from
			} else {
				delete(writer, cp[1])
			}
		}
		out = append(out, ts)
	}
	return Trace{Steps: out, Final: s}
}

func (p *Program) readFrom(c Copy, step, fwdRow int) ReadFrom {
	return ReadFrom{Copy: c, Cell: p.Cells[c.Cell].Name, Step: step, FwdRow: fwdRow}
}

// earlyRows are the rows of proc's instructions before j that have not executed in s,
// each once.
func (p *Program) earlyRows(s State, proc, j int) []EarlyRow {
	var rows []EarlyRow
	done := p.done(s, proc)
	code := p.Procs[proc].Code
	for k := 0; k < j; k++ {
		// a row holds several instructions when it is a loop's await (load and until): named once
		if done&(1<<uint(k)) == 0 && code[k].Row != code[j].Row && !slices.ContainsFunc(rows, func(r EarlyRow) bool { return r.Row == code[k].Row }) {
			rows = append(rows, EarlyRow{code[k].Row, p.InstrAt(Site{Proc: proc, Row: code[k].Row}).Text})
		}
	}
	return rows
}

// InOrder rearranges the first n steps of a trace (a witness the reduced search
// found) into the order a reader should see: the reductions take a step as soon as
// it commutes with what the others can still do, and keep one representative of
// many equivalent orders, which may put a step before an earlier instruction of
// its process (a witness that shows such a reordering suggests the outcome needs
// it) and whose order between processes depends on the reduction. At each position
// the step placed is the best one that can be moved there (the steps from there
// still replay and reach the same state): first a step that does not overtake an
// earlier instruction of its process, then the lowest process, then the earliest
// in the trace. So equivalent traces print alike whichever reduction found them.
// The state after step n is unchanged, so the rest of the trace replays as before.
// A trace that does not replay is returned as is.
func (p *Program) InOrder(steps []Step, n int) []Step {
	out := append([]Step(nil), steps...)
	states := make([]State, n+1) // states[i]: before step i
	states[0] = p.Initial()
	if !p.replayInto(states, out, 0, n) {
		return steps
	}
	cand := make([]Step, n)
	for i := 0; i < n; i++ {
		key := p.orderKey(states[i], out[i])
		for _, j := range p.betterSteps(states[i], out, i, n, key) {
			copy(cand, out[:n])
			copy(cand[i+1:j+1], out[i:j])
			cand[i] = out[j]
			if end, ok := p.replayFrom(states[i], cand[i:n]); ok && string(end) == string(states[n]) {
				copy(out, cand)
				p.replayInto(states, out, i, n)
				break
			}
		}
	}
	return out
}

// orderKey ranks a step for InOrder: in-order steps first, then by process.
func (p *Program) orderKey(s State, st Step) int {
	k := int(st.Proc)
	if p.overtakes(s, st) {
		k += MaxProcs + 1
	}
	return k
}

// betterSteps lists the positions after i (up to n) of steps that rank before key
// from state s, best first (ties in trace order).
func (p *Program) betterSteps(s State, steps []Step, i, n, key int) []int {
	var js []int
	for j := i + 1; j < n; j++ {
		if p.orderKey(s, steps[j]) < key {
			js = append(js, j)
		}
	}
	slices.SortStableFunc(js, func(a, b int) int { return p.orderKey(s, steps[a]) - p.orderKey(s, steps[b]) })
	return js
}

// replayInto applies steps[from:n] from states[from], storing the state before
// each step in states; false when a step is not enabled.
func (p *Program) replayInto(states []State, steps []Step, from, n int) bool {
	for i := from; i < n; i++ {
		states[i+1] = states[i].Clone()
		if !p.enabled(states[i], steps[i]) || !p.Apply(states[i+1], steps[i], nil) {
			return false
		}
	}
	return true
}

// replayFrom applies steps from a copy of s and returns the state reached; false
// when a step is not enabled.
func (p *Program) replayFrom(s State, steps []Step) (State, bool) {
	cur := s.Clone()
	for _, st := range steps {
		if !p.enabled(cur, st) || !p.Apply(cur, st, nil) {
			return nil, false
		}
	}
	return cur, true
}

// overtakes reports whether st executes an instruction while an earlier one of its
// process is not done.
func (p *Program) overtakes(s State, st Step) bool {
	if st.Kind != StepExec {
		return false
	}
	done := p.done(s, int(st.Proc))
	return done|(1<<uint(st.Index)-1) != done
}

// commute reports whether b then a, from s, is enabled and ends in after (the state
// after a then b), with the state between them.
func (p *Program) commute(s State, a, b Step, after State) (State, bool) {
	if !p.enabled(s, b) {
		return nil, false
	}
	mid := s.Clone()
	if !p.Apply(mid, b, nil) || !p.enabled(mid, a) {
		return nil, false
	}
	end := mid.Clone()
	if !p.Apply(end, a, nil) || string(end) != string(after) {
		return nil, false
	}
	return mid, true
}
