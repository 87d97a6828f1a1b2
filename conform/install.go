package conform

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rmacheck/rmacheck/internal/supervise"
)

// Library describes how to build and run programs with one MPI library.
type Library struct {
	Family   Family
	Prefix   string   // where it is installed ("": the Debian package's, tools on PATH)
	CC       string   // the compiler wrapper
	Exec     string   // the launcher
	ExecArgs []string // before -n N
	Packages string   // the Debian packages that provide it ("": installed otherwise)
	// HostfileFlag is the launcher's option that names a hostfile.
	HostfileFlag string
	// BusyPolls: the library spins while it waits, so more ranks than cores crawl.
	BusyPolls bool
	// Env is set (NAME=VALUE) for the launcher and the ranks, over this process's
	// environment: transport selection, asynchronous progress.
	Env []string
	// Transport is the transport profile the options and Env select (shm, net; Over).
	Transport string
	// Major is the major version the launcher's --version says (0: not asked, as for
	// the Debian packages): profiles that changed between releases go by it (Over).
	Major int
}

// Libraries are the MPI libraries of the Debian packages, one row for each family:
// what --target names by the family's word. A row is all a library needs; MPI runs
// tests on any, such as one installed at a prefix of the user's (Install).
var Libraries = []Library{
	familyOf(MPICH).library("mpicc.mpich", "mpiexec.mpich", "mpich libmpich-dev"),
	familyOf(OpenMPI).library("mpicc.openmpi", "mpiexec.openmpi", "openmpi-bin libopenmpi-dev"),
}

// PackageLibrary is the row of Libraries of a family, checked to be installed.
func PackageLibrary(f Family) (Library, error) {
	i := slices.IndexFunc(Libraries, func(lib Library) bool { return lib.Family == f })
	if i < 0 {
		return Library{Family: f}, fmt.Errorf("no Debian package of %s is known: give its install (--mpi PREFIX)", f.Name())
	}
	return Libraries[i], Libraries[i].Installed()
}

// PackageLauncher is the launcher of the Debian package of a family over a transport
// (shm when ""), before "-n N", or "" when there is none: what a conformance record of
// format 1, which named every install by its family, says the launcher was when none
// of its records recorded one.
func PackageLauncher(f Family, transport string) string {
	i := slices.IndexFunc(Libraries, func(lib Library) bool { return lib.Family == f })
	if i < 0 {
		return ""
	}
	lib, err := Libraries[i].Over(cmp.Or(transport, Transports[0]))
	if err != nil {
		return ""
	}
	return strings.Join(lib.launcher(LaunchOptions{}), " ")
}

// Installed checks that the library's compiler wrapper and launcher can be found.
func (lib Library) Installed() error {
	for _, tool := range []string{lib.CC, lib.Exec} {
		if _, err := exec.LookPath(tool); err != nil {
			return &MissingLibraryError{Lib: lib, Tool: tool}
		}
	}
	return nil
}

// MissingLibraryError says which Debian packages provide a missing library.
type MissingLibraryError struct {
	Lib  Library
	Tool string
}

func (e *MissingLibraryError) Error() string {
	if e.Lib.Packages == "" {
		return fmt.Sprintf("%s is not installed (%s not found); give the prefix of an MPI install (--mpi PREFIX, with PREFIX/bin/mpicc and PREFIX/bin/mpiexec) or --mpicc and --mpiexec",
			e.Lib.Family.Name(), e.Tool)
	}
	return fmt.Sprintf("%s is not installed (%s not found); install it with: apt-get install %s",
		e.Lib.Family.Name(), e.Tool, e.Lib.Packages)
}

// IsMissingLibrary reports whether err is a MissingLibraryError.
func IsMissingLibrary(err error) bool {
	var m *MissingLibraryError
	return errors.As(err, &m)
}

// family is what launching a library's programs needs that is the same for every
// install of it: how its launcher takes a hostfile, the options it always needs,
// and whether it busy-polls.
type family struct {
	Family
	// launcher is a word of `mpiexec --version` that only this family's launcher says.
	launcher     *regexp.Regexp
	hostfileFlag string
	execArgs     []string
	busyPolls    bool
	// transports are the paths between the ranks the library can be told to take
	// (Transports: shm, net), each what it adds to the launcher's options and the
	// environment.
	transports map[string]transport
	// since are the profiles that replace those of transports from a major version on.
	since []versionedTransport
}

// versionedTransport is a transport profile of the releases from major on.
type versionedTransport struct {
	major int
	name  string
	transport
}

// transport is a named way to make a library's ranks talk: shm, the library's own
// choice on one node (shared memory), or net, its inter-node path between ranks of
// one node. docs/mpi.md says what each exercises, from the libraries' verbose output.
type transport struct {
	execArgs []string
	env      []string
}

// Transports are the transport profiles, the default first.
var Transports = []string{"shm", "net"}

// families are the MPI libraries whose launchers rmacheck knows.
var families = []family{
	// Before MPICH: Intel's launcher is hydra too, and may say so.
	{Family: IntelMPI, launcher: regexp.MustCompile(`Intel\(R\) MPI Library`), hostfileFlag: "-f", busyPolls: true,
		transports: map[string]transport{
			// Shared memory alone (I_MPI_DEBUG=5: the shm tuning file, no libfabric).
			"shm": {env: []string{"I_MPI_FABRICS=shm"}},
			// libfabric for every pair of ranks, its tcp provider (I_MPI_DEBUG=5:
			// "libfabric provider: tcp;ofi_rxm"), every rank a node of its own.
			"net": {env: []string{"I_MPI_FABRICS=ofi", "FI_PROVIDER=tcp", "RMACHECK_ONE_RANK_PER_NODE=1"}},
		}},
	{Family: MPICH, launcher: regexp.MustCompile(`(?i)hydra`), hostfileFlag: "-f", busyPolls: true,
		transports: map[string]transport{
			"shm": {},
			// Every rank a node of its own (so no shared-memory module, and
			// MPI_Comm_split_type gives one rank a node: tests of allocate_shared windows
			// are skipped), and UCX (ch4:ucx) restricted to TCP: RMA is UCX active
			// messages over the loopback device (UCX_LOG_LEVEL=info: rma_am(tcp/lo)).
			"net": {env: []string{"MPIR_CVAR_NOLOCAL=1", "UCX_TLS=tcp,self"}},
		}},
	{Family: OpenMPI, launcher: regexp.MustCompile(`OpenRTE|Open MPI|PRRTE|prterun`), hostfileFlag: "--hostfile",
		execArgs: []string{"--allow-run-as-root", "--oversubscribe"},
		transports: map[string]transport{
			// --mca osc ^rdma: the default RMA component of Open MPI 4.1 crashes on atomics.
			"shm": {execArgs: []string{"--mca", "osc", "^rdma"}},
			// Point-to-point over TCP only (pml ob1, btl self and tcp: no vader), RMA
			// by osc pt2pt over it, every rank a node of its own for the generated
			// program (RMACHECK_ONE_RANK_PER_NODE: its barrier is MPI_Barrier, and
			// tests of allocate_shared windows, which pt2pt cannot create, are skipped).
			"net": {execArgs: []string{"--mca", "pml", "ob1", "--mca", "btl", "self,tcp", "--mca", "osc", "pt2pt"},
				env: []string{"RMACHECK_ONE_RANK_PER_NODE=1"}},
		},
		since: []versionedTransport{
			// Open MPI 5.0's components as it selects them: osc sm takes allocate and
			// allocate_shared windows only (without osc rdma a create or dynamic window
			// fails, MPI_ERR_WIN), osc rdma the others, over btl sm; its atomics no
			// longer crash.
			{major: 5, name: "shm", transport: transport{}},
			// Open MPI 5.0 removed osc pt2pt: osc rdma runs RMA over btl tcp as active
			// messages (osc_rdma_verbose: "found alternate btl tcp").
			{major: 5, name: "net", transport: transport{
				execArgs: []string{"--mca", "pml", "ob1", "--mca", "btl", "self,tcp", "--mca", "osc", "rdma"},
				env:      []string{"RMACHECK_ONE_RANK_PER_NODE=1"}}},
		}},
}

// familyOf is the launch knowledge of a family (every Family has a row of families).
func familyOf(fam Family) family {
	i := slices.IndexFunc(families, func(f family) bool { return f.Family == fam })
	return families[i]
}

// library is the family's library of these tools, on its default transport.
func (f family) library(cc, exec, packages string) Library {
	lib := Library{Family: f.Family, CC: cc, Exec: exec, Packages: packages,
		HostfileFlag: f.hostfileFlag, BusyPolls: f.busyPolls}
	lib, _ = lib.Over(Transports[0])
	return lib
}

// Over is the library on the named transport profile (Transports): the launcher's
// options and the environment the profile needs, set over the family's own. Env
// and options given for the run (--env, --mpiexec-args) go after it, so they win.
func (lib Library) Over(name string) (Library, error) {
	f := familyOf(lib.Family)
	tr, ok := f.transports[name]
	if !ok {
		return lib, fmt.Errorf("transport %q: expected %s", name, strings.Join(Transports, " or "))
	}
	for _, v := range f.since {
		if v.name == name && lib.Major >= v.major {
			tr = v.transport
		}
	}
	lib.Transport = name
	lib.ExecArgs = append(slices.Clip(f.execArgs), tr.execArgs...)
	lib.Env = slices.Clip(tr.env)
	return lib, nil
}

// Install names an MPI install: its prefix (PREFIX/bin/mpicc and PREFIX/bin/mpiexec,
// --mpi), or its compiler wrapper and launcher (--mpicc, --mpiexec: paths, or names
// on PATH), which override the prefix's.
type Install struct {
	Prefix, MPICC, MPIExec string
}

// Library is the MPI library of the install. Which family it is (MPICH or Open MPI,
// for the launcher's options) is what `mpiexec --version` says; its version is what
// the library says (Library.LibraryVersion).
func (in Install) Library() (Library, error) {
	mpicc, mpiexec := in.MPICC, in.MPIExec
	if in.Prefix != "" {
		bin := filepath.Join(in.Prefix, "bin")
		mpicc, mpiexec = cmp.Or(mpicc, filepath.Join(bin, "mpicc")), cmp.Or(mpiexec, filepath.Join(bin, "mpiexec"))
	}
	lib, err := libraryOf(mpicc, mpiexec)
	if err != nil && in.Prefix != "" {
		return lib, fmt.Errorf("--mpi %s: %w", in.Prefix, err)
	}
	if err == nil {
		lib.Prefix, err = installPrefix(in.Prefix, mpiexec)
	}
	return lib, err
}

// installPrefix is where an install is: its prefix, or the folder above its
// launcher's, as an absolute path (two installs of one family are two targets).
func installPrefix(prefix, mpiexec string) (string, error) {
	if prefix == "" {
		path, err := exec.LookPath(mpiexec)
		if err != nil {
			return "", err
		}
		prefix = filepath.Dir(filepath.Dir(path))
	}
	return filepath.Abs(prefix)
}

// libraryOf is the MPI library whose compiler wrapper is mpicc and whose launcher is
// mpiexec.
func libraryOf(mpicc, mpiexec string) (Library, error) {
	if mpicc == "" || mpiexec == "" {
		return Library{}, fmt.Errorf("give the prefix holding bin/mpicc and bin/mpiexec, or both the compiler wrapper and the launcher")
	}
	for _, tool := range []string{mpicc, mpiexec} {
		if _, err := exec.LookPath(tool); err != nil {
			return Library{}, fmt.Errorf("%s: not an executable (give the prefix holding bin/mpicc and bin/mpiexec, or --mpicc and --mpiexec)", tool)
		}
	}
	ctx, stop := supervise.WithClock(context.Background(), toolTimeout)
	defer stop()
	out, errb, err := supervise.Run(ctx, []string{mpiexec, "--version"}, nil)
	out = append(out, errb...)
	if err != nil {
		return Library{}, fmt.Errorf("%s --version: %v\n%s", mpiexec, err, tail(string(out)))
	}
	for _, f := range families {
		if f.launcher.Match(out) {
			lib := f.library(mpicc, mpiexec, "")
			lib.Major = majorVersion(string(out))
			return lib, nil
		}
	}
	return Library{}, fmt.Errorf("%s is not the launcher of MPICH (hydra), Open MPI or Intel MPI (its --version says %q); rmacheck knows the options of these only",
		mpiexec, firstLine(string(out)))
}

// toolTimeout bounds what rmacheck asks a library's tools before any test: the
// launcher's --version, the version program's compile and run.
var toolTimeout = 30 * time.Second

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// LibraryVersion is the library's name and version as the library says them: the
// first line of MPI_Get_library_version (LibraryLine: "MPICH 4.0.2"), from a program
// that calls it before MPI_Init, as MPI allows (Version Inquiries), and so runs
// without the launcher. It is asked once a process for each compiler wrapper and
// environment; where the program cannot be built or run, it is what the launcher's
// --version says (launcherVersion), or the family's name.
func (lib Library) LibraryVersion() string {
	libVersions.Lock()
	defer libVersions.Unlock()
	key := lib.CC + "\x00" + lib.Exec + "\x00" + strings.Join(lib.Env, "\x00")
	if v, ok := libVersions.m[key]; ok {
		return v
	}
	v, err := lib.askVersion()
	if err != nil {
		v = lib.launcherVersion()
	}
	libVersions.m[key] = v
	return v
}

var libVersions = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// versionC is the version program: the first line of MPI_Get_library_version, which
// MPI lets a program call before MPI_Init.
const versionC = `#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	char version[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	MPI_Get_library_version(version, &len);
	version[strcspn(version, "\n")] = '\0';
	printf("LIBRARY %s\n", version);
	return 0;
}
`

// askVersion builds and runs the version program.
func (lib Library) askVersion() (string, error) {
	dir, err := supervise.MakeDir("version")
	if err != nil {
		return "", err
	}
	defer supervise.RemoveDir(dir)
	src, bin := filepath.Join(dir, "version.c"), filepath.Join(dir, "version")
	if err := os.WriteFile(src, []byte(versionC), 0o644); err != nil {
		return "", err
	}
	ctx, stop := supervise.WithClock(context.Background(), toolTimeout)
	defer stop()
	if err := lib.CompileC(ctx, src, bin); err != nil {
		return "", err
	}
	out, _, err := supervise.Run(ctx, []string{bin}, lib.Env)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "LIBRARY "); ok && strings.TrimSpace(v) != "" {
			return LibraryLine(v), nil
		}
	}
	return "", fmt.Errorf("the version program printed no LIBRARY line:\n%s", tail(string(out)))
}

// launcherVersion is the family's name and the version its launcher reports ("MPICH
// 4.0.2"), or the name alone.
func (lib Library) launcherVersion() string {
	v := lib.Family.Name()
	ctx, stop := supervise.WithClock(context.Background(), toolTimeout)
	defer stop()
	if out, errb, err := supervise.Run(ctx, []string{lib.Exec, "--version"}, nil); err == nil {
		if m := versionRE.FindStringSubmatch(string(out) + string(errb)); m != nil {
			v += " " + m[1]
		}
	}
	return v
}

// "Version:   4.0.2" (MPICH's hydra), "mpiexec.openmpi (OpenRTE) 4.1.4" or
// "Intel(R) MPI Library for Linux* OS, Version 2021.19.0 Build ...".
var versionRE = regexp.MustCompile(`(?:Version:?\s+|\) )([0-9][0-9.a-z]*)`)

// majorVersion is the major version a launcher's --version says, 0 when it says none.
func majorVersion(out string) int {
	m := versionRE.FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	major, _, _ := strings.Cut(m[1], ".")
	n, _ := strconv.Atoi(major)
	return n
}

// ParseEnv checks K=V settings (--env) and returns them.
func ParseEnv(settings []string) ([]string, error) {
	for _, kv := range settings {
		if k, _, ok := strings.Cut(kv, "="); !ok || !envNameRE.MatchString(k) {
			return nil, fmt.Errorf("%q: expected NAME=VALUE, NAME letters, digits and _ not starting with a digit", kv)
		}
	}
	return settings, nil
}

// envNameRE is what a portable environment name is (POSIX.1, Environment Variables):
// a name with a space or a newline would reach the library's processes as something
// else (issue 38 row 12).
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// LibraryLine turns the first line of MPI_Get_library_version into the name and
// version reports show: "MPICH Version: 4.0.2" is "MPICH 4.0.2", "Open MPI v4.1.4,
// package: ..." is "Open MPI 4.1.4", "Intel(R) MPI Library 2021.19.0 for Linux* OS" is
// "Intel MPI 2021.19.0"; another library's line is kept to its first comma.
func LibraryLine(line string) string {
	line = strings.TrimSpace(line)
	if m := mpichVersionRE.FindStringSubmatch(line); m != nil {
		return "MPICH " + m[1]
	}
	if m := ompiVersionRE.FindStringSubmatch(line); m != nil {
		return "Open MPI " + m[1]
	}
	if m := impiVersionRE.FindStringSubmatch(line); m != nil {
		return "Intel MPI " + m[1]
	}
	line, _, _ = strings.Cut(line, ",")
	return line
}

var (
	mpichVersionRE = regexp.MustCompile(`^MPICH Version:\s*([0-9][0-9.a-z]*)`)
	ompiVersionRE  = regexp.MustCompile(`^Open MPI v([0-9][0-9.a-z]*)`)
	impiVersionRE  = regexp.MustCompile(`^Intel\(R\) MPI Library ([0-9][0-9.a-z]*)`)
)
