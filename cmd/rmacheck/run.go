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
	table    bool   // the table of verdict codes instead of plain words
	width    int    // the verdict lines' width (outputWidth)
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
			`each test gets one line in plain words per group of presets (and hw model) with the same verdict: `+
			`"correct under mpi-4.1", "racy under A: data race at FILE:LINE:COL", "erroneous under A: RULE at `+
			`FILE:LINE:COL", and, for a test with spin loops that hangs only without asynchronous progress, "may `+
			`hang without asynchronous progress (allowed: MPI-4.1 leaves progress to the implementation)"; a `+
			`FAIL line follows each broken expect line. -v (--table) prints the codes behind the words instead, `+
			`a table with one row per test and one column per preset ("ok" marks an expect line met, "FAIL" one `+
			`broken). The hw models that a test's "expect hw=X:" lines name are run too. With one `+
			`--sem, or with --show, each run prints a herd7-style block instead; --json prints one JSON object `+
			`per (test, preset, hw) line.`, 80) + "\n" + wrapText(`--fail-on makes some verdicts fail the run whatever the `+
			`expect lines say, for CI: erroneous (some execution breaks an erroneous-class rule: not valid MPI), may-hang `+
			`(the test hangs on a library without asynchronous progress, which MPI-4.1 allows), race (a data race `+
			`between plain accesses; polling a flag that an RMA call sets is valid MPI and passes), unpredictable `+
			`(the program reads a value MPI leaves to the implementation, polling included), sometimes `+
			`(herd7's Sometimes: some final outcomes satisfy the condition and some do not).`, 80) + "\n" + exitStatusHelp("every expectation is met and no verdict matches --fail-on (a test that may hang without asynchronous progress, which MPI-4.1 allows, passes unless --fail-on may-hang)", "an expectation is broken, a verdict matches --fail-on, or a search stopped at --max-states (that search gives no result)"),
		Example: `  rmacheck run litmus/ticket435/*.lit              # every preset, a verdict line per group
  rmacheck run -v litmus/ticket435/*.lit           # the codes, side by side
  rmacheck run --sem A --show witness SB.lit        # herd7-style block with witness traces
  rmacheck run --sem mpi-3.0,lock_ls=on litmus      # a preset with a switch changed
  rmacheck run --hw tso --json litmus > out.jsonl   # machine-readable, one object per run
  rmacheck run -j 2 --shard 1/4 litmus              # one file in four (job arrays), on 2 cores
  rmacheck run --assert exploit litmus/assertions   # act on the assertions as an implementation may
  rmacheck run --fail-on erroneous,race tests/      # CI: exit 1 on any erroneous or racy verdict
  rmacheck run --fail-on may-hang tests/            # CI: exit 1 on code that needs asynchronous progress`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.sems, "sem", nil, "semantics PRESET[,switch=on|off...]; repeat for several (default: every preset)")
	fl.StringVar(&f.hw, "hw", "", "hardware model: sc, tso or relaxed (default relaxed, plus those the expect lines name)")
	fl.StringVar(&f.show, "show", "", "print blocks with: outcomes, witness (traces of the outcomes that satisfy the condition, and of each flag) or all")
	fl.BoolVarP(&f.table, "table", "v", false, "with several semantics, the table of verdict codes (Sometimes+U2, Erroneous(E-EPOCH)) instead of plain words")
	fl.IntVar(&f.width, "width", 0, "wrap long lines (verdicts, flags) at this many columns (0, the default: "+fmt.Sprint(terminalWidth)+" on a terminal, none off one)")
	fl.BoolVar(&f.json, "json", false, "one JSON object per (test, preset, hw), one a line")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "parallel searches (0, the default: one per CPU)")
	fl.StringVar(&f.shard, "shard", "", "run only shard i of n (i/n, 1-based) of the files, for job arrays")
	addSearchFlags(fl, &f.search, defaultMaxStates)
	fl.BoolVar(&f.noReduce, "no-reduce", false, "turn off the partial-order reduction and the live-variable quotient (same results, more states)")
	addABIFlag(fl, &f.abi)
	fl.StringSliceVar(&f.failOn, "fail-on", nil, "exit 1 when a verdict is "+failOnKinds+" (comma-separated or repeated), whatever the expect lines say")
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
	f.jobs = plan.opt.Workers // -j within the CPUs and the memory bound
	if err := atLeast("width", f.width, 0, "0: "+fmt.Sprint(terminalWidth)+" on a terminal"); err != nil {
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
	// the weak-progress searches run for the text output's note and for --fail-on may-hang
	jobs, last := plan.jobs(tests, len(f.sems) == 0, notes, !f.json || plan.gates.mayHang)
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	width := outputWidth(out, f.width)
	var table interface{ Test([]output.Judged) } // a test's results side by side
	var verdicts *output.VerdictWriter
	switch {
	case f.json || f.show != "" || len(plan.sems) == 1:
	case f.table:
		table = output.NewTable(out, plan.sems, tests)
	default:
		verdicts = output.NewVerdicts(out, tests, width)
		table = verdicts
	}
	progress := newProgress(errw, "tests", len(tests), f.json)
	sum := runSummary{gates: plan.gates}
	var group []output.Judged // the results of the test being printed
	explorer.Stream(jobs, f.jobs, plan.opt, func(i int, jr *explorer.JobResult) {
		judged, twin := notes.record(i, jr)
		switch {
		case twin: // a search for a note: not shown
		case f.json:
			sum.add(errw, judged)
			record.WriteLine(out, record.NewRun(jr))
		case table == nil:
			sum.add(errw, judged)
			output.Block(out, judged, output.Show(f.show), width)
		default:
			sum.add(errw, judged)
			group = append(group, judged)
		}
		if i == last[sum.tests] {
			progress.clear()
			if table != nil {
				table.Test(group)
			}
			if sems := notes.mayHang(jr.Test); len(sems) > 0 {
				switch {
				case verdicts != nil:
					verdicts.MayHang(jr.Test, sems)
				case !f.json:
					note(out, jr.Test, sems)
				}
				sum.mayHang(errw, jr.Test)
			}
			sum.testDone(errw)
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
			jobs = notes.add(jobs, j)
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
	gated                                       int                 // searches whose verdict matches --fail-on
	hits                                        []string            // the test's gate messages, in order
	hitSems                                     map[string][]string // per message: its semantics
}

// add counts a search's result, and prints why a search gave none.
func (s *runSummary) add(w io.Writer, jr output.Judged) {
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
	if hit := s.gates.hits(jr); len(hit) > 0 {
		s.gated++
		words := output.VerdictWords(jr)
		msg := fmt.Sprintf("rmacheck: --fail-on %s: %s (%s) under %%s, hw %s: %s (%s)",
			strings.Join(hit, ","), jr.Test.Name, jr.Test.File, jr.HW, words.Kind, jr.Result.Verdict())
		if s.hitSems == nil {
			s.hitSems = map[string][]string{}
		}
		if _, ok := s.hitSems[msg]; !ok {
			s.hits = append(s.hits, msg)
		}
		s.hitSems[msg] = append(s.hitSems[msg], jr.Sem.Name)
	}
}

// testDone prints the gate messages of the test just run, one per verdict and group
// of semantics that give it.
func (s *runSummary) testDone(w io.Writer) {
	for _, msg := range s.hits {
		fmt.Fprintf(w, msg+"\n", output.SemGroup(s.hitSems[msg]))
		delete(s.hitSems, msg)
	}
	s.hits = s.hits[:0]
}

// mayHang counts a test that needs asynchronous progress against --fail-on may-hang.
func (s *runSummary) mayHang(w io.Writer, t *litmus.Test) {
	if s.gates.mayHang {
		s.gated++
		fmt.Fprintf(w, "rmacheck: --fail-on may-hang: %s (%s) may hang without asynchronous progress\n", t.Name, t.File)
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

// failOn is the set of verdict kinds --fail-on names, each a gate a CI can put on real
// code (docs/tutorial.md, "9. In CI" and "10. Gates for eight idioms"):
//   - erroneous: some execution breaks an erroneous-class rule (the program is not valid MPI);
//   - may-hang: the test hangs on a library without asynchronous progress (the weak-progress
//     note), which MPI-4.1 allows: a gate for code that must not rely on progress;
//   - race: a data race between plain accesses (RACE), whose result neither MPI nor the
//     language defines; polling a flag an RMA call updates (U2, U3) is valid MPI and passes;
//   - unpredictable: the program reads a value MPI leaves to the implementation: any
//     race-class flag (RACE, U2, U3), polling included;
//   - sometimes: herd7's Sometimes, some outcomes satisfy the condition and some do not.
type failOn struct{ erroneous, mayHang, race, unpredictable, sometimes bool }

// failOnKinds are --fail-on's words, as its messages list them.
const failOnKinds = "erroneous, may-hang, race, unpredictable or sometimes"

func parseFailOn(words []string) (failOn, error) {
	var g failOn
	for _, w := range words {
		switch strings.TrimSpace(w) {
		case "erroneous":
			g.erroneous = true
		case "may-hang":
			g.mayHang = true
		case "race":
			g.race = true
		case "unpredictable":
			g.unpredictable = true
		case "sometimes":
			g.sometimes = true
		default:
			return g, usageErrorf("--fail-on %q: expected %s", w, failOnKinds)
		}
	}
	return g, nil
}

// hits lists the kinds of --fail-on that a search's verdict matches (may-hang: a
// LIVELOCK only weak progress causes, in a search with weak_progress on; the note's
// twins are counted by runSummary.mayHang).
func (g failOn) hits(jr output.Judged) []string {
	var hit []string
	v := jr.Result.Verdict()
	kind := output.VerdictWords(jr).Kind
	if g.erroneous && kind == output.KindErroneous {
		hit = append(hit, "erroneous")
	}
	if g.mayHang && kind == output.KindMayHang {
		hit = append(hit, "may-hang")
	}
	if g.race && slices.Contains(v.Race, spec.Race) {
		hit = append(hit, "race")
	}
	if g.unpredictable && len(v.Race) > 0 {
		hit = append(hit, "unpredictable")
	}
	if g.sometimes && !v.IsErroneous() && v.Obs == litmus.ObsSometimes {
		hit = append(hit, "sometimes")
	}
	return hit
}
