package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/evidence"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

type reportFlags struct {
	out, title, date      string
	sems, hws             []string
	conform, probes       []string
	question, upstream    string
	index                 string
	exploit, distinguish  bool
	matrix                bool
	distProcs, distInstrs int
	search                searchFlags
	abi                   string
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report FILES... --out reports/NAME",
		Short: "Write an evidence report (Markdown and self-contained HTML) for standards discussions",
		Long: wrapText(`report explores every test under each semantics and hw model and writes NAME/report.md and `+
			`NAME/report.html. The report opens with the question it answers and its one-line answer (--question: `+
			`a file whose check lines are verdicts of the report's own results; a check that does not hold fails `+
			`the report), then Findings computed from its data: for each pair of semantics that some of its tests tell `+
			`apart, those tests (and, with --distinguish, the smallest generated test that does: rmacheck distinguish, `+
			`bounded by --distinguish-procs and --distinguish-instrs; generated tests are outside the report's own `+
			`question, so only a question about the readings themselves asks for them); for each conformance target, every NON-CONFORMING test with its rate, the rule `+
			`it breaks and its status upstream (--upstream), every spin limit and failed run; for each probe, the `+
			`results that violate MPI-4.0 or 4.1. Then a one-screen summary table, and per test its expect lines, `+
			`the program, the verdict and outcomes per semantics and hw model, the flags with links to the MPI-4.1 `+
			`report nodes, every difference between two semantics with its witness (each distinct witness drawn once `+
			`as an execution diagram in the HTML, with reads-from edges and the steps that run out of program order `+
			`marked), and the conformance runs of the JSON files given with --conform (from rmacheck conform --json, `+
			`which records failed and refused runs too: time-outs, crashes, refusals), each compared with the model `+
			`on the hw model it names. The page needs no network. The report states the `+
			`command, the rmacheck version and the date that produced it. --index DIR writes DIR/README.md, the `+
			`list of the reports in DIR with their questions and answers.`, 80) + "\n" + exitStatusHelp("the report was written", "a search stopped at --max-states (no report is written)"),
		Example: `  rmacheck report litmus/ticket435 --out reports/ticket-435
  rmacheck conform --target reference --json litmus/ticket435 > ref.json
  rmacheck report litmus/ticket435 --out reports/ticket-435 --conform ref.json
  rmacheck report --index reports`,
		RunE: func(cmd *cobra.Command, args []string) error { return runReport(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "the report's folder (required)")
	fl.BoolVar(&f.matrix, "matrix", false, "write OUT/README.md, the conformance matrix of the --conform files (a column each) instead of a report: the tests with a finding in some column; with --upstream, also fill the Versions tables of the drafts beside the status file (from the --conform records and the --probe files)")
	fl.StringVar(&f.title, "title", "", "the report's title (default: from --out)")
	fl.StringVar(&f.date, "date", "", "the date written in the report, YYYY-MM-DD (default: today, UTC)")
	fl.StringArrayVar(&f.sems, "sem", nil, "semantics to compare (default: every preset, and mpi-4.1 without asynchronous progress)")
	fl.StringArrayVar(&f.hws, "hw", []string{spec.Relaxed.String()}, "hardware models (repeat for several)")
	fl.StringArrayVar(&f.conform, "conform", nil, "conformance results (rmacheck conform --json output) to include")
	fl.StringArrayVar(&f.probes, "probe", nil, "rmacheck probe --json output of a library to include")
	fl.StringVar(&f.question, "question", "", "the question the report answers, its answer and the checks the answer rests on")
	fl.StringVar(&f.upstream, "upstream", "", "the status upstream of library findings (reports/upstream/status.json)")
	fl.StringVar(&f.index, "index", "", "write DIR/README.md, the index of the reports in DIR, and nothing else")
	fl.BoolVar(&f.exploit, "exploit", false, "also show what exploiting the assertions (--assert exploit) adds")
	fl.BoolVar(&f.distinguish, "distinguish", false, "also search generated tests for the smallest that tells each pair of semantics apart (for a question about the readings themselves)")
	fl.IntVar(&f.distProcs, "distinguish-procs", 2, "the generated tests searched have at most this many processes")
	fl.IntVar(&f.distInstrs, "distinguish-instrs", 4, "and at most this many instructions per process")
	addSearchFlags(fl, &f.search, defaultMaxStates)
	addABIFlag(fl, &f.abi)
	return cmd
}

func runReport(cmd *cobra.Command, args []string, f reportFlags) error {
	opt, err := f.search.options(0)
	switch {
	case err != nil:
		return err
	case f.index != "":
		return writeIndex(cmd, args, f)
	case f.matrix:
		return writeMatrix(cmd, args, f)
	case len(args) == 0:
		return usageErrorf("give the test files (or --index DIR)")
	case f.out == "":
		return usageErrorf("--out is required")
	}
	r, err := f.report(cmd, args)
	if err != nil {
		return err
	}
	tests, bad, err := loadTests(cmd, args, "")
	if err != nil {
		return err
	}
	if bad {
		return exitWith(exitBadInput)
	}
	if err := f.readData(r); err != nil {
		return exitError{code: exitBadInput, err: err}
	}
	abi, err := parseABI(f.abi)
	if err != nil {
		return err
	}
	if err := f.smallestTests(cmd, r); err != nil {
		return err
	}
	if err := buildReport(cmd, r, tests, withABI(opt, abi)); err != nil {
		return err
	}
	return writeReport(cmd, r, f.out, len(tests))
}

// report is the report the flags ask for, before its data: title, command, version,
// date, semantics and hw models.
func (f reportFlags) report(cmd *cobra.Command, args []string) (*evidence.Report, error) {
	sems, err := parseSems(f.sems)
	if err != nil {
		return nil, err
	}
	if len(f.sems) == 0 {
		// A report of a user's own tests says which hang without asynchronous
		// progress, as the polling report does: MPI-4.1 leaves progress open.
		noProgress, err := spec.ParseSemantics("mpi-4.1,weak_progress=on")
		if err != nil {
			return nil, err
		}
		sems = append(sems, noProgress)
	}
	var hws []spec.HW
	for _, h := range f.hws {
		hw, err := spec.ParseHW(h)
		if err != nil {
			return nil, usageErrorf("--hw: %v", err)
		}
		hws = append(hws, hw)
	}
	if f.date != "" {
		if _, err := time.Parse("2006-01-02", f.date); err != nil {
			return nil, usageErrorf("--date %q: expected a date as YYYY-MM-DD", f.date)
		}
	}
	return &evidence.Report{Title: cmp.Or(f.title, "rmacheck report: "+filepath.Base(f.out)), Command: commandLine(cmd, args), Version: version,
		Date: cmp.Or(f.date, time.Now().UTC().Format("2006-01-02")), Sems: sems, HWs: hws, Exploit: f.exploit}, nil
}

// readData reads the records, probes, question and upstream status the flags name
// into the report.
func (f reportFlags) readData(r *evidence.Report) error {
	for _, path := range f.conform {
		runs, err := record.ReadConform(path)
		if err != nil {
			return err
		}
		r.Conform = append(r.Conform, runs...)
	}
	for _, path := range f.probes {
		pr, err := readProbe(path)
		if err != nil {
			return err
		}
		r.Probes = append(r.Probes, evidence.Probe{Name: filepath.Base(path), Probe: *pr})
	}
	var err error
	if f.question != "" {
		if r.Question, err = evidence.ReadQuestion(f.question); err != nil {
			return err
		}
	}
	if f.upstream != "" {
		r.Upstream, err = evidence.ReadUpstream(f.upstream)
	}
	return err
}

// smallestTests searches, with --distinguish, the smallest generated test that tells
// each pair of the report's semantics apart.
func (f reportFlags) smallestTests(cmd *cobra.Command, r *evidence.Report) error {
	if !f.distinguish || len(r.Sems) < 2 {
		return nil
	}
	if f.distProcs < 1 || f.distInstrs < 1 {
		return usageErrorf("--distinguish-procs and --distinguish-instrs must be at least 1")
	}
	progress := newProgress(cmd.ErrOrStderr(), "candidates (distinguishing tests)", 0, false)
	var err error
	r.Smallest, err = gen.SmallestTests(r.Sems, f.distProcs, f.distInstrs, progress.showOf)
	progress.clear()
	if err != nil {
		return exitError{code: exitFailed, err: err}
	}
	return nil
}

// commitReport writes report.md and report.html of one folder under the folder's lock:
// each rename is atomic, but two runs' renames interleaved (1 round in 5).
func commitReport(md, page string, mdText, pageText []byte) error {
	unlock, err := lockFolder(filepath.Dir(md))
	if err != nil {
		return ioError(err)
	}
	defer unlock()
	b := atomicfile.Batch{Outputs: true}
	b.Add(md, mdText, 0o644)
	b.Add(page, pageText, 0o644)
	if err := b.Commit(); err != nil {
		return ioError(err)
	}
	return nil
}

// writeReport writes OUT/report.md and OUT/report.html, both or neither: never a new
// report.md beside an old report.html.
func writeReport(cmd *cobra.Command, r *evidence.Report, out string, tests int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return ioError(err)
	}
	md, page := filepath.Join(out, "report.md"), filepath.Join(out, "report.html")
	if err := commitReport(md, page, r.Markdown(), r.HTML()); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s and %s (%d tests)\n", md, page, tests)
	return nil
}

// writeIndex writes DIR/README.md, the index of the reports in DIR (--index).
func writeIndex(cmd *cobra.Command, args []string, f reportFlags) error {
	if len(args) > 0 || f.out != "" {
		return usageErrorf("--index takes no files and no --out")
	}
	page, err := evidence.Index(f.index)
	if err != nil {
		return exitError{code: exitBadInput, err: err}
	}
	path := filepath.Join(f.index, "README.md")
	if err := atomicfile.WriteOutput(path, page, 0o644); err != nil {
		return ioError(err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", path)
	return nil
}

// writeMatrix writes the conformance matrix of the --conform files, a column for
// each target their records name.
func writeMatrix(cmd *cobra.Command, args []string, f reportFlags) error {
	if len(args) > 0 || f.out == "" || len(f.conform) == 0 {
		return usageErrorf("--matrix takes no files, and needs --out and --conform")
	}
	var recs []record.Conform
	for _, path := range f.conform {
		more, err := record.ReadConform(path)
		if err != nil {
			return exitError{code: exitBadInput, err: err}
		}
		if len(more) == 0 { // issue 38 row 11: an empty file made a "?" column
			return exitError{code: exitBadInput, err: fmt.Errorf("%s: no conform records (write them with rmacheck conform --json)", path)}
		}
		recs = append(recs, more...)
	}
	cols := evidence.MatrixColumns(recs)
	title := cmp.Or(f.title, "Conformance matrix")
	path := filepath.Join(f.out, "README.md")
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return ioError(err)
	}
	if err := atomicfile.WriteOutput(path, evidence.Matrix(title, cols), 0o644); err != nil {
		return ioError(err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", path)
	if f.upstream != "" {
		return writeVersions(cmd, f.upstream, cols, f.probes)
	}
	return nil
}

// readProbe reads a probe's record (probe --json).
func readProbe(path string) (*conform.Probe, error) {
	data, err := litmus.ReadFile(path, maxFileSize)
	if err != nil {
		return nil, err
	}
	return record.ParseProbe(path, data)
}

// writeVersions fills the Versions tables of the upstream drafts (the Markdown files
// beside the status file that have a generated Versions block) from the matrix, so
// each draft names the newest release it reproduces on, or the first where it stops.
func writeVersions(cmd *cobra.Command, status string, cols []evidence.MatrixColumn, probePaths []string) error {
	u, err := evidence.ReadUpstream(status)
	if err != nil {
		return exitError{code: exitBadInput, err: err}
	}
	var probes []conform.Probe
	for _, path := range probePaths {
		pr, err := readProbe(path)
		if err != nil {
			return exitError{code: exitBadInput, err: err}
		}
		probes = append(probes, *pr)
	}
	drafts, err := filepath.Glob(filepath.Join(filepath.Dir(status), "*.md"))
	if err != nil {
		return ioError(err)
	}
	for _, path := range drafts {
		old, err := os.ReadFile(path)
		if err != nil {
			return ioError(err)
		}
		if !evidence.HasVersions(old) {
			continue
		}
		text, err := u.FillVersions(old, cols, probes)
		if err != nil {
			return exitError{code: exitBadInput, err: fmt.Errorf("%s: %v", path, err)}
		}
		if err := atomicfile.WriteOutput(path, text, 0o644); err != nil {
			return ioError(err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", path)
	}
	return nil
}

// buildReport runs the searches the report needs (explorer, over the CPUs this
// process may use) and builds the report from their results.
func buildReport(cmd *cobra.Command, r *evidence.Report, tests []*litmus.Test, opt explorer.Options) error {
	jobs, err := r.Jobs(tests)
	if err != nil {
		return exitError{code: exitFailed, err: err}
	}
	results := make([]explorer.JobResult, len(jobs))
	progress := newProgress(cmd.ErrOrStderr(), "searches", len(jobs), false)
	explorer.Stream(jobs, 0, opt, func(i int, jr *explorer.JobResult) {
		results[i] = *jr
		progress.showOf(i+1, len(jobs), jr.Test.Name)
	})
	progress.clear()
	if err := r.Build(tests, results); err != nil {
		if errors.As(err, new(evidence.RecordError)) { // issue 38 row 14
			return exitError{code: exitBadInput, err: err}
		}
		return exitError{code: exitFailed, err: err}
	}
	return nil
}
