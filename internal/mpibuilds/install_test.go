package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes an executable shell script.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// fakeMPI writes a fake mpicc and mpiexec into dir/bin: mpicc "compiles" into a
// script printing the hello program's lines with library line $FAKE_LIBRARY (and
// logs I_MPI_ROOT, to see a wrapper's settings), mpiexec drops "-n N" and runs the
// program once with RANKS N (FAKE_FORCE_RANKS if set: one job a rank), or fails
// when FAKE_FAIL is set.
func fakeMPI(t *testing.T, dir string) {
	writeScript(t, filepath.Join(dir, "bin", "mpicc"), `out=
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
echo "I_MPI_ROOT=$I_MPI_ROOT" >"$out.env"
printf '#!/bin/sh\necho "LIBRARY $FAKE_LIBRARY"\necho "RANKS $FAKE_RANKS"\n' >"$out"
chmod +x "$out"
`)
	writeScript(t, filepath.Join(dir, "bin", "mpiexec"), `[ -n "$FAKE_FAIL" ] && { echo "fake mpiexec: $FAKE_FAIL" >&2; exit 3; }
[ "$1" = -n ] || exit 9
FAKE_RANKS=${FAKE_FORCE_RANKS:-$2} exec "$3"
`)
}

// checkBuild passes when the program runs on two ranks and names the build's
// version, and says what went wrong otherwise.
func TestCheckBuild(t *testing.T) {
	prefix := t.TempDir()
	fakeMPI(t, prefix)
	b := Build{Name: "fake-1.2.3", Family: "mpich", Version: "1.2.3", Transports: []Transport{{Name: "shm"}}}
	for _, c := range []struct {
		name, library, fail, ranks string
		want                       string // the error, or "" for none
	}{
		{"ok", "Fake MPI v1.2.3, a double", "", "", ""},
		{"another version", "Fake MPI v1.2.4", "", "", `not version 1.2.3`},
		{"launcher fails", "Fake MPI v1.2.3", "no ranks", "", "bin/mpiexec -n 2: exit status 3: fake mpiexec: no ranks"},
		{"a job a rank", "Fake MPI v1.2.3", "", "1", `ran "1" ranks, not 2 in one job`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("FAKE_LIBRARY", c.library)
			t.Setenv("FAKE_FAIL", c.fail)
			t.Setenv("FAKE_FORCE_RANKS", c.ranks)
			lib, err := checkBuild(context.Background(), b, prefix)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("checkBuild: %v", err)
			case c.want == "" && lib != c.library:
				t.Errorf("library %q, want %q", lib, c.library)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("checkBuild: %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// The generated tools run the install's own with the build's settings, {venv} the
// environment beside them wherever the cache is, and pass arguments as they are;
// a Debian build's run the suffixed tool on PATH.
func TestWrappers(t *testing.T) {
	cache := t.TempDir()
	b := Build{Name: "impi-9", Family: "impi", Version: "9", Pip: []string{"impi-rt==9"}, ToolEnv: []string{"I_MPI_ROOT={venv}", "X=it's"}}
	writeScript(t, filepath.Join(b.venv(cache), "bin", "mpicc"), `printf '%s|' "$I_MPI_ROOT" "$X" "$@"`)
	writeScript(t, filepath.Join(b.venv(cache), "bin", "mpiexec"), `echo mpiexec`)
	if err := writeWrappers(b, cache); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(b.Dir(cache), moved); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(moved, "bin", "mpicc"), "-o", "a b", "x.c").CombinedOutput()
	if err != nil {
		t.Fatalf("bin/mpicc: %v: %s", err, out)
	}
	if want := moved + "/venv|it's|-o|a b|x.c|"; string(out) != want {
		t.Errorf("bin/mpicc printed %q, want %q", out, want)
	}

	tools := t.TempDir()
	writeScript(t, filepath.Join(tools, "mpiexec.fake"), `echo "fake launcher $*"`)
	writeScript(t, filepath.Join(tools, "mpicc.fake"), `true`)
	t.Setenv("PATH", tools+":"+os.Getenv("PATH"))
	deb := Build{Name: "fake-1", Debian: &Debian{Packages: []string{"fake"}, Version: "1-1", MPICC: "mpicc.fake", MPIExec: "mpiexec.fake"}}
	if err := writeWrappers(deb, cache); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(filepath.Join(deb.Prefix(cache), "bin", "mpiexec"), "-n", "2").CombinedOutput()
	if err != nil || string(out) != "fake launcher -n 2\n" {
		t.Errorf("bin/mpiexec: %v, printed %q", err, out)
	}
}

// An install whose stamp names the same packages is reused: no pip runs (the fake
// venv has none), the generated tools are written and the build is checked through them.
func TestInstallReuses(t *testing.T) {
	cache := t.TempDir()
	b := Build{Name: "impi-1.2.3", Family: "impi", Version: "1.2.3", Pip: []string{"impi-rt==1.2.3"}, ToolEnv: []string{"I_MPI_ROOT={venv}"},
		Transports: []Transport{{Name: "shm", Profile: "shm"}}}
	fakeMPI(t, b.venv(cache))
	if err := writeStamp(filepath.Join(b.Dir(cache), stampName), installed{Pip: b.Pip, ToolEnv: b.ToolEnv, Seconds: 4.5,
		PipCheck: "impi-rt 1.2.3 requires libfabric, which is not installed.\n"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_LIBRARY", "Fake Intel MPI 1.2.3")
	r := Install(context.Background(), b, cache)
	if r.Status != "ok" || !r.Reused || r.Prefix != b.Dir(cache) || r.Library != "Fake Intel MPI 1.2.3" {
		t.Fatalf("Install: %+v", r)
	}
	if want := []string{"pip check: impi-rt 1.2.3 requires libfabric, which is not installed."}; strings.Join(r.Notes, "\n") != want[0] {
		t.Errorf("notes %q, want %q", r.Notes, want)
	}
	if want := []string{"bin/mpicc", "bin/mpiexec"}; strings.Join(r.Holds, " ") != strings.Join(want, " ") {
		t.Errorf("holds %q, want %q (lacks %q)", r.Holds, want, r.Lacks)
	}
	var out bytes.Buffer
	printResult(&out, r)
	if !strings.Contains(out.String(), "reused (installed in 4.5 s)") || !strings.Contains(out.String(), "lacks include/mpi.h lib/libmpi.so") {
		t.Errorf("printed:\n%s", out.String())
	}
}

// A package pip cannot find is refused with pip's own ERROR lines (offline: no
// index, an empty directory of wheels).
func TestInstallRefused(t *testing.T) {
	offlinePip(t)
	b := Build{Name: "nompi-0.1", Family: "mpich", Version: "0.1", Pip: []string{"rmacheck-no-such-mpi==0.1"}, Transports: []Transport{{Name: "shm"}}}
	r := Install(context.Background(), b, t.TempDir())
	if r.Status != "refused" || !strings.Contains(r.Why, "ERROR: No matching distribution found for rmacheck-no-such-mpi==0.1") {
		t.Errorf("Install: %s: %s", r.Status, r.Why)
	}
}

// make mpi-builds: a refused build among others is reported and skipped, the builds
// after it still install, and the command succeeds; naming the refused build fails it.
func TestInstallAllSkipsRefused(t *testing.T) {
	offlinePip(t)
	t.Setenv("FAKE_LIBRARY", "Fake MPI 1.0")
	cache := t.TempDir()
	ok := func(name string) Build {
		b := Build{Name: name, Family: "mpich", Version: "1.0", Pip: []string{"fake-mpi==1.0"}, Transports: []Transport{{Name: "shm"}}}
		fakeMPI(t, b.venv(cache))
		if err := writeStamp(filepath.Join(b.Dir(cache), stampName), installed{Pip: b.Pip}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	refused := Build{Name: "nompi-0.1", Family: "mpich", Version: "0.1", Pip: []string{"rmacheck-no-such-mpi==0.1"}, Transports: []Transport{{Name: "shm"}}}
	l := List{Builds: []Build{ok("a-1.0"), refused, ok("b-1.0")}}
	var out, errb bytes.Buffer
	if code := installCmd(l, cache, nil, &out, &errb); code != 0 {
		t.Errorf("install of every build: exit %d, want 0 (a refused build is not fatal)", code)
	}
	for _, want := range []string{"a-1.0            ok", "nompi-0.1        refused  ", "No matching distribution", "b-1.0            ok", "2 ok, 1 refused, 0 broken"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("install printed no %q:\n%s", want, out.String())
		}
	}
	if code := installCmd(l, cache, []string{"nompi-0.1"}, &out, &errb); code != 1 {
		t.Errorf("install nompi-0.1: exit %d, want 1 (a build named on the command line must install)", code)
	}
}

// The command line: args prints conform's options one a line; names it does not
// know are usage errors.
func TestCommand(t *testing.T) {
	var out, errb bytes.Buffer
	list := []string{"-list", "../../reports/matrix/builds.json", "-cache", "/c"}
	if code := run1(append(list, "args", "mpich-5.0.2", "net"), &out, &errb); code != 0 {
		t.Fatalf("args: exit %d: %s", code, errb.String())
	}
	if want := "--mpi\n/c/mpich-5.0.2/venv\n--transport\nnet\n--env\nMPIR_CVAR_CH4_NETMOD=ucx\n"; out.String() != want {
		t.Errorf("args printed %q, want %q", out.String(), want)
	}
	for _, args := range [][]string{{"args", "mpich-5.0.2", "rdma"}, {"args", "lam-7", "shm"}, {"install", "lam-7"}, {"args"}, {"frobnicate"}} {
		if code := run1(append(list, args...), &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// offlinePip skips without python3 and its venv module, and points pip at no index and
// an empty directory of wheels, so every package it is asked for is refused at once.
func offlinePip(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	if out, err := exec.Command("python3", "-m", "venv", "--help").CombinedOutput(); err != nil {
		t.Skipf("python3 has no venv module: %s", out)
	}
	t.Setenv("PIP_NO_INDEX", "1")
	t.Setenv("PIP_FIND_LINKS", t.TempDir())
}
