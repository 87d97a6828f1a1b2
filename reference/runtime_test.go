package reference

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

func compile(t testing.TB, src, sem string) *model.Program {
	t.Helper()
	lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.ParseSemantics(sem)
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Compile(lt, s, spec.SC)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func count(r *Result, vals ...int64) int {
	for _, b := range r.Bins {
		if slices.Equal(b.Values, vals) {
			return b.Count
		}
	}
	return 0
}

func needsTSO(t *testing.T) {
	if !relaxedVisible || runtime.NumCPU() < 2 {
		t.Skipf("needs plain machine accesses and 2 CPUs (%s, %d CPUs)", runtime.GOARCH, runtime.NumCPU())
	}
}

const sb = `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | store y 1   ;
 r0 = load y | r0 = load x ;
exists (0:r0=0 /\ 1:r0=0)
`

// TestSBShowsStoreBuffering: on x86 the store buffer lets both loads read 0. The
// outcome needs the two ranks on their CPUs at once, within nanoseconds: on a loaded
// machine (make test runs packages side by side) it can take several rounds, and when
// the ranks never got their CPUs the test says so and skips rather than fail.
func TestSBShowsStoreBuffering(t *testing.T) {
	needsTSO(t)
	p := compile(t, sb, "mpi-4.1")
	runs, wait, elapsed := 0, time.Duration(0), time.Duration(0)
	for round := 1; round <= 10; round++ {
		r, err := Run(p, Options{Runs: 200_000, Seed: int64(round)})
		if err != nil {
			t.Fatal(err)
		}
		runs, wait, elapsed = runs+r.Runs, wait+r.RunWait, elapsed+r.Elapsed
		t.Logf("SB round %d: %d runs in %v (%.0f runs/s, starvation %.2f): %v", round, r.Runs, r.Elapsed, r.Rate(), r.Starvation(), r.Bins)
		if count(r, 0, 0) > 0 {
			return
		}
	}
	total := &Result{Runs: runs, RunWait: wait, Elapsed: elapsed, Procs: 2}
	if s := total.Starvation(); s > 0.05 {
		t.Skipf("SB never showed 0:r0=0 /\\ 1:r0=0 in %d runs, but the ranks waited for a CPU %.0f%% of the time: "+
			"the machine is loaded (CPU starvation), so they rarely ran at once", runs, 100*s)
	}
	t.Errorf("SB never showed 0:r0=0 /\\ 1:r0=0 in %d runs with the ranks on their CPUs (starvation %.2f)", runs, total.Starvation())
}

// TestSBSyncForbidsIt: MPI_Win_sync is a full fence between the store and the load.
func TestSBSyncForbidsIt(t *testing.T) {
	needsTSO(t)
	r, err := Run(compile(t, `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0                 | P1                 ;
 lock_all W nocheck | lock_all W nocheck ;
 store x 1          | store y 1          ;
 sync W             | sync W             ;
 r0 = load y        | r0 = load x        ;
 unlock_all W       | unlock_all W       ;
exists (0:r0=0 /\ 1:r0=0)
`, "mpi-4.1"), Options{Runs: 100_000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SB+sync: %d runs (%.0f runs/s): %v", r.Runs, r.Rate(), r.Bins)
	if n := count(r, 0, 0); n > 0 {
		t.Errorf("SB+sync showed 0:r0=0 /\\ 1:r0=0 %d times", n)
	}
}

// TestMPKeepsTSOOrder: x86 keeps store-store and load-load order.
func TestMPKeepsTSOOrder(t *testing.T) {
	needsTSO(t)
	r, err := Run(compile(t, `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | r0 = load y ;
 store y 1   | r1 = load x ;
exists (1:r0=1 /\ 1:r1=0)
`, "mpi-4.1"), Options{Runs: 500_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MP: %d runs (%.0f runs/s): %v", r.Runs, r.Rate(), r.Bins)
	if n := count(r, 1, 0); n > 0 {
		t.Errorf("MP showed the outcome tso forbids %d times", n)
	}
}

// TestBlockedProgramIsReported: a program that blocks (both ranks receive first) is
// stopped, with a message that says so, once every rank has waited Options.StallRounds looks.
func TestBlockedProgramIsReported(t *testing.T) {
	_, err := Run(compile(t, `{ win W allocate size=1; x = W@0[0]; }
 P0     | P1     ;
 recv 1 | recv 0 ;
exists (x=0)
`, "mpi-4.1"), Options{Runs: 10, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "the program blocks") {
		t.Fatalf("a program where both ranks receive first: %v; want it reported as blocked", err)
	}
}

// TestStarvedRunIsNotBlocked: a rank that is off its CPU for a long time (here rank 0
// sleeps in the progress callback, as a thread descheduled on a loaded machine would
// be off) slows the run down but is not a deadlock: the other rank's waiting is not
// counted against it. The wall-clock watchdog this replaces called it "the program
// blocks (a deadlock?)" once the pause exceeded its timeout.
func TestStarvedRunIsNotBlocked(t *testing.T) {
	paused := 0
	// StallRounds 50: a blocked program would be caught within a few milliseconds.
	r, err := Run(compile(t, sb, "mpi-4.1"), Options{Runs: 3 * 65536, Seed: 1, StallRounds: 50, Progress: func(int) {
		paused++
		time.Sleep(300 * time.Millisecond)
	}})
	if err != nil {
		t.Fatalf("a run whose rank 0 was off its CPU 3 x 300 ms: %v", err)
	}
	if paused != 3 || r.Runs != 3*65536 {
		t.Errorf("%d pauses, %d runs; want 3 and %d", paused, r.Runs, 3*65536)
	}
}

func BenchmarkSB(b *testing.B) {
	p := compile(b, sb, "mpi-4.1")
	b.ResetTimer()
	r, err := Run(p, Options{Runs: b.N, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.Rate(), "runs/s")
}

func BenchmarkMPFence(b *testing.B) {
	p := compile(b, mpFence, "mpi-4.1")
	b.ResetTimer()
	r, err := Run(p, Options{Runs: b.N, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.Rate(), "runs/s")
}

func BenchmarkLockCounter(b *testing.B) {
	p := compile(b, `{ win W allocate size=1; c = W@0[0]; }
 P0            | P1            ;
 lock W 0 excl | lock W 0 excl ;
 r0 = get c    | r0 = get c    ;
 flush W 0     | flush W 0     ;
 r1 = r0 + 1   | r1 = r0 + 1   ;
 put c r1      | put c r1      ;
 unlock W 0    | unlock W 0    ;
exists (c=1)
`, "mpi-4.1")
	b.ResetTimer()
	r, err := Run(p, Options{Runs: b.N, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.Rate(), "runs/s")
}
