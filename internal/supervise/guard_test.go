//go:build linux

package supervise

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// writeMarkerOf writes a marker for o into dir, as MakeDir would for that owner.
func writeMarkerOf(t *testing.T, dir string, o owner) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("%s\nuid %d\nhost %s\nboot %s\npid %d\nstart %d\n", markerMagic, o.UID, o.Host, o.Boot, o.PID, o.Start)
	if err := os.WriteFile(filepath.Join(dir, markerName), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// startWithToken starts a long-running process whose environment carries token (as a
// rank started by a launcher of that owner would), or none when token is "".
func startWithToken(t *testing.T, token string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = os.Environ()
	if token != "" {
		cmd.Env = append(cmd.Env, ownerEnv+"="+token)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// killedBySIGKILL waits for cmd and reports whether SIGKILL ended it.
func killedBySIGKILL(cmd *exec.Cmd) bool {
	err := cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return err != nil && ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// stillRunning reports whether cmd has not ended (it is not waited for).
func stillRunning(cmd *exec.Cmd) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WNOHANG, nil)
	return err == nil && got == 0
}

// TestStaleRunDirsAreRemoved (issue 38 row 1): the next run removes only the run
// directories whose marker proves this program made them, for an owner on this host
// and boot that is gone, and stops only the processes carrying that owner's token.
// A user's directory named like a run's, a user's process that names it, a live
// owner's directory, another host's, and what a symbolic link points to all survive.
func TestStaleRunDirsAreRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	finished := exec.Command("true")
	if err := finished.Run(); err != nil {
		t.Skip("no true to get the PID of a finished process")
	}
	me := currentOwner()
	gone := me
	gone.PID, gone.Start = finished.Process.Pid, me.Start+1
	live := me
	live.PID = os.Getppid()
	live.Start, _ = processStart(live.PID)
	elsewhere := gone
	elsewhere.Host = me.Host + "-other-node"

	staleDir := filepath.Join(tmp, "rmacheck-openmpi-abc")
	liveDir := filepath.Join(tmp, "rmacheck-mpich-def")
	otherHostDir := filepath.Join(tmp, "rmacheck-mpich-ghi")
	userDir := filepath.Join(tmp, "rmacheck-reports-2024-final")
	outside := filepath.Join(t.TempDir(), "rmacheck-outside-1-2")
	writeMarkerOf(t, staleDir, gone)
	writeMarkerOf(t, liveDir, live)
	writeMarkerOf(t, otherHostDir, elsewhere)
	writeMarkerOf(t, outside, gone)
	if err := os.Symlink(outside, filepath.Join(tmp, "rmacheck-link-3-4")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userDir, "report.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rank := startWithToken(t, gone.token(), "sh", "-c", "while :; do sleep 1; done", filepath.Join(staleDir, "SB"))
	tail := startWithToken(t, "", "tail", "-f", filepath.Join(userDir, "report.md"), filepath.Join(staleDir, markerName))

	removeStaleRunDirs()

	if _, err := os.Lstat(staleDir); err == nil {
		t.Error("the directory of a gone rmacheck was left")
	}
	for _, d := range []string{liveDir, otherHostDir, userDir, outside, filepath.Join(userDir, "report.md")} {
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("%s was removed", d)
		}
	}
	if !killedBySIGKILL(rank) {
		t.Error("the rank carrying the gone owner's token was not stopped")
	}
	time.Sleep(100 * time.Millisecond) // a kill would have landed by now
	if !stillRunning(tail) {
		t.Error("a user's tail -f, which names the directories but carries no token, was stopped")
	}
}

// TestMarkerRefusesLinksAndStrangers: a marker is read only from a regular file of this
// user in the marker's format; a link to a valid marker does not count.
func TestMarkerRefusesLinksAndStrangers(t *testing.T) {
	dir := t.TempDir()
	if err := writeMarker(dir); err != nil {
		t.Fatal(err)
	}
	if o, ok := readMarker(dir); !ok || o != currentOwner() {
		t.Fatalf("readMarker of its own marker: %+v, %v; want %+v", o, ok, currentOwner())
	}
	if err := writeMarker(dir); err == nil {
		t.Error("a second marker replaced the first")
	}
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, markerName), filepath.Join(linked, markerName)); err != nil {
		t.Fatal(err)
	}
	if _, ok := readMarker(linked); ok {
		t.Error("a marker reached through a symbolic link was accepted")
	}
	forged := t.TempDir()
	if err := os.WriteFile(filepath.Join(forged, markerName), []byte("uid 0\nhost x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := readMarker(forged); ok {
		t.Error("a marker without the magic line was accepted")
	}
}

// TestOwnerRunning: an owner runs while its PID lives with its start time; a reused
// PID (another start time) is not it.
func TestOwnerRunning(t *testing.T) {
	me := currentOwner()
	if !me.running() {
		t.Fatal("this process is not running?")
	}
	reused := me
	reused.Start++
	if reused.running() {
		t.Error("a PID with another start time counted as the owner")
	}
}
