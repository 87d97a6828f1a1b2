package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/fuzz"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

type fuzzFlags struct {
	target              targetFlags
	sem                 string
	dur                 time.Duration
	runs, programs      int
	seed                int64
	out                 string
	maxProcs, maxInstrs int
	syncs               []string
	computed            bool
	ranges              bool
	search              searchFlags
}

func newFuzzCmd() *cobra.Command {
	var f fuzzFlags
	cmd := &cobra.Command{
		Use:   "fuzz --target reference [--sem X] [--time 10m] [--runs N] [--out DIR]",
		Short: "Run random race-free programs on a target and shrink any that shows an outcome the model forbids",
		Long: wrapText(`fuzz draws random well-formed programs (the generator of the property tests, gen.Program), `+
			`keeps those on which the explorer raises no flag at all under --sem on this machine's hardware model `+
			`(`+conform.MachineHW().String()+`): race-free, conflict-free, not erroneous. It runs each --runs times on the target `+
			`(as rmacheck conform does) and, on any outcome the model forbids, shrinks the program by delta `+
			`debugging (dropping processes, rows, instructions, collective calls and locations while it still `+
			`parses, validates, stays race-free and shows a forbidden outcome), re-checks the shrunk program with `+
			`10 x --runs runs, and reports it; --out writes it as DIR/NAME.lit (and, for mpich and openmpi, its C as DIR/NAME.c). It stops at the first confirmed `+
			`reproducer, after --programs programs, or after --time. The mpich and openmpi targets run `+
			`each program through conform.MPI (C generated and run with the library's mpiexec: slow, so `+
			`give small --runs).`, 80) + "\n" + exitStatusHelp("no reproducer was found", "a reproducer was found",
			"3 the target could not run a program (as for conform)", "130/143 interrupted by SIGINT/SIGTERM (mpich, openmpi: as for conform)"),
		Example: `  rmacheck fuzz --target reference --time 1m
  rmacheck fuzz --target reference --sem B --runs 5000 --out repro`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runFuzz(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.target.name, "target", conform.ReferenceName, "where to run: reference, mpich or openmpi")
	addLibraryFlags(fl, &f.target)
	fl.StringVar(&f.sem, "sem", string(spec.DefaultPreset), "semantics PRESET[,switch=on|off...]")
	fl.DurationVar(&f.dur, "time", time.Minute, "stop after this long (0: no time bound, only --programs)")
	fl.IntVar(&f.runs, "runs", 2000, "runs of each program on the target")
	fl.IntVar(&f.programs, "programs", 0, "stop after this many programs (0: only --time)")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the first program (the i-th has seed+i)")
	fl.StringVar(&f.out, "out", "", "write the reproducer as DIR/NAME.lit")
	fl.IntVar(&f.maxProcs, "max-procs", 3, "processes of a program (2 to N)")
	fl.IntVar(&f.maxInstrs, "max-instrs", 4, "instructions per process, epoch brackets not counted")
	fl.BoolVar(&f.ranges, "ranges", false, "some put, get and acc calls move two elements with one call (a range and a tuple: contiguous, or indexed in reversed order)")
	addSearchFlags(fl, &f.search, 1_000_000)
	fl.StringSliceVar(&f.syncs, "sync", nil, "synchronization styles to draw: none,fence,lock_all,pscw,barrier (default all)")
	fl.BoolVar(&f.computed, "computed", false, "let RMA calls take target ranks and displacements from registers, MPI_PROC_NULL among them")
	return cmd
}

func runFuzz(cmd *cobra.Command, f fuzzFlags) error {
	search, err := f.search.options(0)
	if err != nil {
		return err
	}
	target, err := f.target.target(reference.Options{})
	if err != nil {
		return err
	}
	isMPI := target.Info().Kind == conform.KindMPI
	var ctx context.Context
	if isMPI { // MPI processes to stop on an interrupt
		var stop func()
		ctx, stop = interruptible()
		defer stop()
	}
	sems, err := parseSems([]string{f.sem})
	if err != nil {
		return err
	}
	if f.maxProcs < 2 || f.maxInstrs < 1 || f.runs < 1 {
		return usageErrorf("--max-procs must be at least 2, --max-instrs and --runs at least 1")
	}
	if err := firstError(atLeast("time", f.dur, 0, "0: no time bound, only --programs"),
		atLeast("programs", f.programs, 0, "0: only --time")); err != nil {
		return err
	}
	if f.dur == 0 && f.programs == 0 {
		// Neither bound: the fuzzer would never stop by itself.
		return usageErrorf("--time 0 and --programs 0: give one bound (a time, or a number of programs)")
	}
	for _, s := range f.syncs {
		switch s {
		case "none", "fence", "lock_all", "pscw", "barrier":
		default:
			return usageErrorf("--sync %q: expected none, fence, lock_all, pscw or barrier", s)
		}
	}
	if f.out != "" {
		if err := writableFolder(f.out); err != nil {
			return ioError(fmt.Errorf("--out: %w", err))
		}
	}
	errw := cmd.ErrOrStderr()
	res, err := fuzz.Fuzz(fuzz.Options{Sem: sems[0], Target: target, Search: search, Context: ctx,
		Config: gen.Config{MinProcs: 2, MaxProcs: f.maxProcs, MaxInstrs: f.maxInstrs, Syncs: f.syncs, Computed: f.computed, Ranges: f.ranges},
		Time:   f.dur, Programs: f.programs, Runs: f.runs, Seed: f.seed,
		Log: func(format string, args ...any) { fmt.Fprintf(errw, "fuzz: "+format+"\n", args...) }})
	if exit, ok := interruptedExit(err); ok {
		return exit
	}
	if err != nil && conform.CannotRun(err) { // 2 for a library that is not installed, 3 for one that cannot run the program
		return exitError{code: conformErrorExit(err), err: err}
	}
	if err != nil {
		return exitError{code: exitFailed, err: err}
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Fuzz %s (semantics %s, hw %s): %d programs, %d race-free, %d runs, %.1fs; %d reproducers, %d not confirmed\n",
		target.Info().Name(), sems[0].Name, conform.MachineHW(), res.Programs, res.RaceFree, res.Runs, res.Elapsed.Seconds(),
		len(res.Findings), res.Unconfirmed)
	for _, fd := range res.Findings {
		fmt.Fprintf(out, "\nNON-CONFORMING: program %d (%d instructions, shrunk to %d)\n", fd.Program, gen.Size(fd.Original), gen.Size(fd.Test))
		out.Write(fd.Source)
		if f.out != "" {
			if err := os.MkdirAll(f.out, 0o755); err != nil {
				return ioError(err)
			}
			b := atomicfile.Batch{Outputs: true} // the .lit and its C, both or neither
			written := []string{filepath.Join(f.out, fd.Test.Name+".lit")}
			b.Add(written[0], fd.Source, 0o644)
			if isMPI { // the C a library's developers can run
				if src, err := cgen.Generate(fd.Test, cgen.Options{}); err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "rmacheck: no C for %s: %v\n", fd.Test.Name, err)
				} else {
					written = append(written, filepath.Join(f.out, fd.Test.Name+".c"))
					b.Add(written[1], src, 0o644)
				}
			}
			if err := b.Commit(); err != nil {
				return ioError(err)
			}
			for _, path := range written {
				fmt.Fprintf(out, "wrote %s\n", path)
			}
		}
	}
	if len(res.Findings) > 0 {
		return exitWith(exitFailed)
	}
	return nil
}

// writableFolder makes dir (with its parents) and checks that a file can be created in
// it, before a long run: fuzz found a reproducer after 10 minutes and only then said
// that --out could not be written (issue 38).
func writableFolder(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".rmacheck-writable-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
