package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/crosscheck"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

type crosscheckFlags struct {
	sems     []string
	hws      []string
	model    string
	known    string
	witness  bool
	quiet    bool
	shard    string
	maxState int
}

func newCrosscheckCmd() *cobra.Command {
	var f crosscheckFlags
	cmd := &cobra.Command{
		Use:   "crosscheck FILES...",
		Short: "Run tests under both formalizations, operational and axiomatic, and report where they differ",
		Long: wrapText(`crosscheck runs each test under the operational model (the search of run) and the `+
			`axiomatic one (run --engine axiomatic: the model files of docs/axioms.md), per preset and `+
			`hardware model, and compares the outcomes (each with the rules its executions raise) and the rules `+
			`raised. A difference is printed with a witness from the engine that has it: the operational `+
			`model's trace, the axiomatic engine's execution. Tests with constructs outside the axiomatic `+
			`engine's scope are listed with the constructs.`, 80) + "\n" +
			wrapText(`--known FILE reads departures already known ("FILE PRESET HW | why", PRESET and HW may be *; `+
				`FILE as the command line names it, or its base name): they are printed with their reason and `+
				`do not fail the run.`, 80) + "\n" +
			exitStatusHelp("the engines agree on every case in scope", "some case differs (not a known departure), or an engine gave no result"),
		Example: `  rmacheck crosscheck litmus/*/*.lit                  # every preset, hw relaxed and the expect lines' hw
  rmacheck crosscheck --hw sc --hw tso --hw relaxed SB.lit
  rmacheck crosscheck --sem mpi-4.1 --model mine.cat SB.lit   # a model file against the preset's operational model
  rmacheck crosscheck --witness -q bench/generated     # only the differences, with witnesses`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCrosscheck(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sems, "sem", nil, "preset to compare under; repeat for several (default: every preset)")
	fl.StringArrayVar(&f.hws, "hw", nil, "hardware model; repeat for several (default: relaxed and those the expect lines name)")
	fl.StringVar(&f.model, "model", "", "the axiomatic model file to compare (with one --sem: the preset it stands for)")
	fl.StringVar(&f.known, "known", "", "known departures to report apart (axiom/testdata/known-departures.txt)")
	fl.BoolVar(&f.witness, "witness", false, "print each difference's witness")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print only the differences and the summary")
	fl.StringVar(&f.shard, "shard", "", "run only shard i of n (i/n, 1-based) of the files, for job arrays")
	fl.IntVar(&f.maxState, "max-states", defaultMaxStates, "stop an operational search after this many states (0: no bound)")
	return cmd
}

func runCrosscheck(cmd *cobra.Command, args []string, f crosscheckFlags) error {
	presets := axiom.PresetNames()
	if len(f.sems) > 0 {
		presets = nil
		for _, a := range f.sems {
			presets = append(presets, splitSemList(a)...)
		}
	}
	var model *axiom.Model
	if f.model != "" {
		if len(presets) != 1 {
			return usageErrorf("--model compares one model file: name the preset it stands for with one --sem")
		}
		m, err := axiom.LoadModel(f.model)
		if err != nil {
			return usageErrorf("--model: %v", err)
		}
		model = m
	}
	for _, p := range presets {
		if _, ok := spec.Preset(spec.PresetName(p)); !ok {
			return usageErrorf("--sem %q: not a preset (%s)", p, strings.Join(spec.PresetNames(), ", "))
		}
	}
	var hws []spec.HW
	for _, h := range f.hws {
		hw, err := spec.ParseHW(h)
		if err != nil {
			return usageErrorf("--hw: %v", err)
		}
		hws = append(hws, hw)
	}
	var known *crosscheck.Departures
	if f.known != "" {
		file, err := os.Open(f.known)
		if err != nil {
			return usageErrorf("--known: %v", err)
		}
		known, err = crosscheck.ParseDepartures(file)
		file.Close()
		if err != nil {
			return usageErrorf("--known: %v", err)
		}
	}
	tests, bad, err := loadTestsOn(cmd, args, f.shard, 1)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	var agree, differ, departures, failed, scope int
	outside := map[string]int{}
	refused := map[string][]string{}
	for _, t := range tests {
		th := hws
		if th == nil {
			th = testHWs(t)
		}
		for _, hw := range th {
			for _, p := range presets {
				c := crosscheck.Case{File: t.File, Test: t, Preset: p, HW: hw}
				if why := known.Lookup(t.File, p, hw.String()); why != "" || known.Lookup(filepath.Base(t.File), p, hw.String()) != "" {
					if why == "" {
						why = known.Lookup(filepath.Base(t.File), p, hw.String())
					}
					departures++
					fmt.Fprintf(out, "%s: known departure: %s\n", c, why)
					continue
				}
				r := crosscheck.Run(c, model, explorer.Options{MaxStates: f.maxState})
				switch {
				case r.OutOfScope != nil:
					scope++
					for _, k := range r.OutOfScope.Constructs() {
						outside[k]++
					}
					refused[t.File] = r.OutOfScope.Constructs()
				case r.Err != nil:
					failed++
				case len(r.Diffs) > 0:
					differ++
				default:
					agree++
				}
				if !f.quiet || r.Err != nil || len(r.Diffs) > 0 {
					r.Write(out, f.witness)
				}
			}
		}
	}
	fmt.Fprintf(out, "%s: %d agree, %d differ, %d known departures, %d out of the axiomatic engine's scope (%s)",
		output.Plural(agree+differ+departures+failed+scope, "case"), agree, differ, departures, scope, output.Plural(len(refused), "file"))
	if failed > 0 {
		fmt.Fprintf(out, ", %d gave no result", failed)
	}
	fmt.Fprintln(out)
	if len(outside) > 0 {
		var ks []string
		for k := range outside {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			fmt.Fprintf(out, "  out of scope: %s (%s)\n", k, output.Plural(outside[k], "case"))
		}
	}
	switch {
	case bad:
		return exitWith(exitBadInput)
	case differ+failed > 0:
		return exitWith(exitFailed)
	}
	return nil
}
