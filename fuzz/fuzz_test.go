package fuzz

import (
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

// broken is the reference runtime broken on purpose: plain loads miss other ranks'
// stores and puts. It is a target of its own, one value; its reproducers are named
// after what it says it is (the reference runtime's Info).
type broken struct{ conform.Reference }

func mustSem(t *testing.T, name spec.PresetName) spec.Semantics {
	t.Helper()
	sem, ok := spec.Preset(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	return sem
}

// TestFuzzFindsBrokenReference: with the reference runtime broken on purpose (plain
// loads miss other ranks' stores and puts), fuzz finds a race-free program showing a
// forbidden outcome and shrinks it to a small reproducer that still shows one.
func TestFuzzFindsBrokenReference(t *testing.T) {
	target := broken{conform.Reference{Runtime: reference.Options{BreakStaleLoads: true}}}
	// About 1 race-free program in 60 communicates through a load the break makes
	// stale; from seed 40 the first is the sixth program drawn (seed 45).
	res, err := Fuzz(Options{Sem: mustSem(t, "mpi-4.1"), Target: target,
		Config: gen.Config{MaxProcs: 2, MaxInstrs: 3, Syncs: []string{"fence"}}, Programs: 100, Runs: 20, Recheck: 500,
		ShrinkBudget: 150, Seed: 40, Time: 40 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d programs, %d race-free, %d runs, %v", res.Programs, res.RaceFree, res.Runs, res.Elapsed)
	if len(res.Findings) == 0 {
		t.Fatal("fuzz found nothing against a broken runtime")
	}
	f := res.Findings[0]
	t.Logf("reproducer (from a program of %d instructions):\n%s", gen.Size(f.Original), f.Source)
	if gen.Size(f.Test) >= gen.Size(f.Original) && gen.Size(f.Original) > 3 {
		t.Errorf("not shrunk: %d instructions, the original had %d", gen.Size(f.Test), gen.Size(f.Original))
	}
	if gen.Size(f.Test) > 6 {
		t.Errorf("the reproducer has %d instructions, want at most 6", gen.Size(f.Test))
	}
	if _, err := litmus.Parse("r.lit", f.Source); err != nil {
		t.Fatal(err)
	}
	if f.Test.Name != "fuzz-reference-mpi-4.1-45" {
		t.Errorf("the reproducer is named %q; want the target's name in it", f.Test.Name)
	}
	bad, err := forbiddenOn(target, f.Test, mustSem(t, "mpi-4.1"), 2000, 7, Options{})
	if err != nil || len(bad) == 0 {
		t.Errorf("the reproducer does not reproduce: %v %v", bad, err)
	}
}

// TestFuzzReferenceConforms: the real reference runtime shows nothing forbidden on
// the race-free programs of a small budget.
func TestFuzzReferenceConforms(t *testing.T) {
	res, err := Fuzz(Options{Sem: mustSem(t, "mpi-4.1"), Config: gen.Config{MaxProcs: 2, MaxInstrs: 3},
		Programs: 40, Runs: 200, Seed: 1, Time: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d programs, %d race-free, %d runs, %v", res.Programs, res.RaceFree, res.Runs, res.Elapsed)
	if res.RaceFree == 0 {
		t.Error("no race-free program drawn")
	}
	if len(res.Findings) > 0 {
		t.Errorf("the reference runtime is non-conforming on:\n%s", res.Findings[0].Source)
	}
}
