package model_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// explore runs a .lit program (given without its header) and returns its outcomes as
// "name=v;" strings, sorted, and the rules raised.
func explore(t *testing.T, src, sem string, hw spec.HW) (outcomes []string, flags []spec.RuleID) {
	t.Helper()
	r := search(t, src, sem, hw)
	for _, o := range r.Outcomes { // by value: clean and erroneous executions alike
		if v := r.Program.OutcomeString(o.Values); !slices.Contains(outcomes, v) {
			outcomes = append(outcomes, v)
		}
	}
	for _, f := range r.Flags { // a rule once, however many places raise it
		if !slices.Contains(flags, f.Rule) {
			flags = append(flags, f.Rule)
		}
	}
	sort.Strings(outcomes)
	return outcomes, flags
}

// search runs a .lit program (given without its header) and returns what the
// search found.
func search(t *testing.T, src, sem string, hw spec.HW) *explorer.Result {
	t.Helper()
	lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	s, err := spec.ParseSemantics(sem)
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Compile(lt, s, hw)
	if err != nil {
		t.Fatal(err)
	}
	r, err := explorer.Explore(p, explorer.Options{MaxStates: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type ruleCase struct {
	name     string
	rule     string // the rule (docs/rules.md) or switch (docs/semantics.md) the case shows
	sem      string
	hw       spec.HW
	src      string
	outcomes []string      // every allowed outcome, sorted
	flags    []spec.RuleID // rules raised, each once, in catalogue order
}

func runCases(t *testing.T, cases []ruleCase) {
	for _, c := range cases {
		t.Run(c.name+"/"+c.sem+"/"+c.hw.String(), func(t *testing.T) {
			got, flags := explore(t, c.src, c.sem, c.hw)
			if d := cmp.Diff(c.outcomes, got); d != "" {
				t.Errorf("%s: outcomes (-want +got):\n%s", c.rule, d)
			}
			if d := cmp.Diff(c.flags, flags); d != "" {
				t.Errorf("%s: flags (-want +got):\n%s", c.rule, d)
			}
		})
	}
}

const sbSrc = `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | store y 1   ;
 r0 = load y | r0 = load x ;
exists (0:r0=0 /\ 1:r0=0)
`

const mpSrc = `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 store x 1   | r0 = load y ;
 store y 1   | r1 = load x ;
exists (1:r0=1 /\ 1:r1=0)
`

const lbSrc = `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 r0 = load x | r1 = load y ;
 store y 1   | store x 1   ;
exists (0:r0=1 /\ 1:r1=1)
`

const lbDepSrc = `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 r0 = load x | r1 = load y ;
 store y r0  | store x r1  ;
exists (0:r0=1 /\ 1:r1=1)
`

// TestHardwareModels: docs/semantics.md#hardware-models, one row per hw rule.
func TestHardwareModels(t *testing.T) {
	sb3 := []string{"0:r0=0; 1:r0=1;", "0:r0=1; 1:r0=0;", "0:r0=1; 1:r0=1;"}
	sb4 := append([]string{"0:r0=0; 1:r0=0;"}, sb3...)
	mp3 := []string{"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"}
	mp4 := []string{"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=0;", "1:r0=1; 1:r1=1;"}
	lb3 := []string{"0:r0=0; 1:r1=0;", "0:r0=0; 1:r1=1;", "0:r0=1; 1:r1=0;"}
	lb4 := append(append([]string(nil), lb3...), "0:r0=1; 1:r1=1;")
	// None of these programs has a sync edge, so every conflicting pair races (§7);
	// under sc the barrier still orders the store before the load, so no pair is co-enabled.
	race := []spec.RuleID{spec.Race}
	runCases(t, []ruleCase{
		{"SB", "sc: accesses act on memory at once, in program order", "mpi-3.0", spec.SC, sbSrc, sb3, race},
		{"SB", "tso: stores wait in a FIFO store buffer", "mpi-3.0", spec.TSO, sbSrc, sb4, race},
		{"SB", "relaxed: a load may pass a store to another cell", "mpi-3.0", spec.Relaxed, sbSrc, sb4, race},
		{"MP", "tso keeps store-store and load-load order", "mpi-3.0", spec.TSO, mpSrc, mp3, race},
		{"MP", "relaxed reorders accesses to different cells", "mpi-3.0", spec.Relaxed, mpSrc, mp4, race},
		{"LB", "tso: loads are not delayed past later stores", "mpi-3.0", spec.TSO, lbSrc, lb3, race},
		{"LB", "relaxed: a store may pass a load to another cell", "mpi-3.0", spec.Relaxed, lbSrc, lb4, race},
		{"LB+data", "relaxed: a data dependency orders the store after the load (no thin air)", "mpi-3.0", spec.Relaxed, lbDepSrc,
			[]string{"0:r0=0; 1:r1=0;"}, race},
		{"CoWR", "relaxed: coherence and store forwarding, a load reads its own earlier store",
			"mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=1; x = W@0[0]; }
 P0          | P1        ;
 store x 1   | store x 2 ;
 r0 = load x |           ;
exists (0:r0=2)
`, []string{"0:r0=1;", "0:r0=2;"}, race},
		{"CoRR", "relaxed: two loads of one cell keep their order",
			"mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=1; x = W@0[0]; }
 P0        | P1          ;
 store x 1 | r0 = load x ;
           | r1 = load x ;
exists (1:r0=1 /\ 1:r1=0)
`, []string{"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"}, race},
		{"MP+barrier", "barrier synchronizes processes but is no memory barrier",
			"mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=1; x = W@0[0]; }
 P0        | P1          ;
 store x 1 | barrier     ;
 barrier   | r0 = load x ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, race},
		{"MP+barrier", "under sc a barrier orders everything", "mpi-3.0", spec.SC, `{ win W allocate_shared size=1; x = W@0[0]; }
 P0        | P1          ;
 store x 1 | barrier     ;
 barrier   | r0 = load x ;
exists (1:r0=0)
`, []string{"1:r0=1;"}, nil},
		{"SB+sync", "sync is an MB of scope all in every preset", "mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0          | P1          ;
 lock_all W  | lock_all W  ;
 store x 1   | store y 1   ;
 sync W      | sync W      ;
 r0 = load y | r0 = load x ;
 unlock_all W| unlock_all W;
exists (0:r0=0 /\ 1:r0=0)
`, sb3, race},
	})
}

// putFence: a put in a fence epoch, read by the target after the closing fence.
const putFence = `{ win W allocate size=1; x = W@1[0]; }
 P0      | P1          ;
 fence W | fence W     ;
 put x 1 |             ;
 fence W | fence W     ;
         | r0 = load x ;
exists (1:r0=1)
`

// TestRMA: docs/semantics.md#rma-operations, RMA issue, perform and completion.
func TestRMA(t *testing.T) {
	runCases(t, []ruleCase{
		{"put+fence", "R2: the target's closing fence waits for the put", "mpi-3.0", spec.Relaxed, putFence, []string{"1:r0=1;"}, nil},
		{"get+fence", "a get reads its value when performed, after the epoch's opening fence", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; }
 P0         | P1        ;
 fence W    | store x 5 ;
 r0 = get x | fence W   ;
 fence W    | fence W   ;
exists (0:r0=5)
`, []string{"0:r0=5;"}, nil},
		{"lock+flush", "R4: flush performs the put at the target before returning", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; }
 P0            | P1            ;
 lock W 1 excl | r1 = recv 0   ;
 put x 1       | lock W 1 excl ;
 flush W 1     | r0 = load x   ;
 send 1 9      | unlock W 1    ;
 unlock W 1    |               ;
locations [1:r1];
exists (1:r0=1)
`, []string{"1:r0=1; 1:r1=9;"}, nil},
		{"acc-order", "accumulates from one origin to one cell perform in issue order", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; c = W@1[0]; }
 P0              | P1 ;
 lock_all W      |    ;
 acc c replace 1 |    ;
 acc c replace 2 |    ;
 unlock_all W    |    ;
exists (c=2)
`, []string{"c=2;"}, nil},
		{"acc-order-none", "accumulate_ordering=none lets them perform in any order", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 accumulate_ordering=none; c = W@1[0]; }
 P0              | P1 ;
 lock_all W      |    ;
 acc c replace 1 |    ;
 acc c replace 2 |    ;
 unlock_all W    |    ;
exists (c=2)
`, []string{"c=1;", "c=2;"}, nil},
		{"acc-order-war", "a partial accumulate_ordering keeps only the listed pairs (waw kept)", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 accumulate_ordering="rar,war"; c = W@1[0]; }
 P0                   | P1 ;
 lock_all W           |    ;
 r0 = fop c replace 1 |    ;
 r1 = fop c replace 2 |    ;
 unlock_all W         |    ;
locations [0:r0; 0:r1];
exists (c=2)
`, []string{"c=2; 0:r0=0; 0:r1=1;"}, nil},
		{"acc-order-raw-missing", "without raw and waw, a later fetch may read before an earlier update", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 accumulate_ordering="rar,war"; c = W@1[0]; }
 P0                   | P1 ;
 lock_all W           |    ;
 acc c replace 1      |    ;
 r1 = fop c no_op 0   |    ;
 unlock_all W         |    ;
locations [c];
exists (0:r1=0)
`, []string{"0:r1=0; c=1;", "0:r1=1; c=1;"}, nil},
		{"cas", "compare-and-swap swaps only on a match", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; c = W@1[0]; c = 3; }
 P0           | P1 ;
 lock W 1 excl|    ;
 r0 = cas c 3 7 |  ;
 r1 = cas c 3 9 |  ;
 unlock W 1   |    ;
locations [0:r0; 0:r1];
exists (c=7)
`, []string{"c=7; 0:r0=3; 0:r1=7;"}, nil},
		{"rget+waitreq", "a request-based get completes locally at waitreq", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; x = 4; }
 P0               | P1 ;
 lock W 1 shared  |    ;
 r0 = rget x @q   |    ;
 waitreq q        |    ;
 r1 = r0 + 1      |    ;
 unlock W 1       |    ;
locations [0:r0];
exists (0:r1=5)
`, []string{"0:r1=5; 0:r0=4;"}, nil},
		{"flush_local", "flush_local waits for the result of a get", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; x = 4; }
 P0               | P1 ;
 lock W 1 shared  |    ;
 r0 = get x       |    ;
 flush_local W 1  |    ;
 r1 = r0 + 1      |    ;
 unlock W 1       |    ;
locations [0:r0];
exists (0:r1=5)
`, []string{"0:r1=5; 0:r0=4;"}, nil},
		{"pscw", "R3: wait returns after the origin's complete, and the put is performed", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; }
 P0          | P1          ;
 start W {1} | post W {0}  ;
 put x 1     | wait W      ;
 complete W  | r0 = load x ;
exists (1:r0=1)
`, []string{"1:r0=1;"}, nil},
		{"pscw-two-epochs", "the first wait matches the first complete only (R3), not a put of the next epoch", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; }
 P0          | P1         ;
 start W {1} | post W {0} ;
 complete W  | wait W     ;
 start W {1} | post W {0} ;
 put x 1     | wait W     ;
 complete W  |            ;
exists (x=1)
`, []string{"x=1;"}, nil},
		{"pscw-self", "PSCW with the origin as its own target (node316: the target may be the origin)", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; x = W@0[0]; }
 P0          | P1 ;
 post W {0}  |    ;
 start W {0} |    ;
 put x 1     |    ;
 complete W  |    ;
 wait W      |    ;
 r0 = load x |    ;
exists (0:r0=1)
`, []string{"0:r0=1;"}, nil},
		{"fence-epochs", "operations of consecutive fence epochs land in epoch order", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; x = W@1[0]; }
 P0      | P1      ;
 fence W | fence W ;
 put x 1 |         ;
 fence W | fence W ;
 put x 2 |         ;
 fence W | fence W ;
exists (x=2)
`, []string{"x=2;"}, nil},
		{"sendrecv-fifo", "messages between two processes arrive in order", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1; }
 P0       | P1          ;
 send 1 1 | r0 = recv 0 ;
 send 1 2 | r1 = recv 0 ;
exists (1:r0=1 /\ 1:r1=2)
`, []string{"1:r0=1; 1:r1=2;"}, nil},
		{"guard", "a predicated instruction runs only when its guard holds", "mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }
 P0                  | P1          ;
 store x 1           | r0 = load x ;
                     | [r0 == 1] store y 1 ;
locations [1:r0];
exists (y=1)
`, []string{"y=0; 1:r0=0;", "y=1; 1:r0=1;"}, []spec.RuleID{spec.Race}},
		{"shared-query-shared", "shared_query on allocate_shared gives the segment size", "mpi-3.0", spec.Relaxed, `{ win W allocate_shared size=[1,3]; }
 P0                    | P1 ;
 r0 = shared_query W 1 |    ;
exists (0:r0=3)
`, []string{"0:r0=3;"}, nil},
		{"shared-query-any", "sq_any_flavor: on allocate, both answers, one per (window, caller, target)", "mpi-4.1", spec.Relaxed, `{ win W allocate size=2; }
 P0                    | P1 ;
 r0 = shared_query W 1 |    ;
 r1 = shared_query W 1 |    ;
locations [0:r1];
exists (0:r0=2)
`, []string{"0:r0=0; 0:r1=0;", "0:r0=2; 0:r1=2;"}, nil},
	})
}

// TestSeparate: R5 and R6 copies of a separate window (docs/semantics.md#rma-operations).
func TestSeparate(t *testing.T) {
	runCases(t, []ruleCase{
		{"no-R6", "R6: a put reaches the private copy only at an owner's R6 call", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 model=separate; x = W@1[0]; }
 P0            | P1          ;
 lock W 1 excl | recv 0      ;
 put x 1       | r0 = load x ;
 unlock W 1    |             ;
 send 1        |             ;
locations [x];
exists (1:r0=0)
`, []string{"1:r0=0; x=0;"}, []spec.RuleID{spec.S1}},
		{"R6-lock", "R6: the owner's lock copies the public update into the private copy", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 model=separate; x = W@1[0]; }
 P0            | P1            ;
 lock W 1 excl | recv 0        ;
 put x 1       | lock W 1 excl ;
 unlock W 1    | r0 = load x   ;
 send 1        | unlock W 1    ;
locations [x];
exists (1:r0=1)
`, []string{"1:r0=1; x=1;"}, nil},
		{"no-R5", "R5: the owner's store stays private without an R5 call", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 model=separate; x = W@1[0]; }
 P0              | P1        ;
 recv 1          | store x 1 ;
 lock W 1 shared | send 0    ;
 r0 = get x      |           ;
 unlock W 1      |           ;
locations [x];
exists (0:r0=0)
`, []string{"0:r0=0; x=1;"}, nil},
		{"R5-unlock", "R5: the owner's unlock makes its store public", "mpi-3.0", spec.Relaxed, `{ win W allocate size=1 model=separate; x = W@1[0]; }
 P0              | P1            ;
 recv 1          | lock W 1 excl ;
 lock W 1 shared | store x 1     ;
 r0 = get x      | unlock W 1    ;
 unlock W 1      | send 0        ;
locations [x];
exists (0:r0=1)
`, []string{"0:r0=1; x=1;"}, nil},
	})
}

// TestErrors: one row per error rule the model detects (docs/semantics.md#verdicts).
func TestErrors(t *testing.T) {
	two := `{ win W allocate size=1; x = W@1[0]; }
 P0 | P1 ;
`
	runCases(t, []ruleCase{
		{"put-no-epoch", "E-EPOCH", "mpi-3.0", spec.Relaxed, two + " put x 1 | ;\nexists (x=1)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"put-after-last-fence", "E-EPOCH: after the caller's last fence there is no epoch", "mpi-3.0", spec.Relaxed,
			two + " fence W | fence W ;\n put x 1 | ;\nexists (x=1)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"put-after-nosucceed", "E-EPOCH: a fence with nosucceed opens no epoch", "mpi-3.0", spec.Relaxed,
			two + " fence W nosucceed | fence W nosucceed ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch, spec.EAssert}},
		{"put-after-free", "E-EPOCH: any access to a freed window", "mpi-3.0", spec.Relaxed,
			two + " free W | free W ;\n lock W 1 excl | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"free-in-epoch", "E-EPOCH-MIX: free with an epoch open", "mpi-3.0", spec.Relaxed,
			two + " lock W 1 excl | ;\n free W | free W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"double-lock", "E-EPOCH-MIX: two lock epochs from one origin to one target", "mpi-3.0", spec.Relaxed,
			two + " lock W 1 excl | ;\n lock W 1 shared | ;\n unlock W 1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-in-start", "E-EPOCH-MIX: a lock inside a start epoch", "mpi-3.0", spec.Relaxed,
			two + " start W {1} | post W {0} ;\n lock W 1 excl | ;\n unlock W 1 | ;\n complete W | wait W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"nested-start", "E-EPOCH-MIX: a nested start", "mpi-3.0", spec.Relaxed,
			two + " start W {1} | post W {0} ;\n start W {1} | ;\n complete W | wait W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-while-exposed", "E-EPOCH-MIX: a lock of a target between its post and wait (node330)", "mpi-3.0", spec.Relaxed,
			two + " | post W {0} ;\n | lock W 1 excl ;\n | unlock W 1 ;\n | wait W ;\n start W {1} | ;\n complete W | ;\nexists (x=0)\n",
			[]string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"lock-after-free", "E-EPOCH only: the unlock that follows names the same freed window", "mpi-3.0", spec.Relaxed,
			two + " free W | free W ;\n lock W 1 excl | ;\n unlock W 1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"flush-no-epoch", "E-SYNC-EPOCH: flush outside a passive-target epoch", "mpi-3.0", spec.Relaxed,
			two + " flush W 1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.ESyncEpoch}},
		{"unlock-no-lock", "E-EPOCH: unlock without lock (no epoch open)", "mpi-3.0", spec.Relaxed,
			two + " unlock W 1 | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpoch}},
		{"origin-buf-source", "E-ORIGIN-BUF: the source register of a put rewritten before completion", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; 0:r0 = 1; }
 P0            | P1 ;
 lock W 1 excl |    ;
 put x r0      |    ;
 r0 = 2        |    ;
 unlock W 1    |    ;
exists (x=1)
`, []string{"x=1;"}, []spec.RuleID{spec.EOriginBuf}},
		{"origin-buf-after-completion", "no E-ORIGIN-BUF once the completing call stands before the use", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; 0:r0 = 1; }
 P0            | P1 ;
 lock W 1 excl |    ;
 put x r0      |    ;
 unlock W 1    |    ;
 r0 = 2        |    ;
exists (x=1)
`, []string{"x=1;"}, nil},
		{"sq-create", "E-SQ-FLAVOR: shared_query on create before MPI-4.1", "mpi-3.0", spec.Relaxed,
			`{ win W create size=1; }
 P0                    | P1 ;
 r0 = shared_query W 1 |    ;
exists (0:r0=0)
`, []string{"0:r0=0;"}, []spec.RuleID{spec.ESQFlavor}},
		{"ls-access", "E-LS-ACCESS: a remote store to a create window", "mpi-4.1", spec.Relaxed,
			`{ win W create size=1; x = W@1[0]; }
 P0        | P1 ;
 store x 1 |    ;
exists (x=0)
`, []string{"x=0;"}, []spec.RuleID{spec.ELSAccess}},
		{"ls-access-wrong-rank", "E-LS-ACCESS: shared_query grants access to the queried segment only", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; y = W@2[0]; }
 P0                    | P1 | P2 ;
 r0 = shared_query W 1 |    |    ;
 [r0 != 0] store y 1   |    |    ;
exists (y=0)
`, []string{"y=0;"}, []spec.RuleID{spec.ELSAccess}},
		{"separate-shm", "E-SEPARATE-SHM: remote load/store on a separate window", "mpi-3.0", spec.Relaxed,
			`{ win W allocate_shared size=1 model=separate; x = W@1[0]; }
 P0          | P1 ;
 r0 = load x |    ;
exists (0:r0=0)
`, []string{"0:r0=0;"}, []spec.RuleID{spec.ESeparateSHM}},
		{"no-locks-lock_all", "E-INFO: lock_all on a no_locks window", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1 no_locks=true; x = W@1[0]; }
 P0           | P1 ;
 lock_all W   |    ;
 unlock_all W |    ;
exists (x=0)
`, []string{"x=0;"}, []spec.RuleID{spec.EInfo}},
		{"deadlock-fence", "DEADLOCK: a fence that one member never calls", "mpi-3.0", spec.Relaxed,
			two + " fence W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.Deadlock}},
		{"deadlock-locks", "DEADLOCK: an exclusive lock never released (and E-EPOCH-END: its holder finishes with it)", "mpi-3.0", spec.Relaxed,
			two + " lock W 1 excl | lock W 1 excl ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.Deadlock, spec.EEpochEnd}},
		{"align-allocate-int32", "E-ALIGN: an int64 at byte 4 of an allocate window", "mpi-4.1", spec.Relaxed,
			`{ win W allocate bytes=[16,16]; z = W@1[4] : int64; }
 P0 | P1          ;
    | r0 = load z ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, []spec.RuleID{spec.EAlign}},
		{"align-create", "no E-ALIGN on create windows: user memory is aligned for its type", "mpi-3.0", spec.Relaxed,
			`{ win W create bytes=[32,32]; z = W@1[16] : longdouble; }
 P0 | P1          ;
    | r0 = load z ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, nil},
	})
}

// TestSwitches shows that every switch of docs/semantics.md#presets-and-switches changes behaviour as its
// row says: the same program, under mpi-3.0 with the switch off and on.
func TestSwitches(t *testing.T) {
	cases := []struct {
		sw       string
		src      string
		off, on  []string // outcomes
		offFlags []spec.RuleID
		onFlags  []spec.RuleID
	}{
		{"ls_is_rma", `{ win W allocate_shared size=1; x = W@1[0]; }
 P0           | P1           ;
 start W {1}  | store x 1    ;
 r0 = load x  | post W {0}   ;
 complete W   | wait W       ;
exists (0:r0=0)
`, []string{"0:r0=0;", "0:r0=1;"}, []string{"0:r0=1;"}, nil, nil},
		{"fence_ls", `{ win W allocate_shared size=1; x = W@0[0]; }
 P0        | P1          ;
 fence W   | fence W     ;
 store x 1 |             ;
 fence W   | fence W     ;
           | r0 = load x ;
 fence W   | fence W     ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, []string{"1:r0=1;"}, nil, nil},
		{"post_start_ls", `{ win W allocate_shared size=1; x = W@1[0]; }
 P0           | P1           ;
 start W {1}  | store x 1    ;
 r0 = load x  | post W {0}   ;
 complete W   | wait W       ;
exists (0:r0=0)
`, []string{"0:r0=0;", "0:r0=1;"}, []string{"0:r0=1;"}, nil, nil},
		{"complete_wait_ls", `{ win W allocate_shared size=1; x = W@1[0]; }
 P0           | P1           ;
 start W {1}  | post W {0}   ;
 store x 1    | wait W       ;
 complete W   | r0 = load x  ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, []string{"1:r0=1;"}, nil, nil},
		{"lock_ls", `{ win W allocate_shared size=1; x = W@1[0]; }
 P0               | P1               ;
 lock W 1 excl    | recv 0           ;
 store x 1        | lock W 1 excl    ;
 unlock W 1       | r0 = load x      ;
 send 1           | unlock W 1       ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, []string{"1:r0=1;"}, nil, nil},
		{"flush_ls", `{ win W allocate_shared size=1; x = W@1[0]; }
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 1    | recv 0       ;
 flush W 1    | sync W       ;
 send 1       | r0 = load x  ;
 unlock_all W | unlock_all W ;
exists (1:r0=0)
`, []string{"1:r0=0;", "1:r0=1;"}, []string{"1:r0=1;"}, nil, nil},
		{"sq_any_flavor", `{ win W allocate size=1; x = W@1[0]; x = 5; }
 P0                    | P1 ;
 r0 = shared_query W 1 |    ;
 [r0 != 0] r1 = load x |    ;
exists (0:r1=5)
`, []string{"0:r1=0;"}, []string{"0:r1=0;", "0:r1=5;"}, []spec.RuleID{spec.ESQFlavor}, nil},
		{"align_guarantee", `{ win W allocate_shared bytes=[3,16] alloc_shared_noncontig=true; z = W@1[0] : longdouble; }
 P0 | P1          ;
    | r0 = load z ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, []string{"1:r0=0;"}, []spec.RuleID{spec.EAlign}, nil},
	}
	for _, c := range cases {
		t.Run(c.sw, func(t *testing.T) {
			off, offFlags := explore(t, c.src, "mpi-3.0,"+c.sw+"=off", spec.Relaxed)
			on, onFlags := explore(t, c.src, "mpi-3.0,"+c.sw+"=on", spec.Relaxed)
			if d := cmp.Diff(c.off, off); d != "" {
				t.Errorf("%s=off: outcomes (-want +got):\n%s", c.sw, d)
			}
			if d := cmp.Diff(c.on, on); d != "" {
				t.Errorf("%s=on: outcomes (-want +got):\n%s", c.sw, d)
			}
			if d := cmp.Diff(c.offFlags, withoutRace(offFlags)); d != "" {
				t.Errorf("%s=off: flags (-want +got):\n%s", c.sw, d)
			}
			if d := cmp.Diff(c.onFlags, withoutRace(onFlags)); d != "" {
				t.Errorf("%s=on: flags (-want +got):\n%s", c.sw, d)
			}
		})
	}
}

// withoutRace drops the race-class flags: the switch tests are about outcomes and
// erroneous flags (their "off" sides race on purpose).
func withoutRace(flags []spec.RuleID) []spec.RuleID {
	var out []spec.RuleID
	for _, f := range flags {
		if f.Class() != spec.ClassRace {
			out = append(out, f)
		}
	}
	return out
}

// ruleTwin is a program that breaks a rule and a close twin that does not.
type ruleTwin struct {
	rule         spec.RuleID
	sem          string
	breaks, twin string
}

// TestRuleTwins: for every rule the search raises, a minimal program that breaks it
// and a twin, one change away, that does not (docs/semantics.md#verdicts).
func TestRuleTwins(t *testing.T) {
	w := "{ win W allocate size=1; x = W@1[0]; }\n P0 | P1 ;\n"
	ws := "{ win W allocate_shared size=1; x = W@1[0]; }\n P0 | P1 ;\n"
	sep := "{ win W allocate size=2 model=separate; x = W@1[0]; y = W@1[1]; }\n P0 | P1 ;\n"
	twins := []ruleTwin{
		{spec.EEpoch, "mpi-3.0", w + " put x 1 | ;\nexists (x=1)\n",
			w + " lock W 1 excl | ;\n put x 1 | ;\n unlock W 1 | ;\nexists (x=1)\n"},
		{spec.EEpochMix, "mpi-3.0", w + " lock W 1 excl | ;\n lock W 1 excl | ;\n unlock W 1 | ;\nexists (x=1)\n",
			w + " lock W 1 excl | ;\n unlock W 1 | ;\n lock W 1 excl | ;\n unlock W 1 | ;\nexists (x=1)\n"},
		{spec.ESyncEpoch, "mpi-3.0", ws + " sync W | ;\nexists (x=1)\n", ws + " lock_all W | ;\n sync W | ;\n unlock_all W | ;\nexists (x=1)\n"},
		{spec.EOriginBuf, "mpi-3.0", w + " lock W 1 excl | ;\n r0 = get x | ;\n r1 = r0 + 1 | ;\n unlock W 1 | ;\nexists (x=1)\n",
			w + " lock W 1 excl | ;\n r0 = get x | ;\n unlock W 1 | ;\n r1 = r0 + 1 | ;\nexists (x=1)\n"},
		{spec.ESQFlavor, "mpi-3.0", w + " r0 = shared_query W 1 | ;\nexists (x=1)\n", ws + " r0 = shared_query W 1 | ;\nexists (x=1)\n"},
		{spec.ELSAccess, "mpi-3.0", w + " r0 = load x | ;\nexists (x=1)\n", ws + " r0 = load x | ;\nexists (x=1)\n"},
		{spec.ESeparateSHM, "mpi-3.0", "{ win W allocate_shared size=1 model=separate; x = W@1[0]; }\n P0 | P1 ;\n r0 = load x | ;\nexists (x=1)\n",
			"{ win W allocate_shared size=1 model=separate; x = W@1[0]; }\n P0 | P1 ;\n | r0 = load x ;\nexists (x=1)\n"},
		{spec.EInfo, "mpi-3.0", "{ win W allocate size=1 no_locks=true; x = W@1[0]; }\n P0 | P1 ;\n lock W 1 excl | ;\n unlock W 1 | ;\nexists (x=1)\n",
			"{ win W allocate size=1 no_locks=true; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.EInfo, "mpi-3.0", w + " fence W | fence W ;\n acc x sum 1 | acc x max 5 ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n acc x sum 1 | acc x sum 5 ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.EAlign, "mpi-3.0", "{ win W allocate_shared bytes=[3,16]; z = W@1[0] : longdouble; }\n P0 | P1 ;\n | r0 = load z ;\nexists (1:r0=0)\n",
			"{ win W allocate_shared bytes=[3,16]; z = W@1[0] : int8; }\n P0 | P1 ;\n | r0 = load z ;\nexists (1:r0=0)\n"},
		{spec.Deadlock, "mpi-3.0", w + " recv 1 | recv 0 ;\n send 1 | send 0 ;\nexists (x=1)\n", w + " send 1 | recv 0 ;\n recv 1 | send 0 ;\nexists (x=1)\n"},
		{spec.CConflict, "mpi-3.0", "{ win W allocate size=1; x = W@2[0]; }\n P0 | P1 | P2 ;\n fence W | fence W | fence W ;\n put x 1 | put x 2 | ;\n fence W | fence W | fence W ;\nexists (x=1)\n",
			"{ win W allocate size=1; x = W@2[0]; }\n P0 | P1 | P2 ;\n fence W | fence W | fence W ;\n put x 1 | | ;\n fence W | fence W | fence W ;\n | put x 2 | ;\n fence W | fence W | fence W ;\nexists (x=1)\n"},
		{spec.CConflict, "mpi-3.0", "{ win W allocate size=1; x = W@2[0]; }\n P0 | P1 | P2 ;\n fence W | fence W | fence W ;\n acc x sum 1 | r0 = get x | ;\n fence W | fence W | fence W ;\nexists (x=1)\n",
			"{ win W allocate size=1; x = W@2[0]; }\n P0 | P1 | P2 ;\n fence W | fence W | fence W ;\n acc x sum 1 | r0 = gacc x no_op 0 | ;\n fence W | fence W | fence W ;\nexists (x=1)\n"},
		{spec.U5, "mpi-3.0", w + " fence W | fence W ;\n put x 1 | store x 2 ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\n | store x 2 ;\nexists (x=1)\n"},
		{spec.U1, "mpi-3.0", w + " fence W | fence W ;\n put x 1 | store x 2 ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n | store x 2 ;\n fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.U2, "mpi-3.0", w + " fence W | fence W ;\n put x 1 | r0 = load x ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\n | r0 = load x ;\nexists (x=1)\n"},
		{spec.U3, "mpi-3.0", w + " fence W | fence W ;\n r0 = get x | store x 2 ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n r0 = get x | r1 = load x ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.S1, "mpi-3.0", sep + " lock W 1 excl | recv 0 ;\n put x 1 | r0 = load x ;\n unlock W 1 | ;\n send 1 | ;\nexists (x=1)\n",
			sep + " lock W 1 excl | recv 0 ;\n put x 1 | lock W 1 excl ;\n unlock W 1 | r0 = load x ;\n send 1 | unlock W 1 ;\nexists (x=1)\n"},
		{spec.S3, "mpi-3.0", sep + " fence W | fence W ;\n put x 1 | store y 2 ;\n fence W | fence W ;\nexists (x=1)\n",
			sep + " fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\n | store y 2 ;\nexists (x=1)\n"},
		{spec.Race, "mpi-3.0", ws + " store x 1 | r0 = load x ;\nexists (x=1)\n",
			"{ win W allocate_shared size=1; x = W@1[0]; }\n P0 | P1 ;\n lock_all W | lock_all W ;\n store x 1 | recv 0 ;\n sync W | sync W ;\n send 1 | r0 = load x ;\n unlock_all W | unlock_all W ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " fence W | fence W ;\n | store x 1 ;\n fence W | fence W nostore ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n | store x 1 ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " fence W | fence W ;\n put x 1 | ;\n fence W noprecede | fence W noprecede ;\nexists (x=1)\n",
			w + " fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " fence W | fence W noput ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n",
			w + " fence W | fence W noput ;\n r0 = get x | ;\n fence W | fence W ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " fence W noprecede | fence W ;\nexists (x=1)\n", w + " fence W noprecede | fence W noprecede ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " start W {1} nocheck | post W {0} nocheck ;\n complete W | wait W ;\nexists (x=1)\n",
			w + " recv 1 | post W {0} nocheck ;\n start W {1} nocheck | send 0 ;\n complete W | wait W ;\nexists (x=1)\n"},
		{spec.EAssert, "mpi-3.0", w + " lock W 1 excl nocheck | lock W 1 excl ;\n unlock W 1 | unlock W 1 ;\nexists (x=1)\n",
			w + " lock W 1 excl nocheck | recv 0 ;\n unlock W 1 | lock W 1 excl ;\n send 1 | unlock W 1 ;\nexists (x=1)\n"},
	}
	for _, c := range twins {
		t.Run(c.rule.String(), func(t *testing.T) {
			_, flags := explore(t, c.breaks, c.sem, spec.Relaxed)
			if !slices.Contains(flags, c.rule) {
				t.Errorf("%s not raised (flags %v) by:\n%s", c.rule, flags, c.breaks)
			}
			_, flags = explore(t, c.twin, c.sem, spec.Relaxed)
			if slices.Contains(flags, c.rule) {
				t.Errorf("%s raised by the twin (flags %v):\n%s", c.rule, flags, c.twin)
			}
		})
	}
}

// TestReviewRegressions: bugs an independent review found, each kept as a case.
func TestReviewRegressions(t *testing.T) {
	runCases(t, []ruleCase{
		{"forwarded-load-after-completer", "§3: an instruction after the completing call does not execute before it returns, even a forwarded load",
			"mpi-3.0", spec.Relaxed, `{ win W allocate size=1; win V allocate_shared size=1; y = V@0[0]; W@1[0] = 5; }
 P0              | P1      ;
 fence W         | fence W ;
 r0 = get W@1[0] |         ;
 store y 1       |         ;
 fence W         | fence W ;
 r0 = load y     |         ;
exists (0:r0=5)
`, []string{"0:r0=1;"}, nil},
		{"guard-is-no-origin-buffer", "§3: a guard register is not the source register of a put", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; 0:r1 = 1; }
 P0                     | P1      ;
 fence W                | fence W ;
 [r1 == 1] put W@1[0] 7 |         ;
 r1 = 2                 |         ;
 fence W                | fence W ;
exists (W@1[0]=7)
`, []string{"W@1[0]=7;"}, nil},
		{"post-while-locked", "E-EPOCH-MIX: a post while the caller's window is locked (locked and exposed at once)", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1; }
 P0            | P1         | P2          ;
 lock W 1 excl | recv 0     | start W {1} ;
 send 1        | post W {2} | complete W  ;
 recv 1        | send 0     |             ;
 unlock W 1    | wait W     |             ;
exists (W@1[0]=0)
`, []string{"W@1[0]=0;"}, []spec.RuleID{spec.EEpochMix}},
		{"align-guard-false", "§6: a misaligned access raises E-ALIGN only when it executes, not when its guard skips it", "mpi-3.0", spec.Relaxed,
			`{ win W allocate_shared bytes=[3,16]; z = W@1[0] : longdouble; 1:r0 = 0; }
 P0 | P1                   ;
    | [r0 == 1] r1 = load z ;
exists (1:r1=0)
`, []string{"1:r1=0;"}, nil},
		{"noop-gacc-vs-separate-store", "§5: a no_op accumulate conflicts with stores in separate windows (S3)", "mpi-3.0", spec.Relaxed,
			`{ win W allocate size=1 model=separate; x = W@1[0]; }
 P0                  | P1        ;
 lock W 1 shared     | store x 1 ;
 r0 = gacc x no_op 0 |           ;
 unlock W 1          |           ;
exists (0:r0=0)
`, []string{"0:r0=0;"}, []spec.RuleID{spec.S3}},
	})
}

// TestFreeReturnIsNotLocal: a free's return disables later accesses of the process
// (E-EPOCH), so the reduced search must not take it alone: the same flags either way.
func TestFreeReturnIsNotLocal(t *testing.T) {
	src := `{ win W allocate_shared size=[1,0]; win V create over=W; x = W@0[0]; y = V@0[0]; }
 P0        | P1                    ;
 free W    | free W                ;
 store x 1 | lock_all V nocheck    ;
           | r1 = shared_query V 0 ;
           | sync V                ;
           | r0 = load y           ;
           | unlock_all V          ;
exists (1:r0=1)
`
	lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-4.1")
	p, _ := model.Compile(lt, sem, spec.Relaxed)
	flags := func(noReduce bool) []spec.RuleID {
		r, err := explorer.Explore(p, explorer.Options{NoReduce: noReduce})
		if err != nil {
			t.Fatal(err)
		}
		var out []spec.RuleID
		for _, f := range r.Flags {
			out = append(out, f.Rule)
		}
		return out
	}
	if d := cmp.Diff(flags(true), flags(false)); d != "" {
		t.Errorf("reduced search raises other rules than the plain one (-plain +reduced):\n%s", d)
	}
}

// TestSpeculatedGuardUsesOriginBuffer: a guarded load that ran ahead of a get
// still reads the get's result register when it commits, so its guard uses the
// origin buffer before the get completes (E-ORIGIN-BUF) whether the guard holds or
// not, as the unspeculated load's guard does. The commit used to check only a
// guard that held: the plain search found a clean execution the reduced one did
// not (a TestReductionRandom failure).
func TestSpeculatedGuardUsesOriginBuffer(t *testing.T) {
	src := `{ win W allocate_shared size=2; }
 P0                         | P1             ;
 fence W                    | fence W        ;
 r0 = get W@0[0]            | store W@0[1] 1 ;
 [r0 == 1] r1 = load W@0[1] | fence W        ;
 r2 = await W@0[1] == 1     |                ;
 fence W                    |                ;
exists (W@0[0]=1)
`
	lt, err := litmus.Parse("t.lit", []byte("MPI t\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := spec.ParseSemantics("mpi-3.0")
	p, err := model.Compile(lt, s, spec.Relaxed)
	if err != nil {
		t.Fatal(err)
	}
	for _, noReduce := range []bool{false, true} {
		r, err := explorer.Explore(p, explorer.Options{MaxStates: 2_000_000, NoReduce: noReduce})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range r.Outcomes {
			if !slices.Contains(o.Flags, spec.EOriginBuf) {
				t.Errorf("no-reduce=%v: outcome %s of a clean execution: the guard read r0 before the get completed",
					noReduce, p.OutcomeString(o.Values))
			}
		}
	}
}
