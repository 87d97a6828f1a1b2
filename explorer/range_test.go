package explorer_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestReductionRanges: the reduced search (local steps, per-element independence of
// the performs of multi-element calls, the live-variable quotient) finds what the
// plain one finds in programs whose put, get and acc calls move two elements with
// one call, every preset and hw model.
func TestReductionRanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MinProcs: 2, MaxProcs: 3, MaxInstrs: 4, Ranges: true,
			Syncs:         []string{rapid.SampledFrom([]string{"fence", "lock_all", "pscw", "none"}).Draw(t, "sync")},
			ConditionOnly: rapid.Bool().Draw(t, "condition-only")})
	})
}

// rangeTest is a put of n elements beside a get of the same n elements (two
// origins, lock_all, one target): the torn-read test of width n.
func rangeTest(n int) *litmus.Test {
	vals, regs := make([]string, n), make([]string, n)
	for i := range vals {
		vals[i], regs[i] = "1", fmt.Sprintf("r%d", i)
	}
	src := fmt.Sprintf(`MPI put%[1]d-get%[1]d
{
  win W allocate size=8;
}
 P0 | P1 | P2 ;
 lock_all W | lock_all W | ;
 put W@2[0..%[2]d] (%[3]s) | (%[4]s) = get W@2[0..%[2]d] | ;
 unlock_all W | unlock_all W | ;
exists (1:r0=0 /\ 1:r%[2]d=1)
`, n, n-1, strings.Join(vals, ","), strings.Join(regs, ","))
	lt, err := litmus.Parse("range.lit", []byte(src))
	if err != nil {
		panic(err)
	}
	return lt
}

// BenchmarkRanges explores the put/get test of 1, 4 and 8 elements under mpi-4.1
// (hw relaxed), reduced and plain: its states grow with the interleavings of the
// elements' performs (the slot keeps one byte of performed elements, not a slot
// per element).
func BenchmarkRanges(b *testing.B) {
	sem, _ := spec.Preset("mpi-4.1")
	for _, n := range []int{1, 4, 8} {
		lt := rangeTest(n)
		for _, reduce := range []bool{true, false} {
			name := fmt.Sprintf("elems=%d/reduce=%v", n, reduce)
			b.Run(name, func(b *testing.B) {
				p, err := model.Compile(lt, sem, spec.Relaxed)
				if err != nil {
					b.Fatal(err)
				}
				var states int
				for i := 0; i < b.N; i++ {
					r, err := explorer.Explore(p, explorer.Options{NoReduce: !reduce, MaxStates: 10_000_000})
					if err != nil {
						b.Fatal(err)
					}
					states = r.States
				}
				b.ReportMetric(float64(states), "states")
				b.ReportMetric(float64(p.StateSize()), "bytes/state")
			})
		}
	}
}

// TestReductionComputedRanges: the same with ranges at computed targets (a rank
// register, a range relative to a displacement register, sometimes past the
// segment: E-TARGET) and at MPI_PROC_NULL, every preset and hw model
// (model/range_target.go: conflicts per element and cell it may name, no perform
// taken alone).
func TestReductionComputedRanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkReduced(t, gen.Config{MinProcs: 2, MaxProcs: 3, MaxInstrs: 4, Ranges: true, Computed: true,
			Syncs:         []string{rapid.SampledFrom([]string{"fence", "lock_all", "pscw"}).Draw(t, "sync")},
			ConditionOnly: rapid.Bool().Draw(t, "condition-only")})
	})
}
