//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const blockedLit = `MPI blocked
{ win W allocate size=1; x = W@0[0]; }
 P0     | P1     ;
 recv 1 | recv 0 ;
exists (x=0)
`

// procsMentioning lists the live processes whose command line mentions s.
func procsMentioning(s string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(strings.TrimSpace(string(stat)[i+1:]), "Z") {
			continue
		}
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return found
}

// TestSignalStopsMPIRun: SIGTERM or SIGINT to `rmacheck conform --target mpich` while
// the ranks run stops mpiexec and both ranks (they were left spinning, re-parented to
// PID 1), removes the rmacheck-mpich-* directory, and exits 128 + the signal.
func TestSignalStopsMPIRun(t *testing.T) {
	if _, err := exec.LookPath("mpiexec.mpich"); err != nil {
		t.Skip("MPICH is not installed")
	}
	lit := filepath.Join(t.TempDir(), "blocked.lit")
	if err := os.WriteFile(lit, []byte(blockedLit), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(os.Args[0], "conform", "--target", "mpich", "--include-erroneous", "--runs", "10", "--timeout", "2m", lit)
			cmd.Env = append(os.Environ(), "RMACHECK_AS_MAIN=1", "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			ranks := 0
			for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline) && ranks < 2; time.Sleep(50 * time.Millisecond) {
				ranks = 0
				for _, p := range procsMentioning(tmp) {
					if strings.Contains(p, "/blocked 10") {
						ranks++
					}
				}
			}
			if ranks < 2 {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the ranks did not start: %s", stderr.String())
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("rmacheck after %v: %v; want exit %d", sig, err, 128+int(sig))
			}
			if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "temporary files removed") {
				t.Errorf("stderr: %q", stderr.String())
			}
			time.Sleep(200 * time.Millisecond) // an orphan would still be running now
			if left := procsMentioning(tmp); len(left) > 0 {
				t.Errorf("left running after %v:\n%s", sig, strings.Join(left, "\n"))
				for _, p := range left { // do not leave them spinning
					var pid int
					if _, err := fmtSscanPID(p, &pid); err == nil {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				t.Errorf("left in TMPDIR: %v", entries)
			}
		})
	}
}

func fmtSscanPID(p string, pid *int) (int, error) {
	s, _, _ := strings.Cut(p, ":")
	n, err := 0, error(nil)
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("not a pid")
		}
		n = n*10 + int(c-'0')
	}
	*pid = n
	return 1, err
}
