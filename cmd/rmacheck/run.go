package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

func init() { extraCommands = append(extraCommands, newRunCmd, newReplayCmd) }

// defaultMaxStates bounds a search by default: about 6 GiB of stored states (some 300
// bytes each), so that two searches at once (-j 2) fit in this 24 GiB machine.
const defaultMaxStates = 20_000_000

type runFlags struct {
	sems      []string
	hw        string
	show      string
	json      bool
	jobs      int
	shard     string
	maxStates int
	noReduce  bool
	assert    string
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run FILES...",
		Short: "Explore every execution of litmus tests under each semantics and report what is allowed",
		Long: wrapText(`run compiles each test with a semantics (a preset, possibly with switches changed) and `+
			`a hardware model, explores every execution exhaustively, and reports the final outcomes, the `+
			`observation of the test's condition (Never, Sometimes, Always) and every MPI rule some execution `+
			`breaks (Erroneous(RULE)).`, 80) + "\n" + wrapText(`By default every preset runs under hw relaxed, and `+
			`the result is a table with one row per test and one column per preset; "ok" marks an expect line `+
			`met, "FAIL" one broken. The hw models that a test's "expect hw=X:" lines name are run too. With one `+
			`--sem, or with --show, each run prints a herd7-style block instead; --json prints one JSON object `+
			`per (test, preset, hw) line.`, 80) + "\n" + exitStatusHelp("every expectation is met", "an expectation is broken, or a search stopped at --max-states (that search gives no result)"),
		Example: `  rmacheck run litmus/ticket435/*.lit              # every preset, side by side
  rmacheck run --sem A --show witness SB.lit        # herd7-style block with witness traces
  rmacheck run --sem mpi-3.0,lock_ls=on litmus      # a preset with a switch changed
  rmacheck run --hw tso --json litmus > out.jsonl   # machine-readable, one object per run
  rmacheck run -j 2 --shard 1/4 litmus              # one file in four (job arrays), on 2 cores
  rmacheck run --assert exploit litmus/assertions   # act on the assertions as an implementation may`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sems, "sem", nil, "semantics PRESET[,switch=on|off...]; repeat for several (default: every preset)")
	fl.StringVar(&f.hw, "hw", "", "hardware model: sc, tso or relaxed (default relaxed, plus those the expect lines name)")
	fl.StringVar(&f.show, "show", "", "print blocks with: outcomes, witness (traces of the outcomes that satisfy the condition, and of each flag) or all")
	fl.BoolVar(&f.json, "json", false, "one JSON object per (test, preset, hw), one a line")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "parallel searches (0, the default: one per CPU)")
	fl.StringVar(&f.shard, "shard", "", "run only shard i of n (i/n, 1-based) of the files, for job arrays")
	fl.IntVar(&f.maxStates, "max-states", defaultMaxStates, "stop a search that stores more states than this (0: no bound)")
	fl.BoolVar(&f.noReduce, "no-reduce", false, "turn off the partial-order reduction (same results, more states)")
	fl.StringVar(&f.assert, "assert", "check", "assertions: check (raise E-ASSERT when false) or exploit (also act on them as an implementation may; expect lines are not checked)")
	return cmd
}

// parseAssert reads --assert.
func parseAssert(v string) (bool, error) {
	switch v {
	case "check", "":
		return false, nil
	case "exploit":
		return true, nil
	}
	return false, usageErrorf("--assert %q: expected check or exploit", v)
}

// parseSems reads the --sem flags (every preset when none).
func parseSems(args []string) ([]spec.Semantics, error) {
	if len(args) == 0 {
		return spec.AllPresets(), nil
	}
	var sems []spec.Semantics
	for _, a := range args {
		for _, part := range splitSemList(a) {
			s, err := spec.ParseSemantics(part)
			if err != nil {
				return nil, usageErrorf("%v", err)
			}
			sems = append(sems, s)
		}
	}
	return sems, nil
}

// splitSemList allows "--sem mpi-3.0;A" as well as repeated flags: presets are
// separated by ';' since ',' separates a preset's switches.
func splitSemList(a string) []string {
	var out []string
	for _, p := range strings.Split(a, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usageErrorf("--shard %q: expected i/n with 1 <= i <= n, e.g. 2/8", s)
	}
	return i, n, nil
}

// loadTests reads the files (of this shard), printing every bad file's errors.
func loadTests(cmd *cobra.Command, args []string, shard string) ([]*litmus.Test, bool, error) {
	si, sn, err := parseShard(shard)
	if err != nil {
		return nil, false, err
	}
	files, ferr := collectFiles(args)
	bad := false
	if ferr != nil {
		printErrors(cmd.ErrOrStderr(), ferr)
		bad = true
	}
	var tests []*litmus.Test
	for k, path := range files {
		if k%sn != si-1 {
			continue
		}
		t, err := loadTest(path)
		if err != nil {
			printErrors(cmd.ErrOrStderr(), err)
			bad = true
			continue
		}
		tests = append(tests, t)
	}
	return tests, bad, nil
}

// jobsFor lists the searches of a test: each semantics under the chosen hw model,
// or under relaxed and every hw model its expect lines name.
func jobsFor(t *litmus.Test, sems []spec.Semantics, hwFlag string) []explorer.Job {
	var hws []model.HW
	if hwFlag != "" {
		h, _ := model.ParseHW(hwFlag)
		hws = []model.HW{h}
	} else {
		hws = []model.HW{model.Relaxed}
		for _, e := range t.Expects {
			if h, err := model.ParseHW(e.HW); err == nil && !containsHW(hws, h) {
				hws = append(hws, h)
			}
		}
	}
	var jobs []explorer.Job
	for _, h := range hws {
		for _, s := range sems {
			jobs = append(jobs, explorer.Job{Test: t, Sem: s, HW: h})
		}
	}
	return jobs
}

func containsHW(hs []model.HW, h model.HW) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

func runRun(cmd *cobra.Command, args []string, f runFlags) error {
	if err := firstError(atLeast("jobs", f.jobs, 0, "0: one per CPU"), atLeast("max-states", f.maxStates, 0, "0: no bound")); err != nil {
		return err
	}
	sems, err := parseSems(f.sems)
	if err != nil {
		return err
	}
	if f.hw != "" {
		if _, err := model.ParseHW(f.hw); err != nil {
			return usageErrorf("--hw: %v", err)
		}
	}
	switch f.show {
	case "", "outcomes", "witness", "all":
	default:
		return usageErrorf("--show %q: expected outcomes, witness or all", f.show)
	}
	exploit, err := parseAssert(f.assert)
	if err != nil {
		return err
	}
	tests, bad, err := loadTests(cmd, args, f.shard)
	if err != nil {
		return err
	}
	var jobs []explorer.Job
	for _, t := range tests {
		for _, j := range jobsFor(t, sems, f.hw) {
			j.Exploit = exploit
			jobs = append(jobs, j)
		}
	}
	results := explorer.RunAll(jobs, f.jobs, explorer.Options{MaxStates: f.maxStates, NoReduce: f.noReduce}, progressPrinter(cmd.ErrOrStderr(), f.json))
	out := cmd.OutOrStdout()
	switch {
	case f.json:
		writeJSONResults(out, results)
	case f.show != "" || len(sems) == 1:
		for i := range results {
			writeBlock(out, &results[i], f.show)
		}
	default:
		writeTable(out, tests, sems, results)
	}
	passed, failed, incomplete := tally(cmd.ErrOrStderr(), results)
	if !f.json {
		fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed+incomplete)
	}
	switch {
	case bad:
		return exitWith(exitBadInput)
	case failed+incomplete > 0:
		return exitWith(exitFailed)
	}
	return nil
}

// tally counts expectations met and broken, and prints searches that gave no result.
func tally(w io.Writer, results []explorer.JobResult) (passed, failed, incomplete int) {
	for i := range results {
		jr := &results[i]
		if jr.Err != nil {
			fmt.Fprintf(w, "rmacheck: %s (%s, %s): %v\n", jr.Test.File, jr.Sem.Name, jr.HW, jr.Err)
			incomplete++
			continue
		}
		switch jr.ExpectStatus() {
		case "met":
			passed++
		case "broken":
			failed++
		}
	}
	return passed, failed, incomplete
}

// progressPrinter shows progress on a terminal for runs of more than a few searches.
func progressPrinter(w io.Writer, quiet bool) func(int, int, *explorer.JobResult) {
	f, ok := w.(*os.File)
	if quiet || !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int, jr *explorer.JobResult) {
		if total < 20 {
			return
		}
		fmt.Fprintf(w, "\r[%d/%d] %-40.40s", done, total, jr.Test.Name)
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

// ----- the side-by-side table -----

func writeTable(w io.Writer, tests []*litmus.Test, sems []spec.Semantics, results []explorer.JobResult) {
	type rowKey struct {
		test *litmus.Test
		hw   model.HW
	}
	cells := map[rowKey][]string{}
	var order []rowKey
	var failures []string
	for i := range results {
		jr := &results[i]
		k := rowKey{jr.Test, jr.HW}
		if _, ok := cells[k]; !ok {
			order = append(order, k)
			cells[k] = make([]string, len(sems))
		}
		col := semIndex(sems, jr.Sem)
		cells[k][col] = tableCell(jr)
		if jr.ExpectStatus() == "broken" && jr.Err == nil {
			failures = append(failures, fmt.Sprintf("FAIL %s (%s): %s hw=%s: expected %s, found %s",
				jr.Test.Name, jr.Test.File, jr.Sem.Name, jr.HW, jr.Expect.ObsString(), jr.Result.ObservationString()))
		}
	}
	header := []string{"Test", "hw"}
	for _, s := range sems {
		header = append(header, s.Name)
	}
	rows := [][]string{header}
	for _, k := range order {
		rows = append(rows, append([]string{k.test.Name, k.hw.String()}, cells[k]...))
	}
	writeColumns(w, rows)
	for _, f := range failures {
		fmt.Fprintln(w, f)
	}
}

func semIndex(sems []spec.Semantics, s spec.Semantics) int {
	for i := range sems {
		if sems[i].Name == s.Name {
			return i
		}
	}
	return 0
}

func tableCell(jr *explorer.JobResult) string {
	if jr.Err != nil {
		return "?"
	}
	cell := jr.Result.ObservationString()
	if race := raceFlags(jr.Result); race != "" && !jr.Result.Erroneous() {
		cell += "+" + race
	}
	switch jr.ExpectStatus() {
	case "met":
		cell += " ok"
	case "broken":
		cell += " FAIL"
	}
	return cell
}

func raceFlags(r *explorer.Result) string {
	var out []string
	for _, f := range r.Flags {
		if f.Class == spec.ClassRace {
			out = append(out, f.Rule)
		}
	}
	return strings.Join(out, ",")
}

// writeColumns prints rows with every column padded to its widest cell.
func writeColumns(w io.Writer, rows [][]string) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(&b, "%-*s  ", width[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// ----- herd7-style blocks -----

func verdictWord(q litmus.Quant) string {
	switch q {
	case litmus.NotExists:
		return "Forbidden"
	case litmus.Forall:
		return "Required"
	}
	return "Allowed"
}

// conditionOK is herd7's Ok/No: the quantified condition holds.
func conditionOK(q litmus.Quant, r *explorer.Result) bool {
	return quantifiedHolds(q, r.Positive, r.Negative)
}

// quantifiedHolds: exists holds when some outcome (or run) satisfies the condition,
// ~exists when none does, forall when all do.
func quantifiedHolds(q litmus.Quant, positive, negative int) bool {
	switch q {
	case litmus.NotExists:
		return positive == 0
	case litmus.Forall:
		return negative == 0
	}
	return positive > 0
}

func writeBlock(w io.Writer, jr *explorer.JobResult, show string) {
	t := jr.Test
	if jr.Err != nil {
		fmt.Fprintf(w, "Test %s (%s, hw %s): no result: %v\n\n", t.Name, jr.Sem.Name, jr.HW, jr.Err)
		return
	}
	r := jr.Result
	p := r.Program
	fmt.Fprintf(w, "Test %s %s (semantics %s, hw %s)\n", t.Name, verdictWord(t.Quant), jr.Sem.Name, jr.HW)
	fmt.Fprintf(w, "States %d\n", len(r.Outcomes))
	for _, o := range r.Outcomes {
		mark := "  "
		if o.Sat {
			mark = "*>"
		}
		line := mark + " " + p.OutcomeString(o.Values)
		if len(o.Flags) > 0 {
			line += "  # " + strings.Join(o.Flags, ",")
		}
		fmt.Fprintln(w, line)
		if show == "all" || (show == "witness" && o.Sat) {
			writeTrace(w, p, o.Witness, "     ")
		}
	}
	if conditionOK(t.Quant, r) {
		fmt.Fprintln(w, "Ok")
	} else {
		fmt.Fprintln(w, "No")
	}
	fmt.Fprintf(w, "Witnesses\nPositive: %d Negative: %d\n", r.Positive, r.Negative)
	for _, f := range r.Flags {
		fmt.Fprintf(w, "Flag %s (%s): %s\n", f.Rule, f.Class, f.Message)
		if show == "witness" || show == "all" {
			writeTrace(w, r.TraceProgram(&f), f.Trace, "     ")
		}
	}
	fmt.Fprintf(w, "Condition %s (%s)\n", t.Quant, litmus.CondString(t.Cond))
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, r.ObservationString(), r.Positive, r.Negative)
	if jr.Expect != nil {
		fmt.Fprintf(w, "Expect %s %s: %s\n", jr.Expect.ObsString(), jr.Sem.Name, jr.ExpectStatus())
	}
	fmt.Fprintf(w, "Time %s %.3f\n\n", t.Name, r.Time.Seconds())
}

// writeTrace prints a witness, one step a line, with the rules a step breaks.
func writeTrace(w io.Writer, p *model.Program, steps []model.Step, indent string) {
	n := 0
	for _, line := range p.TraceLines(steps, true) {
		if strings.HasPrefix(line, "! ") {
			fmt.Fprintf(w, "%s    %s\n", indent, line)
			continue
		}
		if strings.HasPrefix(line, "replay failed") {
			fmt.Fprintf(w, "%s%s\n", indent, line)
			continue
		}
		n++
		fmt.Fprintf(w, "%s%2d  %s\n", indent, n, line)
	}
}
