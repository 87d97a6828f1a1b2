package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
)

type genFlags struct {
	shapes, syncs, flavors, localities []string
	targets                            []string
	mix                                bool
	out                                string
	max                                int
	seed                               int64
	plain                              int
}

func newGenCmd() *cobra.Command {
	var f genFlags
	var shapes, syncs []string
	for _, s := range gen.Shapes {
		shapes = append(shapes, s.Name)
	}
	for _, s := range gen.Syncs {
		syncs = append(syncs, s.Name)
	}
	cmd := &cobra.Command{
		Use:   "gen --out DIR [--shape ...] [--sync ...] [--flavor ...] [--locality ...]",
		Short: "Generate a diy7-style family of litmus tests: shapes x synchronizations x flavors x localities",
		Long: wrapText(`gen writes one .lit file per test of the cross product of the lists given (every shape, sync, `+
			`flavor and locality by default), as diy7 does for CPU models. A shape gives each process one or two `+
			`accesses to x and y and the interesting final outcome (the condition): SB, MP, LB, 2+2W, S, R, WRC `+
			`(3 processes) and IRIW (4). The sync goes between the two accesses of each process: none, sync `+
			`(lock_all + MPI_Win_sync), fence (fences around and between, every process), pscw (one `+
			`post/start/complete/wait round per access), lock (each access under an exclusive lock of its `+
			`target), lock_all+flush (flush_all between), barrier, sendrecv (a message from the writer to the `+
			`reader). The flavor is the window's: allocate_shared (plain loads and stores everywhere) or allocate `+
			`(put/get to other segments, inside an epoch). The locality says where each location lives: local, in `+
			`its first writer's segment (writes local, reads remote); remote, in another accessor's (writes remote).`, 80) +
			"\n" + wrapText(`--mix lets each process take its own non-collective sync (none, sync, lock, lock_all+flush), `+
			`as diy7's MP+dmb+po. Names encode the choices: SHAPE+SYNC+FLAVOR+LOCALITY, with one sync token `+
			`per process when they differ (po = none, flush = lock_all+flush, shared = allocate_shared, alloc = `+
			`allocate), e.g. SB+fence+shared+remote, MP+sync+lock+alloc+local. Each file has a doc string, a `+
			`Generator= line with its parameters, and no expect lines. Tests whose program equals an earlier `+
			`one's are dropped. --max N keeps a sample of N drawn with --seed. Without --out the files are `+
			`printed to standard output.`, 80) + "\n" + wrapText(`--plain N writes instead the plain family: N tests like `+
			`diy7's x86 shapes (SB, MP, LB, 2+2W, R, S, WRC, IRIW), varied with an observer and extra loads and `+
			`stores, every process in a lock_all epoch of one allocate_shared window with plain accesses only; `+
			`--seed draws the variants (the benchmarks use 1,000 tests, seed 1).`, 80) + "\n" + exitStatusHelp("the family was written", ""),
		Example: `  rmacheck gen --out fam                                    # 256 tests, one sync for all processes
  rmacheck gen --mix --out bench/generated                   # the family of make gen (1834 tests)
  rmacheck gen --shape SB,MP --sync fence,pscw --flavor allocate_shared --locality remote
  rmacheck gen --target literal,computed --out fam           # each test also with its target ranks in registers
  rmacheck gen --plain 1000 --out plain                      # the plain family of the benchmarks`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runGen(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.shapes, "shape", nil, "shapes: "+strings.Join(shapes, ",")+" (default all)")
	fl.StringSliceVar(&f.syncs, "sync", nil, "synchronizations: "+strings.Join(syncs, ",")+" (default all)")
	fl.StringSliceVar(&f.flavors, "flavor", nil, "window flavors: "+strings.Join(gen.Flavors, ",")+" (default both)")
	fl.StringSliceVar(&f.localities, "locality", nil, "where locations live: "+strings.Join(gen.Localities, ",")+" (default both)")
	fl.StringSliceVar(&f.targets, "target", nil, "target ranks: "+strings.Join(gen.Targets, ",")+" (default literal; computed: each rank a register's value, tests named NAME+computed)")
	fl.BoolVar(&f.mix, "mix", false, "give each process its own non-collective sync (the cross product over processes)")
	fl.StringVar(&f.out, "out", "", "directory to write NAME.lit files into (created if needed)")
	fl.IntVar(&f.max, "max", 0, "keep a sample of at most N tests (0: all)")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the --max sample (and of the --plain variants)")
	fl.IntVar(&f.plain, "plain", 0, "write N tests of the plain family instead (diy7's x86 shapes with plain accesses in lock_all, varied)")
	return cmd
}

// family is the family the flags ask for: the plain family with --plain, which
// takes none of the shapes family's lists, else the cross product of the lists.
func family(cmd *cobra.Command, f genFlags) ([]gen.FamilyTest, error) {
	if f.plain == 0 {
		fam, err := gen.Family(gen.FamilyOptions{Shapes: f.shapes, Syncs: f.syncs, Flavors: f.flavors,
			Localities: f.localities, Targets: f.targets, Mix: f.mix, Max: f.max, Seed: f.seed})
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		return fam, nil
	}
	for _, name := range []string{"shape", "sync", "flavor", "locality", "target", "mix", "max"} {
		if cmd.Flags().Changed(name) {
			return nil, usageErrorf("--plain: --%s is a choice of the shapes family; the plain family takes only --seed and --out", name)
		}
	}
	fam, err := gen.PlainFamily(f.plain, f.seed)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return fam, nil
}

func runGen(cmd *cobra.Command, f genFlags) error {
	if err := atLeast("max", f.max, 0, "0: every test"); err != nil {
		return err
	}
	if err := atLeast("plain", f.plain, 0, "0: the shapes family"); err != nil {
		return err
	}
	fam, err := family(cmd, f)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.out == "" {
		for i, ft := range fam {
			if i > 0 {
				fmt.Fprintln(out)
			}
			out.Write(ft.Source)
		}
		return nil
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return ioError(err)
	}
	b := atomicfile.Batch{Outputs: true}
	// SIGINT or SIGTERM while the files are staged removes them (issue 25 row 15: a
	// killed gen --out left hundreds of .NAME.lit.tmp files); the next run removes
	// those of a writer killed by SIGKILL (atomicfile).
	ctx, stop := interruptible()
	defer stop()
	progress := newProgress(cmd.ErrOrStderr(), "files written", len(fam), false)
	for i, ft := range fam {
		if ctx.Err() != nil {
			progress.clear()
			b.Abort()
			exit, _ := interruptedExit(context.Cause(ctx))
			if ee, ok := exit.(exitError); ok {
				ee.err = fmt.Errorf("%v: no file was written, and the temporary files were removed", context.Cause(ctx))
				return ee
			}
			return exit
		}
		progress.show(float64(i), ft.Name)
		b.Add(filepath.Join(f.out, ft.Name+".lit"), ft.Source, 0o644)
	}
	progress.clear()
	if err := b.Commit(); err != nil {
		return ioError(err)
	}
	fmt.Fprintf(out, "wrote %d tests to %s\n", len(fam), f.out)
	return nil
}
