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

// TestReductionStates: programs whose reduced search must store exactly so many
// states, each a reduction that once did not run (the count before in the comment),
// with the plain search's verdict.
func TestReductionStates(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sem       string
		hw        spec.HW
		states    int
	}{
		// The perform of a put that nothing else touches is taken alone (42 states
		// while independenceReduction skipped every access of a local instruction,
		// and the issue of an RMA call is local).
		{"perform-alone", `MPI perform-alone
{
  win W allocate size=3;
  x = W@1[0]; y = W@1[1]; z = W@1[2];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 put x 1      | store y 1    ;
 put z 2      | r0 = load y  ;
 unlock_all W | store y 2    ;
              | unlock_all W ;
exists (x=1)
`, "mpi-4.1", spec.Relaxed, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			lt, err := litmus.Parse(c.name+".lit", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			sem, _ := spec.Preset(c.sem)
			p, err := model.Compile(lt, sem, c.hw)
			if err != nil {
				t.Fatal(err)
			}
			reduced, err := explorer.Explore(p, explorer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := explorer.Explore(p, explorer.Options{NoReduce: true})
			if err != nil {
				t.Fatal(err)
			}
			if reduced.States != c.states {
				t.Errorf("reduced search: %d states, want %d (plain: %d)", reduced.States, c.states, plain.States)
			}
			if d := sameVerdict(plain, reduced); d != "" {
				t.Errorf("reduced search differs from plain (-plain +reduced):\n%s", d)
			}
		})
	}
}

// witnessLengths are the lengths of a result's outcome witnesses and flag traces, by
// outcome and by flag: a search that finds the same with shorter or longer traces
// is not the same search.
func witnessLengths(r *explorer.Result) []string {
	var out []string
	for _, o := range r.Outcomes {
		out = append(out, fmt.Sprintf("%v %v: %d", o.Values, o.Flags, len(o.Witness)))
	}
	for _, f := range r.Flags {
		out = append(out, fmt.Sprintf("%s %v: %d", f.Rule, f.Sites(), len(f.Trace)))
	}
	return out
}

// TestQuotientRandom: the live-variable quotient (model.Program.DropDead) changes
// nothing a search finds: the same outcomes, flags with their sites, observation,
// witnesses as short, which replay on the full program; with spin loops, guards,
// accumulates and assertions, under every preset and hw model.
func TestQuotientRandom(t *testing.T) {
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
		opt := explorer.Options{MaxStates: 3_000_000}
		got, err := explorer.Explore(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := explorer.Explore(p, explorer.NoQuotient(opt))
		if err != nil {
			t.Fatal(err)
		}
		if d := sameVerdict(want, got); d != "" {
			t.Fatalf("the quotient changes the verdict (-without +with):\n%s\n%s", d, litmus.Format(lt))
		}
		if d := cmp.Diff(witnessLengths(want), witnessLengths(got)); d != "" {
			t.Fatalf("the quotient changes the witnesses' lengths (-without +with):\n%s\n%s", d, litmus.Format(lt))
		}
		if got.States > want.States {
			t.Fatalf("the quotient stores more states: %d > %d\n%s", got.States, want.States, litmus.Format(lt))
		}
		checkReplays(t, p, got)
	})
}

// TestPairSearchStopsEarly: the search of a program that forgets values is for its
// pair flags alone, and stops at the end of the level in which it found the last
// one: here the race of the first two accesses, concurrent in the initial state, so
// the search stores the root and its successors, while the whole search runs every
// interleaving of the stores after them.
func TestPairSearchStopsEarly(t *testing.T) {
	lt, err := litmus.Parse("race.lit", []byte(`MPI race
{
  win W allocate_shared size=3;
  x = W@0[0]; y = W@0[1]; z = W@1[1];
}
 P0           | P1           ;
 store x 1    | r0 = load x  ;
 store y 1    | store z 1    ;
 store y 2    | store z 2    ;
exists (1:r0=1)
`))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-4.1")
	p, err := model.Compile(lt, sem, spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	full, err := explorer.Explore(p, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := explorer.Explore(p.WithoutValues(), explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(pairView(full), pairView(pairs)); d != "" {
		t.Fatalf("pairs differ (-full +pairs only):\n%s", d)
	}
	root := 0
	p.Successors(p.Initial(), make(model.State, p.StateSize()), true, nil, func(model.Step, model.State) { root++ })
	if pairs.States != 1+root || full.States <= pairs.States {
		t.Errorf("the pair search stored %d states (the whole search %d), want %d: the root and its successors", pairs.States, full.States, 1+root)
	}
}
