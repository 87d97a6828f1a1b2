//go:build linux

package supervise

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestStaleRunDirsAreRemoved: the run directories of an rmacheck that no longer runs
// (killed where no guard could act) are removed by the next run, and the processes
// still running from them stopped; those of a running rmacheck, and directories of
// other names, are kept.
func TestStaleRunDirsAreRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	finished := exec.Command("true")
	if err := finished.Run(); err != nil {
		t.Skip("no true to get the PID of a finished process")
	}
	stale := filepath.Join(tmp, "rmacheck-openmpi-"+strconv.Itoa(finished.Process.Pid)+"-123")
	live := filepath.Join(tmp, "rmacheck-mpich-"+strconv.Itoa(os.Getppid())+"-456")
	other := filepath.Join(tmp, "rmacheck-mpich-789") // the older naming: no PID to tell by
	for _, d := range []string{stale, live, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rank := exec.Command("sh", "-c", "while :; do sleep 1; done", filepath.Join(stale, "SB"))
	rank.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := rank.Start(); err != nil {
		t.Fatal(err)
	}
	defer rank.Process.Kill()
	removeStaleRunDirs()
	if _, err := os.Stat(stale); err == nil {
		t.Error("the directory of a dead rmacheck was left")
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed", filepath.Base(d))
		}
	}
	if err := rank.Wait(); err == nil {
		t.Error("the rank running from the stale directory ended by itself?")
	} else if ws, ok := rank.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the rank running from the stale directory: %v; want killed", err)
	}
	if pid, ok := runDirPID("rmacheck-openmpi-42-777"); !ok || pid != 42 {
		t.Errorf("runDirPID: %d, %v", pid, ok)
	}
}
