package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/evidence"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
)

func init() { extraCommands = append(extraCommands, newReportCmd) }

type reportFlags struct {
	out, title, date string
	sems, hws        []string
	conform, probes  []string
	exploit          bool
	maxStates        int
	abi              string
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report FILES... --out reports/NAME",
		Short: "Write an evidence report (Markdown and self-contained HTML) for standards discussions",
		Long: wrapText(`report explores every test under each semantics and hw model and writes NAME/report.md and `+
			`NAME/report.html: a summary table, the sentences of the standard each switch rests on and those that `+
			`contradict each other, and per test the program as a column table, the observation and outcomes per `+
			`semantics and hw model, the flags with links to the MPI-4.1 report nodes, every outcome that tells two `+
			`semantics apart with a witness (drawn as an execution diagram in the HTML), and the conformance histograms `+
			`of the JSON files given with --conform (from rmacheck conform --json). The page needs no network. The `+
			`report states the command, the rmacheck version and the date that produced it.`, 80) + "\n" + exitStatusHelp("the report was written", "a search stopped at --max-states (no report is written)"),
		Example: `  rmacheck report litmus/ticket435 --out reports/ticket-435
  rmacheck conform --target reference --json litmus/ticket435 > ref.json
  rmacheck report litmus/ticket435 --out reports/ticket-435 --conform ref.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReport(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "the report's folder (required)")
	fl.StringVar(&f.title, "title", "", "the report's title (default: from --out)")
	fl.StringVar(&f.date, "date", "", "the date written in the report (default: today, UTC)")
	fl.StringArrayVar(&f.sems, "sem", nil, "semantics to compare (default: every preset)")
	fl.StringArrayVar(&f.hws, "hw", []string{"relaxed"}, "hardware models (repeat for several)")
	fl.StringArrayVar(&f.conform, "conform", nil, "conformance results (rmacheck conform --json output) to include")
	fl.StringArrayVar(&f.probes, "probe", nil, "rmacheck probe output (text) of a library to include")
	fl.BoolVar(&f.exploit, "exploit", false, "also show what exploiting the assertions (--assert exploit) adds")
	fl.IntVar(&f.maxStates, "max-states", defaultMaxStates, "stop a search that stores more states than this (0: no bound)")
	addABIFlag(fl, &f.abi)
	return cmd
}

func runReport(cmd *cobra.Command, args []string, f reportFlags) error {
	if err := atLeast("max-states", f.maxStates, 0, "0: no bound"); err != nil {
		return err
	}
	if f.out == "" {
		return usageErrorf("--out is required")
	}
	sems, err := parseSems(f.sems)
	if err != nil {
		return err
	}
	var hws []model.HW
	for _, h := range f.hws {
		hw, err := model.ParseHW(h)
		if err != nil {
			return usageErrorf("--hw: %v", err)
		}
		hws = append(hws, hw)
	}
	tests, bad, err := loadTests(cmd, args, "")
	if err != nil {
		return err
	}
	if bad {
		return exitWith(exitBadInput)
	}
	r := &evidence.Report{Title: f.title, Command: commandLine(cmd, args), Version: version,
		Date: f.date, Sems: sems, HWs: hws, Exploit: f.exploit}
	if r.Title == "" {
		r.Title = "rmacheck report: " + filepath.Base(f.out)
	}
	if r.Date == "" {
		r.Date = time.Now().UTC().Format("2006-01-02")
	}
	for _, path := range f.conform {
		runs, err := output.ReadConformRecords(path)
		if err != nil {
			return exitError{code: exitBadInput, err: err}
		}
		r.Conform = append(r.Conform, runs...)
	}
	for _, path := range f.probes {
		data, err := litmus.ReadFile(path, maxFileSize)
		if err != nil {
			return exitError{code: exitBadInput, err: err}
		}
		r.Probes = append(r.Probes, evidence.Probe{Name: filepath.Base(path), Text: string(data)})
	}
	abi, err := parseABI(f.abi)
	if err != nil {
		return err
	}
	if err := r.Build(tests, explorer.Options{MaxStates: f.maxStates, ABI: abi}); err != nil {
		return exitError{code: exitFailed, err: err}
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return ioError(err)
	}
	var b atomicfile.Batch // both or neither: never a new report.md beside an old report.html
	b.Add(filepath.Join(f.out, "report.md"), r.Markdown(), 0o644)
	b.Add(filepath.Join(f.out, "report.html"), r.HTML(), 0o644)
	if err := b.Commit(); err != nil {
		return ioError(err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s and %s (%d tests)\n", filepath.Join(f.out, "report.md"), filepath.Join(f.out, "report.html"), len(tests))
	return nil
}
