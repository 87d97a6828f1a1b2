package explorer_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// pairView is what a search says of its concurrency checks: each pair flag with
// its sites.
func pairView(r *explorer.Result) []string {
	var out []string
	for _, f := range r.Flags {
		if f.Pair {
			out = append(out, fmt.Sprintf("%s %v", f.Rule, f.Sites()))
		}
	}
	return out
}

// TestWithoutValuesSamePairs: a value-free program's search that forgets values
// finds the full search's pair flags, with traces as short that replay on the
// full program to a state where the pair is concurrent.
func TestWithoutValuesSamePairs(t *testing.T) {
	forgetting := 0
	rapid.Check(t, func(t *rapid.T) {
		cfg := propCfg
		cfg.Loops = false
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		p, err := model.Compile(lt, sem, spec.Relaxed)
		if err != nil {
			t.Fatal(err)
		}
		abs := p.WithoutValues()
		if abs == nil {
			if p.ValueFree() {
				t.Fatal("a value-free program has no WithoutValues")
			}
			return
		}
		forgetting++
		full, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := explorer.Explore(abs, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(pairView(full), pairView(got)); d != "" {
			t.Fatalf("pairs differ (-full +forgetting):\n%s\n%s", d, litmus.Format(lt))
		}
		if got.States > full.States {
			t.Fatalf("forgetting values gave more states: %d > %d", got.States, full.States)
		}
		// The search that forgets values is for the pairs alone: it stops once it
		// has found them all, with traces as short as the full search's.
		var pairsOnly, fullPairs explorer.Result
		for _, r := range []struct{ from, to *explorer.Result }{{got, &pairsOnly}, {full, &fullPairs}} {
			for _, f := range r.from.Flags {
				if f.Pair {
					r.to.Flags = append(r.to.Flags, f)
				}
			}
		}
		for i, f := range pairsOnly.Flags {
			if len(f.Trace) != len(fullPairs.Flags[i].Trace) {
				t.Fatalf("%s: trace of %d steps, the full search's has %d", f.Rule, len(f.Trace), len(fullPairs.Flags[i].Trace))
			}
		}
		checkReplays(t, p, &pairsOnly)
	})
	t.Logf("%d programs forget values", forgetting)
}

// TestCacheSameResults: a run whose jobs share searches and compiles (Cache) gives
// each job the verdict, outcomes and flags of the job run alone.
func TestCacheSameResults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lt := gen.Program(propCfg).Draw(t, "program")
		var jobs []explorer.Job
		for _, sem := range spec.AllPresets() {
			for _, hw := range spec.HWModels {
				jobs = append(jobs, explorer.Job{Test: lt, Sem: sem, HW: hw})
			}
		}
		if rapid.Bool().Draw(t, "without-relaxed") { // tso and sc forget values
			jobs = jobs[:0]
			for _, sem := range spec.AllPresets() {
				jobs = append(jobs, explorer.Job{Test: lt, Sem: sem, HW: spec.TSO}, explorer.Job{Test: lt, Sem: sem, HW: spec.SC})
			}
		}
		shared := explorer.RunAll(jobs, 2, explorer.Options{})
		for i, j := range jobs {
			alone := j.Run(explorer.Options{})
			if shared[i].Err != nil || alone.Err != nil {
				t.Fatalf("%v / %v", shared[i].Err, alone.Err)
			}
			a, b := alone.Result, shared[i].Result
			if d := sameVerdict(a, b); d != "" {
				t.Fatalf("%s %s: shared run differs (-alone +shared):\n%s\n%s", j.Sem.Name, j.HW, d, litmus.Format(lt))
			}
			if b.Program.Sem != j.Sem || b.Program.HW != j.HW {
				t.Fatalf("%s %s: result of a program for %s %s", j.Sem.Name, j.HW, b.Program.Sem.Name, b.Program.HW)
			}
		}
	})
}
