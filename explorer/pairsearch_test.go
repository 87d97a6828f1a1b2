package explorer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestOrderedPairsNeverConcurrent: a candidate pair model.Program.Ordered says can
// never be concurrent is found by no unreduced search (which checks every pair in
// every reachable state), on random programs under every preset and hw model. The
// reduced search does not look for these pairs, so the exactness properties
// (TestReductionRandom) check the same; this one says how often the rule fires.
func TestOrderedPairsNeverConcurrent(t *testing.T) {
	draws, fired := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		cfg := propCfg
		cfg.Asserts = rapid.Bool().Draw(t, "asserts")
		cfg.Separate = rapid.Bool().Draw(t, "separate")
		cfg.Computed = rapid.Bool().Draw(t, "computed")
		cfg.Ranges = rapid.Bool().Draw(t, "ranges")
		sems := propSemantics()
		var lt *litmus.Test
		if rapid.Bool().Draw(t, "plain-accesses") {
			// the plain family's kind, where ls_is_rma (preset A) makes the remote
			// accesses RMA operations
			lt = plainAccesses(t)
			mpi41, _ := spec.Preset("mpi-4.1")
			a, _ := spec.Preset("A")
			sems = []spec.Semantics{a, a.With(spec.WeakProgress, true), mpi41.With(spec.LsIsRMA, true), mpi41}
		} else {
			lt = gen.Program(cfg).Draw(t, "program")
		}
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		draws++
		ordered := p.Ordered()
		if ordered == nil {
			return
		}
		fired++
		// a flag's key, and whether every candidate with that key is ordered (the
		// elements of a range share their sites)
		key := func(d model.Diagnostic) string { return fmt.Sprintf("%s %v", d.Rule, d.Sites()) }
		onlyOrdered := map[string]bool{}
		for ci := range p.Candidates {
			k := key(p.CandidateDiagnostic(ci))
			if prev, ok := onlyOrdered[k]; !ok || prev {
				onlyOrdered[k] = ordered[ci]
			}
		}
		plain, err := explorer.Explore(p, explorer.Options{MaxStates: 2_000_000, NoReduce: true})
		var limit *explorer.ErrStateLimit
		if errors.As(err, &limit) {
			t.Skipf("the plain search passes %d states", limit.Limit)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range plain.Flags {
			if f.Pair && onlyOrdered[key(f.Diagnostic)] {
				t.Fatalf("%s %s: pair %s found by the plain search, though Ordered says it never is concurrent\n%s", sem.Name, hw, key(f.Diagnostic), litmus.Format(lt))
			}
		}
	})
	t.Logf("Ordered fired in %d of %d draws", fired, draws)
	if draws >= 100 && fired == 0 {
		t.Errorf("no draw had an ordered pair: the property tests nothing")
	}
}

// plainAccesses draws a program of the plain family's kind: two or three
// processes in lock_all on a shared window of three cells (on ranks 0, 1 and 1),
// each running two to five loads and stores.
func plainAccesses(t *rapid.T) *litmus.Test {
	procs := rapid.IntRange(2, 3).Draw(t, "procs")
	cells := []string{"x", "y", "z"}
	rows := [][]string{}
	cols := make([][]string, procs)
	for i := range cols {
		cols[i] = append(cols[i], "lock_all W")
		n := rapid.IntRange(2, 5).Draw(t, fmt.Sprintf("n%d", i))
		for k := 0; k < n; k++ {
			cell := rapid.SampledFrom(cells).Draw(t, "cell")
			if rapid.Bool().Draw(t, "store") {
				cols[i] = append(cols[i], fmt.Sprintf("store %s %d", cell, 10*i+k+1))
			} else {
				cols[i] = append(cols[i], fmt.Sprintf("r%d = load %s", k, cell))
			}
		}
		cols[i] = append(cols[i], "unlock_all W")
	}
	header := make([]string, procs)
	for i := range header {
		header[i] = fmt.Sprintf("P%d", i)
	}
	rows = append(rows, header)
	for r := 0; ; r++ {
		row, any := make([]string, procs), false
		for i := range cols {
			if r < len(cols[i]) {
				row[i], any = cols[i][r], true
			}
		}
		if !any {
			break
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	b.WriteString("MPI plain-accesses\n{\n  win W allocate_shared size=2;\n  x = W@0[0]; y = W@1[0]; z = W@1[1];\n}\n")
	for _, row := range rows {
		b.WriteString(" " + strings.Join(row, " | ") + " ;\n")
	}
	b.WriteString("exists (x=0)\n")
	lt, err := litmus.Parse("plain-accesses.lit", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if err := litmus.Validate(lt); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return lt
}

// TestPairSearchOrderedStates: the plain family's costliest test under preset A,
// hw tso: its relaxed pair search (values forgotten, model.Program.WithoutValues)
// ran to its last state, 26,678 states, waiting for a pair that can never be
// concurrent: P1's remote load of y and its later remote store to y, an RMA
// conflict (C-CONFLICT) on paper, but the load reads at once and the store waits
// for it (model.Program.Ordered). Without it the search stops at level 8, at 950.
func TestPairSearchOrderedStates(t *testing.T) {
	lt, err := litmus.Parse("WRC+plain0815.lit", []byte(wrcPlain0815))
	if err != nil {
		t.Fatal(err)
	}
	semA, _ := spec.Preset("A")
	p, err := model.Compile(lt, semA, spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	ordered := 0
	for ci, o := range p.Ordered() {
		if o {
			ordered++
			if d := p.CandidateDiagnostic(ci); d.Rule != spec.CConflict {
				t.Errorf("ordered pair %s %v, want only C-CONFLICT pairs", d.Rule, d.Sites())
			}
		}
	}
	if ordered != 1 {
		t.Errorf("%d ordered pairs, want 1: P1's load of y and its store to y", ordered)
	}
	pairs, err := explorer.Explore(p.WithoutValues(), explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pairs.States > 2000 {
		t.Errorf("the pair search stored %d states, want at most 2,000 (26,678 when it waited for the ordered pair)", pairs.States)
	}
	// every other pair is found: the 39 the full search finds (TestWithoutValuesSamePairs
	// compares the two on random programs)
	if n := len(pairView(pairs)); n != 39 {
		t.Errorf("%d pair flags, want 39", n)
	}
}

// TestPairSearchParallelStop: a pairs-only search (values forgotten) stops once it
// has found every pair; with parallel levels it stops alike, each pair at the
// same state with the same trace as the sequential search, though the workers
// find them out of order (the last pair found, a lower state may still be to check).
func TestPairSearchParallelStop(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var lt *litmus.Test
		sems := spec.AllPresets()
		if rapid.Bool().Draw(t, "plain-accesses") {
			lt = plainAccesses(t)
		} else {
			cfg := propCfg
			cfg.Loops = false
			lt = gen.Program(cfg).Draw(t, "program")
		}
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		p, err := model.Compile(lt, sem, spec.Relaxed)
		if err != nil {
			t.Fatal(err)
		}
		abs := p.WithoutValues()
		if abs == nil {
			return
		}
		if d := parallelPairsDiff(t, abs); d != "" {
			t.Fatalf("%s: pairs differ (-sequential +parallel):\n%s\n%s", sem.Name, d, litmus.Format(lt))
		}
	})
}

// TestPairSearchParallelStopFamily: the same on plain-family tests under preset A,
// whose pair searches have levels of several blocks (levelBlock) when the last pair
// is found, so that workers finish them out of order.
func TestPairSearchParallelStopFamily(t *testing.T) {
	fam, err := gen.PlainFamily(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	semA, _ := spec.Preset("A")
	for _, ft := range fam {
		if !strings.HasPrefix(ft.Name, "WRC") && !strings.HasPrefix(ft.Name, "IRIW") {
			continue
		}
		p, err := model.Compile(ft.Test, semA, spec.Relaxed)
		if err != nil {
			t.Fatal(err)
		}
		abs := p.WithoutValues()
		if d := parallelPairsDiff(t, abs); d != "" {
			t.Errorf("%s: pairs differ (-sequential +parallel):\n%s", ft.Name, d)
		}
	}
}

// pairTraces are a search's pair flags with their traces.
func pairTraces(r *explorer.Result) []string {
	var out []string
	for _, f := range r.Flags {
		if f.Pair {
			out = append(out, fmt.Sprintf("%s %v %v", f.Rule, f.Sites(), f.Witness.Steps))
		}
	}
	return out
}

// wrcPlain0815 is the plain family's costliest test (gen.PlainFamily(1000, 1)[815]).
const wrcPlain0815 = `MPI WRC+plain0815
{
  win W allocate_shared size=3;
  x = W@2[0];
  y = W@3[1];
  z = W@3[2];
}
 P0           | P1           | P2           | P3           ;
 lock_all W   | lock_all W   | lock_all W   | lock_all W   ;
 store x 12   | r5 = load y  | store x 15   | store y 16   ;
 store y 11   | store x 13   | store y 14   | r0 = load y  ;
 store x 1    | r0 = load x  | r0 = load y  | r1 = load z  ;
 unlock_all W | store y 1    | r1 = load x  | r5 = load x  ;
              | unlock_all W | unlock_all W | unlock_all W ;
exists (1:r0=1 /\ 2:r0=1 /\ 2:r1=0)
`

// parallelPairsDiff is the difference between the pairs (with their traces) the
// sequential search of p finds and those of a parallel search of 3 workers from
// its first level.
func parallelPairsDiff(t fataler, p *model.Program) string {
	seq, err := explorer.Explore(p, explorer.Options{})
	if err != nil {
		t.Fatalf("%v", err)
	}
	par, err := explorer.Explore(p, explorer.ParallelFrom(explorer.Options{Workers: 3}, 1))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return cmp.Diff(pairTraces(seq), pairTraces(par))
}
