package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/evidence"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/reports/upstream"
	"github.com/rmacheck/rmacheck/spec"
)

type conformFlags struct {
	target           targetFlags
	sems             []string
	runs             int
	seed             int64
	json             bool
	includeErroneous bool
	shard            string
	hw               string
	search           searchFlags
	strictProgress   bool
	batch            int // --batch: the reference runtime's iterations a batch
}

func newConformCmd() *cobra.Command {
	var f conformFlags
	cmd := &cobra.Command{
		Use:   "conform FILES... --target reference",
		Short: "Run litmus tests many times on a target and compare what happens with what the model allows",
		Long: wrapText(`conform runs each test many times on a target and prints a histogram of the outcomes in `+
			`litmus7's style. The reference target runs the program on real shared memory: one OS thread per rank, `+
			`plain loads and stores as plain machine instructions, MPI calls carried out by the model with its open `+
			`choices (when a pending operation is performed, which shared_query answer) made at random from --seed. `+
			`Each observed outcome is compared with the explorer's allowed outcomes for the same semantics and this `+
			`machine's hardware model (`+conform.MachineHW().String()+` here): an outcome the model forbids is printed as `+
			`NON-CONFORMING; outcomes allowed but never seen are listed as unseen. `+
			`Tests that the model finds erroneous (undefined behaviour) are skipped unless --include-erroneous.`, 80) + "\n" +
			wrapText(`The mpich and openmpi targets compile the test's C program (see 'rmacheck cgen') with mpicc.mpich or `+
				`mpicc.openmpi and run it under mpiexec.mpich or mpiexec.openmpi (--allow-run-as-root --oversubscribe `+
				`--mca osc ^rdma); each iteration starts from the initial values, the ranks released together by a `+
				`spin barrier in shared memory. A window whose MPI_WIN_MODEL differs from the declared model skips the test. `+
				`Any other MPICH or Open MPI install is a target too: --mpi PREFIX (PREFIX/bin/mpicc and PREFIX/bin/mpiexec), `+
				`or --mpicc and --mpiexec; --mpiexec-args and --env K=V set its run. The library and version every record `+
				`names are what the library itself says (MPI_Get_library_version). A NON-CONFORMING result or a failed `+
				`run that is a recorded library finding (reports/upstream/status.json, built in: the family, the test, `+
				`a release before the fix) says so on its line: "known: pmodels/mpich#6140, fixed in MPICH 4.0.3".`, 80) + "\n" + exitStatusHelp("conforming: every observed outcome is allowed (tests skipped as erroneous or by the library, and runs that hang only for want of the target's progress, which MPI-4.1 allows, included)", "NON-CONFORMING: some run showed an outcome the model forbids, or a search stopped at --max-states",
			"3 the library could not run a test: it refuses the ranks (more than the cores under --oversubscribe=false), times out (--timeout raises the bound), crashes, stops with an MPI error, or stops at its spin limit (SPIN-LIMIT) where the model finds no LIVELOCK with or without weak_progress (a hang the standard does not allow); each says what happened and what to do. A run that hangs only for want of the target's progress (LIVELOCK under weak_progress=on alone: MPI-4.1 allows it) is counted in a last line and is no failure unless --strict-progress. 2 wins over 3, and 3 over 1",
			"130/143 interrupted by SIGINT/SIGTERM; the MPI processes are stopped and the temporary files removed"),
		Example: `  rmacheck conform --target reference litmus/ticket435/SB+fence.lit
  rmacheck conform --target mpich --runs 100000 litmus/ticket435/SB+fence.lit
  rmacheck conform --target openmpi --keep-c /tmp/c litmus/ticket435
  rmacheck conform --mpi /opt/mpich-4.3 --runs 10000 litmus/rma
  rmacheck conform --target reference --sem B --runs 100000 litmus/ticket435
  rmacheck conform --target reference --json litmus > reference.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runConform(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.target.name, "target", conform.ReferenceName, "where to run: reference, mpich or openmpi (the test's C program from cgen, built with mpicc.mpich / mpicc.openmpi)")
	fl.StringArrayVar(&f.sems, "sem", nil, "semantics PRESET[,switch=on|off...] to compare with; repeat for several (default mpi-4.1)")
	fl.IntVar(&f.runs, "runs", 0, "iterations per test (0, the default: 10^6 for programs without MPI calls, 10^4 with)")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the runtime's choices")
	fl.BoolVar(&f.json, "json", false, "one JSON object per test and semantics, one a line")
	fl.BoolVar(&f.includeErroneous, "include-erroneous", false, "also run tests the model finds erroneous")
	fl.StringVar(&f.shard, "shard", "", "run only shard i of n (i/n) of the files")
	fl.StringVar(&f.hw, "hw", "", "mpich, openmpi: hardware model to compare with (default the machine's: "+conform.MachineHW().String()+")")
	addLaunchFlags(fl, &f.target)
	addSearchFlags(fl, &f.search, defaultMaxStates)
	fl.StringVar(&f.target.hostfile, "hostfile", "", "mpich, openmpi: give this hostfile to the library's mpiexec (-f for MPICH, --hostfile for Open MPI)")
	fl.IntVar(&f.batch, "batch", 0, fmt.Sprintf("reference: iterations the ranks run between two meetings, each on its own copy of the test, as litmus7's -s (0, the default: %d, fewer for a test with many cells; 1 meets at every iteration)", reference.DefaultBatch))
	fl.BoolVar(&f.strictProgress, "strict-progress", false, "count a run that hangs for want of the target's progress (LIVELOCK only under weak_progress=on, which MPI-4.1 allows) as a library that could not run the test (exit 3)")
	return cmd
}

func runConform(cmd *cobra.Command, args []string, f conformFlags) error {
	if err := firstError(atLeast("runs", f.runs, 0, "0: the default, 10^6 without MPI calls, 10^4 with"),
		atLeast("batch", f.batch, 0, "0: the default, "+strconv.Itoa(reference.DefaultBatch)),
		atLeast("timeout", f.target.timeout, 0, "0: the default, 30s + 1ms per iteration")); err != nil {
		return err
	}
	search, err := f.search.options(0)
	if err != nil {
		return err
	}
	target, err := f.conformTarget(cmd)
	if err != nil {
		return err
	}
	hw, _ := f.comparedHW() // checked by conformTarget
	if len(f.sems) == 0 {
		f.sems = []string{string(spec.DefaultPreset)}
	}
	sems, err := parseSems(f.sems)
	if err != nil {
		return err
	}
	tests, bad, err := loadTests(cmd, args, f.shard)
	if err != nil {
		return err
	}
	if f.target.keepC != "" {
		if err := sameNames(tests); err != nil {
			return exitError{code: exitBadInput, err: fmt.Errorf("--keep-c: %w", err)}
		}
	}
	run := &conformRun{f: f, info: target.Info(), search: search, out: cmd.OutOrStdout(), errw: cmd.ErrOrStderr(), bad: bad, known: knownFindings()}
	if run.info.Kind == conform.KindMPI { // MPI processes to stop on an interrupt
		var stop func()
		run.ctx, stop = interruptible()
		defer stop()
	}
	progress := newProgress(run.errw, "conformance runs", len(tests)*len(sems), f.json)
	for ti, t := range tests {
		run.noteOversubscribed(target, t)
		for si, sem := range sems {
			done := float64(ti*len(sems) + si)
			progress.show(done, t.Name+" ("+sem.Name+")")
			opt := conform.Options{Runs: f.runs, Seed: f.seed, IncludeErroneous: f.includeErroneous, Search: search, HW: hw, Context: run.ctx,
				Progress: func(runs, total int) { progress.show(done+float64(runs)/float64(total), t.Name) }}
			rep, err := conform.Check(target, t, sem, opt)
			progress.clear()
			if exit, ok := interruptedExit(err); ok {
				return exit
			}
			if err != nil {
				run.failure(t, sem, opt.ComparedHW(), err)
			} else {
				run.report(rep)
			}
		}
	}
	run.hangs.summary(run.errw)
	switch {
	case run.bad:
		return exitWith(exitBadInput)
	case run.cannotRun:
		return exitWith(exitCannotRun)
	case run.failed:
		return exitWith(exitFailed)
	}
	return nil
}

// conformRun is a conform command under way: where it writes, and what its exit
// status will say.
type conformRun struct {
	f                      conformFlags
	info                   conform.TargetInfo // asked once: a library's version is asked of it
	search                 explorer.Options
	ctx                    context.Context
	out, errw              io.Writer
	bad, cannotRun, failed bool
	hangs                  hangCount          // runs that did not finish, judged on the hw model they are compared with
	known                  *evidence.Upstream // the recorded library findings (reports/upstream/status.json)
}

// knownFindings are the recorded library findings embedded in the binary, or none
// when they do not read (a test of the build catches that: TestKnownFindingsRead).
func knownFindings() *evidence.Upstream {
	u, err := evidence.ParseUpstream("reports/upstream/status.json", upstream.Status)
	if err != nil {
		return nil
	}
	return u
}

// knownNote is what conform says beside a result of a kind that is a recorded
// finding on this target ("known: pmodels/mpich#6140, fixed in MPICH 4.0.3"), or "".
func (c *conformRun) knownNote(kind evidence.UpstreamKind, t *litmus.Test) string {
	if e := c.known.Known(c.info, kind, t.Name); e != nil {
		return e.KnownNote()
	}
	return ""
}

// noteOversubscribed says when a test's ranks will share this machine's cores on a
// library that busy-polls: they run (unless --oversubscribe=false), slowly.
func (c *conformRun) noteOversubscribed(target conform.Target, t *litmus.Test) {
	if mpi, ok := target.(conform.MPI); ok && mpi.Launch.Oversubscribe && mpi.Lib.Oversubscribed(len(t.Procs), mpi.Launch) {
		fmt.Fprintf(c.errw, "rmacheck: note: %s runs %d ranks on %d cores: %s busy-polls, so they share cores (slower, and outcomes that need the ranks side by side get rarer); --oversubscribe=false refuses such tests\n",
			t.Name, len(t.Procs), runtime.NumCPU(), mpi.Lib.Family.Name())
	}
}

// failure says why a run gave no report (and writes its record with --json): a
// time-out the standard allows (conform.ClassifyHang) is no failure.
func (c *conformRun) failure(t *litmus.Test, sem spec.Semantics, hw spec.HW, err error) {
	allowed := false
	if conform.TimedOut(err) {
		allowed, _ = c.hangs.judge(c.errw, t, sem, hw, c.search, err.Error(), c.f.strictProgress)
	} else {
		fmt.Fprintf(c.errw, "rmacheck: %s (%s): %v\n", t.File, sem.Name, err)
	}
	if note := c.knownNote(evidence.KindFailed, t); note != "" {
		fmt.Fprintf(c.errw, "rmacheck: %s (%s): %s\n", t.File, sem.Name, note)
	}
	if c.f.json { // a record for every run: reports read the failed ones from it
		record.WriteLine(c.out, record.FailedConform(t, sem, c.info, hw, c.f.seed, err))
	}
	if allowed {
		return
	}
	switch conformErrorExit(err) {
	case exitCannotRun:
		c.cannotRun = true
	case exitBadInput:
		c.bad = true
	default:
		c.failed = true
	}
}

// report prints a run's report (its record with --json) and notes what it means
// for the exit status: an outcome the model forbids, a spin limit the model does
// not explain.
func (c *conformRun) report(rep *conform.Report) {
	t, sem := rep.Test, rep.Sem
	if rep.NonConforming > 0 {
		c.failed = true
	}
	hang := "" // what the model makes of a run stopped at its spin limit
	if rep.SpinLimit != "" {
		what := fmt.Sprintf("the program stopped at its spin limit (%s): a rank waited without the target making progress", rep.SpinLimit)
		var allowed bool
		allowed, hang = c.hangs.judge(c.errw, t, sem, rep.HW, c.search, what, c.f.strictProgress)
		if !allowed {
			c.cannotRun = true
		}
	}
	if rep.Starved {
		fmt.Fprintf(c.errw, "rmacheck: %s (%s): the ranks waited for a CPU %.0f%% of the time (the machine is loaded): outcomes that need them side by side may be unseen\n",
			t.File, sem.Name, 100*rep.Starvation)
	}
	known := ""
	if rep.NonConforming > 0 {
		known = c.knownNote(evidence.KindNonConforming, t)
	}
	if c.f.json {
		record.WriteLine(c.out, record.NewConform(rep))
		if known != "" { // standard output holds records only
			fmt.Fprintf(c.errw, "rmacheck: %s (%s): NON-CONFORMING, %s\n", t.File, sem.Name, known)
		}
	} else {
		output.Histogram(c.out, rep, hang, known)
	}
}

// hangCount counts the runs that hung for want of the target's progress, which
// MPI-4.1 allows (conform.ClassifyHang).
type hangCount struct{ allowed, strict int }

// judge says what the model makes of a run that did not finish (what: how it
// stopped) and reports whether it is allowed: a weak-progress hang (unless strict),
// or a test the model finds can spin forever anyway. A real library hang, or a
// model search that stopped, is not. It returns the judgement, for the report on
// standard output to say what the message says.
func (h *hangCount) judge(w io.Writer, t *litmus.Test, sem spec.Semantics, hw spec.HW, search explorer.Options, what string, strict bool) (bool, string) {
	hang, err := conform.ClassifyHang(t, sem, hw, search)
	var judgement string
	allowed := false
	switch {
	case err != nil:
		judgement = "the model could not tell whether the standard allows the hang: " + err.Error()
	case !hang.Allowed():
		judgement = hang.String() + " (--keep-c DIR keeps the C to send its developers)"
	case hang == conform.HangWeakProgress && strict:
		h.strict++
		judgement = hang.String() + "; a failure under --strict-progress"
	default:
		h.allowed++
		judgement, allowed = hang.String(), true
	}
	fmt.Fprintf(w, "rmacheck: %s (%s): %s; %s\n", t.File, sem.Name, what, judgement)
	return allowed, judgement
}

// summary is the last line of a run with weak-progress hangs.
func (h *hangCount) summary(w io.Writer) {
	if h.allowed > 0 {
		fmt.Fprintf(w, "rmacheck: %s may hang without asynchronous progress, which MPI-4.1 allows, or spin forever by the model: not counted as failures; --strict-progress counts the weak-progress ones\n", output.Plural(h.allowed, "run"))
	}
	if h.strict > 0 {
		fmt.Fprintf(w, "rmacheck: %s hung for want of the target's progress: failures under --strict-progress\n", output.Plural(h.strict, "run"))
	}
}

// conformTarget checks the flags of the target they name and makes it.
func (f conformFlags) conformTarget(cmd *cobra.Command) (conform.Target, error) {
	kind, _, err := f.target.named()
	switch {
	case err != nil:
		return nil, err
	case kind == conform.KindReference && (f.hw != "" || f.target.launchFlagsSet()):
		return nil, usageErrorf("--hw, --oversubscribe, --keep-c, --launcher, --hostfile, --timeout, --mpiexec-args, --env and --transport are for MPI libraries (--target mpich or openmpi, --mpi PREFIX)")
	case kind == conform.KindReference:
		return conform.Reference{Runtime: reference.Options{Batch: f.batch}}, nil
	case f.batch != 0:
		return nil, usageErrorf("--batch is for the reference runtime (--target reference): a library's C program runs its own batches")
	}
	if _, err := f.comparedHW(); err != nil {
		return nil, err
	}
	if err := f.target.checkLaunch(func(err error) { printErrors(cmd.ErrOrStderr(), err) }); err != nil {
		return nil, err
	}
	target, err := f.target.target(reference.Options{})
	if err != nil {
		return nil, err
	}
	return target, makeKeepDir(f.target.keepC)
}

// comparedHW is the hardware model --hw names (nil: the machine's).
func (f conformFlags) comparedHW() (*spec.HW, error) {
	if f.hw == "" {
		return nil, nil
	}
	hw, err := spec.ParseHW(f.hw)
	if err != nil {
		return nil, usageErrorf("--hw: %v", err)
	}
	return &hw, nil
}

// conformErrorExit is the exit status a test's error asks for, the same whatever the
// target: 3 when the target could not run it, 2 for bad input, setup (a library that
// is not installed) or an I/O error (a test
// cgen cannot express, a temporary directory or --keep-c file that cannot be written),
// 1 otherwise (the model's search stopped at a bound: an incomplete result).
func conformErrorExit(err error) int {
	var unsupported *cgen.Unsupported
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	var sysErr *os.SyscallError
	var writeErr *atomicfile.Error
	switch {
	case conform.IsMissingLibrary(err): // setup: install it, or name another
		return exitBadInput
	case conform.CannotRun(err):
		return exitCannotRun
	case errors.As(err, &unsupported), errors.Is(err, syscall.ENOSPC), errors.As(err, &pathErr), errors.As(err, &linkErr), errors.As(err, &sysErr), errors.As(err, &writeErr):
		return exitBadInput
	}
	return exitFailed
}

// sameNames refuses two tests of one name: their C programs would be one file of
// --keep-c, and the second would silently replace the first.
func sameNames(tests []*litmus.Test) error {
	first := map[string]string{}
	for _, t := range tests {
		if f, ok := first[t.Name]; ok {
			return fmt.Errorf("%s and %s are both test %s: their C programs would overwrite each other (rename one)", f, t.File, t.Name)
		}
		first[t.Name] = t.File
	}
	return nil
}
