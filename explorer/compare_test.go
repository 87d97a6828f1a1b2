package explorer_test

import (
	"path/filepath"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// A race named U3 under A (remote loads are RMA operations) and RACE under mpi-4.1,
// on the same two accesses, is a renaming, not a difference; a race only one side
// has, or an outcome only one allows, is one.
func TestCompareRenamedRaceIsNoDifference(t *testing.T) {
	a, _ := spec.ParseSemantics("A")
	m41, _ := spec.ParseSemantics("mpi-4.1")
	cases := []struct {
		file    string
		differs bool
	}{
		{"litmus/ticket435/MP+sync.lit", false},             // Never+U3 against Never+RACE
		{"docs/tutorial/pc-shared-nosync-reader.lit", true}, // mpi-4.1 allows stale data, with a race of its own
	}
	for _, c := range cases {
		lt, err := litmus.ParseFile(filepath.Join(corpus.Root(), c.file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := explorer.CompareSemantics(lt, a, m41, spec.Relaxed, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		va, vb := d.A.Verdict(), d.B.Verdict()
		if len(va.Race) == 0 || len(vb.Race) == 0 || va.Race[0] == vb.Race[0] {
			t.Fatalf("%s: the races are not named apart (%v, %v): the case tests nothing", c.file, va, vb)
		}
		if d.Differs() != c.differs {
			t.Errorf("%s: A %v, mpi-4.1 %v: Differs() = %v, want %v (only A: %v; only mpi-4.1: %v)",
				c.file, va, vb, d.Differs(), c.differs, d.FlagsX, d.FlagsY)
		}
	}
}
