package conform_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// describe lists the outcomes of a run the model forbids.
func describe(rep *conform.Report) string {
	var s string
	for _, b := range rep.Bins {
		if !b.Allowed {
			s += rep.Model.Program.OutcomeString(b.Values) + " "
		}
	}
	return s
}

// propertyRuns is the iterations per program of the random-program property: modest
// in make test, larger under make conform (RMACHECK_CONFORM_RUNS).
func propertyRuns() int {
	if n, err := strconv.Atoi(os.Getenv("RMACHECK_CONFORM_RUNS")); err == nil && n > 0 {
		return n
	}
	return 300
}

// TestRandomProgramsConform: for random programs, every outcome the reference
// runtime shows is one the model allows for the same preset and this machine's hw.
func TestRandomProgramsConform(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lt := gen.Program(gen.Config{MinProcs: 2, MaxProcs: 2, MaxInstrs: 4}).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		rep, err := conform.Reference(lt, sem, conform.Options{Runs: propertyRuns(), Seed: 7, MaxStates: 1_000_000})
		if err != nil {
			t.Fatal(err)
		}
		if rep.NonConforming > 0 {
			t.Fatalf("%s: the runtime shows outcomes the model forbids: %s\n%s", sem.Name, describe(rep), litmus.Format(lt))
		}
	})
}

// TestCorpusConforms runs the corpus and the acceptance tests on the reference
// runtime under every preset; none may show an outcome the model forbids.
func TestCorpusConforms(t *testing.T) {
	files := corpus.All(t)
	runs, skipped := 0, 0
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range spec.AllPresets() {
			rep, err := conform.Reference(lt, sem, conform.Options{Runs: 200, Seed: 11, MaxStates: 5_000_000})
			if err != nil {
				t.Errorf("%s %s: %v", f, sem.Name, err)
				continue
			}
			if rep.Skipped != "" {
				skipped++
				continue
			}
			runs++
			if rep.NonConforming > 0 {
				t.Errorf("%s %s: NON-CONFORMING %s", filepath.Base(f), sem.Name, describe(rep))
			}
		}
	}
	t.Logf("%d (file, preset) runs conform, %d skipped as erroneous; compared with hw %s", runs, skipped, conform.MachineHW())
}
