package conform_test

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// FuzzPipeline runs an input through every stage a user's file goes through: parse,
// validate, compile and explore with a small bound (conform's model side), the
// reference runtime on real memory (a few runs, when the model finds the test valid),
// and the C generator. No stage may panic or hang; a bound reached, a refusal or an
// error is an answer. Every model disagreement with the runtime is a finding.
func FuzzPipeline(f *testing.F) {
	for _, file := range corpus.All(f) {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	sem, _ := spec.Preset("mpi-4.1")
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		if fuzzing() {
			// Only while fuzzing (go test -fuzz): a hang is a finding, and the fuzzer
			// itself reports no input that never returns. The seeds run as unit tests
			// without it (no wall-clock bound on a loaded CI host).
			go func() {
				select {
				case <-done:
				case <-time.After(2 * time.Minute):
					panic(fmt.Sprintf("the pipeline did not finish in 2 minutes on:\n%s", src))
				}
			}()
		}
		defer close(done)
		tst, err := litmus.Parse("f.lit", src)
		if err != nil {
			return
		}
		opt := conform.Options{Runs: 20, Seed: 1,
			Search: explorer.Options{MaxStates: 20_000, Memory: explorer.NewBudget(256 << 20), Workers: 1}}
		rep, err := conform.Check(conform.Reference{}, tst, sem, opt)
		if err == nil && rep.NonConforming > 0 {
			t.Fatalf("the reference runtime saw outcomes the model forbids:\n%s", src)
		}
		cgen.Generate(tst, cgen.Options{})
	})
}

// fuzzing reports whether go test runs with -fuzz.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}
