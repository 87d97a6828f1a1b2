//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sleepyLauncher is a launcher that starts two "ranks" in sessions of their own, as
// MPICH's and Open MPI's do (so the launcher's process group does not hold them), each
// naming the program in its command line, and waits for them: they never end.
const sleepyLauncher = `#!/bin/sh
while [ $# -gt 0 ] && [ "$1" != "-n" ]; do shift; done
shift 2
setsid sh -c 'while :; do sleep 1; done' "$@" &
setsid sh -c 'while :; do sleep 1; done' "$@" &
wait
`

// TestKilledConformLeavesNothing: SIGKILL to rmacheck conform while a launcher and its
// ranks run leaves no launcher, no rank and no rmacheck-* directory (issue 25 row 15:
// Open MPI's mpiexec and both ranks ran on 30 s later, and the directory stayed). The
// launcher dies with rmacheck (Pdeathsig), and rmacheck's guard kills the ranks and
// removes the directory; the test waits for that as long as a loaded machine needs.
func TestKilledConformLeavesNothing(t *testing.T) {
	t.Run("plain TMPDIR", func(t *testing.T) { killedConformLeavesNothing(t, t.TempDir()) })
	// issue 38 row 15: the guard read paths line by line, so a $TMPDIR with a
	// newline left the run directory behind
	t.Run("TMPDIR with a newline", func(t *testing.T) {
		tmp := filepath.Join(t.TempDir(), "a\nb")
		if err := os.Mkdir(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		killedConformLeavesNothing(t, tmp)
	})
}

func killedConformLeavesNothing(t *testing.T, tmp string) {
	dir := t.TempDir()
	launcher := filepath.Join(dir, "launcher")
	if err := os.WriteFile(launcher, []byte(sleepyLauncher), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid for the fake ranks")
	}
	// A user's directory named like a run's, and a user's process that names it and
	// the run directories: neither is the run's to remove or stop (issue 38 row 1).
	userDir := filepath.Join(tmp, "rmacheck-reports-2024-final")
	if err := os.Mkdir(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userDir, "report.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tail := exec.Command("tail", "-f", filepath.Join(userDir, "report.md"))
	if err := tail.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { tail.Process.Kill(); tail.Wait() }()
	cmd := exec.Command(os.Args[0], "conform", "--mpi", fakeMPI, "--launcher", launcher, "--runs", "10", "--timeout", "1h", "testdata/sb.lit")
	cmd.Env = append(os.Environ(), "RMACHECK_AS_MAIN=1", "TMPDIR="+tmp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ranks := func() (n int) {
		for _, p := range procsMentioning(tmp) {
			if strings.Contains(p, "while :") {
				n++
			}
		}
		return n
	}
	defer func() { // whatever happens, leave nothing running
		for _, p := range procsMentioning(tmp) {
			if pid, err := strconv.Atoi(p[:strings.IndexByte(p, ':')]); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}()
	for deadline := time.Now().Add(5 * time.Minute); ranks() < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the ranks did not start: %s", stderr.String())
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	var left []string
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		left = runProcsMentioning(tmp, tail.Process.Pid)
		if entries, _ := os.ReadDir(tmp); len(left) == 0 && len(entries) == 1 {
			break
		}
	}
	entries, _ := os.ReadDir(tmp)
	if len(left) > 0 || len(entries) != 1 {
		t.Errorf("after SIGKILL, left running:\n%s\nleft in TMPDIR: %v", strings.Join(left, "\n"), entries)
	}
	if _, err := os.Stat(filepath.Join(userDir, "report.md")); err != nil {
		t.Errorf("the user's directory went: %v", err)
	}
	if err := syscall.Kill(tail.Process.Pid, 0); err != nil {
		t.Errorf("the user's tail -f was stopped: %v", err)
	}
}

// runProcsMentioning is procsMentioning(s) without the process skip (a user's).
func runProcsMentioning(s string, skip int) []string {
	var found []string
	for _, p := range procsMentioning(s) {
		if !strings.HasPrefix(p, strconv.Itoa(skip)+":") {
			found = append(found, p)
		}
	}
	return found
}

// TestConcurrentConformRunsBothFinish (issue 38 row 1): two conform runs in one
// $TMPDIR, each the other's "next run", both finish: neither removes the other's live
// run directory nor stops its ranks.
func TestConcurrentConformRunsBothFinish(t *testing.T) {
	tmp, dir := t.TempDir(), t.TempDir()
	// a launcher that takes a second, so that each run starts while the other's
	// directory and ranks are there
	launcher := filepath.Join(dir, "launcher")
	mpiexec, _ := filepath.Abs(filepath.Join(fakeMPI, "bin", "mpiexec"))
	if err := os.WriteFile(launcher, []byte("#!/bin/sh\nsleep 1\nexec "+mpiexec+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := make([]*exec.Cmd, 2)
	outs := make([]*strings.Builder, 2)
	for i := range runs {
		outs[i] = &strings.Builder{}
		runs[i] = exec.Command(os.Args[0], "conform", "--mpi", fakeMPI, "--launcher", launcher, "--env", "FAKE_OUTCOMES=0,1", "--runs", "200", "testdata/sb.lit")
		runs[i].Env = append(os.Environ(), "RMACHECK_AS_MAIN=1", "TMPDIR="+tmp)
		runs[i].Stdout, runs[i].Stderr = outs[i], outs[i]
		if err := runs[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range runs {
		if err := r.Wait(); err != nil {
			t.Errorf("run %d: %v\n%s", i, err, outs[i])
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left in TMPDIR: %v", entries)
	}
}
