package explorer_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/spec"
)

// BenchmarkScalingVariants runs every gen --scaling shape (SB, MPC, IRIW, RING) in
// every sync variant (lock_all, nocheck, lock, pscw, fence) under mpi-4.1, hw tso,
// as `run` does (Job.Run: the tso search and the relaxed search its pair flags
// come from), for n = 4..8 processes (RMACHECK_SCALING_PROCS=LO-HI for others).
// Each size reports its states (both searches), CPU seconds, states a CPU second
// and the bytes the store holds a state; the variant's last size also reports the
// growth a process from the size before, and a line says whether the variant
// keeps the reduction: at most 2.2x a process (4x for IRIW, whose outcomes grow
// 3.6x a process), and for nocheck at most 2x lock_all's states. A variant that
// loses the reduction is named in the log ("LOSES THE REDUCTION"), not failed: a
// benchmark measures. A search stops at 20 M states, and a variant's series once
// a size passes 2 M.
func BenchmarkScalingVariants(b *testing.B) {
	lo, hi := scalingProcs(b)
	sem, _ := spec.Preset("mpi-4.1")
	for _, shape := range []string{"SB", "MPC", "IRIW", "RING"} {
		base := map[int]int{} // lock_all's states by n, for nocheck
		for _, s := range gen.ScalingSyncs {
			prev := 0
			for n := max(lo, minProcs(shape)); n <= hi; n++ {
				b.Run(fmt.Sprintf("%s/%s/%d", shape, s.Name, n), func(b *testing.B) {
					if prev > 2_000_000 {
						b.Skipf("%d states with a process less: this variant loses the reduction", prev)
					}
					ft, err := gen.ScalingVariant(shape, s.Name, n)
					if err != nil {
						b.Fatal(err)
					}
					var jr explorer.JobResult
					start := cpuTime()
					for i := 0; i < b.N; i++ {
						runtime.GC()
						jr = (explorer.Job{Test: ft.Test, Sem: sem, HW: spec.TSO}).Run(explorer.Options{MaxStates: 20_000_000})
						if jr.Err != nil {
							b.Skipf("%v", jr.Err)
						}
					}
					cpu := (cpuTime() - start).Seconds() / float64(b.N)
					r := jr.Result
					states := r.States + r.PairStates
					b.ReportMetric(float64(states), "states")
					b.ReportMetric(cpu, "cpu-s")
					b.ReportMetric(float64(states)/cpu, "states/cpu-s")
					b.ReportMetric(float64(r.StoreBytes)/float64(max(r.States, 1)), "bytes/state")
					if s.Name == "lock_all" {
						base[n] = states
					}
					if prev > 0 && n == hi {
						growth := float64(states) / float64(prev)
						b.ReportMetric(growth, "growth")
						bound := 2.2
						if shape == "IRIW" {
							bound = 4
						}
						verdict := "keeps the reduction"
						switch {
						case growth > bound:
							verdict = fmt.Sprintf("LOSES THE REDUCTION: %.2fx a process > %.1fx", growth, bound)
						case s.Name == "nocheck" && base[n] > 0 && states > 2*base[n]:
							verdict = fmt.Sprintf("LOSES THE REDUCTION: %d states, lock_all's %d", states, base[n])
						}
						b.Logf("%s %s n=%d: %d states, %.2fx a process: %s", shape, s.Name, n, states, growth, verdict)
					}
					prev = states
				})
			}
		}
	}
}

// scalingProcs is RMACHECK_SCALING_PROCS (LO-HI), 4-8 by default.
func scalingProcs(b *testing.B) (lo, hi int) {
	lo, hi = 4, 8
	if v := os.Getenv("RMACHECK_SCALING_PROCS"); v != "" {
		a, c, ok := strings.Cut(v, "-")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil || x < 4 || x > y {
			b.Fatalf("RMACHECK_SCALING_PROCS=%q: want LO-HI, 4 <= LO <= HI", v)
		}
		lo, hi = x, y
	}
	return lo, hi
}

func minProcs(shape string) int {
	if shape == "IRIW" {
		return 4
	}
	return gen.MinScalingProcs
}
