package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestDropDead: the reader masks of the live-variable quotient keep a value while
// something can still read it, and only then: a later reader, an outcome item, a
// pending get, a guard and a loop body each keep one live.
func TestDropDead(t *testing.T) {
	src := `MPI live
{
  win W allocate size=2;
  x = W@0[0]; y = W@0[1]; z = W@1[0]; w = W@1[1];
  x = 5; y = 6; z = 7; w = 8;
}
 P0                  | P1            ;
 lock_all W          | lock_all W    ;
 r0 = load x         | repeat        ;
 r1 = r0 + 1         | r0 = load w   ;
 [r1 == 6] store y 1 | until r0 == 8 ;
 r2 = get z          | unlock_all W  ;
 flush W 1           |               ;
 unlock_all W        |               ;
exists (0:r2=7)
`
	lt, err := litmus.Parse("live.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-4.1")
	p, err := model.Compile(lt, sem, spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(name string) int {
		for c := range p.Cells {
			if p.Cells[c].Name == name {
				return c
			}
		}
		t.Fatalf("no cell %s", name)
		return -1
	}
	s := p.Initial()
	p.DropDead(s)
	step := func(st model.Step) {
		t.Helper()
		if !p.Apply(s, st, nil) {
			t.Fatalf("step %+v not enabled", st)
		}
		p.DropDead(s)
	}
	exec := func(proc int, text string) {
		t.Helper()
		for j, in := range p.Procs[proc].Code {
			if in.Text == text {
				step(model.Step{Kind: model.StepExec, Proc: int8(proc), Index: int8(j)})
				return
			}
		}
		t.Fatalf("P%d has no %q", proc, text)
	}
	want := func(what string, got, v int64) {
		t.Helper()
		if got != v {
			t.Errorf("%s = %d, want %d", what, got, v)
		}
	}
	names := map[string]string{"x": "W@0[0]", "y": "W@0[1]", "z": "W@1[0]", "w": "W@1[1]"}
	mem := func(name string) int64 { return p.CellValue(s, cell(names[name])) }
	want("y, stored and never read", mem("y"), 0)
	want("x, read by a later load", mem("x"), 5)
	want("z, read by a later get", mem("z"), 7)
	want("w, read by the loop body", mem("w"), 8)
	exec(0, "lock_all W")
	exec(0, "r0 = load x")
	want("r0, read by the arithmetic", p.Reg(s, 0, 0), 5)
	want("x, read by nothing left", mem("x"), 0)
	exec(0, "r1 = r0 + 1")
	want("r0 after its last reader", p.Reg(s, 0, 0), 0)
	want("r1, read by a guard", p.Reg(s, 0, 1), 6)
	exec(0, "[r1 == 6] store y 1")
	want("r1 after the guard", p.Reg(s, 0, 1), 0)
	exec(0, "r2 = get z")
	want("z, read by a pending get", mem("z"), 7)
	step(model.Step{Kind: model.StepPerform, Index: int8(p.Procs[0].Code[4].Slot)})
	want("z after the get's perform", mem("z"), 0)
	want("r2, an outcome item", p.Reg(s, 0, 2), 7)
	exec(1, "lock_all W")
	exec(1, "r0 = load w")
	want("w, read again by a rerun of the loop body", mem("w"), 8)
	exec(1, "until r0 == 8")
	want("w after the loop", mem("w"), 0)
	want("P1's r0 after the loop", p.Reg(s, 1, 0), 0)
}
