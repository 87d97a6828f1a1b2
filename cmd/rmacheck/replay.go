package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

type replayFlags struct {
	sem, hw, outcome, flag, assert, abi string
	search                              searchFlags
}

func newReplayCmd() *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE --sem PRESET (--outcome 'ASSIGNMENTS' | --flag RULE)",
		Short: "Print, step by step, an execution that ends in an outcome or breaks a rule",
		Long: wrapText(`replay explores the test under one semantics and hardware model, picks the witness `+
			`execution of the outcome given by --outcome (every named register or cell must have the `+
			`given value; others may have any) or of the rule given by --flag, and re-runs it step by `+
			`step, printing the process, row, instruction and effect of each step.`, 80) + "\n" + exitStatusHelp("the execution was printed", "no execution ends in the outcome or raises the rule, or the search stopped at --max-states"),
		Example: `  rmacheck replay litmus/ticket435/SB+fence.lit --sem mpi-3.0 --outcome '0:r0=0 /\ 1:r0=0'
  rmacheck replay SB.lit --sem A --flag E-EPOCH
  rmacheck replay SB.lit --sem mpi-4.1 --hw tso --outcome '0:r0=0 /\ 1:r0=0'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReplay(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.sem, "sem", string(spec.DefaultPreset), "semantics PRESET[,switch=on|off...]")
	fl.StringVar(&f.hw, "hw", spec.Relaxed.String(), "hardware model: sc, tso or relaxed")
	fl.StringVar(&f.outcome, "outcome", "", `the outcome, e.g. '1:r0=0; x=1' or '1:r0=0 /\ x=1'`)
	fl.StringVar(&f.flag, "flag", "", "a rule id, e.g. E-EPOCH: replay the first execution found that breaks it")
	addSearchFlags(fl, &f.search, defaultMaxStates)
	fl.StringVar(&f.assert, "assert", "check", "assertions: check or exploit (see run --help)")
	addABIFlag(fl, &f.abi)
	return cmd
}

func runReplay(cmd *cobra.Command, file string, f replayFlags) error {
	opt, err := f.search.options(0)
	if err != nil {
		return err
	}
	if (f.outcome == "") == (f.flag == "") {
		return usageErrorf("give exactly one of --outcome and --flag")
	}
	rule, err := flagRule(f.flag)
	if err != nil {
		return err
	}
	sems, err := parseSems([]string{f.sem})
	if err != nil {
		return err
	}
	hw, err := spec.ParseHW(f.hw)
	if err != nil {
		return usageErrorf("--hw: %v", err)
	}
	t, err := loadTest(file)
	if err != nil {
		printErrors(cmd.ErrOrStderr(), err)
		return exitWith(exitBadInput)
	}
	exploit, err := parseAssert(f.assert)
	if err != nil {
		return err
	}
	abi, err := parseABI(f.abi)
	if err != nil {
		return err
	}
	jr := explorer.Job{Test: t, Sem: sems[0], HW: hw, Exploit: exploit}.Run(withABI(opt, abi))
	if jr.Err != nil {
		return exitError{code: exitFailed, err: jr.Err}
	}
	r := jr.Result
	var trace *model.Trace
	var what string
	var mark spec.RuleID
	if f.flag != "" {
		fl := findFlag(r, rule)
		if fl == nil {
			return exitError{code: exitFailed, err: fmt.Errorf("no execution of %s under %s (hw %s) raises %s (raised: %s)",
				t.Name, sems[0].Name, hw, f.flag, flagNames(r))}
		}
		trace, what, mark = fl.Trace(), "flag "+output.DiagnosticLine(t.File, &fl.Diagnostic), fl.Rule
		if fl.Witness.Program != r.Program {
			what += " (the concurrency checks run on the relaxed model)"
		}
	} else {
		o, err := findOutcome(r, f.outcome)
		if err != nil {
			return usageErrorf("--outcome: %v", err)
		}
		if o == nil {
			return exitError{code: exitFailed, err: fmt.Errorf("no execution of %s under %s (hw %s) ends in %s", t.Name, sems[0].Name, hw, f.outcome)}
		}
		trace, what = o.Trace(), "outcome "+r.Program.OutcomeString(o.Values)
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Witness of %s under %s (hw %s): %s\n", t.Name, sems[0].Name, hw, what)
	tr := trace
	output.WriteTrace(out, tr, "", mark)
	switch {
	case tr.Err != nil:
		return exitError{code: exitFailed, err: fmt.Errorf("the witness does not replay: %v", tr.Err)}
	case tr.Ended:
		fmt.Fprintf(out, "Final %s\n", tr.Outcome)
	default:
		fmt.Fprintf(out, "Stopped at %s (the execution goes on; the rule is broken here)\n", tr.Outcome)
	}
	return nil
}

// flagRule reads --flag: a rule id in any case, one that an execution can raise
// (NoRule when the flag is not given).
func flagRule(flag string) (spec.RuleID, error) {
	if flag == "" {
		return spec.NoRule, nil
	}
	r, ok := spec.LookupRule(flag)
	if !ok || !r.ID.Raisable() {
		return spec.NoRule, usageErrorf("--flag %q: not a rule that can be raised ('rmacheck explain --all' lists them)", flag)
	}
	return r.ID, nil
}

func findFlag(r *explorer.Result, rule spec.RuleID) *explorer.Flag {
	for i := range r.Flags {
		if r.Flags[i].Rule == rule {
			return &r.Flags[i]
		}
	}
	return nil
}

func flagNames(r *explorer.Result) string {
	var names []string
	for _, f := range r.Flags {
		names = append(names, f.Rule.String())
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// findOutcome finds the first outcome satisfying cond, a condition over the
// outcome's items ('1:r0=0 /\ x=1', or herd7's '1:r0=0; x=1;').
func findOutcome(r *explorer.Result, cond string) (*explorer.Outcome, error) {
	c, err := litmus.ParseCondition(cond)
	if err != nil {
		return nil, err
	}
	holds, err := r.Program.Condition(c)
	if err != nil {
		return nil, err
	}
	for i := range r.Outcomes {
		if holds(r.Outcomes[i].Values) {
			return &r.Outcomes[i], nil
		}
	}
	return nil, nil
}
