package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// matrixOptions say which cells of the conformance matrix to run and where their
// records go: each build of the list (or those named) over each transport named.
type matrixOptions struct {
	bin        string   // rmacheck
	out        string   // the directory of the records: NAME-TRANSPORT[-SUFFIX].json and .log
	suffix     string   // names a second set of records of the same cells (the generated family)
	builds     []string // "" or none: every build of the list
	transports []string
	conform    []string // conform's options and files, the same for every cell
	// command is the rmacheck command each cell runs: conform, or probe (whose records
	// give the Versions of the upstream drafts about a probe's finding).
	command string
	// netRuns, when given, is --runs over net: the net paths run 50 to 150 runs/s
	// where shm runs thousands, and a cell's time is mostly its launches.
	netRuns string
}

// cellRun is what running one cell did, for the summary line.
type cellRun struct {
	build, transport string
	skipped          string // why the cell was not run ("" when it was)
	took             time.Duration
	exit             int
}

// matrixCmd runs conform on each cell of the matrix, one at a time (a cell's runs
// must not share the cores with another's), writing each cell's records and standard
// error. A build that does not install or check is reported and skipped, as is a
// transport a build does not have: neither stops the matrix.
func matrixCmd(l List, cache string, o matrixOptions, stdout io.Writer) int {
	start := time.Now()
	var runs []cellRun
	for _, b := range l.Builds {
		if len(o.builds) > 0 && !slices.Contains(o.builds, b.Name) {
			continue
		}
		r := Install(context.Background(), b, cache)
		if r.Status != "ok" {
			runs = append(runs, cellRun{build: b.Name, skipped: r.Status + ": " + r.Why})
			fmt.Fprintf(stdout, "%-16s skipped, %s: %s\n", b.Name, r.Status, r.Why)
			continue
		}
		for _, tn := range o.transports {
			c := runCell(b, cache, tn, o)
			runs = append(runs, c)
			if c.skipped != "" {
				fmt.Fprintf(stdout, "%-16s %-4s skipped: %s\n", b.Name, tn, c.skipped)
				continue
			}
			fmt.Fprintf(stdout, "%-16s %-4s %6.1f s (%s exit %d)\n", b.Name, tn, c.took.Seconds(), o.command, c.exit)
		}
	}
	fmt.Fprintf(stdout, "matrix: %d cells in %.0f s\n", len(runs), time.Since(start).Seconds())
	return 0
}

// runCell runs conform (or probe) on one build over one transport.
func runCell(b Build, cache, tn string, o matrixOptions) cellRun {
	c := cellRun{build: b.Name, transport: tn}
	t, ok := b.Transport(tn)
	if !ok {
		c.skipped = "the build has no transport " + tn
		return c
	}
	base := filepath.Join(o.out, strings.Join(slices.DeleteFunc([]string{b.Name, tn, o.suffix}, func(s string) bool { return s == "" }), "-"))
	recs, err := os.Create(base + ".json")
	if err != nil {
		c.skipped = err.Error()
		return c
	}
	defer recs.Close()
	log, err := os.Create(base + ".log")
	if err != nil {
		c.skipped = err.Error()
		return c
	}
	defer log.Close()
	args := append(append([]string{o.command}, b.ConformArgs(cache, t)...), "--json")
	args = append(args, o.conform...)
	if t.Profile == "net" && o.netRuns != "" {
		args = append(args, "--runs", o.netRuns) // the last --runs wins
	}
	cmd := exec.Command(o.bin, args...)
	cmd.Stdout, cmd.Stderr = recs, log
	began := time.Now()
	err = cmd.Run()
	c.took = time.Since(began)
	if ee, ok := err.(*exec.ExitError); ok {
		c.exit = ee.ExitCode() // conform's findings exit non-zero: the records say which
	} else if err != nil {
		c.skipped = err.Error()
	}
	return c
}

// parseMatrix reads matrix's options; what follows "--" goes to every conform run.
func parseMatrix(args []string) (matrixOptions, error) {
	o := matrixOptions{}
	i := slices.Index(args, "--")
	if i < 0 {
		return o, fmt.Errorf("give conform's options and files after --")
	}
	o.conform = args[i+1:]
	fl := flag.NewFlagSet("matrix", flag.ContinueOnError)
	fl.StringVar(&o.bin, "bin", "bin/rmacheck", "rmacheck")
	fl.StringVar(&o.out, "out", "reports/matrix", "the directory of the records")
	fl.StringVar(&o.suffix, "suffix", "", "the records' name suffix (NAME-TRANSPORT-SUFFIX.json)")
	builds := fl.String("builds", "", "the builds to run, comma-separated (default every build)")
	transports := fl.String("transports", "shm,net", "the transports to run each build over")
	fl.StringVar(&o.netRuns, "net-runs", "", "conform's --runs over net (default: as given after --)")
	probe := fl.Bool("probe", false, "run rmacheck probe in each cell instead of conform (the options after -- go to probe)")
	if err := fl.Parse(args[:i]); err != nil {
		return o, err
	}
	if *builds != "" {
		o.builds = strings.Split(*builds, ",")
	}
	o.transports = strings.Split(*transports, ",")
	o.command = "conform"
	if *probe {
		o.command, o.netRuns = "probe", "" // probe has no --runs
	}
	return o, nil
}
