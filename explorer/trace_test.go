package explorer

import (
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestTraceReplayedOnce: a result carries its witnesses' traces: asking twice, or
// asking a copy (a comparison's outcome), gives the one replay; a shared result seen
// as another program's (a tso job's pair flags, another preset's search) replays on
// that program.
func TestTraceReplayedOnce(t *testing.T) {
	lt, err := litmus.Parse("sb.lit", []byte("MPI SB\n{ win W allocate_shared size=2; x = W@0[0]; y = W@0[1]; }\n P0 | P1 ;\n lock_all W | lock_all W ;\n store x 1 | store y 1 ;\n r0 = load y | r0 = load x ;\n unlock_all W | unlock_all W ;\nexists (0:r0=0 /\\ 1:r0=0)\n"))
	if err != nil {
		t.Fatal(err)
	}
	jr := Job{Test: lt, Sem: preset(t, spec.MPI30), HW: spec.Relaxed}.Run(Options{})
	if jr.Err != nil {
		t.Fatal(jr.Err)
	}
	r := jr.Result
	if len(r.Outcomes) == 0 || len(r.Flags) == 0 {
		t.Fatalf("SB under mpi-3.0: %d outcomes, %d flags", len(r.Outcomes), len(r.Flags))
	}
	o := &r.Outcomes[0]
	if o.Trace() != o.Trace() || len(o.Trace().Steps) == 0 {
		t.Error("an outcome's trace was replayed twice (or is empty)")
	}
	copied := *o
	if copied.Trace() != o.Trace() {
		t.Error("a copy of an outcome replayed its witness again")
	}
	if f := &r.Flags[0]; f.Trace() != f.Trace() {
		t.Error("a flag's trace was replayed twice")
	}
	other, err := model.Compile(lt, preset(t, spec.OptionB), spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	if seen := r.of(other); seen.Outcomes[0].Trace() == o.Trace() {
		t.Error("the result seen as another program's reads the first program's trace")
	}
}

func preset(t *testing.T, name spec.PresetName) spec.Semantics {
	sem, ok := spec.Preset(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	return sem
}
