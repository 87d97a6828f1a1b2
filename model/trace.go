package model

import (
	"fmt"
	"strings"
)

// NextInstr names the first instruction process proc has not executed in s.
func (p *Program) NextInstr(s State, proc int) (row int, text string, ok bool) {
	done := p.done(s, proc)
	for j := range p.Procs[proc].Code {
		if done&(1<<uint(j)) == 0 {
			in := &p.Procs[proc].Code[j]
			return in.Row, in.Text, true
		}
	}
	return 0, "", false
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

// OutcomeString prints outcome values (in the order of Out) as herd7 does: "0:r0=0; x=1;".
func (p *Program) OutcomeString(vals []int64) string {
	var b strings.Builder
	for i, o := range p.Out {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d;", o.Name, vals[i])
	}
	return b.String()
}

// TraceLines replays a trace and describes each step, one line a step; with raised,
// the rules a step breaks follow it on lines of their own ("! message").
func (p *Program) TraceLines(steps []Step, raised bool) []string {
	recs, _, err := p.Replay(steps)
	out := make([]string, 0, len(recs))
	for _, rec := range recs {
		out = append(out, rec.Text)
		if raised {
			for _, r := range rec.Raised {
				out = append(out, "! "+r.Message)
			}
		}
	}
	if err != nil {
		out = append(out, "replay failed: "+err.Error())
	}
	return out
}
