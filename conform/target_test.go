package conform

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakePrefix is an MPI install whose mpicc and mpiexec are scripts (testdata/fakempi):
// its "programs" print the outcomes of FAKE_OUTCOMES, so a run needs no MPI library.
func fakePrefix(t *testing.T) string {
	t.Helper()
	prefix, err := filepath.Abs("testdata/fakempi")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake MPI's scripts")
	}
	return prefix
}

// TestFakeLibraryIsATarget: an MPI library at a prefix is one more Target value, run
// through the same code as the Debian ones: the compiler wrapper and launcher come
// from the prefix, --env reaches the program, the library's own version line
// (MPI_Get_library_version) and the prefix name the target, and a forbidden outcome
// it prints is NON-CONFORMING.
func TestFakeLibraryIsATarget(t *testing.T) {
	lib, err := Install{Prefix: fakePrefix(t)}.Library()
	if err != nil {
		t.Fatal(err)
	}
	if lib.Family != MPICH || lib.HostfileFlag != "-f" || lib.launcherVersion() != "MPICH 9.9" || lib.Prefix != fakePrefix(t) {
		t.Errorf("the fake launcher says it is hydra 9.9: family %v, hostfile flag %q, version %q, prefix %q", lib.Family, lib.HostfileFlag, lib.launcherVersion(), lib.Prefix)
	}
	log := filepath.Join(t.TempDir(), "log")
	lib.ExecArgs = append(lib.ExecArgs, "-genv", "X", "1")
	lib.Env = []string{"FAKE_MPI_LOG=" + log, "FAKE_OUTCOMES=0,1;1,0;0,0", "FAKE_LIBRARY=Open MPI v9.8.7, package: fake"}
	var target Target = MPI{Lib: lib}
	sb := acceptance(t, "01-SB.lit")
	rep, err := Check(target, sb, mpi41(t), Options{Runs: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := TargetInfo{Kind: KindMPI, Family: MPICH, Version: "Open MPI 9.8.7", Prefix: fakePrefix(t), Transport: "shm", Launcher: fakePrefix(t) + "/bin/mpiexec -genv X 1"}
	if rep.Target != want || rep.Runs != 100 || len(rep.Bins) != 3 || rep.NonConforming != 0 || rep.Positive != 1 {
		t.Errorf("SB on the fake library: target %+v, %d runs, bins %v, %d non-conforming, %d positive; want %+v, 100, 3 bins, 0, 1",
			rep.Target, rep.Runs, rep.Bins, rep.NonConforming, rep.Positive, want)
	}
	calls, _ := os.ReadFile(log)
	bin := filepath.Join("SB")
	if !strings.Contains(string(calls), "mpicc -o ") || !strings.Contains(string(calls), "mpiexec -genv X 1 -n 2 ") || !strings.Contains(string(calls), bin+" 100 1") {
		t.Errorf("the fake tools were called as:\n%s", calls)
	}

	lib.Env = []string{"FAKE_OUTCOMES=0,0;2,2"} // 2,2 is no outcome of SB
	rep, err = Check(MPI{Lib: lib}, sb, mpi41(t), Options{Runs: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.NonConforming != 1 || rep.Target.Version != "Fake MPI v9.9" {
		t.Errorf("a forbidden outcome: %d non-conforming, library %q; want 1 and the fake's default line", rep.NonConforming, rep.Target.Version)
	}
}

// TestLibraryOfRefusesUnknownLaunchers: a launcher that is neither hydra, Open MPI's
// nor Intel MPI's is refused with what it said, and a missing tool names the flags to give.
func TestLibraryOfRefusesUnknownLaunchers(t *testing.T) {
	prefix := fakePrefix(t)
	if _, err := (Install{MPICC: filepath.Join(prefix, "bin", "mpicc"), MPIExec: "/bin/echo"}).Library(); err == nil || !strings.Contains(err.Error(), "is not the launcher of MPICH (hydra), Open MPI or Intel MPI") {
		t.Errorf("echo as mpiexec: %v", err)
	}
	if _, err := (Install{Prefix: t.TempDir()}).Library(); err == nil || !strings.Contains(err.Error(), "--mpicc and --mpiexec") {
		t.Errorf("an empty prefix: %v", err)
	}
}

// TestDebianLibrariesAtAPrefix: each Debian library, reached through a prefix of
// links named as in an install of its own (bin/mpicc, bin/mpiexec, and hydra's proxy
// beside its launcher), is the same library: it runs SB and names itself
// (MPI_Get_library_version).
func TestDebianLibrariesAtAPrefix(t *testing.T) {
	for _, c := range []struct {
		target Family
		name   string
		links  map[string]string // bin/NAME: the Debian tool
	}{
		{MPICH, "MPICH 4.", map[string]string{"mpicc": "mpicc.mpich", "mpiexec": "mpiexec.mpich", "hydra_pmi_proxy": "hydra_pmi_proxy"}},
		{OpenMPI, "Open MPI 4.", map[string]string{"mpicc": "mpicc.openmpi", "mpiexec": "mpiexec.openmpi"}},
	} {
		t.Run(c.target.String(), func(t *testing.T) {
			needLibrary(t, c.target)
			prefix := t.TempDir()
			os.Mkdir(filepath.Join(prefix, "bin"), 0o755)
			for link, tool := range c.links {
				path, err := exec.LookPath(tool)
				if err != nil {
					t.Skipf("%s is not installed", tool)
				}
				if err := os.Symlink(path, filepath.Join(prefix, "bin", link)); err != nil {
					t.Fatal(err)
				}
			}
			lib, err := Install{Prefix: prefix}.Library()
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Check(MPI{Lib: lib}, acceptance(t, "01-SB.lit"), mpi41(t), Options{Runs: 2000, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Target.Family != c.target || rep.Target.Prefix != prefix || !strings.HasPrefix(rep.Target.Version, c.name) || rep.Runs != 2000 || rep.NonConforming != 0 {
				t.Errorf("SB at a prefix: target %+v, %d runs, %d non-conforming", rep.Target, rep.Runs, rep.NonConforming)
			}
		})
	}
}

// TestTransportProfiles: a library over a profile launches with the family's options
// and the profile's alone; the Debian rows are the shm profile, whose Open MPI
// options are those conform always gave.
func TestTransportProfiles(t *testing.T) {
	ompi, _ := PackageLibrary(OpenMPI)
	if got := strings.Join(ompi.ExecArgs, " "); got != "--allow-run-as-root --oversubscribe --mca osc ^rdma" || ompi.Transport != "shm" || len(ompi.Env) != 0 {
		t.Errorf("Debian Open MPI: options %q, transport %q, env %v", got, ompi.Transport, ompi.Env)
	}
	net, err := ompi.Over("net")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(net.ExecArgs, " "); got != "--allow-run-as-root --oversubscribe --mca pml ob1 --mca btl self,tcp --mca osc pt2pt" ||
		net.Transport != "net" || !slices.Equal(net.Env, []string{"RMACHECK_ONE_RANK_PER_NODE=1"}) {
		t.Errorf("Open MPI over net: options %q, transport %q, env %v", got, net.Transport, net.Env)
	}
	if back, _ := net.Over("shm"); !slices.Equal(back.ExecArgs, ompi.ExecArgs) || len(back.Env) != 0 {
		t.Errorf("net then shm: options %v, env %v", back.ExecArgs, back.Env)
	}
	mpich, _ := PackageLibrary(MPICH)
	if net, _ := mpich.Over("net"); !slices.Equal(net.Env, []string{"MPIR_CVAR_NOLOCAL=1", "UCX_TLS=tcp,self"}) || len(net.ExecArgs) != 0 {
		t.Errorf("MPICH over net: options %v, env %v", net.ExecArgs, net.Env)
	}
	if _, err := mpich.Over("ib"); err == nil || !strings.Contains(err.Error(), "expected shm or net") {
		t.Errorf("an unknown profile: %v", err)
	}
}
