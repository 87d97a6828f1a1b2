package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

type distinguishFlags struct {
	sems                []string
	hw                  string
	maxProcs, maxInstrs int
	out                 string
	limit               int
	all, noShrink       bool
	computed            bool
	search              searchFlags
}

func newDistinguishCmd() *cobra.Command {
	var f distinguishFlags
	cmd := &cobra.Command{
		Use:   "distinguish --sem X --sem Y [--hw H] [--max-procs 3] [--max-instrs 4] [--out DIR]",
		Short: "Find the smallest tests on which two semantics allow different outcomes or raise different rules",
		Long: wrapText(`distinguish searches programs, smallest first, for tests on which the two semantics differ: `+
			`an outcome one allows and the other does not, a different observation, or a rule raised by one `+
			`only. The programs searched are the tests of the mixed diy7-style family of 'rmacheck gen --mix' `+
			`(every shape, sync, flavor and locality) with at most --max-procs processes. Each distinguishing test `+
			`is shrunk by delta debugging (dropping processes, rows and instructions) to a smallest program with `+
			`the same difference (the same two observations, the same sides with outcomes and rules of their `+
			`own), named NAME-min, and kept when every process has at most --max-instrs instructions. `+
			`Tests are grouped in classes (shape and syncs of the test they come from, and the difference); one `+
			`test per class is printed, smallest first, each with its distinguishing outcome and the witness `+
			`execution of it (or of the rule); --all prints every test, --limit bounds how many. --out writes `+
			`the printed tests as .lit files.`, 80) + "\n" + exitStatusHelp("no test distinguishes them", "some test does"),
		Example: `  rmacheck distinguish --sem A --sem B
  rmacheck distinguish --sem mpi-3.0 --sem mpi-4.1 --max-instrs 6 --limit 0 --out diffs
  rmacheck distinguish --sem B --sem B,lock_ls=on --hw tso`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runDistinguish(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sems, "sem", nil, "the two semantics PRESET[,switch=on|off...] (give --sem twice)")
	fl.StringVar(&f.hw, "hw", spec.Relaxed.String(), "hardware model: sc, tso or relaxed")
	fl.IntVar(&f.maxProcs, "max-procs", 3, "at most this many processes")
	fl.IntVar(&f.maxInstrs, "max-instrs", 4, "at most this many instructions per process (sync calls included) in the tests reported")
	fl.StringVar(&f.out, "out", "", "write the printed tests as DIR/NAME.lit")
	fl.IntVar(&f.limit, "limit", 10, "print at most this many tests (0: no bound)")
	fl.BoolVar(&f.all, "all", false, "print every distinguishing test, not one per class")
	fl.BoolVar(&f.computed, "computed", false, "search the family's computed-target tests too (gen --target computed)")
	fl.BoolVar(&f.noShrink, "no-shrink", false, "report the family tests as found, without shrinking them")
	addSearchFlags(fl, &f.search, 1_000_000)
	return cmd
}

func runDistinguish(cmd *cobra.Command, f distinguishFlags) error {
	sems, err := parseSems(f.sems)
	if err != nil {
		return err
	}
	if len(f.sems) == 0 || len(sems) != 2 {
		return usageErrorf("give exactly two semantics: --sem X --sem Y")
	}
	hw, err := spec.ParseHW(f.hw)
	if err != nil {
		return usageErrorf("--hw: %v", err)
	}
	if f.maxProcs < 1 || f.maxInstrs < 1 {
		return usageErrorf("--max-procs and --max-instrs must be at least 1")
	}
	if err := atLeast("limit", f.limit, 0, "0: no bound"); err != nil {
		return err
	}
	search, err := f.search.options(0)
	if err != nil {
		return err
	}
	progress := newProgress(cmd.ErrOrStderr(), "candidates", 0, false)
	diffs, searched, err := gen.Distinguish(gen.DistinguishOptions{X: sems[0], Y: sems[1], HW: hw,
		MaxProcs: f.maxProcs, MaxInstrs: f.maxInstrs, NoShrink: f.noShrink, Computed: f.computed, Search: search,
		Progress: progress.showOf})
	progress.clear()
	if err != nil {
		return exitError{code: exitFailed, err: err}
	}
	shown := diffs
	classes := len(diffs)
	if !f.all {
		shown = onePerClass(diffs)
		classes = len(shown)
	}
	if f.limit > 0 && len(shown) > f.limit {
		shown = shown[:f.limit]
	}
	out := cmd.OutOrStdout()
	fmt.Fprintln(out, distinguishHeader(sems[0].Name, sems[1].Name, hw, f, len(diffs), classes, searched, len(shown)))
	for _, d := range shown {
		fmt.Fprintln(out)
		writeDifference(out, d)
	}
	if f.out != "" && len(shown) > 0 {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return ioError(err)
		}
		b := atomicfile.Batch{Outputs: true}
		for _, d := range shown {
			b.Add(filepath.Join(f.out, d.Test.Name+".lit"), d.Source, 0o644)
		}
		if err := b.Commit(); err != nil {
			return ioError(err)
		}
		fmt.Fprintf(out, "\nwrote %d tests to %s\n", len(shown), f.out)
	}
	if len(diffs) > 0 {
		return exitWith(exitFailed)
	}
	return nil
}

// distinguishHeader says what was searched, what was found and what is shown:
// "Distinguishing A and B (hw relaxed): 95 of 740 candidates tell them apart
// (shrunk to at most 3 processes of at most 4 instructions each), in 72 classes;
// showing the smallest test of 1 class (--limit 1)".
func distinguishHeader(x, y string, hw spec.HW, f distinguishFlags, found, classes, searched, shown int) string {
	line := fmt.Sprintf("Distinguishing %s and %s (hw %s): %d of %s tell them apart", x, y, hw, found, output.Plural(searched, "candidate"))
	if f.noShrink {
		line += fmt.Sprintf(" (at most %d processes of at most %d instructions each)", f.maxProcs, f.maxInstrs)
	} else {
		line += fmt.Sprintf(" (shrunk to at most %d processes of at most %d instructions each)", f.maxProcs, f.maxInstrs)
	}
	switch {
	case found == 0:
		return line
	case f.all:
		line += "; showing " + output.Plural(shown, "test")
	default:
		line += fmt.Sprintf(", in %s (shape, syncs and kind of difference); showing the smallest test of %s", output.Plural(classes, "class"), output.Plural(shown, "class"))
	}
	if f.limit > 0 && shown == f.limit && shown < classes {
		line += fmt.Sprintf(" (--limit %d)", f.limit)
	}
	return line
}

// onePerClass keeps the smallest test of each class; the smallest of each kind of
// difference (Signature) comes first, so the first tests shown differ in kind.
func onePerClass(diffs []*gen.Difference) []*gen.Difference {
	seenClass, seenSig := map[string]bool{}, map[string]bool{}
	var first, rest []*gen.Difference
	for _, d := range diffs {
		if seenClass[d.Class()] {
			continue
		}
		seenClass[d.Class()] = true
		if !seenSig[d.Signature()] {
			seenSig[d.Signature()] = true
			first = append(first, d)
		} else {
			rest = append(rest, d)
		}
	}
	sort.SliceStable(first, func(i, j int) bool { return gen.Size(first[i].Test) < gen.Size(first[j].Test) })
	return append(first, rest...)
}

func writeDifference(w io.Writer, d *gen.Difference) {
	from := ""
	if d.From != "" {
		from = ", shrunk from " + d.From
	}
	fmt.Fprintf(w, "== %s (%s, %s in all, at most %d a process%s)\n", d.Test.Name, output.Plural(len(d.Test.Procs), "process"),
		output.Plural(gen.Size(d.Test), "instruction"), gen.Instrs(d.Test), from)
	w.Write(d.Source)
	output.Diff(w, d.Diff)
}
