package explorer_test

import (
	"fmt"
	"strings"
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

// TestReductionStates: programs whose reduced search must store exactly so many
// states, each a reduction that once did not run (the count before in the comment),
// with the plain search's verdict.
func TestReductionStates(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sem       string
		hw        spec.HW
		states    int
		noPlain   bool // the plain search is too large for a unit test
	}{
		// The perform of a put that nothing else touches is taken alone (42 states
		// while independenceReduction skipped every access of a local instruction,
		// and the issue of an RMA call is local).
		// The fence ring: a perform is independent of the accesses ordered after
		// the fence that closes its epoch, and a fence return that completes
		// nothing is local (821 and 3,642 states at n = 4 and 5 before; n = 16
		// stopped at the memory bound).
		{"fence-ring-4", fenceRing(4), "mpi-4.1", spec.Relaxed, 55, false},
		{"fence-ring-5", fenceRing(5), "mpi-4.1", spec.Relaxed, 71, true},
		{"fence-ring-16", fenceRing(16), "mpi-4.1", spec.Relaxed, 313, true},
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
`, "mpi-4.1", spec.Relaxed, 12, false}, // 30 before the stubborn sets took puts and gets (issue 37)
	} {
		t.Run(c.name, func(t *testing.T) {
			lt, err := litmus.Parse(c.name+".lit", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			sem, _ := spec.Preset(spec.PresetName(c.sem))
			p, err := model.Compile(lt, sem, c.hw)
			if err != nil {
				t.Fatal(err)
			}
			reduced, err := explorer.Explore(p, explorer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if reduced.States != c.states {
				t.Errorf("reduced search: %d states, want %d", reduced.States, c.states)
			}
			if c.noPlain {
				return
			}
			plain, err := explorer.Explore(p, explorer.Options{NoReduce: true})
			if err != nil {
				t.Fatal(err)
			}
			if d := sameVerdict(plain, reduced); d != "" {
				t.Errorf("reduced search differs from plain (-plain +reduced):\n%s", d)
			}
		})
	}
}

// TestReductionFences: the reduced search finds what the plain one finds in
// programs of fence epochs with RMA operations (where performs are independent of
// what follows their epoch's closing fence, and fence returns that complete
// nothing are local), every preset and hw model, with spin loops.
func TestReductionFences(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MinProcs: 2, MaxProcs: 3, MaxInstrs: 4, Syncs: []string{"fence"}, Loops: true})
	})
}

// witnessLengths are the lengths of a result's outcome witnesses and flag traces, by
// outcome and by flag: a search that finds the same with shorter or longer traces
// is not the same search.
func witnessLengths(r *explorer.Result) []string {
	var out []string
	for _, o := range r.Outcomes {
		out = append(out, fmt.Sprintf("%v %v: %d", o.Values, o.Flags, len(o.Witness.Steps)))
	}
	for _, f := range r.Flags {
		out = append(out, fmt.Sprintf("%s %v: %d", f.Rule, f.Sites(), len(f.Witness.Steps)))
	}
	return out
}

// TestQuotientRandom: the live-variable quotient (model.Program.DropDead) changes
// nothing a search finds: the same outcomes, flags with their sites, observation,
// witnesses as short, which replay on the full program; with spin loops, guards,
// accumulates, assertions and separate windows, outcomes that show every value or
// the condition's cell alone, under every preset and hw model.
func TestQuotientRandom(t *testing.T) {
	smaller := 0
	rapid.Check(t, func(t *rapid.T) {
		cfg := propCfg
		cfg.Asserts = rapid.Bool().Draw(t, "asserts")
		cfg.ConditionOnly = rapid.Bool().Draw(t, "condition-only") // most values dead at the end
		cfg.Separate = true
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(propSemantics()).Draw(t, "sem")
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
		if got.States < want.States {
			smaller++
		}
		checkReplays(t, p, got)
	})
	t.Logf("the quotient made %d searches smaller", smaller)
}

// TestPairSearchStopsEarly: the search of a program that forgets values is for its
// pair flags alone, and stops at the state in which it found the last one: here
// the race of the first two accesses, concurrent in the initial state, so the
// search stores the root alone (before the stop at once, the root and its
// successors: the end of the level), while the whole search runs every
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
	if pairs.States != 1 || full.States <= pairs.States {
		t.Errorf("the pair search stored %d states (the whole search %d), want 1: the root", pairs.States, full.States)
	}
}

// fenceRing is the fence ring of n ranks (testdata/fence-ring-16.lit): each puts to
// the next and gets from the previous between fences, then stores and loads its own
// cells.
func fenceRing(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MPI fence-ring-%d\n{\n  win W allocate size=2;\n}\n", n)
	row := func(f func(i int) string) {
		for i := 0; i < n; i++ {
			sep := " | "
			if i == n-1 {
				sep = " ;\n"
			}
			b.WriteString(f(i) + sep)
		}
	}
	fence := func(int) string { return "fence W" }
	row(func(i int) string { return fmt.Sprintf("P%d", i) })
	row(fence)
	row(func(i int) string { return fmt.Sprintf("put W@%d[0] %d", (i+1)%n, i+1) })
	row(func(i int) string { return fmt.Sprintf("r0 = get W@%d[1]", (i+n-1)%n) })
	row(fence)
	row(func(i int) string { return fmt.Sprintf("store W@%d[1] 7", i) })
	row(fence)
	row(func(i int) string { return fmt.Sprintf("r1 = load W@%d[0]", i) })
	var cond []string
	for i := 0; i < n; i++ {
		cond = append(cond, fmt.Sprintf("%d:r1=%d", i, (i+n-1)%n+1))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(cond, " /\\ "))
	return b.String()
}

// TestQuotientCorpus: the quotient changes nothing a search finds on the corpus and
// the acceptance tests, under every preset and hw model: the same verdict, witnesses
// as short, replaying on the full program.
func TestQuotientCorpus(t *testing.T) {
	var with, without int
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, sem := range spec.AllPresets() {
			for _, hw := range spec.HWModels {
				p, err := model.Compile(lt, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				got, err1 := explorer.Explore(p, explorer.Options{})
				want, err2 := explorer.Explore(p, explorer.NoQuotient(explorer.Options{}))
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v / %v", f, err1, err2)
				}
				with, without = with+got.States, without+want.States
				if d := sameVerdict(want, got) + cmp.Diff(witnessLengths(want), witnessLengths(got)); d != "" {
					t.Errorf("%s %s %s: the quotient changes the result (-without +with):\n%s", f, sem.Name, hw, d)
				}
				checkReplays(t, p, got)
			}
		}
	}
	t.Logf("%d states with the quotient, %d without", with, without)
}

// TestReductionPlainFamily: the reduced search (with the quotient) finds what the
// plain one finds on tests of the plain family (diy7's x86 shapes in lock_all, where
// preset A makes remote accesses RMA operations), every preset and hw model; a test
// whose plain search passes a bound is left to the random properties.
func TestReductionPlainFamily(t *testing.T) {
	fam, err := gen.PlainFamily(6, 3)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, ft := range fam {
		for _, sem := range spec.AllPresets() {
			for _, hw := range spec.HWModels {
				p, err := model.Compile(ft.Test, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				plain, err := explorer.Explore(p, explorer.Options{NoReduce: true, MaxStates: 30_000})
				if _, big := err.(*explorer.ErrStateLimit); big {
					continue
				}
				reduced, err2 := explorer.Explore(p, explorer.Options{})
				if err != nil || err2 != nil {
					t.Fatalf("%s: %v / %v", ft.Name, err, err2)
				}
				if d := sameVerdict(plain, reduced); d != "" {
					t.Errorf("%s %s %s: reduced search differs from plain (-plain +reduced):\n%s", ft.Name, sem.Name, hw, d)
				}
				checkReplays(t, p, reduced)
				compared++
			}
		}
	}
	t.Logf("%d searches compared", compared)
}

// TestReductionNoprecedeFence: issuing a put disables a noprecede fence's return at
// its target (without exploit that fence still waits for the operations it closes),
// so an issue is not a step the reduction may take alone there: it lost the
// execution where the target's fence returns between the two puts' performs (a
// TestReductionRandom find, seed 7238916633441518081).
func TestReductionNoprecedeFence(t *testing.T) {
	lt, err := litmus.Parse("t.lit", []byte(`MPI noprecede-between-performs
{ win W allocate size=2 model=separate; }
 P0                                        | P1                                        ;
 fence W nostore noput noprecede nosucceed | fence W nostore noput noprecede nosucceed ;
 fence W                                   | fence W                                   ;
 fence W nostore noput noprecede nosucceed | put W@0[0] 1                              ;
                                           | put W@0[1] 1                              ;
                                           | fence W nostore noput noprecede nosucceed ;
exists (W@0[0]=1 /\ W@0[1]=0)
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, hw := range spec.HWModels {
		sem, _ := spec.Preset("mpi-3.0")
		reduced, plain, err := exploreBoth(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameVerdict(plain, reduced); d != "" {
			t.Errorf("%s: reduced search differs from plain (-plain +reduced):\n%s", hw, d)
		}
	}
}
