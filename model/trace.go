package model

import (
	"fmt"
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

// Replay re-runs a trace from the initial state and describes each step. It fails
// on the first step that is not enabled, so a trace from an older program version
// (or another semantics) is refused rather than misread.
func (p *Program) Replay(steps []Step) ([]Record, State, error) {
	s := p.Initial()
	recs := make([]Record, 0, len(steps))
	for i, st := range steps {
		var rec Record
		if !p.enabled(s, st) || !p.Apply(s, st, &rec) {
			return recs, s, fmt.Errorf("step %d (%s) is not enabled", i+1, p.StepName(st))
		}
		recs = append(recs, rec)
	}
	return recs, s, nil
}

// enabled reports whether st is among the steps Successors offers in s.
func (p *Program) enabled(s State, st Step) bool {
	found := false
	scratch := make(State, len(s))
	p.Successors(s, scratch, false, func(got Step, _ State) {
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
		return fmt.Sprintf("perform %s of P%d row %d", in.Text, sl.Proc, in.Row)
	case StepDrain:
		return fmt.Sprintf("P%d store buffer drains", st.Proc)
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
	p.Successors(s, make(State, len(s)), false, func(Step, State) { n++ })
	return n == 0
}
