package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

type diffFlags struct {
	sems     []string
	hw       string
	switches bool
	search   searchFlags
}

func newDiffCmd() *cobra.Command {
	var f diffFlags
	cmd := &cobra.Command{
		Use:   "diff FILES... --sem A --sem B",
		Short: "List the tests on which two semantics differ, with the outcomes only one allows and their witnesses",
		Long: wrapText(`diff explores each test under two semantics (presets, or presets with switches changed) and `+
			`lists the tests whose outcome sets or flags differ: for each, the outcomes only one side allows, each with `+
			`a witness execution, and the rules only one side's executions break. With --switches it also toggles, one `+
			`at a time, every switch on which the two semantics disagree, and says which switch changes the first `+
			`side's answer and which alone turns it into the second's.`, 80) + "\n" + exitStatusHelp(
			"no test differs",
			"some test differs, or a search stopped at --max-states (no answer is given for that test)"),
		Example: `  rmacheck diff --sem A --sem B litmus/ticket435
  rmacheck diff --sem mpi-3.0 --sem mpi-4.1 --switches litmus/ticket435
  rmacheck diff --sem mpi-3.0 --sem mpi-3.0,lock_ls=on,flush_ls=on --hw tso litmus`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sems, "sem", nil, "the two semantics to compare (give --sem twice)")
	fl.StringVar(&f.hw, "hw", spec.Relaxed.String(), "hardware model: sc, tso or relaxed")
	fl.BoolVar(&f.switches, "switches", false, "say which switch makes each difference (toggling them one at a time)")
	addSearchFlags(fl, &f.search, defaultMaxStates)
	return cmd
}

func runDiff(cmd *cobra.Command, args []string, f diffFlags) error {
	opt, err := f.search.options(0)
	if err != nil {
		return err
	}
	if len(f.sems) != 2 {
		return usageErrorf("give exactly two --sem flags (got %d)", len(f.sems))
	}
	sems, err := parseSems(f.sems)
	if err != nil {
		return err
	}
	hw, err := spec.ParseHW(f.hw)
	if err != nil {
		return usageErrorf("--hw: %v", err)
	}
	tests, bad, err := loadTests(cmd, args, "")
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	differ, incomplete := 0, 0
	for _, t := range tests {
		d, err := explorer.CompareSemantics(t, sems[0], sems[1], hw, opt)
		if err != nil { // a search stopped at --max-states: no answer, as run gives none
			fmt.Fprintf(cmd.ErrOrStderr(), "rmacheck: %s: %v\n", t.File, err)
			incomplete++
			continue
		}
		if !d.Differs() {
			continue
		}
		differ++
		output.Diff(out, d)
		if f.switches {
			effects, err := explorer.Attribute(t, sems[0], sems[1], hw, opt)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "rmacheck: %s: --switches: %v\n", t.File, err)
				incomplete++
			} else {
				writeSwitchEffects(out, d, effects)
			}
		}
		fmt.Fprintln(out)
	}
	verb := "differ"
	if differ == 1 {
		verb = "differs"
	}
	fmt.Fprintf(out, "%d of %s %s between %s and %s (hw %s)", differ, output.Plural(len(tests), "test"), verb, sems[0].Name, sems[1].Name, hw)
	if incomplete > 0 {
		fmt.Fprintf(out, "; %s stopped at --max-states", output.Plural(incomplete, "search"))
	}
	fmt.Fprintln(out)
	switch {
	case bad:
		return exitWith(exitBadInput)
	case differ > 0 || incomplete > 0:
		return exitWith(exitFailed)
	}
	return nil
}

func writeSwitchEffects(w io.Writer, d *explorer.Diff, effects []explorer.SwitchEffect) {
	for _, e := range effects {
		verdict := "changes nothing here"
		switch {
		case e.Explains:
			verdict = "alone makes the whole difference"
		case e.Changes:
			verdict = "changes the answer (part of the difference)"
		}
		fmt.Fprintf(w, "  switch %s (from %s): %s\n", e.Switch.Setting(e.ToB), d.SemA.Name, verdict)
	}
}
