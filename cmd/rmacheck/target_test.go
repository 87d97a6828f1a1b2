package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// fakeMPI is an MPI install whose mpicc and mpiexec are scripts: its programs print
// the outcomes of FAKE_OUTCOMES (conform/testdata/fakempi), so no library is needed.
const fakeMPI = "../../conform/testdata/fakempi"

// TestConformMPIPrefix: conform --mpi PREFIX runs on the library installed there,
// with --env reaching its processes and --mpiexec-args its launcher; --transport net
// sets MPICH's net profile; the library's own name and version and the transport
// are in the text and in every JSON record; a forbidden outcome is exit 1; --mpicc
// and --mpiexec name the same install.
func TestConformMPIPrefix(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	code, stdout, stderr := runCLI("conform", "--mpi", fakeMPI, "--env", "FAKE_OUTCOMES=0,1;0,0", "--env", "FAKE_MPI_LOG="+log,
		"--mpiexec-args", "-genv A 1", "--runs", "50", "testdata/sb.lit")
	if code != 0 || !strings.Contains(stdout, "(target mpich: Fake MPI v9.9 over shm, semantics mpi-4.1") || !strings.Contains(stdout, "via "+fakeMPI+"/bin/mpiexec -genv A 1 -n 2") {
		t.Errorf("--mpi: exit %d\n%s%s", code, stdout, stderr)
	}
	logged, _ := os.ReadFile(log)
	if strings.Contains(string(logged), "MPIR_CVAR_NOLOCAL") {
		t.Errorf("the shm profile set MPICH's net settings:\n%s", logged)
	}
	code, stdout, stderr = runCLI("conform", "--mpi", fakeMPI, "--transport", "net", "--env", "FAKE_OUTCOMES=0,1", "--env", "FAKE_MPI_LOG="+log,
		"--runs", "50", "testdata/sb.lit")
	logged, _ = os.ReadFile(log)
	if code != 0 || !strings.Contains(stdout, "(target mpich: Fake MPI v9.9 over net,") ||
		!strings.Contains(string(logged), "MPIR_CVAR_NOLOCAL=1\n") || !strings.Contains(string(logged), "UCX_TLS=tcp,self\n") {
		t.Errorf("--transport net: exit %d\n%s%s\nlaunched with:\n%s", code, stdout, stderr, logged)
	}
	code, stdout, stderr = runCLI("conform", "--mpicc", fakeMPI+"/bin/mpicc", "--mpiexec", fakeMPI+"/bin/mpiexec",
		"--env", "FAKE_OUTCOMES=1,1;2,2", "--env", "FAKE_LIBRARY=MPICH Version: 9.8", "--runs", "50", "--json", "testdata/sb.lit")
	var rec record.Conform
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("%v: %s%s", err, stdout, stderr)
	}
	if code != exitFailed || rec.Target.Family != conform.MPICH || rec.Target.Version != "MPICH 9.8" || rec.Target.Transport != "shm" || rec.NonConforming != 1 || rec.Runs != 50 {
		t.Errorf("--mpicc/--mpiexec with a forbidden outcome: exit %d, record %+v", code, rec)
	}
}

// TestConformMPIFlagErrors: a library named twice, half an install, flags of a
// library given to the reference runtime and a missing install are refused, each
// saying what to give instead.
func TestConformMPIFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--target", "openmpi", "--mpi", fakeMPI}, exitBadInput, "name two libraries"},
		{[]string{"--mpicc", fakeMPI + "/bin/mpicc"}, exitBadInput, "--mpicc and --mpiexec go together"},
		{[]string{"--env", "A=1"}, exitBadInput, "are for MPI libraries"},
		{[]string{"--mpi", fakeMPI, "--env", "NOVALUE"}, exitBadInput, "expected NAME=VALUE"},
		{[]string{"--mpi", fakeMPI, "--env", "A\nB=1"}, exitBadInput, "expected NAME=VALUE"}, // issue 38 row 12
		{[]string{"--mpi", fakeMPI, "--env", "A B=1"}, exitBadInput, "expected NAME=VALUE"},
		{[]string{"--mpi", ""}, exitBadInput, "empty path"}, // issue 38 row 6: an unset $MPI_HOME
		{[]string{"--mpicc", "", "--mpiexec", fakeMPI + "/bin/mpiexec"}, exitBadInput, "empty path"},
		{[]string{"--mpi", t.TempDir()}, exitCannotRun, "give the prefix holding bin/mpicc and bin/mpiexec"},
		{[]string{"--mpi", fakeMPI, "--transport", "ib"}, exitBadInput, "expected shm or net"},
	} {
		code, _, stderr := runCLI(append(append([]string{"conform"}, c.args...), "testdata/sb.lit")...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("conform %s: exit %d, %s; want %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
}
