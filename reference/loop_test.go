package reference

import (
	"strings"
	"testing"
)

// Spin loops run for real: the body again while the exit test is false.

// TestPollsExit: a spin loop leaves once what it waits for arrives, in every
// iteration (the final register is the same each time):
//   - "flag": a reader polls a flag with plain loads (await) and then reads the data
//     the writer stored before the flag (the sync calls order the writer's stores and
//     the reader's loads), so r1 = 1;
//   - "MPI calls": a body that makes MPI calls (fetch_and_op no_op and a flush) runs
//     them again on each pass: the engine forgets that the body's calls were made
//     (model.Program.RestartLoop);
//   - "own pending put": a rank polls its own cell with plain loads after a put to
//     it that only the engine can perform (the other rank has finished): the engine
//     performs pending operations while the loop spins, as the model may at any
//     step; it was called a LIVELOCK (found by TestRandomProgramsConform).
func TestPollsExit(t *testing.T) {
	for _, c := range []struct {
		name, src, sem string
		runs           int
		want           int64 // the one register of the outcome
	}{
		{"flag", `{ win W allocate_shared size=1; x = W@0[0]; flag = W@1[0]; }
 P0         | P1                   ;
 lock_all W | lock_all W           ;
 store x 1  | r0 = await flag == 1 ;
 sync W     | sync W               ;
 store flag 1 | r1 = load x        ;
 unlock_all W | unlock_all W       ;
exists (1:r1=0)
`, "mpi-4.1", 2000, 1},
		{"MPI calls", `{ win W allocate size=1; flag = W@1[0]; }
 P0              | P1                      ;
 lock_all W      | lock_all W              ;
 put flag 1      | repeat                  ;
 flush_all W     | r0 = fop flag no_op 0   ;
                 | flush_all W             ;
                 | until r0 == 1           ;
 unlock_all W    | unlock_all W            ;
exists (1:r0=1)
`, "mpi-4.1", 500, 1},
		{"own pending put", `{ win W allocate size=2; }
 P0               | P1           ;
 lock_all W       | lock_all W   ;
 put W@0[0] 1     | unlock_all W ;
 repeat           |              ;
 r0 = load W@0[0] |              ;
 until r0 == 1    |              ;
 unlock_all W     |              ;
exists (0:r0=1)
`, "mpi-3.0", 500, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(compile(t, c.src, c.sem), Options{Runs: c.runs, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if n := count(r, c.want); n != c.runs {
				t.Errorf("%d of %d iterations end with %d; want all: %+v", n, c.runs, c.want, r.Bins)
			}
		})
	}
}

// TestLivelockIsReported: a loop that can never exit stops the run with LIVELOCK
// and the loop's place, whether the other ranks have finished (the awaited value is
// never stored) or wait in an MPI call themselves (a fence the poller never
// reaches). The writer's wait must not depend on timing: with an exclusive lock
// behind the poller's lock_all, a loaded host let the writer lock first in every
// run, and the run was rightly no livelock.
func TestLivelockIsReported(t *testing.T) {
	for _, c := range []struct{ name, src, at string }{
		{"never stored", `{ win W allocate_shared size=1; flag = W@1[0]; }
 P0           | P1                   ;
 store flag 2 | r0 = await flag == 1 ;
exists (1:r0=1)
`, "P1 row 1"},
		{"writer waits", `{ win W allocate size=[0,1]; flag = W@1[0]; }
 P0         | P1                   ;
 fence W    | r0 = await flag == 1 ;
 put flag 1 | fence W              ;
 fence W    | fence W              ;
exists (1:r0=1)
`, "P1 row 1"},
	} {
		_, err := Run(compile(t, c.src, "mpi-4.1"), Options{Runs: 1000, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "LIVELOCK: "+c.at+": until r0 == 1") {
			t.Errorf("%s: %v; want LIVELOCK at %s", c.name, err, c.at)
		}
	}
}

// TestLivelockNeedsReadsAfterTheOthersFinished: a failed exit test whose body read
// memory before the last other rank finished is no evidence of LIVELOCK, however many
// came before it: on a loaded machine the test may run long after the read, when the
// writer has stored the flag and finished (the CI failure of MP+poll). Only
// stallRounds tests whose bodies began after every other rank had finished are.
func TestLivelockNeedsReadsAfterTheOthersFinished(t *testing.T) {
	p := compile(t, `{ win W allocate_shared size=1; flag = W@1[0]; }
 P0           | P1                   ;
 store flag 1 | r0 = await flag == 1 ;
exists (1:r0=1)
`, "mpi-4.1")
	m := newMachine(p, Options{Seed: 1})
	poller := m.procs[1]
	const it = 1
	for i := 0; i <= 2*m.stallRounds; i++ { // P0 not yet finished: never stuck
		if !m.spinAgain(poller, it, 0) {
			t.Fatalf("test %d: stuck while P0 runs", i)
		}
	}
	m.procs[0].finished.Store(it) // P0 stores and finishes between the read and the test
	if !m.spinAgain(poller, it, 0) {
		t.Fatal("stuck on a test whose body read before P0 finished")
	}
	stuckAt := -1
	for i := 1; i <= m.stallRounds+1 && stuckAt < 0; i++ {
		if !m.spinAgain(poller, it, 0) {
			stuckAt = i
		}
	}
	if stuckAt != m.stallRounds {
		t.Errorf("stuck after %d tests that read after P0 finished; want %d", stuckAt, m.stallRounds)
	}
}
