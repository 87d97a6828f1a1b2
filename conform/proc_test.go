//go:build linux

package conform

import (
	"context"
	"errors"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
)

// blocked is a test whose C program never ends: both ranks receive first (the model
// calls it DEADLOCK, so it runs only with IncludeErroneous).
const blocked = `MPI blocked
{ win W allocate size=1; x = W@0[0]; }
 P0     | P1     ;
 recv 1 | recv 0 ;
exists (x=0)
`

// processesUnder lists the processes whose command line mentions dir (the ranks of a
// program in a temporary directory under it, their launcher, its proxies).
func processesUnder(dir string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), dir) {
			stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				continue // a zombie is gone, only not reaped (by someone else)
			}
			found = append(found, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return found
}

// ranksRunning counts the processes of the blocked test's program under dir.
func ranksRunning(dir string) int {
	n := 0
	for _, p := range processesUnder(dir) {
		_, cmdline, _ := strings.Cut(p, ": ")
		if argv := strings.Fields(cmdline); len(argv) > 0 && filepath.Base(argv[0]) == "blocked" {
			n++
		}
	}
	return n
}

// TestTimeoutStopsEveryProcess: a test that hangs is stopped at --timeout with a
// message that says what to do (exit status 3 in the CLI), never a Go context error;
// when MPI returns, no launcher, proxy or rank of the run is left (Open MPI's ranks
// outlived the timeout by about 3 s) and the temporary directory is gone.
func TestTimeoutStopsEveryProcess(t *testing.T) {
	lt, err := litmus.Parse("blocked.lit", []byte(blocked))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []Family{MPICH, OpenMPI} {
		t.Run(target.String(), func(t *testing.T) {
			needLibrary(t, target)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			start := time.Now()
			_, err := Check(library(t, target, 4*time.Second), lt, mpi41(t), Options{Runs: 10, Seed: 1, IncludeErroneous: true})
			took := time.Since(start)
			var re *RunError
			if !errors.As(err, &re) || !CannotRun(err) || !strings.Contains(err.Error(), "did not finish within 4s") ||
				!strings.Contains(err.Error(), "--timeout") || strings.Contains(err.Error(), "context") {
				t.Errorf("a hanging test: %v; want a RunError naming the timeout and --timeout", err)
			}
			if left := processesUnder(tmp); len(left) > 0 {
				t.Errorf("processes left %v after the timeout:\n%s", took, strings.Join(left, "\n"))
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				t.Errorf("left in TMPDIR: %v", entries)
			}
			if took > supervise.LongestRun(4*time.Second)+5*time.Second { // starved ranks are given up to 10 times the timeout
				t.Errorf("MPI returned %v after it started, for a timeout of 4s", took)
			}
			if re != nil && re.Starved != strings.Contains(err.Error(), "on a loaded machine") {
				t.Errorf("Starved %v but the message is %q", re.Starved, err)
			}
			t.Logf("%s: stopped after %v: %v", target, took.Round(time.Millisecond), err)
		})
	}
}

// TestInterruptStopsEveryProcess: cancelling Options.Context (what SIGINT or SIGTERM
// does in the CLI) stops the launcher and every rank, removes the temporary directory
// and returns the context's cause.
func TestInterruptStopsEveryProcess(t *testing.T) {
	needLibrary(t, MPICH)
	lt, _ := litmus.Parse("blocked.lit", []byte(blocked))
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted (test)")
	go func() {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if ranksRunning(tmp) == 2 {
				break
			}
		}
		cancel(stop)
	}()
	_, err := Check(library(t, MPICH, time.Minute), lt, mpi41(t), Options{Runs: 10, IncludeErroneous: true, Context: ctx})
	if ctx.Err() == nil {
		t.Fatal("MPI returned before the watcher saw the ranks")
	}
	if !errors.Is(err, stop) {
		t.Errorf("an interrupted run: %v; want the context's cause", err)
	}
	if left := processesUnder(tmp); len(left) > 0 {
		t.Errorf("processes left after the interrupt:\n%s", strings.Join(left, "\n"))
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in TMPDIR: %v", entries)
	}
}

// TestProgramTrouble: an ERROR line of the program's output makes the run a
// RunError that says what happened; a SPIN-LIMIT line is the report's finding.
func TestProgramTrouble(t *testing.T) {
	if programTrouble([]byte("RMACHECK test=x\nOUTCOME 3 0\nTIME 0.1 iterations=3\n")) != nil {
		t.Error("a good output is trouble")
	}
	spin := []byte("RMACHECK test=x\nSPIN-LIMIT rank 1 row 3\n")
	if programTrouble(spin) != nil || spinLimit(spin) != "SPIN-LIMIT rank 1 row 3" {
		t.Errorf("SPIN-LIMIT: trouble %+v, spin limit %q", programTrouble(spin), spinLimit(spin))
	}
	re := programTrouble([]byte("ERROR rank 0 row 2: MPI_Win_shared_query: error class 45: wrong flavor\n"))
	if re == nil || !strings.Contains(re.Reason, "MPI_Win_shared_query") {
		t.Errorf("ERROR: %+v", re)
	}
}
