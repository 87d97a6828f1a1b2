package conform

import (
	"context"
	"errors"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

func mpi41(t *testing.T) spec.Semantics {
	sem, ok := spec.Preset(spec.DefaultPreset)
	if !ok {
		t.Fatal("no mpi-4.1 preset")
	}
	return sem
}

func needLibrary(t *testing.T, target Family) {
	t.Helper()
	if _, err := PackageLibrary(target); err != nil {
		t.Skipf("skipped: %v", err)
	}
}

// library is the installed library named target as a target with a timeout (0: the
// default), or skips the test.
func library(t *testing.T, target Family, timeout time.Duration) MPI {
	t.Helper()
	lib, err := PackageLibrary(target)
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	return MPI{Lib: lib, Timeout: timeout}
}

// mpiRun runs t on a library and fails the test on an error, except that a run that
// timed out on a loaded machine skips it, naming the starvation: the library is not
// at fault.
func mpiRun(t *testing.T, lt *litmus.Test, target Family, opt Options) *Report {
	t.Helper()
	rep, err := Check(library(t, target, 0), lt, mpi41(t), opt)
	var re *RunError
	if errors.As(err, &re) && re.Starved {
		t.Skipf("CPU starvation, not a finding: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// skipIfStarved skips a test whose statistical check failed while the machine was
// loaded (the ranks rarely ran at once), naming the starvation.
func skipIfStarved(t *testing.T, what string) {
	t.Helper()
	if p, ok := supervise.CPUPressure(); ok && p > 0.5 {
		t.Skipf("%s, but the machine is loaded (tasks waited for a CPU %.0f%% of the last 10 s): CPU starvation, not a finding", what, 100*p)
	}
}

func acceptance(t *testing.T, name string) *litmus.Test {
	t.Helper()
	lt, err := litmus.ParseFile(corpus.AcceptanceFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// TestMPISBRelaxed: store buffering shows its relaxed outcome on both libraries, and
// that outcome is allowed (mpi-4.1, tso).
func TestMPISBRelaxed(t *testing.T) {
	for _, target := range []Family{MPICH, OpenMPI} {
		t.Run(target.String(), func(t *testing.T) {
			needLibrary(t, target)
			rep := mpiRun(t, acceptance(t, "01-SB.lit"), target, Options{Runs: 50_000, Seed: 1})
			t.Logf("%s SB: %d runs, %.0f runs/s, positive %d, bins %v", target, rep.Runs, rep.Rate, rep.Positive, rep.Bins)
			if rep.Positive == 0 {
				skipIfStarved(t, "SB never showed its relaxed outcome")
				t.Errorf("SB never showed 0:r0=0 /\\ 1:r0=0 in %d runs", rep.Runs)
			}
			if rep.NonConforming > 0 {
				t.Errorf("SB: %d non-conforming runs", rep.NonConforming)
			}
		})
	}
}

// mpPutFence16 is MP+put+fence with 16-byte segments: MPICH 4.0.2 loses puts to
// MPI_Win_allocate segments whose size is not a multiple of 16 bytes (see the report
// of issue 6 and cgen/testdata/findings), so the plain form is a finding there.
const mpPutFence16 = `MPI MP+put+fence16
{
  win W allocate size=2;
  x = W@1[0];
}
 P0          | P1           ;
 fence W     | fence W      ;
 put x 1     |              ;
 fence W     | fence W      ;
             | r0 = load x  ;
exists (1:r0=0)
`

// TestMPIMPPutFence: the forbidden outcome of MP+put+fence never shows.
func TestMPIMPPutFence(t *testing.T) {
	mp16, err := litmus.Parse("mp16.lit", []byte(mpPutFence16))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []Family{MPICH, OpenMPI} {
		t.Run(target.String(), func(t *testing.T) {
			needLibrary(t, target)
			tests := []*litmus.Test{mp16}
			if target == OpenMPI {
				tests = append(tests, acceptance(t, "11-MP+put+fence.lit"))
			}
			for _, lt := range tests {
				rep := mpiRun(t, lt, target, Options{Runs: 5_000, Seed: 2})
				t.Logf("%s %s: %d runs, %.0f runs/s, bins %v", target, lt.Name, rep.Runs, rep.Rate, rep.Bins)
				if rep.Positive > 0 || rep.NonConforming > 0 {
					t.Errorf("%s: the forbidden outcome 1:r0=0 showed %d times", lt.Name, rep.Positive)
				}
			}
		})
	}
}

// TestMPIWrongExpectation: compared with hw sc, which forbids SB's relaxed outcome,
// a real run is NON-CONFORMING; and a fake histogram line with a forbidden outcome is
// reported as such without any library.
func TestMPIWrongExpectation(t *testing.T) {
	sb := acceptance(t, "01-SB.lit")
	allowed := explorer.Job{Test: sb, Sem: mpi41(t), HW: spec.TSO}.Run(explorer.Options{})
	if allowed.Err != nil {
		t.Fatal(allowed.Err)
	}
	p := allowed.Result.Program
	fake := "RMACHECK test=SB procs=2 out=0:r0,1:r0\nMODEL W unified\nOUTCOME 7 0 1\nOUTCOME 3 2 2\nTIME 0.5 iterations=10\n"
	h := &Histogram{}
	if err := h.parse([]byte(fake), p, 10); err != nil {
		t.Fatal(err)
	}
	rep := &Report{}
	rep.compare(h, allowed.Result)
	if rep.NonConforming != 3 || rep.Runs != 10 || len(rep.Models) != 1 {
		t.Errorf("fake histogram: runs %d, non-conforming %d, models %v; want 10, 3, [W unified]", rep.Runs, rep.NonConforming, rep.Models)
	}
	h = &Histogram{}
	if err := h.parse([]byte("RMACHECK test=SB\nSKIP window W: MPI_WIN_MODEL is unified, the test declares separate\n"), p, 10); err != nil || !strings.Contains(h.Skipped, "MPI_WIN_MODEL") {
		t.Errorf("SKIP line: err %v, skipped %q", err, h.Skipped)
	}
	if err := (&Histogram{}).parse([]byte("RMACHECK\nOUTCOME 1 0\n"), p, 1); err == nil {
		t.Error("a short OUTCOME line was accepted")
	}
	// A histogram that does not count the runs asked (issue 25 row 13).
	for _, bad := range []string{
		"RMACHECK test=SB\nTIME 0.5 iterations=10\n", // no OUTCOME line at all
		"RMACHECK test=SB\nOUTCOME 9223372036854775807 0 1\nOUTCOME 9223372036854775807 2 2\nTIME 0.5 iterations=10\n",
		"RMACHECK test=SB\nOUTCOME -3 0 1\nOUTCOME 13 2 2\nTIME 0.5 iterations=10\n",
		"RMACHECK test=SB\nOUTCOME 7 0 1\nTIME 0.5 iterations=10\n",
	} {
		if err := (&Histogram{}).parse([]byte(bad), p, 10); err == nil {
			t.Errorf("a histogram that does not count 10 runs was accepted:\n%s", bad)
		}
	}
	for _, target := range []Family{MPICH, OpenMPI} {
		t.Run(target.String(), func(t *testing.T) {
			needLibrary(t, target)
			sc := spec.SC
			rep := mpiRun(t, sb, target, Options{Runs: 50_000, Seed: 3, HW: &sc})
			if rep.NonConforming == 0 {
				skipIfStarved(t, "SB compared with hw sc showed nothing the model forbids")
				t.Errorf("SB compared with hw sc: no NON-CONFORMING run in %d (bins %v)", rep.Runs, rep.Bins)
			}
		})
	}
}

func TestMissingLibrary(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for target, pkgs := range map[Family]string{MPICH: "apt-get install mpich libmpich-dev", OpenMPI: "apt-get install openmpi-bin libopenmpi-dev"} {
		_, err := PackageLibrary(target)
		if !IsMissingLibrary(err) || !strings.Contains(err.Error(), pkgs) {
			t.Errorf("%s with an empty PATH: %v; want a message naming %q", target, err, pkgs)
		}
	}
	mpich, _ := PackageLibrary(MPICH)
	if _, err := Check(MPI{Lib: mpich}, acceptance(t, "01-SB.lit"), mpi41(t), Options{}); !IsMissingLibrary(err) {
		t.Errorf("MPI without mpich: %v", err)
	}
}

func TestMPICHBusyPollRefusal(t *testing.T) {
	mpich, _ := PackageLibrary(MPICH)
	_, err := mpich.Launch(context.Background(), runtime.NumCPU()+1, LaunchOptions{}, "/nonexistent")
	if !CannotRun(err) || !strings.Contains(err.Error(), "busy-polls") || !strings.Contains(err.Error(), "--oversubscribe") {
		t.Errorf("more MPICH ranks than cores: %v", err)
	}
}

// A line over 64 KiB before the results is read whole, and an error quotes at most a
// few hundred bytes of it (issue 38 row 8: "output is incomplete" with the 70 KB line).
func TestLongOutputLines(t *testing.T) {
	sb := acceptance(t, "01-SB.lit")
	allowed := explorer.Job{Test: sb, Sem: mpi41(t), HW: spec.TSO}.Run(explorer.Options{})
	if allowed.Err != nil {
		t.Fatal(allowed.Err)
	}
	p := allowed.Result.Program
	long := strings.Repeat("x", 70_000)
	results := "RMACHECK test=SB procs=2 out=0:r0,1:r0\nOUTCOME 7 0 1\nOUTCOME 3 2 2\nTIME 0.5 iterations=10\n"
	h := &Histogram{}
	if err := h.parse([]byte("warning: "+long+"\n"+results), p, 10); err != nil || h.Runs != 10 {
		t.Errorf("a 70 KB line before the results: runs %d, err %.300v", h.Runs, err)
	}
	for _, out := range []string{
		"warning: " + long + "\nRMACHECK test=SB\n",  // incomplete: quoted by tail
		"RMACHECK test=SB\nOUTCOME 7 " + long + "\n", // a bad line: quoted by itself
		"RMACHECK test=SB\nERROR " + long + "\n",
	} {
		err := (&Histogram{}).parse([]byte(out), p, 10)
		if err == nil {
			t.Errorf("accepted: %.100s", out)
		} else if len(err.Error()) > 600 {
			t.Errorf("the error quotes %d bytes: %.300s", len(err.Error()), err)
		}
	}
	if re := programTrouble([]byte(long + "\nERROR MPI_Put failed: " + long + "\n")); re == nil || len(re.Reason) > 600 {
		t.Errorf("programTrouble after a long line: %.300v", re)
	}
	if _, err := parseProbe(MPICH, []byte(long+"\nLIB MPICH 4.1\n")); err != nil {
		t.Errorf("probe output after a long line: %.300v", err)
	}
}
