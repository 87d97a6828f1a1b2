package main

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/reference"
)

// targetFlags choose the conformance target and how an MPI library's programs are
// built and launched (conform; fuzz has the name only).
type targetFlags struct {
	name          string
	prefix        string   // --mpi: an MPI install
	mpicc         string   // --mpicc
	mpiexec       string   // --mpiexec
	mpiexecArgs   string   // --mpiexec-args
	env           []string // --env
	transport     string   // --transport
	oversubscribe bool
	timeout       time.Duration
	keepC         string
	launcher      string
	hostfile      string
	// maxWindowBytes bounds a window segment in the C program (--max-window-bytes).
	maxWindowBytes byteSize
}

// addLibraryFlags adds the flags that name an MPI install and set its run.
func addLibraryFlags(fl *pflag.FlagSet, f *targetFlags) {
	fl.Var((*pathFlag)(&f.prefix), "mpi", "run on the MPI library installed at this prefix (PREFIX/bin/mpicc and PREFIX/bin/mpiexec; MPICH or Open MPI, told by mpiexec --version)")
	fl.Var((*pathFlag)(&f.mpicc), "mpicc", "with --mpiexec: run on the MPI library of this compiler wrapper (path or name on PATH); overrides --mpi's")
	fl.Var((*pathFlag)(&f.mpiexec), "mpiexec", "with --mpicc: launch with this mpiexec (path or name on PATH); overrides --mpi's")
	fl.StringVar(&f.mpiexecArgs, "mpiexec-args", "", "further options of the library's mpiexec, before -n N (split into words as a shell does, quotes included), e.g. '--mca btl self,tcp'")
	fl.StringVar(&f.transport, "transport", "shm", "the library's path between ranks: shm (its own choice on one node) or net (its inter-node path between ranks of this node; see docs/mpi.md)")
	fl.StringArrayVar(&f.env, "env", nil, "NAME=VALUE for the library's processes (repeat for several), e.g. MPIR_CVAR_ASYNC_PROGRESS=1")
}

// pathFlag is a path flag that refuses an empty value: `--mpi "$MPI_HOME"` with
// $MPI_HOME unset must not quietly run the reference runtime (issue 38 row 6).
type pathFlag string

func (p *pathFlag) String() string { return string(*p) }
func (p *pathFlag) Type() string   { return "PATH" }
func (p *pathFlag) Set(v string) error {
	if v == "" {
		return fmt.Errorf("empty path (an unset variable such as $MPI_HOME?)")
	}
	*p = pathFlag(v)
	return nil
}

// addLaunchFlags adds the flags of how a library runs (conform).
func addLaunchFlags(fl *pflag.FlagSet, f *targetFlags) {
	addLibraryFlags(fl, f)
	fl.BoolVar(&f.oversubscribe, "oversubscribe", true, "mpich: run more ranks than cores, with a note (MPICH busy-polls: they share cores, slowly); --oversubscribe=false refuses such tests (exit 3)")
	fl.DurationVar(&f.timeout, "timeout", 0, "mpich, openmpi: bound on one test's compile and run, counting the time its processes could run (not the time they waited for a CPU or were stopped), and at most 10 times that in wall time (0, the default: 30s + 1ms per iteration)")
	f.maxWindowBytes = cgen.DefaultMaxWindowBytes
	fl.Var(&f.maxWindowBytes, "max-window-bytes", "mpich, openmpi: refuse a test whose window segment on one rank is larger than this in the C program (e.g. 16MiB)")
	fl.StringVar(&f.keepC, "keep-c", "", "mpich, openmpi: also write each test's C program into this directory (created if needed)")
	fl.StringVar(&f.launcher, "launcher", "", "mpich, openmpi: start the ranks with this command instead of the library's mpiexec, e.g. 'srun -N 2 --ntasks-per-node 1' or 'mpiexec.mpich -hosts a,b' (split into words as a shell does, quotes included, but run without one; -n N, the program and its arguments follow)")
}

// launchFlagsSet reports whether a flag of a library's launch was given.
func (f targetFlags) launchFlagsSet() bool {
	return f.install() || f.mpiexecArgs != "" || len(f.env) > 0 || f.transport != "shm" || !f.oversubscribe || f.keepC != "" || f.launcher != "" || f.hostfile != "" || f.timeout != 0
}

// install reports whether the flags name an MPI install (--mpi, --mpicc, --mpiexec).
func (f targetFlags) install() bool {
	return f.prefix != "" || f.mpicc != "" || f.mpiexec != ""
}

// target is the target the flags name: the reference runtime (with ref's options),
// a Debian library by its family's word, or the install of --mpi or --mpicc and
// --mpiexec (a missing library is exit status 2, setup, with what to install or give).
func (f targetFlags) target(ref reference.Options) (conform.Target, error) {
	kind, _, err := f.named()
	if err != nil || kind == conform.KindReference {
		return conform.Reference{Runtime: ref}, err
	}
	lib, err := f.library()
	if err != nil {
		return nil, err
	}
	launcher, err := splitWords(f.launcher)
	if err != nil {
		return nil, usageErrorf("--launcher %v", err)
	}
	return conform.MPI{Lib: lib, Timeout: f.timeout, KeepDir: f.keepC, MaxWindowBytes: int(f.maxWindowBytes), Launch: conform.LaunchOptions{
		Oversubscribe: f.oversubscribe, Launcher: launcher, Hostfile: f.hostfile}}, nil
}

// named reads what the flags name: the reference runtime, the Debian library of a
// family (--target mpich), or an install (--mpi, --mpicc, --mpiexec: its family is
// what its launcher says, NoFamily here).
func (f targetFlags) named() (conform.Kind, conform.Family, error) {
	if f.install() {
		if f.name != conform.ReferenceName && f.name != "" {
			return 0, 0, usageErrorf("--target %s and --mpi/--mpicc/--mpiexec name two libraries; give one", f.name)
		}
		return conform.KindMPI, conform.NoFamily, nil
	}
	kind, fam, err := conform.ParseTargetName(f.name)
	if err != nil {
		return 0, 0, usageErrorf("--target: %v (or --mpi PREFIX for another MPI install)", err)
	}
	return kind, fam, nil
}

// library is the MPI library the flags name, with --transport, --env and
// --mpiexec-args.
func (f targetFlags) library() (conform.Library, error) {
	lib, err := f.namedLibrary()
	if err != nil {
		return lib, err
	}
	if lib, err = lib.Over(f.transport); err != nil {
		return lib, usageErrorf("--transport: %v", err)
	}
	env, err := conform.ParseEnv(f.env)
	if err != nil {
		return lib, usageErrorf("--env %v", err)
	}
	lib.Env = append(lib.Env, env...)
	args, err := splitWords(f.mpiexecArgs)
	if err != nil {
		return lib, usageErrorf("--mpiexec-args %v", err)
	}
	lib.ExecArgs = append(slices.Clip(lib.ExecArgs), args...)
	return lib, nil
}

// namedLibrary is the MPI library the flags name: --target's Debian library, or the
// install of --mpi, --mpicc and --mpiexec.
func (f targetFlags) namedLibrary() (conform.Library, error) {
	kind, fam, err := f.named()
	switch {
	case err != nil:
		return conform.Library{}, err
	case kind == conform.KindReference:
		return conform.Library{}, usageErrorf("--target %s: not an MPI library: expected mpich or openmpi (or --mpi PREFIX)", f.name)
	case f.prefix == "" && (f.mpicc == "" || f.mpiexec == "") && fam == conform.NoFamily:
		return conform.Library{}, usageErrorf("--mpicc and --mpiexec go together (or --mpi PREFIX for both)")
	}
	var lib conform.Library
	if fam != conform.NoFamily {
		lib, err = conform.PackageLibrary(fam)
	} else {
		lib, err = conform.Install{Prefix: f.prefix, MPICC: f.mpicc, MPIExec: f.mpiexec}.Library()
	}
	if err != nil { // no such library here: setup, as bad input is
		return lib, exitError{code: exitBadInput, err: err}
	}
	return lib, nil
}

// checkLaunch checks the launch flags against each other and reads the hostfile;
// printErrs prints what is wrong with it.
func (f targetFlags) checkLaunch(printErrs func(error)) error {
	if f.launcher != "" && f.hostfile != "" {
		return usageErrorf("give --hostfile to the library's mpiexec, or put it in --launcher, not both")
	}
	if words, err := splitWords(f.launcher); err != nil {
		return usageErrorf("--launcher %v", err)
	} else if f.launcher != "" && len(words) == 0 {
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
