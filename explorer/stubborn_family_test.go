package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStubbornPlainFamilyA: preset A's tso jobs on the two tests of the plain
// family (gen.PlainFamily(1000, 1), the PresetRatio benchmark's) that stored the
// most states under A store at most 30,000 (WRC+plain0815: 26,390; 275,776 before
// the tso search dropped the pairs and dead remote loads became independent;
// mpi-4.1: 20,205) and 3,000 (IRIW+plain0239: 2,133; then 58,135; mpi-4.1:
// 11,003), their relaxed pair searches at most 1,000 each (250 and 64; then
// 26,678 and 18,070). States are deterministic: this is no timing.
func TestStubbornPlainFamilyA(t *testing.T) {
	fam, err := gen.PlainFamily(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	semA, _ := spec.Preset("A")
	bounds := map[string]int{"WRC+plain0815": 30_000, "IRIW+plain0239": 3_000}
	seen := 0
	for _, ft := range fam {
		max, ok := bounds[ft.Name]
		if !ok {
			continue
		}
		seen++
		jr := explorer.Job{Test: ft.Test, Sem: semA, HW: spec.TSO}.Run(explorer.Options{MaxStates: 1_000_000})
		if jr.Err != nil {
			t.Fatal(jr.Err)
		}
		r := jr.Result
		t.Logf("%s under A, tso: %d states, pair search %d", ft.Name, r.States, r.PairStates)
		if r.States > max || r.PairStates > 1_000 {
			t.Errorf("%s under A, tso: %d states (want at most %d), pair search %d (want at most 1,000)", ft.Name, r.States, max, r.PairStates)
		}
	}
	if seen != len(bounds) {
		t.Fatalf("found %d of the %d tests in the family", seen, len(bounds))
	}
}
