package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/output"
)

// scalingHelp is the part of gen's help about --scaling, --plain and --herd.
var scalingHelp = wrapText(`--scaling SHAPES writes instead the thread-scaling tests, one per shape and number of `+
	`processes in --procs (LO-HI or N, default 4-16): SB (a store-buffering ring: each process stores its `+
	`location, then loads the next one's; condition: every load reads 0), MPC (a message chain of n-1 hops: `+
	`P0 writes the data x0 then x1, each next process reads its flag and writes the next, the last reads its `+
	`flag then the data; condition: every flag seen, the data not) and IRIW (two writers and n-2 readers `+
	`reading x and y in alternating orders; condition: each reader sees its first location's write and not its `+
	`second's), on plain loads and stores of an allocate_shared window, and RING (each process puts to the `+
	`next and gets from the previous, then stores and loads its own cells, on an allocate window, in three `+
	`rounds). --sync picks the synchronization variants: lock_all (the default: one lock_all epoch a round), `+
	`nocheck (lock_all W nocheck), lock (each access in a lock epoch of its target, shared for reads, `+
	`exclusive for writes), pscw (post, start, complete, wait around each round) and fence. Tests are named `+
	`SHAPE-nNN (SB-n04) for lock_all and SHAPE+SYNC-nNN (SB+pscw-n04) for the others. --plain N writes instead N tests of the plain family (diy7's x86 `+
	`shapes SB, MP, LB, 2+2W, R, S, WRC, IRIW with plain accesses, varied; drawn with --seed), the family of `+
	`the benchmark of presets. --herd also writes beside each NAME.lit its x86 twin NAME.litmus for herd7 `+
	`(the same accesses as MOV instructions, in the same order, with the same initial values and condition, `+
	`registers renamed EAX, EBX, ..), so that herd7 -model x86tso.cat and rmacheck run --hw tso can be timed on `+
	`the same shapes; a test with anything but plain loads, stores and lock_all epochs has no twin and is `+
	`refused.`, 80) + "\n"

func addScalingFlags(fl *pflag.FlagSet, f *genFlags) {
	var shapes []string
	for _, s := range gen.ScalingShapes {
		shapes = append(shapes, s.Name)
	}
	fl.StringSliceVar(&f.scaling, "scaling", nil, "write the thread-scaling tests of these shapes: "+strings.Join(shapes, ",")+" (instead of the family)")
	fl.StringVar(&f.procs, "procs", "", "numbers of processes of --scaling: LO-HI or N (default 4-16)")
	fl.IntVar(&f.plain, "plain", 0, "write N tests of the plain family (diy7's x86 shapes, plain accesses) instead of the family")
	fl.BoolVar(&f.herd, "herd", false, "also write each test's x86 twin NAME.litmus for herd7")
}

// genTests is the tests gen writes: the scaling tests, the plain family, or the
// diy7-style family, as the flags say.
func genTests(cmd *cobra.Command, f genFlags) ([]gen.FamilyTest, error) {
	var family []string
	for _, name := range []string{"shape", "sync", "flavor", "locality", "target", "mix", "max"} {
		if cmd.Flags().Changed(name) && (name != "sync" || f.scaling == nil) { // --scaling's variants
			family = append(family, "--"+name)
		}
	}
	if f.procs != "" && f.scaling == nil {
		return nil, fmt.Errorf("--procs counts the processes of --scaling tests; give --scaling too")
	}
	if err := atLeast("plain", f.plain, 0, "0: no plain family"); err != nil {
		return nil, err
	}
	switch {
	case f.scaling != nil && f.plain > 0:
		return nil, fmt.Errorf("--scaling and --plain each choose the tests to write; give one")
	case (f.scaling != nil || f.plain > 0) && family != nil:
		return nil, fmt.Errorf("%s chooses tests of the diy7-style family; --scaling and --plain write tests of their own", strings.Join(family, ", "))
	case f.scaling != nil:
		lo, hi, err := parseProcs(f.procs)
		if err != nil {
			return nil, err
		}
		return gen.ScalingFamily(f.scaling, lo, hi, f.syncs...)
	case f.plain > 0:
		return gen.PlainFamily(f.plain, f.seed)
	}
	return gen.Family(gen.FamilyOptions{Shapes: f.shapes, Syncs: f.syncs, Flavors: f.flavors,
		Localities: f.localities, Targets: f.targets, Mix: f.mix, Max: f.max, Seed: f.seed})
}

// parseProcs reads --procs: "LO-HI" or "N"; "" is 4-16.
func parseProcs(s string) (lo, hi int, err error) {
	if s == "" {
		return 4, 16, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	lo, err = strconv.Atoi(strings.TrimSpace(a))
	hi = lo
	if err == nil && isRange {
		hi, err = strconv.Atoi(strings.TrimSpace(b))
	}
	if err != nil || lo > hi || lo < gen.MinScalingProcs || hi > gen.MaxScalingProcs {
		return 0, 0, fmt.Errorf("--procs %q: want LO-HI or N with %d <= LO <= HI <= %d", s, gen.MinScalingProcs, gen.MaxScalingProcs)
	}
	return lo, hi, nil
}

// herdTwins is the x86 twin of each test when --herd is given, else nil.
func herdTwins(f genFlags, fam []gen.FamilyTest) ([][]byte, error) {
	if !f.herd {
		return nil, nil
	}
	twins := make([][]byte, len(fam))
	for i, ft := range fam {
		tw, err := output.HerdX86(ft.Test)
		if err != nil {
			return nil, fmt.Errorf("--herd: %v", err)
		}
		twins[i] = tw.Source
	}
	return twins, nil
}
