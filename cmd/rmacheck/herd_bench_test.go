package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/output"
)

// The benchmarks beside herd7 (issue 22: thread scaling, and four presets against
// herd7's one model on the same x86 shapes). They need a herd7 binary, which this
// repository does not build: $HERD7, else herd7 on PATH; without one they skip and
// say so. herd7 runs -model x86tso.cat (its default for X86) on the x86 twins of
// gen --herd; rmacheck runs this test binary as rmacheck (RMACHECK_AS_MAIN) with
// `run --hw tso -j 1 --json`, once with --sem mpi-4.1 and once with every preset. Each
// run is a child process, so its CPU time (user+sys) and peak RSS are its own
// (wait4's rusage; Linux keeps in a child's ru_maxrss the resident size of the
// address space it had before exec, the forking benchmark's, so an RSS figure at
// or below this process's own, 15-40 MiB, is that floor and not the child's). Bounds, as in the issue: a series of a shape stops for a tool
// once one of its runs passes 60 CPU-s or 8 GiB (RMACHECK_HERD_MEM; rmacheck
// --max-memory, herd7 ulimit -v; no --max-states), or RMACHECK_HERD_TIMEOUT
// (default 120s; 30m for the plain family's one run over every test) of wall time.
//
//	go test ./cmd/rmacheck -run '^$' -bench HerdScaling -benchtime 1x   # n = 4..8
//	RMACHECK_HERD_PROCS=4-16 go test ./cmd/rmacheck -run '^$' -bench HerdScaling -benchtime 1x -timeout 3h
//	RMACHECK_HERD_PLAIN=1000 go test ./cmd/rmacheck -run '^$' -bench HerdPlainRatio -benchtime 1x

const herdCPUBound = 60 * time.Second

// herdMemBound is the memory bound of a run in MiB: RMACHECK_HERD_MEM (in MiB,
// e.g. 4096 on a machine whose other users leave less than 8 GB free), default 8 GiB.
func herdMemBound(b *testing.B) int64 {
	if s := os.Getenv("RMACHECK_HERD_MEM"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 64 {
			b.Fatalf("RMACHECK_HERD_MEM=%q: want MiB, at least 64", s)
		}
		return v
	}
	return 8 << 10
}

// herd7Bin is the herd7 to run ($HERD7, else herd7 on PATH), or skips the test or
// benchmark.
func herd7Bin(b testing.TB) string {
	if p := os.Getenv("HERD7"); p != "" {
		return p
	}
	p, err := exec.LookPath("herd7")
	if err != nil {
		b.Skip("no herd7: set HERD7 or put herd7 on PATH (this repository does not build it; reports/performance/threads.md says how it was built)")
	}
	return p
}

// childCost is what one child process cost.
type childCost struct {
	cpu     time.Duration
	rssKB   int64
	wall    time.Duration
	out     []byte
	timeout bool
}

func (c childCost) overBound(memMiB int64) bool {
	return c.timeout || c.cpu > herdCPUBound || c.rssKB > memMiB<<10
}

// childTimeout is the wall-time bound of one child: RMACHECK_HERD_TIMEOUT, else 120 s
// for a scaling run and 30 minutes for a run over the plain family.
var childTimeout = 120 * time.Second

func runChild(b *testing.B, env []string, name string, args ...string) childCost {
	timeout := childTimeout
	if s := os.Getenv("RMACHECK_HERD_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatalf("RMACHECK_HERD_TIMEOUT=%q: %v", s, err)
		}
		timeout = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	c := childCost{wall: time.Since(start), out: out.Bytes(), timeout: ctx.Err() != nil}
	if cmd.ProcessState != nil {
		c.cpu, c.rssKB = childUsage(cmd.ProcessState)
	}
	var ee *exec.ExitError
	if err != nil && !c.timeout && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
	}
	return c
}

// herdRun runs herd7 -model x86tso.cat on files, under ulimit -v of the memory
// bound; it gives each test's observation and the number of final outcomes of all
// (herd7's "States" lines).
func herdRun(b *testing.B, herd string, files ...string) (childCost, map[string]string, int) {
	ulimit := strconv.FormatInt(herdMemBound(b)<<10, 10) // KiB
	args := append([]string{"-c", `ulimit -v ` + ulimit + ` && exec "$0" "$@"`, herd, "-model", "x86tso.cat"}, files...)
	c := runChild(b, nil, "sh", args...)
	obs := map[string]string{} // test -> Never, Sometimes or Always
	outcomes := 0
	sc := bufio.NewScanner(bytes.NewReader(c.out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "Observation":
			obs[f[1]] = f[2]
		case len(f) == 2 && f[0] == "States":
			n, _ := strconv.Atoi(f[1])
			outcomes += n
		}
	}
	if !c.timeout && len(obs) != len(files) {
		b.Fatalf("herd7 gave %d observations for %d files:\n%s", len(obs), len(files), c.out)
	}
	return c, obs, outcomes
}

// rmacheckRun runs `rmacheck run --hw tso -j 1 --json` (this binary as rmacheck) on
// files with the --sem flags given; it gives the states of the tso searches and of
// the relaxed pair searches, whether a search stopped, and mpi-4.1's observations.
func rmacheckRun(b *testing.B, sems []string, files ...string) (c childCost, states, pairStates int, stopped bool, obs map[string]string) {
	args := []string{"run", "--hw", "tso", "-j", "1", "--json", "--max-memory", strconv.FormatInt(herdMemBound(b), 10) + "M", "--max-states", "0"}
	for _, s := range sems {
		args = append(args, "--sem", s)
	}
	c = runChild(b, []string{"RMACHECK_AS_MAIN=1"}, os.Args[0], append(args, files...)...)
	obs = map[string]string{}
	for _, line := range bytes.Split(bytes.TrimSpace(c.out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r struct {
			Test, Preset, Observation, Error string
			States                           int
			PairStates                       int `json:"pair_states"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			b.Fatalf("rmacheck --json line %q: %v", line, err)
		}
		states += r.States
		pairStates += r.PairStates
		stopped = stopped || r.Error != ""
		if r.Preset == "mpi-4.1" {
			obs[r.Test] = r.Observation
		}
	}
	return c, states, pairStates, stopped || c.timeout, obs
}

// writeTwins writes each test and its x86 twin into dir, and returns the paths of
// the .lit files and of the .litmus files, and each twin's register renaming by
// test name (output.HerdTwin.Regs).
func writeTwins(b testing.TB, dir string, fam []gen.FamilyTest) (lits, twins []string, regs map[string][]map[string]string) {
	regs = map[string][]map[string]string{}
	for _, ft := range fam {
		tw, err := output.HerdX86(ft.Test)
		if err != nil {
			b.Fatal(err)
		}
		lit, twin := filepath.Join(dir, ft.Name+".lit"), filepath.Join(dir, ft.Name+".litmus")
		if err := os.WriteFile(lit, ft.Source, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(twin, tw.Source, 0o644); err != nil {
			b.Fatal(err)
		}
		lits, twins = append(lits, lit), append(twins, twin)
		regs[ft.Name] = tw.Regs
	}
	return lits, twins, regs
}

// BenchmarkHerdScaling: per shape (SB ring, message chain MPC, IRIW) and number of
// processes (RMACHECK_HERD_PROCS, default 4-8), rmacheck's stored states, CPU-s and
// peak RSS under mpi-4.1 and under all four presets, hw tso, beside herd7's CPU-s
// and peak RSS on the x86 twin, and the CPU ratio of mpi-4.1 to herd7. herd7's and
// mpi-4.1's observations of the condition must agree (plain accesses under hw tso
// are x86-TSO's). RMACHECK_HERD_SYNCS adds rmacheck mpi-4.1 on the shape's other sync
// variants (herdSyncs).
func BenchmarkHerdScaling(b *testing.B) {
	herd := herd7Bin(b)
	lo, hi, err := parseProcs(os.Getenv("RMACHECK_HERD_PROCS"))
	if os.Getenv("RMACHECK_HERD_PROCS") == "" {
		lo, hi = 4, 8
	}
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, sh := range gen.ScalingShapes {
		if sh.Name == "RING" {
			continue // RMA calls: no x86 twin
		}
		over := map[string]bool{} // tool -> passed a bound: the rest of the series is not run
		for n := max(lo, 2); n <= hi; n++ {
			if sh.Name == "IRIW" && n < 4 {
				continue
			}
			ft, err := gen.Scaling(sh.Name, n)
			if err != nil {
				b.Fatal(err)
			}
			lits, twins, _ := writeTwins(b, dir, []gen.FamilyTest{ft})
			b.Run(fmt.Sprintf("%s/n=%02d", sh.Name, n), func(b *testing.B) {
				if over["herd7"] && over["mpi-4.1"] && over["all"] {
					b.Skip("every tool passed a bound at a smaller n")
				}
				for i := 0; i < b.N; i++ {
					var herdObs, rmObs map[string]string
					var herdCPU, oneCPU time.Duration
					if !over["herd7"] {
						var c childCost
						var outcomes int
						c, herdObs, outcomes = herdRun(b, herd, twins...)
						herdCPU = c.cpu
						b.ReportMetric(float64(outcomes), "herd7-outcomes")
						b.ReportMetric(c.cpu.Seconds(), "herd7-cpu-s")
						b.ReportMetric(float64(c.rssKB)/1024, "herd7-RSS-MiB")
						b.ReportMetric(c.wall.Seconds(), "herd7-wall-s")
						if c.timeout {
							b.ReportMetric(1, "herd7-timeout")
						}
						over["herd7"] = c.overBound(herdMemBound(b))
					}
					for _, tool := range []string{"mpi-4.1", "all"} {
						if over[tool] {
							continue
						}
						sems := []string{"mpi-4.1"}
						if tool == "all" {
							sems = nil // every preset
						}
						c, states, pairs, stopped, obs := rmacheckRun(b, sems, lits...)
						b.ReportMetric(c.cpu.Seconds(), tool+"-cpu-s")
						b.ReportMetric(float64(c.rssKB)/1024, tool+"-RSS-MiB")
						b.ReportMetric(c.wall.Seconds(), tool+"-wall-s")
						b.ReportMetric(float64(states), tool+"-states")
						b.ReportMetric(float64(pairs), tool+"-pair-states")
						if stopped {
							b.ReportMetric(1, tool+"-stopped")
						}
						over[tool] = stopped || c.overBound(herdMemBound(b))
						if tool == "mpi-4.1" && !stopped {
							rmObs, oneCPU = obs, c.cpu
						}
					}
					for _, sync := range herdSyncs() {
						vt, err := gen.ScalingVariant(sh.Name, sync, n)
						if err != nil {
							b.Fatal(err)
						}
						vlits := writeLits(b, dir, vt)
						c, states, pairs, stopped, _ := rmacheckRun(b, []string{"mpi-4.1"}, vlits...)
						b.ReportMetric(c.cpu.Seconds(), sync+"-cpu-s")
						b.ReportMetric(float64(c.rssKB)/1024, sync+"-RSS-MiB")
						b.ReportMetric(float64(states+pairs), sync+"-states")
						if stopped {
							b.ReportMetric(1, sync+"-stopped")
						}
						if herdCPU > 0 {
							b.ReportMetric(c.cpu.Seconds()/herdCPU.Seconds(), sync+"/herd7")
						}
					}
					if herdObs != nil && rmObs != nil {
						if herdObs[ft.Name] != rmObs[ft.Name] {
							b.Errorf("%s: herd7 x86tso says %s, rmacheck mpi-4.1 tso %s", ft.Name, herdObs[ft.Name], rmObs[ft.Name])
						}
						b.ReportMetric(oneCPU.Seconds()/herdCPU.Seconds(), "mpi-4.1/herd7")
					}
				}
			})
		}
	}
}

// herdSyncs are the sync variants (gen.ScalingSyncs) BenchmarkHerdScaling also runs
// rmacheck mpi-4.1 on beside herd7's twin of the lock_all test (the same accesses):
// RMACHECK_HERD_SYNCS, a comma list, none by default.
func herdSyncs() []string {
	if s := os.Getenv("RMACHECK_HERD_SYNCS"); s != "" {
		return strings.Split(s, ",")
	}
	return nil
}

// writeLits writes a test's .lit file into dir and returns its path.
func writeLits(b *testing.B, dir string, ft gen.FamilyTest) []string {
	path := filepath.Join(dir, ft.Name+".lit")
	if err := os.WriteFile(path, ft.Source, 0o644); err != nil {
		b.Fatal(err)
	}
	return []string{path}
}

// BenchmarkHerdPlainRatio: RMACHECK_HERD_PLAIN (default 200) tests of the plain
// family (seed 1, the family of BenchmarkPresetRatio), each run by herd7 (one
// process over every x86 twin) and by rmacheck (one process over every .lit) with
// all four presets and with mpi-4.1 alone, hw tso: the CPU ratios of all four
// presets and of mpi-4.1 to herd7's one model, the states, and how many tests
// mpi-4.1 and herd7 observe differently.
func BenchmarkHerdPlainRatio(b *testing.B) {
	herd := herd7Bin(b)
	n := 200
	if s := os.Getenv("RMACHECK_HERD_PLAIN"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("RMACHECK_HERD_PLAIN=%q: want a number of tests", s)
		}
		n = v
	}
	fam, err := gen.PlainFamily(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	lits, twins, _ := writeTwins(b, b.TempDir(), fam)
	defer func(d time.Duration) { childTimeout = d }(childTimeout)
	childTimeout = 30 * time.Minute
	for i := 0; i < b.N; i++ {
		hc, herdObs, _ := herdRun(b, herd, twins...)
		ac, allStates, allPairs, allStopped, _ := rmacheckRun(b, nil, lits...)
		oc, oneStates, onePairs, oneStopped, obs := rmacheckRun(b, []string{"mpi-4.1"}, lits...)
		// A ratio of a run cut short would be a ratio of nothing: say which and stop.
		for _, cut := range []struct {
			stopped bool
			what    string
		}{{hc.timeout, "herd7"}, {allStopped, "rmacheck (all presets)"}, {oneStopped, "rmacheck (mpi-4.1)"}} {
			if cut.stopped {
				b.Fatalf("%s passed the wall timeout or the memory bound on %d tests: raise RMACHECK_HERD_TIMEOUT (a loaded machine needs more) or lower RMACHECK_HERD_PLAIN", cut.what, len(fam))
			}
		}
		differ := 0
		for name, o := range obs {
			if herdObs[name] != o {
				differ++
			}
		}
		b.ReportMetric(hc.cpu.Seconds(), "herd7-cpu-s")
		b.ReportMetric(ac.cpu.Seconds(), "all-cpu-s")
		b.ReportMetric(oc.cpu.Seconds(), "mpi-4.1-cpu-s")
		b.ReportMetric(ac.cpu.Seconds()/hc.cpu.Seconds(), "all/herd7")
		b.ReportMetric(oc.cpu.Seconds()/hc.cpu.Seconds(), "mpi-4.1/herd7")
		b.ReportMetric(float64(allStates+allPairs), "all-states")
		b.ReportMetric(float64(oneStates+onePairs), "mpi-4.1-states")
		b.ReportMetric(float64(differ), "observations-differ")
		b.ReportMetric(float64(len(fam)), "tests")
	}
}
