package explorer_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
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
					if jr := (explorer.Job{Test: lt, Sem: sem, HW: model.Relaxed}).Run(explorer.Options{}); jr.Err != nil {
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
			for _, hw := range model.HWModels {
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

// BenchmarkStress explores testdata/stress-4x5.lit (2.8 million states under relaxed
// with the reduction; 35 million and 8 GiB without it, too much for a benchmark run),
// with and without the conflict and race checks, and testdata/stress-4x4.lit (no
// sync, nothing to reduce) without the reduction. It reports states/s, bytes per
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
		p, err := model.Compile(lt, sem, model.Relaxed)
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
