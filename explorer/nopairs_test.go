package explorer_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// A tso or sc job's own search runs on a program compiled without pairs
// (model.WithoutPairChecks: its pair flags come from the relaxed search), so its
// reductions keep no pair visible. These properties check that it still finds
// what the unreduced search of the whole program finds: the outcomes with their
// flags, the rules steps raise (sites too), and, from the relaxed search, the
// pairs; every witness replays.

// jobBoth runs a tso or sc job reduced, and the same job's search unreduced on
// the program with its pairs (model.Compile) plus the relaxed unreduced search's
// pair flags: what the job gave before its program left out the pairs, in the
// plainest form. The second is nil when the plain search passes its bound.
func jobBoth(t fataler, lt *litmus.Test, sem spec.Semantics, hw spec.HW) (reduced, plain *explorer.Result) {
	jr := explorer.Job{Test: lt, Sem: sem, HW: hw}.Run(explorer.Options{MaxStates: 2_000_000})
	if jr.Err != nil {
		t.Fatalf("%v\n%s", jr.Err, litmus.Format(lt))
	}
	bound := explorer.Options{MaxStates: 2_000_000, NoReduce: true}
	var limit *explorer.ErrStateLimit
	p, err := model.Compile(lt, sem, hw)
	if err != nil {
		t.Fatalf("%v", err)
	}
	own, err := explorer.Explore(p, bound)
	if errors.As(err, &limit) {
		return jr.Result, nil
	}
	if err != nil {
		t.Fatalf("%v", err)
	}
	rp, err := model.Compile(lt, sem, spec.Relaxed)
	if err != nil {
		t.Fatalf("%v", err)
	}
	rel, err := explorer.Explore(rp, bound)
	if errors.As(err, &limit) {
		return jr.Result, nil
	}
	if err != nil {
		t.Fatalf("%v", err)
	}
	want := *own
	want.Flags = nil
	for _, f := range own.Flags {
		if !f.Pair {
			want.Flags = append(want.Flags, f)
		}
	}
	for _, f := range rel.Flags {
		if f.Pair {
			want.Flags = append(want.Flags, f)
		}
	}
	return jr.Result, &want
}

// sameJobVerdict compares what sameVerdict compares, the flags as a set (a job
// sorts its own and the relaxed search's together).
func sameJobVerdict(plain, job *explorer.Result) string {
	view := func(r *explorer.Result) any {
		var outs []string
		for _, o := range r.Outcomes {
			outs = append(outs, fmt.Sprint(o.Values, o.Flags))
		}
		var flags []string
		for _, f := range r.Flags {
			flags = append(flags, fmt.Sprintf("%s %v pair=%v", f.Rule, f.Sites(), f.Pair))
		}
		slices.Sort(flags)
		return []any{outs, flags, r.Observation}
	}
	return cmp.Diff(view(plain), view(job))
}

// TestJobWithoutPairChecksRandom: on random programs (the draws of
// TestReductionRandom, and the plain family's kind under ls_is_rma), under every
// preset, tso and sc.
func TestJobWithoutPairChecksRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sems := propSemantics()
		var lt *litmus.Test
		if rapid.Bool().Draw(t, "plain-accesses") {
			lt = plainAccesses(t)
		} else {
			cfg := propCfg
			cfg.Asserts = rapid.Bool().Draw(t, "asserts")
			cfg.ConditionOnly = rapid.Bool().Draw(t, "condition-only")
			cfg.Separate = true
			cfg.Computed = rapid.Bool().Draw(t, "computed")
			lt = gen.Program(cfg).Draw(t, "program")
		}
		sem := rapid.SampledFrom(sems).Draw(t, "sem")
		hw := rapid.SampledFrom([]spec.HW{spec.TSO, spec.SC}).Draw(t, "hw")
		reduced, plain := jobBoth(t, lt, sem, hw)
		if plain == nil {
			t.Skip("the plain search passes its bound")
		}
		if d := sameJobVerdict(plain, reduced); d != "" {
			t.Fatalf("%s %s: the job differs from the plain searches (-plain +job):\n%s\n%s", sem.Name, hw, d, litmus.Format(lt))
		}
		checkJobReplays(t, lt, sem, hw, reduced)
	})
}

// TestJobWithoutPairChecksCorpus: the same on the corpus and the acceptance tests.
func TestJobWithoutPairChecksCorpus(t *testing.T) {
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, sem := range spec.AllPresets() {
			for _, hw := range []spec.HW{spec.TSO, spec.SC} {
				reduced, plain := jobBoth(t, lt, sem, hw)
				if plain == nil {
					continue
				}
				if d := sameJobVerdict(plain, reduced); d != "" {
					t.Errorf("%s %s %s: the job differs from the plain searches (-plain +job):\n%s", f, sem.Name, hw, d)
				}
			}
		}
	}
}

// checkJobReplays: a job's outcome witnesses and raised rules replay on the
// program with its pairs, its pair flags on the relaxed one.
func checkJobReplays(t fataler, lt *litmus.Test, sem spec.Semantics, hw spec.HW, r *explorer.Result) {
	p, err := model.Compile(lt, sem, hw)
	if err != nil {
		t.Fatalf("%v", err)
	}
	rp, err := model.Compile(lt, sem, spec.Relaxed)
	if err != nil {
		t.Fatalf("%v", err)
	}
	own, pairs := *r, *r
	own.Flags, pairs.Flags, pairs.Outcomes = nil, nil, nil
	for _, f := range r.Flags {
		if f.Pair {
			pairs.Flags = append(pairs.Flags, f)
		} else {
			own.Flags = append(own.Flags, f)
		}
	}
	checkReplays(t, p, &own)
	checkReplays(t, rp, &pairs)
}

// TestJobWithoutPairChecksStates: preset A's tso jobs on the plain family's
// costliest test and on the SB ring of 8 processes. Their own searches kept the
// pairs visible that only the relaxed pair search checks: 275,776 and 172,970
// states; without them 58,631 and 7,272.
func TestJobWithoutPairChecksStates(t *testing.T) {
	sb8, err := gen.Scaling("SB", 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		source []byte
		most   int
		before string
		pairs  int // the relaxed search's pair flags (-1: not checked)
	}{
		{"WRC+plain0815", []byte(wrcPlain0815), 100_000, "275,776", 39},
		{sb8.Name, sb8.Source, 20_000, "172,970", -1},
	} {
		lt, err := litmus.Parse(c.name+".lit", c.source)
		if err != nil {
			t.Fatal(err)
		}
		semA, _ := spec.Preset("A")
		jr := explorer.Job{Test: lt, Sem: semA, HW: spec.TSO}.Run(explorer.Options{})
		if jr.Err != nil {
			t.Fatal(jr.Err)
		}
		if got := jr.Result.States; got > c.most {
			t.Errorf("%s: the tso search stored %d states, want at most %d (%s with the pairs visible)", c.name, got, c.most, c.before)
		}
		if n := len(pairView(jr.Result)); c.pairs >= 0 && n != c.pairs {
			t.Errorf("%s: %d pair flags, want the relaxed search's %d", c.name, n, c.pairs)
		}
	}
}

// TestJobWithoutPairChecksThreads: the same on the thread-scaling shapes small
// enough for the plain searches, every preset (preset A's remote accesses are RMA
// operations there, whose pairs the stubborn sets kept visible).
func TestJobWithoutPairChecksThreads(t *testing.T) {
	for _, shape := range []string{"SB", "MPC", "IRIW"} {
		n := 4
		if shape == "IRIW" {
			n = 5
		}
		ft, err := gen.Scaling(shape, n)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(ft.Name+".lit", ft.Source)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range spec.AllPresets() {
			for _, hw := range []spec.HW{spec.TSO, spec.SC} {
				reduced, plain := jobBoth(t, lt, sem, hw)
				if plain == nil {
					t.Fatalf("%s %s %s: the plain search passes its bound", ft.Name, sem.Name, hw)
				}
				if d := sameJobVerdict(plain, reduced); d != "" {
					t.Errorf("%s %s %s: the job differs from the plain searches (-plain +job):\n%s", ft.Name, sem.Name, hw, d)
				}
				checkJobReplays(t, lt, sem, hw, reduced)
			}
		}
	}
}
