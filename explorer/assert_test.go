package explorer_test

import (
	"path/filepath"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// exploitDiff runs a job with and without exploiting assertions and returns whether
// the default run found an assertion false, and the outcomes only exploit allows.
func exploitDiff(t interface{ Fatalf(string, ...any) }, lt *litmus.Test, sem spec.Semantics, hw spec.HW) (falseAssert bool, added []string, missing []string) {
	def := explorer.Job{Test: lt, Sem: sem, HW: hw}.Run(explorer.Options{MaxStates: 3_000_000})
	exp := explorer.Job{Test: lt, Sem: sem, HW: hw, Exploit: true}.Run(explorer.Options{MaxStates: 3_000_000})
	if def.Err != nil || exp.Err != nil {
		t.Fatalf("%s: %v %v", lt.Name, def.Err, exp.Err)
	}
	a, b := outcomeSet(def.Result), outcomeSet(exp.Result)
	for o := range b {
		if !a[o] {
			added = append(added, o)
		}
	}
	for o := range a {
		if !b[o] {
			missing = append(missing, o)
		}
	}
	sort.Strings(added)
	sort.Strings(missing)
	return def.Result.HasFlag(spec.EAssert), added, missing
}

// TestExploitChangesNothingWhenTrue: "the assert argument does not change program
// semantics if it provides correct information" (node332): for random programs whose
// assertions hold in every execution, exploiting them gives the same outcomes.
func TestExploitChangesNothingWhenTrue(t *testing.T) {
	cfg := propCfg
	cfg.Asserts = true
	rapid.Check(t, func(t *rapid.T) {
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		falseAssert, added, missing := exploitDiff(t, lt, sem, hw)
		if !falseAssert && (len(added) > 0 || len(missing) > 0) {
			t.Fatalf("assertions hold, yet exploit adds %v and drops %v\n%s", added, missing, litmus.Format(lt))
		}
	})
}

// TestExploitCorpus: the same over the corpus and the acceptance tests; for those
// that break an assertion it logs the outcomes exploiting it adds, and some must.
func TestExploitCorpus(t *testing.T) {
	files := corpus.All(t)
	changed := 0
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range spec.AllPresets() {
			falseAssert, added, missing := exploitDiff(t, lt, sem, spec.Relaxed)
			switch {
			case !falseAssert && (len(added) > 0 || len(missing) > 0):
				t.Errorf("%s %s: assertions hold, yet exploit adds %v and drops %v", f, sem.Name, added, missing)
			case falseAssert && (len(added) > 0 || len(missing) > 0):
				changed++
				t.Logf("%s %s: a false assertion, exploited, adds %v, drops %v", filepath.Base(f), sem.Name, added, missing)
			}
		}
	}
	if changed == 0 {
		t.Errorf("no corpus test shows what exploiting a false assertion changes")
	}
}

// TestExploitNoputStillWaitsForGets: noput promises no incoming update; a get into
// the epoch must still complete before the fence returns (a case rapid found).
func TestExploitNoputStillWaitsForGets(t *testing.T) {
	lt, err := litmus.Parse("t.lit", []byte(`MPI noput-get
{ win W allocate size=2; }
 P0                                | P1                                | P2                                ;
 fence W nostore noput noprecede   | fence W nostore noput noprecede   | fence W nostore noput noprecede   ;
 fence W                           | fence W                           | r0 = get W@1[1]                   ;
 fence W noput noprecede nosucceed | store W@1[1] 1                    | fence W                           ;
                                   | fence W noput noprecede nosucceed | fence W noput noprecede nosucceed ;
exists (2:r0=1)
`))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-3.0")
	falseAssert, added, missing := exploitDiff(t, lt, sem, spec.SC)
	if falseAssert || len(added)+len(missing) > 0 {
		t.Errorf("assertions hold (false: %v), yet exploit adds %v and drops %v", falseAssert, added, missing)
	}
}
