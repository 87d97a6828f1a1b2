package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestCompletionTests: r = test W and r = testreq q (docs/language.md#completion-tests), one row per rule: what they return, what a successful one ends, a
// spin loop over them (§2), and E-EPOCH-END for a request never completed (§5).
func TestCompletionTests(t *testing.T) {
	pscw := func(p1 string) string {
		return `{ win W allocate size=2; x = W@1[0]; }
 P0          | P1          ;
 start W {1} | post W {0}  ;
 put x 1     |             ;
 complete W  |             ;
` + p1 + `exists (1:r1=0)
`
	}
	req := func(body string) string {
		return `{ win W allocate size=2; x = W@1[0]; x = 5; }
 P0              | P1 ;
 lock_all W      |    ;
 r1 = rget x @q  |    ;
` + body + ` unlock_all W    |    ;
exists (0:r2=5)
`
	}
	runCases(t, []ruleCase{
		{"test-once", "test: 0 while a complete is missing (the epoch stays open for the wait), 1 once R3 holds; a failed test is an MB but ends nothing",
			"mpi-4.1", spec.Relaxed, pscw(`             | r0 = test W ;
             | [r0 == 0] wait W ;
             | r1 = load x ;
`), []string{"1:r1=1;"}, nil},
		{"test-once-outcome", "test: both answers are outcomes when nothing spins",
			"mpi-4.1", spec.Relaxed, `{ win W allocate size=2; x = W@1[0]; }
 P0          | P1          ;
 start W {1} | post W {0}  ;
 complete W  | r0 = test W ;
             | [r0 == 0] wait W ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, nil},
		{"test-loop", "test in a spin loop: the load after it never reads stale (R3, R6, MB of scope own)",
			"mpi-3.0", spec.Relaxed, pscw(`             | repeat      ;
             | r0 = test W ;
             | until r0 == 1 ;
             | r1 = load x ;
`), []string{"1:r1=1;"}, nil},
		{"test-loop-no-complete", "§2: a test loop whose epoch no complete ends spins forever: LIVELOCK",
			"mpi-4.1", spec.Relaxed, `{ win W allocate size=2; x = W@1[0]; }
 P0          | P1          ;
 start W {1} | post W {0}  ;
             | repeat      ;
             | r0 = test W ;
             | until r0 == 1 ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, []spec.RuleID{spec.Livelock, spec.EEpochEnd}},
		{"testreq-loop", "testreq in a spin loop completes the rget: its result is there after the loop",
			"mpi-4.1", spec.Relaxed, req(" repeat          |    ;\n r0 = testreq q  |    ;\n until r0 == 1   |    ;\n r2 = r1 + 0     |    ;\n"),
			[]string{"0:r2=5;"}, nil},
		{"testreq-twice", "testreq of a completed request tests 1 again (a null request)",
			"mpi-4.1", spec.Relaxed, req(" waitreq q       |    ;\n r0 = testreq q  |    ;\n r2 = r0 + 4     |    ;\n"),
			[]string{"0:r2=5;"}, nil},
		{"testreq-once", "testreq once: 0 before the get performed, 1 after",
			"mpi-4.1", spec.Relaxed, req(" r0 = testreq q  |    ;\n [r0 == 0] waitreq q |    ;\n r2 = r0 + 0     |    ;\n"),
			[]string{"0:r2=0;", "0:r2=1;"}, nil},
		{"request-never-completed", "§5 E-EPOCH-END: a request no waitreq or successful testreq completed",
			"mpi-4.1", spec.Relaxed, req(" r2 = 5          |    ;\n"), []string{"0:r2=5;"}, []spec.RuleID{spec.EEpochEnd}},
		{"request-tested-0", "§5 E-EPOCH-END: a testreq that returned 0 completes nothing",
			"mpi-4.1", spec.Relaxed, req(" r0 = testreq q  |    ;\n r2 = 5          |    ;\n"), []string{"0:r2=5;"}, []spec.RuleID{spec.EEpochEnd}},
	})
}

// TestWaitanyLoop: docs/semantics.md#spin-loops, MPI_Waitany over two requests as a spin loop
// whose until is a disjunction of r == 1 over their testreq results (acceptance 63):
// every iteration but the last had both tests fail, so the loop is one iteration
// and an assume; either request may be the one found complete, and a request never
// complete spins forever. Before the rule the parser refused the loop.
func TestWaitanyLoop(t *testing.T) {
	src := func(second string) string {
		return `{ win W create size=2; W@1[0] = 3; W@1[1] = 4; }
 P0                       | P1 ;
 lock_all W               |    ;
 r0 = rget W@1[0] @q0     |    ;
 ` + second + `     |    ;
 repeat                   |    ;
 r8 = testreq q0          |    ;
 r9 = testreq q1          |    ;
 until r8 == 1 \/ r9 == 1 |    ;
 waitreq q0               |    ;
 waitreq q1               |    ;
 unlock_all W             |    ;
locations [0:r9; 0:r1];
exists (0:r8=0)
`
	}
	runCases(t, []ruleCase{
		{"waitany-two-rgets", "§2: either test may succeed first; both results are there after the waits", "mpi-4.1", spec.Relaxed,
			src("r1 = rget W@1[1] @q1"), []string{"0:r8=0; 0:r9=1; 0:r1=4;", "0:r8=1; 0:r9=0; 0:r1=4;", "0:r8=1; 0:r9=1; 0:r1=4;"}, nil},
		{"waitany-tso", "§2: the same under tso", "mpi-3.0", spec.TSO,
			src("r1 = rget W@1[1] @q1"), []string{"0:r8=0; 0:r9=1; 0:r1=4;", "0:r8=1; 0:r9=0; 0:r1=4;", "0:r8=1; 0:r9=1; 0:r1=4;"}, nil},
	})
}

// TestEpochClosersWithoutEpoch: a call that ends an epoch which is not open is
// E-EPOCH (node327: epochs are started and completed by the synchronization calls),
// a test called again after it returned 1 among them (the first ended the exposure
// epoch). E-SYNC-EPOCH is sync and flush outside a passive-target epoch only
// (docs/rules.md#e-sync-epoch). Before, every row here raised E-SYNC-EPOCH.
func TestEpochClosersWithoutEpoch(t *testing.T) {
	two := `{ win W allocate size=1; x = W@1[0]; }
 P0          | P1          ;
`
	runCases(t, []ruleCase{
		{"test-after-test-returned-1", "E-EPOCH: the second test finds no exposure epoch", "mpi-4.1", spec.Relaxed,
			two + ` start W {1} | post W {0}  ;
 complete W  | repeat      ;
             | r0 = test W ;
             | until r0 == 1 ;
             | r1 = test W ;
exists (1:r1=0)
`, []string{"1:r1=0;"}, []spec.RuleID{spec.EEpoch}},
		{"wait-without-post", "E-EPOCH: wait without post", "mpi-3.0", spec.Relaxed,
			two + " wait W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"complete-without-start", "E-EPOCH: complete without start", "B", spec.Relaxed,
			two + " complete W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"unlock-all-without-lock-all", "E-EPOCH: unlock_all without lock_all", "A", spec.Relaxed,
			two + " unlock_all W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"sync-without-lock", "control: sync outside a passive-target epoch stays E-SYNC-EPOCH", "mpi-4.1", spec.Relaxed,
			two + " sync W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ESyncEpoch}},
	})
}
