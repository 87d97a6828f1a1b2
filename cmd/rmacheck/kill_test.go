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
	dir, tmp := t.TempDir(), t.TempDir()
	launcher := filepath.Join(dir, "launcher")
	if err := os.WriteFile(launcher, []byte(sleepyLauncher), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid for the fake ranks")
	}
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
		left = procsMentioning(tmp)
		if entries, _ := os.ReadDir(tmp); len(left) == 0 && len(entries) == 0 {
			return
		}
	}
	entries, _ := os.ReadDir(tmp)
	t.Errorf("after SIGKILL, left running:\n%s\nleft in TMPDIR: %v", strings.Join(left, "\n"), entries)
}
