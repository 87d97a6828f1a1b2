package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/litmus"
)

// targetFlags choose the conformance target and how an MPI library's programs are
// built and launched (conform; fuzz has the name only).
type targetFlags struct {
	name          string
	oversubscribe bool
	timeout       time.Duration
	keepC         string
	launcher      string
	hostfile      string
}

// addLaunchFlags adds the flags of how a library runs (conform).
func addLaunchFlags(fl *pflag.FlagSet, f *targetFlags) {
	fl.BoolVar(&f.oversubscribe, "oversubscribe", false, "mpich: run more ranks than cores (MPICH busy-polls, so this is refused by default)")
	fl.DurationVar(&f.timeout, "timeout", 0, "mpich, openmpi: bound on one test's compile and run (0, the default: 30s + 1ms per iteration)")
	fl.StringVar(&f.keepC, "keep-c", "", "mpich, openmpi: also write each test's C program into this directory (created if needed)")
	fl.StringVar(&f.launcher, "launcher", "", "mpich, openmpi: start the ranks with this command instead of the library's mpiexec, e.g. 'srun -N 2 --ntasks-per-node 1' or 'mpiexec.mpich -hosts a,b' (split at spaces; -n N, the program and its arguments follow)")
}

// launchFlagsSet reports whether a flag of a library's launch was given.
func (f targetFlags) launchFlagsSet() bool {
	return f.oversubscribe || f.keepC != "" || f.launcher != "" || f.hostfile != "" || f.timeout != 0
}

// target is the target the flags name: the reference runtime, or an installed
// library (a missing one is exit status 3, with the packages that provide it).
func (f targetFlags) target() (conform.Target, error) {
	if f.name == "reference" {
		return conform.Reference{}, nil
	}
	if _, ok := conform.KnownLibrary(f.name); !ok {
		return nil, usageErrorf("--target %q: expected reference, mpich or openmpi", f.name)
	}
	lib, err := conform.LookupLibrary(f.name)
	if err != nil {
		return nil, exitError{code: exitCannotRun, err: err}
	}
	return conform.MPI{Lib: lib, Timeout: f.timeout, KeepDir: f.keepC, Launch: conform.LaunchOptions{
		Oversubscribe: f.oversubscribe, Launcher: strings.Fields(f.launcher), Hostfile: f.hostfile}}, nil
}

// checkLaunch checks the launch flags against each other and reads the hostfile;
// printErrs prints what is wrong with it.
func (f targetFlags) checkLaunch(printErrs func(error)) error {
	if f.launcher != "" && f.hostfile != "" {
		return usageErrorf("give --hostfile to the library's mpiexec, or put it in --launcher, not both")
	}
	if f.launcher != "" && len(strings.Fields(f.launcher)) == 0 {
		return usageErrorf("--launcher: empty command")
	}
	if f.hostfile != "" {
		if _, err := litmus.ReadFile(f.hostfile, maxFileSize); err != nil {
			printErrs(err)
			return exitWith(exitBadInput)
		}
	}
	return nil
}

// makeKeepDir creates --keep-c's directory once, up front: not one failure per test.
func makeKeepDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ioError(fmt.Errorf("--keep-c: %w", err))
	}
	return nil
}
