package conform

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// family is what launching a library's programs needs that is the same for every
// install of it: how its launcher takes a hostfile, the options it always needs,
// and whether it busy-polls.
type family struct {
	target, name string
	// launcher is a word of `mpiexec --version` that only this family's launcher says.
	launcher     *regexp.Regexp
	hostfileFlag string
	execArgs     []string
	busyPolls    bool
	// transports are the paths between the ranks the library can be told to take
	// (Transports: shm, net), each what it adds to the launcher's options and the
	// environment.
	transports map[string]transport
}

// transport is a named way to make a library's ranks talk: shm, the library's own
// choice on one node (shared memory), or net, its inter-node path between ranks of
// one node. README.md says what each exercises, from the libraries' verbose output.
type transport struct {
	execArgs []string
	env      []string
}

// Transports are the transport profiles, the default first.
var Transports = []string{"shm", "net"}

// families are the MPI libraries whose launchers rmacheck knows.
var families = []family{
	{target: "mpich", name: "MPICH", launcher: regexp.MustCompile(`(?i)hydra`), hostfileFlag: "-f", busyPolls: true,
		transports: map[string]transport{
			"shm": {},
			// Every rank a node of its own (so no shared-memory module, and
			// MPI_Comm_split_type gives one rank a node: tests of allocate_shared windows
			// are skipped), and UCX (ch4:ucx) restricted to TCP: RMA is UCX active
			// messages over the loopback device (UCX_LOG_LEVEL=info: rma_am(tcp/lo)).
			"net": {env: []string{"MPIR_CVAR_NOLOCAL=1", "UCX_TLS=tcp,self"}},
		}},
	{target: "openmpi", name: "Open MPI", launcher: regexp.MustCompile(`OpenRTE|Open MPI|PRRTE|prterun`), hostfileFlag: "--hostfile",
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
		}},
}

func familyNamed(target string) family {
	for _, f := range families {
		if f.target == target {
			return f
		}
	}
	panic("conform: no family " + target) // the rows of Libraries name families
}

// library is the family's library of these tools, on its default transport.
func (f family) library(cc, exec, packages string) Library {
	lib := Library{Target: f.target, Name: f.name, CC: cc, Exec: exec, Packages: packages,
		HostfileFlag: f.hostfileFlag, BusyPolls: f.busyPolls}
	lib, _ = lib.Over(Transports[0])
	return lib
}

// Over is the library on the named transport profile (Transports): the launcher's
// options and the environment the profile needs, set over the family's own. Env
// and options given for the run (--env, --mpiexec-args) go after it, so they win.
func (lib Library) Over(name string) (Library, error) {
	i := slices.IndexFunc(families, func(f family) bool { return f.target == lib.Target })
	if i < 0 {
		return lib, fmt.Errorf("%s has no transport profiles (only MPICH's and Open MPI's have)", lib.Name)
	}
	f := families[i]
	tr, ok := f.transports[name]
	if !ok {
		return lib, fmt.Errorf("transport %q: expected %s", name, strings.Join(Transports, " or "))
	}
	lib.Transport = name
	lib.ExecArgs = append(slices.Clip(f.execArgs), tr.execArgs...)
	lib.Env = slices.Clip(tr.env)
	return lib, nil
}

// LibraryAt is the MPI library installed at prefix: PREFIX/bin/mpicc and
// PREFIX/bin/mpiexec (LibraryOf).
func LibraryAt(prefix string) (Library, error) {
	bin := filepath.Join(prefix, "bin")
	lib, err := LibraryOf(filepath.Join(bin, "mpicc"), filepath.Join(bin, "mpiexec"))
	if err != nil {
		return lib, fmt.Errorf("--mpi %s: %w", prefix, err)
	}
	return lib, nil
}

// LibraryOf is the MPI library whose compiler wrapper is mpicc and whose launcher is
// mpiexec (paths, or names on PATH). Which library it is (MPICH or Open MPI, for the
// launcher's options) is what `mpiexec --version` says; its version is what the
// library says in every run (MPI_Get_library_version).
func LibraryOf(mpicc, mpiexec string) (Library, error) {
	for _, tool := range []string{mpicc, mpiexec} {
		if _, err := exec.LookPath(tool); err != nil {
			return Library{}, fmt.Errorf("%s: not an executable (give the prefix holding bin/mpicc and bin/mpiexec, or --mpicc and --mpiexec)", tool)
		}
	}
	out, err := exec.Command(mpiexec, "--version").CombinedOutput()
	if err != nil {
		return Library{}, fmt.Errorf("%s --version: %v\n%s", mpiexec, err, tail(string(out)))
	}
	for _, f := range families {
		if f.launcher.Match(out) {
			lib := f.library(mpicc, mpiexec, "")
			lib.Version() // the launcher's answer until a run reports the library's own
			return lib, nil
		}
	}
	return Library{}, fmt.Errorf("%s is neither MPICH's launcher (hydra) nor Open MPI's (its --version says %q); rmacheck knows the options of these two only",
		mpiexec, firstLine(string(out)))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// ParseEnv checks K=V settings (--env) and returns them.
func ParseEnv(settings []string) ([]string, error) {
	for _, kv := range settings {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("%q: expected NAME=VALUE", kv)
		}
	}
	return settings, nil
}

// libraryLine turns the first line of MPI_Get_library_version into the name and
// version reports show: "MPICH Version: 4.0.2" is "MPICH 4.0.2", "Open MPI v4.1.4,
// package: ..." is "Open MPI 4.1.4"; another library's line is kept to its first comma.
func libraryLine(line string) string {
	line = strings.TrimSpace(line)
	if m := mpichVersionRE.FindStringSubmatch(line); m != nil {
		return "MPICH " + m[1]
	}
	if m := ompiVersionRE.FindStringSubmatch(line); m != nil {
		return "Open MPI " + m[1]
	}
	line, _, _ = strings.Cut(line, ",")
	return line
}

var (
	mpichVersionRE = regexp.MustCompile(`^MPICH Version:\s*([0-9][0-9.a-z]*)`)
	ompiVersionRE  = regexp.MustCompile(`^Open MPI v([0-9][0-9.a-z]*)`)
)
