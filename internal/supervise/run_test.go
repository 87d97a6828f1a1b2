//go:build linux

package supervise

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunStopsWhatItStarted: when a run's context ends, Run stops the program and
// what it left behind in a session of its own (as MPICH's proxy and ranks are), and
// returns what it printed: no process of the run is left.
func TestRunStopsWhatItStarted(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid to start a process in a session of its own")
	}
	dir := t.TempDir() // named on the command lines of the run's processes
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if len(processesNaming(dir)) == 2 {
				break
			}
		}
		cancel()
	}()
	script := `echo started; setsid sh -c 'sleep 1000; :' rank "$1" & sleep 1000; :`
	stdout, _, err := Run(ctx, []string{"sh", "-c", script, "launcher", dir}, nil)
	if err == nil || string(stdout) != "started\n" {
		t.Errorf("Run = %q, %v; want the output and the error of a stopped program", stdout, err)
	}
	if left := processesNaming(dir); len(left) > 0 {
		t.Errorf("left running: %s", strings.Join(left, "; "))
	}
}

// processesNaming lists the live processes whose command line names dir.
func processesNaming(dir string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), dir) {
			continue
		}
		if stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); strings.Contains(string(stat), ") Z ") {
			continue // a zombie, not yet reaped by its parent
		}
		found = append(found, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return found
}
