package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

type replayFlags struct {
	sem, hw, outcome, flag, assert string
	maxStates                      int
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
		Example: `  rmacheck replay litmus/ticket435/MP+fence.lit --sem mpi-3.0 --outcome '1:r0=0'
  rmacheck replay SB.lit --sem A --flag E-EPOCH
  rmacheck replay SB.lit --sem mpi-4.1 --hw tso --outcome '0:r0=0 /\ 1:r0=0'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReplay(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.sem, "sem", "mpi-4.1", "semantics PRESET[,switch=on|off...]")
	fl.StringVar(&f.hw, "hw", "relaxed", "hardware model: sc, tso or relaxed")
	fl.StringVar(&f.outcome, "outcome", "", `the outcome, e.g. '1:r0=0; x=1' or '1:r0=0 /\ x=1'`)
	fl.StringVar(&f.flag, "flag", "", "a rule id, e.g. E-EPOCH: replay the first execution found that breaks it")
	fl.IntVar(&f.maxStates, "max-states", defaultMaxStates, "stop a search that stores more states than this (0: no bound)")
	fl.StringVar(&f.assert, "assert", "check", "assertions: check or exploit (see run --help)")
	return cmd
}

func runReplay(cmd *cobra.Command, file string, f replayFlags) error {
	if err := atLeast("max-states", f.maxStates, 0, "0: no bound"); err != nil {
		return err
	}
	if (f.outcome == "") == (f.flag == "") {
		return usageErrorf("give exactly one of --outcome and --flag")
	}
	if f.flag != "" && !spec.IsRuleID(f.flag) {
		return usageErrorf("--flag %q: not a rule that can be raised ('rmacheck explain --all' lists them)", f.flag)
	}
	sems, err := parseSems([]string{f.sem})
	if err != nil {
		return err
	}
	hw, err := model.ParseHW(f.hw)
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
	jr := explorer.Job{Test: t, Sem: sems[0], HW: hw, Exploit: exploit}.Run(explorer.Options{MaxStates: f.maxStates})
	if jr.Err != nil {
		return exitError{code: exitFailed, err: jr.Err}
	}
	r := jr.Result
	p := r.Program
	out := cmd.OutOrStdout()
	var steps []model.Step
	var what string
	if f.flag != "" {
		fl := findFlag(r, f.flag)
		if fl == nil {
			return exitError{code: exitFailed, err: fmt.Errorf("no execution of %s under %s (hw %s) raises %s (raised: %s)",
				t.Name, sems[0].Name, hw, f.flag, flagNames(r))}
		}
		steps, what = fl.Trace, fmt.Sprintf("flag %s: %s", fl.Rule, fl.Message)
		if tp := r.TraceProgram(fl); tp != p {
			p = tp
			what += " (the concurrency checks run on the relaxed model)"
		}
	} else {
		want, err := parseAssignments(p, f.outcome)
		if err != nil {
			return usageErrorf("--outcome: %v", err)
		}
		o := findOutcome(r, want)
		if o == nil {
			return exitError{code: exitFailed, err: fmt.Errorf("no execution of %s under %s (hw %s) ends in %s", t.Name, sems[0].Name, hw, f.outcome)}
		}
		steps, what = o.Witness, "outcome "+p.OutcomeString(o.Values)
	}
	fmt.Fprintf(out, "Witness of %s under %s (hw %s): %s\n", t.Name, sems[0].Name, hw, what)
	writeTrace(out, p, steps, "")
	_, final, _ := p.Replay(steps)
	fmt.Fprintf(out, "Final %s\n", p.OutcomeString(p.OutcomeValues(final)))
	return nil
}

func findFlag(r *explorer.Result, rule string) *explorer.Flag {
	for i := range r.Flags {
		if strings.EqualFold(r.Flags[i].Rule, rule) {
			return &r.Flags[i]
		}
	}
	return nil
}

func flagNames(r *explorer.Result) string {
	var names []string
	for _, f := range r.Flags {
		names = append(names, f.Rule)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// parseAssignments reads "1:r0=0; x=1" (separators ';', ',' or '/\') into outcome
// item index -> value. Only the names the outcome shows can be given.
func parseAssignments(p *model.Program, s string) (map[int]int64, error) {
	s = strings.NewReplacer(`/\`, ";", ",", ";").Replace(s)
	want := map[int]int64{}
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%q: expected NAME=VALUE", part)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: the value must be an integer", part)
		}
		idx := -1
		var names []string
		for i, o := range p.Out {
			names = append(names, o.Name)
			if o.Name == strings.TrimSpace(name) {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("%q is not shown in this test's outcomes (shown: %s; add it to a locations line)",
				strings.TrimSpace(name), strings.Join(names, " "))
		}
		want[idx] = v
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("no NAME=VALUE given")
	}
	return want, nil
}

func findOutcome(r *explorer.Result, want map[int]int64) *explorer.Outcome {
	for i := range r.Outcomes {
		o := &r.Outcomes[i]
		ok := true
		for k, v := range want {
			ok = ok && o.Values[k] == v
		}
		if ok {
			return o
		}
	}
	return nil
}
