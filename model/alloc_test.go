package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStepsAllocateNothing pins DESIGN.md's promise: generating the successors of a
// state (every step kind: plain accesses, RMA issue and perform, fences, locks,
// flushes, the tso drain, and the steps that raise a rule) allocates nothing. It
// visits the first states of every corpus program, breadth-first, under two presets
// (and mpi-4.1 with weak_progress, whose performs and lock grants read where their
// target is) and every hw model, and counts the allocations of Successors in each, and
// of the quotient the reduced search stores them through (DropDead).
func TestStepsAllocateNothing(t *testing.T) {
	const statesPerProgram = 150
	checked := 0
	for _, f := range corpus.Litmus(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			continue // the errors/ folder holds files meant to be refused
		}
		for _, name := range []string{"mpi-3.0", "A", "mpi-4.1,weak_progress=on"} {
			sem, _ := spec.ParseSemantics(name)
			for _, hw := range spec.HWModels {
				p, err := model.Compile(lt, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				scratch := make(model.State, p.StateSize())
				seen := map[string]bool{}
				queue := []model.State{p.Initial()}
				var next []model.State
				emit := func(_ model.Step, st model.State) { next = append(next, st.Clone()) }
				discard := func(model.Step, model.State) {}
				light := &model.Record{Light: true, Sites: make([]model.RaiseSite, 0, 16)}
				for len(queue) > 0 && len(seen) < statesPerProgram {
					s := queue[0]
					queue = queue[1:]
					if seen[string(s)] {
						continue
					}
					seen[string(s)] = true
					for _, reduce := range []bool{false, true} {
						if n := testing.AllocsPerRun(3, func() { p.Successors(s, scratch, reduce, light, discard) }); n != 0 {
							t.Fatalf("%s (%s, hw %s): Successors allocates %.1f times a call", f, name, hw, n)
						}
					}
					copy(scratch, s)
					if n := testing.AllocsPerRun(3, func() { p.DropDead(scratch) }); n != 0 {
						t.Fatalf("%s (%s, hw %s): DropDead allocates %.1f times a call", f, name, hw, n)
					}
					next = next[:0]
					p.Successors(s, scratch, false, nil, emit)
					queue = append(queue, next...)
					checked++
				}
			}
		}
	}
	t.Logf("%d states checked", checked)
}
