package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

type runFlags struct {
	sems     []string
	hw       string
	show     string
	json     bool
	jobs     int
	shard    string
	search   searchFlags
	noReduce bool
	assert   string
	abi      string
	failOn   []string
	engine   string // operational (the default) or axiomatic (axiomatic.go)
	model    string // --engine axiomatic: a model file instead of the presets'
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
			`per (test, preset, hw) line.`, 80) + "\n" + wrapText(`--fail-on makes some verdicts fail the run whatever the `+
			`expect lines say, for CI: erroneous (some execution breaks an erroneous-class rule), race (a race-class rule `+
			`is raised: RACE, U2, U3), sometimes (herd7's Sometimes: some final outcomes satisfy the condition and `+
			`some do not).`, 80) + "\n" + exitStatusHelp("every expectation is met", "an expectation is broken, a verdict matches --fail-on, or a search stopped at --max-states (that search gives no result)"),
		Example: `  rmacheck run litmus/ticket435/*.lit              # every preset, side by side
  rmacheck run --sem A --show witness SB.lit        # herd7-style block with witness traces
  rmacheck run --sem mpi-3.0,lock_ls=on litmus      # a preset with a switch changed
  rmacheck run --hw tso --json litmus > out.jsonl   # machine-readable, one object per run
  rmacheck run -j 2 --shard 1/4 litmus              # one file in four (job arrays), on 2 cores
  rmacheck run --assert exploit litmus/assertions   # act on the assertions as an implementation may
  rmacheck run --fail-on erroneous,race tests/      # CI: exit 1 on any erroneous or racy verdict`,
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
	addSearchFlags(fl, &f.search, defaultMaxStates)
	fl.BoolVar(&f.noReduce, "no-reduce", false, "turn off the partial-order reduction and the live-variable quotient (same results, more states)")
	addABIFlag(fl, &f.abi)
	fl.StringSliceVar(&f.failOn, "fail-on", nil, "exit 1 when a verdict is erroneous, race or sometimes (comma-separated or repeated), whatever the expect lines say")
	fl.StringVar(&f.assert, "assert", "check", "assertions: check (raise E-ASSERT when false) or exploit (also act on them as an implementation may; expect lines are not checked)")
	fl.StringVar(&f.engine, "engine", "operational", "operational (the model's search) or axiomatic (the model files of docs/axioms.md)")
	fl.StringVar(&f.model, "model", "", "with --engine axiomatic: a model file (.cat) instead of the presets' (docs/axioms.md)")
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

// jobsFor lists the searches of a test (explorer.JobsFor); with every preset (no
// --sem), also the semantics of its expect lines with switches (docs/language.md#expect-lines),
// under their hw model when it is searched.
func jobsFor(t *litmus.Test, sems []spec.Semantics, hws []spec.HW, everyPreset bool) []explorer.Job {
	jobs := explorer.JobsFor(t, sems, hws...)
	if everyPreset {
		jobs = append(jobs, qualifiedJobs(t, jobs)...)
	}
	return jobs
}

// qualifiedJobs are the searches the expect lines with switches ask for, under the hw
// models of jobs: each item's preset with the line's switches.
func qualifiedJobs(t *litmus.Test, jobs []explorer.Job) []explorer.Job {
	var more []explorer.Job
	for _, e := range t.Expects {
		searched := slices.ContainsFunc(jobs, func(j explorer.Job) bool { return j.HW == e.HW })
		if len(e.Switches) == 0 || !searched {
			continue
		}
		for _, it := range e.Items {
			if s, err := e.Semantics(it); err == nil {
				more = append(more, explorer.Job{Test: t, Sem: s, HW: e.HW})
			}
		}
	}
	return more
}

func runRun(cmd *cobra.Command, args []string, f runFlags) error {
	switch f.engine {
	case "axiomatic":
		return runAxiomatic(cmd, args, f)
	case "operational":
	default:
		return usageErrorf("--engine %q: expected operational or axiomatic", f.engine)
	}
	if f.model != "" {
		return usageErrorf("--model is for --engine axiomatic")
	}
	plan, err := f.plan()
	if err != nil {
		return err
	}
	tests, bad, err := loadTestsOn(cmd, args, f.shard, f.jobs)
	if err != nil {
		return err
	}
	if bad && len(tests) == 0 { // nothing to run: the errors alone, no empty table
		return exitWith(exitBadInput)
	}
	notes := newProgressNotes()
	jobs, last := plan.jobs(tests, len(f.sems) == 0, notes, !f.json)
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var table *output.TableWriter
	if !f.json && f.show == "" && len(plan.sems) > 1 {
		table = output.NewTable(out, plan.sems, tests)
	}
	progress := newProgress(errw, "tests", len(tests), f.json)
	sum := runSummary{gates: plan.gates}
	var group []explorer.JobResult // the results of the test being printed
	explorer.Stream(jobs, f.jobs, plan.opt, func(i int, jr *explorer.JobResult) {
		switch {
		case notes.record(i, jr): // a weak-progress search for the note: not shown
		case f.json:
			sum.add(errw, jr)
			record.WriteLine(out, record.NewRun(jr))
		case table == nil:
			sum.add(errw, jr)
			output.Block(out, jr, output.Show(f.show))
		default:
			sum.add(errw, jr)
			group = append(group, *jr)
		}
		if i == last[sum.tests] {
			progress.clear()
			if table != nil {
				table.Test(group)
			}
			notes.note(out, jr.Test)
			group = group[:0]
			sum.tests++
			progress.show(float64(sum.tests), jr.Test.Name)
		}
	})
	progress.clear()
	if !f.json {
		fmt.Fprintln(out, sum.String())
	}
	switch {
	case bad:
		return exitWith(exitBadInput)
	case sum.failed+sum.incomplete+sum.gated > 0:
		return exitWith(exitFailed)
	}
	return nil
}

// runPlan is what run's flags ask for: the searches' options, semantics and hw
// models, whether assertions are exploited, and what fails the run.
type runPlan struct {
	opt     explorer.Options
	sems    []spec.Semantics
	hws     []spec.HW // none: relaxed and the hw models of each test's expect lines
	exploit bool
	gates   failOn
}

// plan reads and checks run's flags.
func (f runFlags) plan() (runPlan, error) {
	var p runPlan
	if err := atLeast("jobs", f.jobs, 0, "0: one per CPU"); err != nil {
		return p, err
	}
	var err error
	if p.opt, err = f.search.options(f.jobs); err != nil {
		return p, err
	}
	p.opt.NoReduce = f.noReduce
	if p.sems, err = parseSems(f.sems); err != nil {
		return p, err
	}
	if f.hw != "" {
		hw, err := spec.ParseHW(f.hw)
		if err != nil {
			return p, usageErrorf("--hw: %v", err)
		}
		p.hws = []spec.HW{hw}
	}
	switch f.show {
	case "", "outcomes", "witness", "all":
	default:
		return p, usageErrorf("--show %q: expected outcomes, witness or all", f.show)
	}
	if p.exploit, err = parseAssert(f.assert); err != nil {
		return p, err
	}
	if p.opt.ABI, err = parseABI(f.abi); err != nil {
		return p, err
	}
	p.gates, err = parseFailOn(f.failOn)
	return p, err
}

// jobs lists the searches of the tests (every preset when no --sem was given), with
// the weak-progress twins of the text output's notes, and the index of each test's
// last search.
func (p runPlan) jobs(tests []*litmus.Test, everyPreset bool, notes *progressNotes, withNotes bool) (jobs []explorer.Job, last []int) {
	for _, t := range tests {
		first := len(jobs)
		for _, j := range jobsFor(t, p.sems, p.hws, everyPreset) {
			j.Exploit = p.exploit
			jobs = append(jobs, j)
		}
		if withNotes { // the note is a line of the text output
			jobs = notes.twins(jobs, first)
		}
		last = append(last, len(jobs)-1)
	}
	return jobs, last
}

// runSummary counts what a run did, for its last line.
type runSummary struct {
	tests, searches, passed, failed, incomplete int
	gates                                       failOn
	gated                                       int // searches whose verdict matches --fail-on
}

// add counts a search's result, and prints why a search gave none.
func (s *runSummary) add(w io.Writer, jr *explorer.JobResult) {
	s.searches++
	if jr.Err != nil {
		fmt.Fprintf(w, "rmacheck: %s (%s, %s): %v\n", jr.Test.File, jr.Sem.Name, jr.HW, jr.Err)
		s.incomplete++
		return
	}
	switch jr.ExpectStatus() {
	case litmus.ExpectMet:
		s.passed++
	case litmus.ExpectBroken:
		s.failed++
	}
	if hit := s.gates.hits(jr.Result.Verdict()); len(hit) > 0 {
		s.gated++
		fmt.Fprintf(w, "rmacheck: --fail-on %s: %s (%s) under %s, hw %s: %s\n",
			strings.Join(hit, ","), jr.Test.Name, jr.Test.File, jr.Sem.Name, jr.HW, jr.Result.Verdict())
	}
}

// String is the run's last line: "2 tests, 8 searches, 5 expectations: 4 passed,
// 1 failed" (and the searches stopped by a bound).
func (s *runSummary) String() string {
	line := fmt.Sprintf("%s, %s, %s", output.Plural(s.tests, "test"), output.Plural(s.searches, "search"), output.Plural(s.passed+s.failed, "expectation"))
	if s.passed+s.failed > 0 {
		line += fmt.Sprintf(": %d passed, %d failed", s.passed, s.failed)
	}
	if s.incomplete > 0 {
		line += fmt.Sprintf("; %s gave no result", output.Plural(s.incomplete, "search"))
	}
	if s.gated > 0 {
		line += fmt.Sprintf("; %s matched --fail-on", output.Plural(s.gated, "search"))
	}
	return line
}

// failOn is the set of verdict kinds --fail-on names.
type failOn struct{ erroneous, race, sometimes bool }

func parseFailOn(words []string) (failOn, error) {
	var g failOn
	for _, w := range words {
		switch strings.TrimSpace(w) {
		case "erroneous":
			g.erroneous = true
		case "race":
			g.race = true
		case "sometimes":
			g.sometimes = true
		default:
			return g, usageErrorf("--fail-on %q: expected erroneous, race or sometimes", w)
		}
	}
	return g, nil
}

// hits lists the kinds of --fail-on that a verdict matches.
func (g failOn) hits(v litmus.Verdict) []string {
	var hit []string
	if g.erroneous && v.IsErroneous() {
		hit = append(hit, "erroneous")
	}
	if g.race && len(v.Race) > 0 {
		hit = append(hit, "race")
	}
	if g.sometimes && !v.IsErroneous() && v.Obs == litmus.ObsSometimes {
		hit = append(hit, "sometimes")
	}
	return hit
}
