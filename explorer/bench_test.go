package explorer_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// BenchmarkAcceptance runs each acceptance test under all four presets (hw relaxed):
// one op is the four searches of one file.
func BenchmarkAcceptance(b *testing.B) {
	files := corpus.Acceptance(b)
	if len(files) == 0 {
		b.Skip("no ../shared/acceptance folder")
	}
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(f), ".lit"), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, sem := range spec.AllPresets() {
					if jr := (explorer.Job{Test: lt, Sem: sem, HW: spec.Relaxed}).Run(explorer.Options{}); jr.Err != nil {
						b.Fatal(jr.Err)
					}
				}
			}
		})
	}
}

// BenchmarkAcceptanceAll is the whole acceptance run: every file, every expect line's
// preset and hw model, sequentially.
func BenchmarkAcceptanceAll(b *testing.B) {
	files := corpus.Acceptance(b)
	if len(files) == 0 {
		b.Skip("no ../shared/acceptance folder")
	}
	var jobs []explorer.Job
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, sem := range spec.AllPresets() {
			for _, hw := range spec.HWModels {
				jobs = append(jobs, explorer.Job{Test: lt, Sem: sem, HW: hw})
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		explorer.RunAll(jobs, 1, explorer.Options{})
	}
	b.ReportMetric(float64(len(jobs)), "searches")
}

// BenchmarkStress explores testdata/stress-4x5.lit (168,922 states under relaxed
// with the reduction and the live-variable quotient; 35 million and 8 GiB without
// them, too much for a benchmark run), with and without the conflict and race
// checks, and testdata/stress-4x4.lit (no sync, nothing to reduce) without the
// reduction. It reports states/s, bytes per
// stored state and the peak resident memory.
func BenchmarkStress(b *testing.B) {
	for _, c := range []struct {
		name, file string
		reduce     bool
		checks     bool
		workers    int
	}{
		{"4x5-reduced", "testdata/stress-4x5.lit", true, true, 1},
		{"4x5-reduced-j2", "testdata/stress-4x5.lit", true, true, 2},
		{"4x5-reduced-nochecks", "testdata/stress-4x5.lit", true, false, 1},
		{"4x4-plain", "testdata/stress-4x4.lit", false, true, 1},
	} {
		lt, err := litmus.ParseFile(c.file)
		if err != nil {
			b.Fatal(err)
		}
		sem, _ := spec.Preset("mpi-3.0")
		p, err := model.Compile(lt, sem, spec.Relaxed)
		if err != nil {
			b.Fatal(err)
		}
		reduce, checks, workers := c.reduce, c.checks, c.workers
		b.Run(c.name, func(b *testing.B) {
			var r *explorer.Result
			for i := 0; i < b.N; i++ {
				runtime.GC()
				r, err = explorer.Explore(p, explorer.Options{NoReduce: !reduce, NoConflicts: !checks, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.States), "states")
			b.ReportMetric(float64(r.States)/r.Time.Seconds(), "states/s")
			b.ReportMetric(float64(r.Transitions)/r.Time.Seconds(), "transitions/s")
			b.ReportMetric(float64(r.StoreBytes)/float64(r.States), "B/state")
			b.ReportMetric(float64(p.StateSize()), "state-width-B")
			if kb := peakRSSKB(); kb > 0 {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
			}
		})
	}
}

// peakRSSKB reads VmHWM from /proc/self/status (Linux), 0 elsewhere.
func peakRSSKB() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb
		}
	}
	return 0
}

// BenchmarkPresetRatio runs a family under hw tso with all four presets, then with
// mpi-4.1 alone (after an untimed run of each, which warms the process), each on one
// worker with the run's sharing (Cache), and reports the
// ratio of their CPU times (the aim: at most 2.5, all presets at little more than
// twice the cost of one), with the states of each run. Families: bench/generated
// (rmacheck gen --mix), and 1,000 tests of gen.PlainFamily (diy7's x86 shapes as
// lock_all and plain accesses, 2 to 4 processes).
func BenchmarkPresetRatio(b *testing.B) {
	generated, _ := filepath.Glob("../bench/generated/*.lit")
	var genTests []*litmus.Test
	for _, f := range generated {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		genTests = append(genTests, lt)
	}
	plain, err := gen.PlainFamily(1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	var plainTests []*litmus.Test
	for _, ft := range plain {
		plainTests = append(plainTests, ft.Test)
	}
	mpi41, _ := spec.Preset("mpi-4.1")
	run := func(b *testing.B, tests []*litmus.Test, sems []spec.Semantics) (time.Duration, int, int) {
		var jobs []explorer.Job
		for _, lt := range tests {
			for _, s := range sems {
				jobs = append(jobs, explorer.Job{Test: lt, Sem: s, HW: spec.TSO})
			}
		}
		start := cpuTime()
		states := 0
		c := &explorer.Cache{}
		for _, jr := range explorer.RunAll(jobs, 1, explorer.Options{Cache: c}) {
			if jr.Err != nil {
				b.Fatal(jr.Err)
			}
			states += jr.Result.States + jr.Result.PairStates
		}
		return cpuTime() - start, states, c.States
	}
	for _, fam := range []struct {
		name  string
		tests []*litmus.Test
	}{{"generated", genTests}, {"plain-family", plainTests}} {
		if len(fam.tests) == 0 {
			continue
		}
		b.Run(fam.name, func(b *testing.B) {
			// Both runs once untimed first: the first searches of a process grow
			// its heap and fill the visited sets' buffer pools (page faults,
			// zeroing), a cost that fell on the four presets' run, always first
			// (0.4 to 0.8 CPU-s on bench/generated, also after an untimed mpi-4.1
			// run), and is part of neither.
			run(b, fam.tests, spec.AllPresets())
			run(b, fam.tests, []spec.Semantics{mpi41})
			var all, one time.Duration
			var allStates, oneStates, allSearched, oneSearched int
			for i := 0; i < b.N; i++ {
				runtime.GC()
				t, n, s := run(b, fam.tests, spec.AllPresets())
				all, allStates, allSearched = all+t, n, s
				runtime.GC()
				t, n, s = run(b, fam.tests, []spec.Semantics{mpi41})
				one, oneStates, oneSearched = one+t, n, s
			}
			b.ReportMetric(float64(all)/float64(one), "ratio")
			b.ReportMetric(all.Seconds()/float64(b.N), "all-presets-cpu-s")
			b.ReportMetric(one.Seconds()/float64(b.N), "mpi-4.1-cpu-s")
			b.ReportMetric(float64(allStates), "all-presets-states")
			b.ReportMetric(float64(oneStates), "mpi-4.1-states")
			// the states of the searches run, each once (the states above count a
			// search shared by several jobs once for each)
			b.ReportMetric(float64(allSearched), "all-presets-searched-states")
			b.ReportMetric(float64(oneSearched), "mpi-4.1-searched-states")
		})
	}
}

// BenchmarkFenceRing explores the fence ring of n ranks (fenceRing: put to the next,
// get from the previous, store and load their own cells between three fences) under
// mpi-4.1, hw relaxed, for n = 4 to 16: the states (the aim: at most 20n; before
// completion-aware independence 821 at n = 4, growing 4.6x a rank, and n = 16
// stopped at the memory bound), states/s and the peak resident memory.
func BenchmarkFenceRing(b *testing.B) {
	sem, _ := spec.Preset("mpi-4.1")
	for _, n := range []int{4, 8, 12, 16} {
		lt, err := litmus.Parse("ring.lit", []byte(fenceRing(n)))
		if err != nil {
			b.Fatal(err)
		}
		p, err := model.Compile(lt, sem, spec.Relaxed)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var r *explorer.Result
			for i := 0; i < b.N; i++ {
				if r, err = explorer.Explore(p, explorer.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.States), "states")
			b.ReportMetric(float64(r.States)/r.Time.Seconds(), "states/s")
			if kb := peakRSSKB(); kb > 0 {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
			}
		})
	}
}

// BenchmarkPlainWRC0815 runs the plain family's costliest test under preset A, hw
// tso (its search and the relaxed pair search its flags come from): 3,971,025 states
// and 1.3 GB before the perform reduction ran and the live-variable quotient.
func BenchmarkPlainWRC0815(b *testing.B) {
	fam, err := gen.PlainFamily(1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	lt := fam[815].Test
	semA, _ := spec.Preset("A")
	var jr explorer.JobResult
	for i := 0; i < b.N; i++ {
		runtime.GC()
		if jr = (explorer.Job{Test: lt, Sem: semA, HW: spec.TSO}).Run(explorer.Options{}); jr.Err != nil {
			b.Fatal(jr.Err)
		}
	}
	r := jr.Result
	b.ReportMetric(float64(r.States), "states")
	b.ReportMetric(float64(r.PairStates), "pair-states")
	b.ReportMetric(float64(r.States)/r.Time.Seconds(), "states/s")
	if kb := peakRSSKB(); kb > 0 {
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
	}
}

// BenchmarkThreads runs the thread-scaling shapes of issue 22 (gen.Scaling: an SB
// ring, a message chain MPC, IRIW with n-2 readers, and IRIW2: IRIW whose condition
// names only two readers) under mpi-4.1, hw tso, for
// n = 4 to 12, with the stubborn sets (model/stubborn.go) and, under "nostubborn",
// without them: the stored states (the aim: growth of at most 2.5x a process), the
// CPU seconds of one search and the peak resident memory. A search stops at 20 M
// states. Pick sizes with -bench, e.g. 'Threads/SB/.*/8$'.
func BenchmarkThreads(b *testing.B) {
	for _, shape := range []string{"SB", "MPC", "IRIW", "IRIW2"} {
		for _, mode := range []string{"stubborn", "nostubborn"} {
			for n := 4; n <= 12; n++ {
				b.Run(shape+"/"+mode+"/"+strconv.Itoa(n), func(b *testing.B) {
					p := threadProgram(b, shape, n, spec.TSO)
					opt := explorer.Options{MaxStates: 20_000_000, NoStubborn: mode == "nostubborn"}
					var r *explorer.Result
					var err error
					start := cpuTime()
					for i := 0; i < b.N; i++ {
						var limit *explorer.ErrStateLimit
						if r, err = explorer.Explore(p, opt); errors.As(err, &limit) {
							b.Skipf("%v (%.1f CPU s)", err, (cpuTime() - start).Seconds())
						} else if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s")
					b.ReportMetric(float64(r.States), "states")
					if kb := peakRSSKB(); kb > 0 {
						b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
					}
				})
			}
		}
	}
}
