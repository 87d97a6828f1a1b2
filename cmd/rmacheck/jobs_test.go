package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunDirectoryGolden: run over a directory (a bad file, a broken expectation,
// tests with spin loops and their progress notes) on one worker, against its golden
// output; TestRunSameOutputAnyJobs holds every -j to the same bytes.
func TestRunDirectoryGolden(t *testing.T) {
	checkGolden(t, "run_dir_j1", []string{"run", "-j", "1", "testdata"}, 2, maskTimes)
}

// TestRunSameOutputAnyJobs: run prints the same bytes, standard output and errors,
// whatever the number of workers: the results are printed in the order of the
// files and of each test's searches, however the workers took them (two workers on
// one test, stealing at the end of the run, parallel loading of the files), and the
// bad files' errors in the order of the files. Times are masked (a measurement).
func TestRunSameOutputAnyJobs(t *testing.T) {
	dirs := []string{"testdata", "../../litmus/poll", "../../litmus/dynamic", "../../litmus/errors"}
	for _, mode := range [][]string{
		nil,        // the table
		{"--json"}, // one JSON line a search
		{"--sem", "mpi-4.1", "--show", "witness"},         // blocks with traces
		{"--hw", "tso", "--sem", "A", "--sem", "mpi-3.0"}, // tso searches share the relaxed pair searches
	} {
		args := append(append([]string{"run"}, mode...), dirs...)
		t.Run(strings.Join(mode, " "), func(t *testing.T) {
			code1, out1, err1 := runCLI(append([]string{"run", "-j", "1"}, args[1:]...)...)
			if !strings.Contains(out1+err1, "testdata/bad.lit:") || len(out1) < 1000 {
				t.Fatalf("-j 1 printed too little to compare (exit %d):\n%s%s", code1, out1, err1)
			}
			for _, j := range []int{2, 3, 8} {
				code, out, errs := runCLI(append([]string{"run", "-j", fmt.Sprint(j)}, args[1:]...)...)
				if code != code1 {
					t.Errorf("-j %d: exit %d, -j 1 exit %d", j, code, code1)
				}
				if d := cmp.Diff(maskTimes(out1), maskTimes(out)); d != "" {
					t.Errorf("-j %d: standard output differs from -j 1 (-j 1 +j %d):\n%s", j, j, d)
				}
				if d := cmp.Diff(maskTimes(err1), maskTimes(errs)); d != "" {
					t.Errorf("-j %d: standard error differs from -j 1 (-j 1 +j %d):\n%s", j, j, d)
				}
			}
		})
	}
}

// TestDefaultJobsAreGOMAXPROCS: -j 0 runs as many workers as the process may use CPUs
// (GOMAXPROCS, which counts a cgroup's CPU quota), not as many as the machine has.
func TestDefaultJobsAreGOMAXPROCS(t *testing.T) {
	old := runtime.GOMAXPROCS(runtime.NumCPU() + 1)
	defer runtime.GOMAXPROCS(old)
	f := searchFlags{maxStates: defaultMaxStates}
	opt, err := f.options(0)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Workers != runtime.NumCPU()+1 {
		t.Errorf("-j 0: %d workers, want GOMAXPROCS %d", opt.Workers, runtime.NumCPU()+1)
	}
}

// -j is capped by the CPUs and by the memory bound, whatever it asks (issue 38 row 5:
// -j 1000000 --max-memory 256M used 1.3 GB).
func TestJobsAreCapped(t *testing.T) {
	cpus := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		jobs   int
		memory string
		most   int
	}{
		{1_000_000, "0", cpus},
		{1_000_000, "256M", min(cpus, 8)},
		{1_000_000, "1M", 1},
		{1, "256M", 1},
	} {
		f := searchFlags{maxStates: defaultMaxStates, maxMemory: c.memory}
		opt, err := f.options(c.jobs)
		if err != nil {
			t.Fatal(err)
		}
		if opt.Workers < 1 || opt.Workers > c.most {
			t.Errorf("-j %d --max-memory %s: %d workers, want 1 to %d", c.jobs, c.memory, opt.Workers, c.most)
		}
	}
}
