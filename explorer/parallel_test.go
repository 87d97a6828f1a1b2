package explorer_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// ignoreWitnessProgram compares witnesses by their steps and marks: each search
// binds its own to the program it ran on.
var ignoreWitnessProgram = cmp.Options{cmpopts.IgnoreFields(model.Witness{}, "Program"), cmpopts.IgnoreFields(model.Arrangement{}, "By")}

// parallelView is what a parallel search must find alike.
func parallelView(r *explorer.Result) any {
	return []any{r.States, r.Transitions, r.Finals, r.Redundant, r.Outcomes, r.Flags, r.Positive, r.Negative, r.Observation}
}

// TestParallelSameAsSequential: a search whose levels are expanded by several
// workers finds what the sequential one finds, to the witnesses: the states are
// numbered alike.
func TestParallelSameAsSequential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := propCfg
		cfg.Asserts = rapid.Bool().Draw(t, "asserts")
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		seq, err := explorer.Explore(p, explorer.Options{MaxStates: 3_000_000})
		if err != nil {
			t.Fatal(err)
		}
		from := rapid.IntRange(1, 64).Draw(t, "parallel-from")
		par, err := explorer.Explore(p, explorer.ParallelFrom(explorer.Options{MaxStates: 3_000_000, Workers: 3}, from))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(parallelView(seq), parallelView(par), ignoreWitnessProgram); d != "" {
			t.Fatalf("parallel search differs (-sequential +parallel):\n%s\n%s", d, litmus.Format(lt))
		}
		checkReplays(t, p, par)
	})
}

// TestMemoryBudget: a search that would pass its budget stops with ErrMemoryLimit,
// naming the test; the budget is whole again after every search, failed or not.
func TestMemoryBudget(t *testing.T) {
	lt, err := litmus.ParseFile("testdata/stress-4x4.lit")
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Compile(lt, mustPreset(t, "mpi-4.1"), spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	small := explorer.NewBudget(64 << 10)
	_, err = explorer.Explore(p, explorer.Options{Memory: small})
	var me *explorer.ErrMemoryLimit
	if !errors.As(err, &me) || me.Test != lt.Name || me.Limit != 64<<10 {
		t.Fatalf("got %v, want ErrMemoryLimit for %s at 64K", err, lt.Name)
	}
	if small.Used() != 0 {
		t.Errorf("a failed search left %d bytes taken", small.Used())
	}
	big := explorer.NewBudget(1 << 30)
	r, err := explorer.Explore(p, explorer.Options{Memory: big, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.StoreBytes <= 64<<10 || big.Used() != 0 {
		t.Errorf("store %d bytes, %d left taken: want > 64K and 0", r.StoreBytes, big.Used())
	}
}

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"65536", 65536, false}, {"8G", 8 << 30, false}, {"512M", 512 << 20, false}, {"512MiB", 512 << 20, false},
		{"1.5G", 3 << 29, false}, {"4k", 4 << 10, false}, {"2TB", 2 << 40, false},
		{"", 0, true}, {"G", 0, true}, {"-1G", 0, true}, {"lots", 0, true}, {"1e30G", 0, true},
	} {
		got, err := explorer.ParseBytes(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
	if got := explorer.FormatBytes(12 << 30); got != "12G" {
		t.Errorf("FormatBytes(12G) = %q", got)
	}
}

func mustPreset(t *testing.T, name spec.PresetName) spec.Semantics {
	sem, ok := spec.Preset(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	return sem
}

// TestParallelCorpus: the same on every test of the corpus and of the acceptance
// folder (relaxed, two presets), every level expanded in parallel.
func TestParallelCorpus(t *testing.T) {
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, name := range []spec.PresetName{spec.MPI41, spec.OptionB} {
			p, err := model.Compile(lt, mustPreset(t, name), spec.Relaxed)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			seq, err1 := explorer.Explore(p, explorer.Options{})
			par, err2 := explorer.Explore(p, explorer.ParallelFrom(explorer.Options{Workers: 2}, 1))
			if err1 != nil || err2 != nil {
				t.Errorf("%s: %v, %v", f, err1, err2)
				continue
			}
			if d := cmp.Diff(parallelView(seq), parallelView(par), ignoreWitnessProgram); d != "" {
				t.Errorf("%s %s: parallel search differs (-sequential +parallel):\n%s", f, name, d)
			}
		}
	}
}
