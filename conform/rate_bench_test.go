//go:build unix

package conform

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

// rateRuns are the runs of one launch in BenchmarkRuntimeRateSB: conform's default
// for a test without MPI calls on the reference runtime.
const rateRuns = 1_000_000

// BenchmarkRuntimeRateSB measures SB's runs per second on the reference runtime beside
// Debian's MPICH (the slower of the two libraries in round four's measurements,
// reports/performance/round4.md), each clock the same for both targets:
//
//   - launch: the wall time of the whole execution a conform run waits for (the
//     reference runtime's Run, its set-up included; MPICH's mpiexec, MPI_Init and the
//     windows included), the program compiled beforehand on both sides;
//   - loops: the time of the iterations alone (the runtime's Result.Elapsed, the C
//     program's TIME line, which leaves out MPI_Init, the windows and the reductions).
//
// and the CPU seconds each spent (the benchmark's own for the runtime, its waited-for
// children's for MPICH). Each of b.N rounds runs both, one after the other, so that a
// loaded machine weighs on both alike; the metrics are the rounds' medians.
// ref/mpich-launch >= 1 is issue 37's aim. Skipped without MPICH or the acceptance files.
func BenchmarkRuntimeRateSB(b *testing.B) {
	lt, err := litmus.ParseFile(corpus.AcceptanceFile(b, "01-SB.lit"))
	if err != nil {
		b.Fatal(err)
	}
	sem, _ := spec.Preset(spec.DefaultPreset)
	p, err := model.Compile(lt, sem, spec.SC)
	if err != nil {
		b.Fatal(err)
	}
	lib, err := PackageLibrary(MPICH)
	if err == nil {
		err = lib.Installed()
	}
	if err != nil {
		b.Skipf("skipped: %v", err)
	}
	target := MPI{Lib: lib}
	dir, cfile, err := target.writeC(lt)
	if err != nil {
		b.Fatal(err)
	}
	defer supervise.RemoveDir(dir)
	bin := strings.TrimSuffix(cfile, ".c")
	if err := lib.CompileC(context.Background(), cfile, bin); err != nil {
		b.Fatal(err)
	}
	args := target.programArgs(Execution{Runs: rateRuns, Seed: 1})

	var ref, mpich rateSamples
	b.ResetTimer()
	for range b.N {
		cpu, wall := cpuSeconds(syscall.RUSAGE_SELF), time.Now()
		res, err := reference.Run(p, reference.Options{Runs: rateRuns, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		ref.add(time.Since(wall), res.Elapsed, cpuSeconds(syscall.RUSAGE_SELF)-cpu)

		cpu, wall = cpuSeconds(syscall.RUSAGE_CHILDREN), time.Now()
		out, err := lib.Launch(context.Background(), p.NProcs, LaunchOptions{}, bin, args...)
		if err != nil {
			b.Fatal(err)
		}
		launch := time.Since(wall)
		h := &Histogram{}
		if err := h.parse(out, p, rateRuns); err != nil {
			b.Fatal(err)
		}
		mpich.add(launch, h.Elapsed, cpuSeconds(syscall.RUSAGE_CHILDREN)-cpu)
	}
	b.StopTimer()
	b.ReportMetric(ref.median(ref.launch), "ref-launch-runs/s")
	b.ReportMetric(mpich.median(mpich.launch), "mpich-launch-runs/s")
	b.ReportMetric(ref.median(ref.launch)/mpich.median(mpich.launch), "ref/mpich-launch")
	b.ReportMetric(ref.median(ref.loops), "ref-loops-runs/s")
	b.ReportMetric(mpich.median(mpich.loops), "mpich-loops-runs/s")
	b.ReportMetric(ref.median(ref.cpu), "ref-CPU-s")
	b.ReportMetric(mpich.median(mpich.cpu), "mpich-CPU-s")
}

// rateSamples are one target's rounds: runs/s by each clock, CPU seconds.
type rateSamples struct{ launch, loops, cpu []float64 }

func (s *rateSamples) add(launch, loops time.Duration, cpu float64) {
	s.launch = append(s.launch, rateRuns/launch.Seconds())
	s.loops = append(s.loops, rateRuns/loops.Seconds())
	s.cpu = append(s.cpu, cpu)
}

// median of one of s's lists.
func (*rateSamples) median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// cpuSeconds is the user and system time of who (RUSAGE_SELF, RUSAGE_CHILDREN).
func cpuSeconds(who int) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
