//go:build linux

package conform

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStoppedLauncherDoesNotTimeOut: a launcher stopped by SIGSTOP (as a run starved
// of CPU, it cannot run) is not charged, so a run stopped for longer than its
// timeout is not stopped for the timeout (the smoke test of a starved CI host timed
// out); once it continues, and hangs asleep, the timeout stops it. The test asserts
// what happened while the launcher was stopped, not how long anything took.
func TestStoppedLauncherDoesNotTimeOut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the run clock reads Linux's /proc")
	}
	lib, err := Install{Prefix: fakePrefix(t)}.Library()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	launcher := filepath.Join(t.TempDir(), "hung-launcher")
	if err := os.WriteFile(launcher, []byte("#!/bin/sh\nwhile :; do sleep 1; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const timeout = 5 * time.Second
	// On this goroutine: without the acceptance folder they skip the test, and a
	// skip from the run's goroutine left this one waiting for a launcher forever.
	sb, sem := acceptance(t, "01-SB.lit"), mpi41(t)
	type result struct{ err error }
	done := make(chan result, 1)
	go func() {
		_, err := Check(MPI{Lib: lib, Timeout: timeout, Launch: LaunchOptions{Launcher: []string{launcher}}}, sb, sem, Options{Runs: 10, Seed: 1})
		done <- result{err}
	}()
	pid := 0
	for pid == 0 {
		select {
		case r := <-done:
			t.Fatalf("the run ended before its launcher was seen: %v", r.err)
		case <-time.After(10 * time.Millisecond):
		}
		for _, p := range processesUnder(tmp) {
			if strings.Contains(p, launcher) {
				pid, _ = strconv.Atoi(p[:strings.IndexByte(p, ':')])
			}
		}
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		t.Errorf("the run ended while its launcher was stopped: %v", r.err)
	case <-time.After(timeout + 3*time.Second):
	}
	syscall.Kill(pid, syscall.SIGCONT)
	r := <-done
	var re *RunError
	if !errors.As(r.err, &re) || !re.TimedOut || !strings.Contains(re.Reason, "did not finish within 5s") {
		t.Errorf("the hung launcher, continued: %v; want the timeout", r.err)
	}
}
