package model_test

import (
	"slices"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// stubProgram compiles a two- or three-process test of plain accesses in lock_all
// (rows: lock_all is instruction 0).
func stubProgram(t *testing.T, table string, hw spec.HW) *model.Program {
	return stubProgramCond(t, table, hw, "exists (0:r0=0 /\\ 1:r0=0)")
}

func stubProgramCond(t *testing.T, table string, hw spec.HW, cond string) *model.Program {
	t.Helper()
	src := "MPI stub\n{\n  win W allocate_shared size=1;\n  x = W@0[0]; y = W@1[0];\n}\n" + table + cond + "\n"
	return compileSource(t, "stub.lit", src, "mpi-4.1", hw)
}

// compileSource parses, validates and compiles the test src under preset sem.
func compileSource(t *testing.T, name, src, sem string, hw spec.HW) *model.Program {
	t.Helper()
	lt, err := litmus.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := litmus.Validate(lt); err != nil {
		t.Fatal(err)
	}
	preset, _ := spec.Preset(spec.PresetName(sem))
	p, err := model.Compile(lt, preset, hw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStubbornDependence: the dependence of the stubborn sets (model/stubborn.go)
// on plain accesses, lock_all and arithmetic, within and across processes.
func TestStubbornDependence(t *testing.T) {
	const table = ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 1    | r0 = load x  ;
 r0 = load y  | store y 2    ;
 r1 = load x  | r1 = load y  ;
 r2 = r0 + 1  | store x 3    ;
 unlock_all W | unlock_all W ;
`
	for _, hw := range spec.HWModels {
		p := stubProgram(t, table, hw)
		if !model.StubbornInScope(p) {
			t.Fatalf("%s: a program of plain accesses in lock_all is in scope", hw)
		}
		for _, c := range []struct {
			name       string
			q, j, r, i int
			data, tso  bool // dependent for the values under sc and relaxed; under tso
			pair       bool // a candidate pair of the concurrency checks
			relaxed    bool // data holds under relaxed only: sc and tso keep them in program order
		}{
			// under tso a store writes its own buffer: its drain conflicts, not it
			{"store x against another's load x", 0, 1, 1, 1, true, false, true, false},
			{"two stores of x", 0, 1, 1, 4, true, false, true, false},
			{"load y against another's store y", 0, 2, 1, 2, true, false, true, false},
			{"two loads of x", 0, 3, 1, 1, false, false, false, false},
			{"store x against another's store y", 0, 1, 1, 2, false, false, false, false},
			{"load y against another's load y", 0, 2, 1, 3, false, false, false, false},
			{"lock_all against another's store", 0, 0, 1, 2, false, false, false, false},
			{"store x against another's unlock_all", 0, 1, 1, 5, false, false, false, false},
			{"arithmetic against another's load", 0, 4, 1, 1, false, false, false, false},
			{"arithmetic against the load of its operand (never enabled together)", 0, 4, 0, 2, false, false, false, false},
			{"a load against its process's earlier store to the cell (it may forward)", 1, 2, 1, 3, true, true, false, true},
		} {
			data := c.data
			if hw == spec.TSO {
				data = c.tso
			}
			data = data && (!c.relaxed || hw == spec.Relaxed)
			for _, rev := range []bool{false, true} {
				q, j, r, i := c.q, c.j, c.r, c.i
				if rev {
					q, j, r, i = r, i, q, j
				}
				if gotData, gotPair := model.StubbornDependent(p, q, j, r, i); gotData != data || gotPair != c.pair {
					t.Errorf("%s: %s (reversed %v): dependent for values %v, as a pair %v; want %v, %v", hw, c.name, rev, gotData, gotPair, data, c.pair)
				}
			}
		}
	}
}

// TestStubbornDrains: under tso, a drain depends on the other processes' loads of
// its cell. In SB with both stores buffered, the smallest stubborn set is P0's drain
// (of x) with P1's load of x: two of the four enabled steps. Under sc nothing is
// buffered: P0's load of y with P1's store of y, or the like, two steps again.
func TestStubbornDrains(t *testing.T) {
	const table = ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 1    | store y 1    ;
 r0 = load y  | r0 = load x  ;
 unlock_all W | unlock_all W ;
`
	buffered := func(p *model.Program) model.State {
		s := p.Initial()
		for _, st := range []model.Step{
			{Kind: model.StepExec, Proc: 0, Index: 0}, {Kind: model.StepExec, Proc: 1, Index: 0},
			{Kind: model.StepExec, Proc: 0, Index: 1}, {Kind: model.StepExec, Proc: 1, Index: 1},
		} {
			if !p.Apply(s, st, nil) {
				t.Fatalf("step %+v not enabled", st)
			}
		}
		return s
	}
	p := stubProgram(t, table, spec.TSO)
	got := model.StubbornSteps(p, buffered(p))
	want := []model.Step{{Kind: model.StepDrain, Proc: 0}, {Kind: model.StepExec, Proc: 1, Index: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("tso, both stores buffered: stubborn set %+v, want %+v", got, want)
	}
	// When nothing reads P1's r0 (no outcome item, no instruction), which value
	// its load reads is dead at once: the drain of x no longer depends on it.
	p = stubProgramCond(t, table, spec.TSO, "exists (0:r0=0)")
	got = model.StubbornSteps(p, buffered(p))
	want = []model.Step{{Kind: model.StepDrain, Proc: 0}}
	if !slices.Equal(got, want) {
		t.Errorf("tso, both stores buffered, P1's r0 dead: stubborn set %+v, want %+v", got, want)
	}
	// Under sc the two stores are all that is enabled after lock_all, and each one
	// needs the other (store x, P1's load of x, its store y before it, P0's load of
	// y, its store x before it): no set smaller than all.
	sc := stubProgram(t, table, spec.SC)
	s := sc.Initial()
	for _, st := range []model.Step{{Kind: model.StepExec, Proc: 0, Index: 0}, {Kind: model.StepExec, Proc: 1, Index: 0}} {
		if !sc.Apply(s, st, nil) {
			t.Fatalf("step %+v not enabled", st)
		}
	}
	if got := model.StubbornSteps(sc, s); got != nil {
		t.Errorf("sc, after lock_all: stubborn set %+v, want none", got)
	}
}

// TestStubbornScope: programs where other dependence exists are out of scope:
// accumulates (their performs wait for each other), guards; a put in lock_all
// is in (stubborn_rma.go: issue 37).
func TestStubbornScope(t *testing.T) {
	put := " P0           | P1           ;\n lock_all W   | lock_all W   ;\n put x 1      | r0 = load x  ;\n unlock_all W | unlock_all W ;\n"
	if p := stubProgram(t, put, spec.TSO); !model.StubbornInScope(p) {
		t.Errorf("out of scope, want in:\n%s", put)
	}
	for _, table := range []string{
		" P0           | P1           ;\n lock_all W   | lock_all W   ;\n acc x sum 1  | r0 = load x  ;\n unlock_all W | unlock_all W ;\n",
		" P0           | P1           ;\n lock_all W   | lock_all W   ;\n store x 1    | r0 = load x  ;\n              | [r0 == 1] store y 1 ;\n unlock_all W | unlock_all W ;\n",
	} {
		if p := stubProgram(t, table, spec.TSO); model.StubbornInScope(p) {
			t.Errorf("in scope, want out:\n%s", table)
		}
	}
}
