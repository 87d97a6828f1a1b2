package model_test

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// The writer orders data before flag with MPI_Win_sync; the reader tests the flag
// and, guarded by it, loads data (one iteration of a poll), without a sync of its own.
const mpSyncCtrl = `{ win W allocate_shared size=[2,0]; data = W@0[0]; flag = W@0[1]; }
 P0                 | P1                       ;
 lock_all W nocheck | lock_all W nocheck       ;
 store data 1       | r0 = load flag           ;
 sync W             | [r0 == 1] r1 = load data ;
 store flag 1       | unlock_all W             ;
 unlock_all W       |                          ;
exists (1:r0=1 /\ 1:r1=0)
`

// TestSpeculation: docs/semantics.md#hardware-models, a guarded load does not wait for its guard on
// relaxed hardware; its register and flags take effect only when the guard holds.
func TestSpeculation(t *testing.T) {
	mp := []string{"1:r0=0; 1:r1=0;", "1:r0=1; 1:r1=0;", "1:r0=1; 1:r1=1;"}
	runCases(t, []ruleCase{
		{"guarded-load-speculates", "§2: a guarded load reads before its guard is known (ARM, POWER)", "mpi-4.1", spec.Relaxed,
			mpSyncCtrl, mp, []spec.RuleID{spec.Race}},
		{"guarded-load-in-order", "§2: tso keeps program order, the guard is known first", "mpi-4.1", spec.TSO,
			mpSyncCtrl, []string{"1:r0=0; 1:r1=0;", "1:r0=1; 1:r1=1;"}, []spec.RuleID{spec.Race}},
		{"sync-before-guarded-load", "§2: an MB between the flag load and the guarded load orders them", "mpi-4.1", spec.Relaxed,
			strings.Replace(mpSyncCtrl, " P0                 | P1                       ;\n lock_all W nocheck | lock_all W nocheck       ;\n store data 1       | r0 = load flag           ;\n",
				" P0                 | P1                       ;\n lock_all W nocheck | lock_all W nocheck       ;\n store data 1       | r0 = load flag           ;\n                    | sync W                   ;\n", 1),
			[]string{"1:r0=0; 1:r1=0;", "1:r0=1; 1:r1=1;"}, []spec.RuleID{spec.Race}},
		{"guarded-store-waits", "§2: a guarded store never speculates (no value out of thin air)", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[2,0]; x = W@0[0]; y = W@0[1]; }
 P0                  | P1                  ;
 lock_all W nocheck  | lock_all W nocheck  ;
 r0 = load x         | r1 = load y         ;
 [r0 == 1] store y 1 | [r1 == 1] store x 1 ;
 unlock_all W        | unlock_all W        ;
exists (0:r0=1 /\ 1:r1=1)
`, []string{"0:r0=0; 1:r1=0;"}, nil},
		{"false-guard-discards-flags", "§2: a speculative read whose guard turns out false raises nothing (no E-LS-ACCESS)", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; f = W@0[0]; z = W@1[0]; }
 P0                    | P1 ;
 r0 = load f           |    ;
 [r0 == 1] r1 = load z |    ;
exists (0:r1=0)
`, []string{"0:r1=0;"}, nil},
		{"true-guard-raises", "§2: ... and one whose guard holds raises what the access raises", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=1; f = W@0[0]; z = W@1[0]; f = 1; }
 P0                    | P1 ;
 r0 = load f           |    ;
 [r0 == 1] r1 = load z |    ;
exists (0:r1=0)
`, []string{"0:r1=0;"}, []spec.RuleID{spec.ELSAccess}},
		{"false-guard-no-race", "§2, §7: a speculative load concurrent with an update, whose guard is never true, is no U2", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=2; data = W@1[0]; flag = W@1[1]; }
 P0           | P1                       ;
 lock_all W   | lock_all W               ;
 put data 42  | r0 = load flag           ;
 flush W 1    | [r0 == 1] r1 = load data ;
 unlock_all W | unlock_all W             ;
exists (1:r1=0)
`, []string{"1:r1=0;"}, nil},
		{"true-guard-race", "§2, §7: ... and one whose guard can hold is a U2 (the flag's put makes the flag load one too)", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=2; data = W@1[0]; flag = W@1[1]; }
 P0           | P1                       ;
 lock_all W   | lock_all W               ;
 put data 42  | r0 = load flag           ;
 flush W 1    | [r0 == 1] r1 = load data ;
 put flag 1   | unlock_all W             ;
 flush W 1    |                          ;
 unlock_all W |                          ;
exists (1:r0=1 /\ 1:r1=0)
`, []string{"1:r0=0; 1:r1=0;", "1:r0=1; 1:r1=0;", "1:r0=1; 1:r1=42;"}, []spec.RuleID{spec.U2}},
	})
}

// TestSpinLoops: docs/semantics.md#spin-loops spin-assume, and LIVELOCK (docs/rules.md#livelock).
func TestSpinLoops(t *testing.T) {
	runCases(t, []ruleCase{
		{"await-exits", "§2: an execution whose blocked loop would exit on the final memory is dropped", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[1,0]; f = W@0[0]; }
 P0                 | P1                   ;
 lock_all W nocheck | lock_all W nocheck   ;
 store f 1          | r0 = await f == 1    ;
 unlock_all W       | unlock_all W         ;
exists (1:r0=1)
`, []string{"1:r0=1;"}, []spec.RuleID{spec.Race}},
		{"livelock", "§5 LIVELOCK: nobody sets the flag; the blocked loop fails again on the final memory", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[1,0]; f = W@0[0]; }
 P0 | P1                   ;
    | lock_all W nocheck   ;
    | r0 = await f == 1    ;
    | unlock_all W         ;
exists (1:r0=1)
`, []string{"1:r0=0;"}, []spec.RuleID{spec.Livelock}},
		{"missed-pulse", "§2, §5: a flag set and reset: polls that saw it exit, the others spin forever", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[1,0]; f = W@0[0]; }
 P0                 | P1                 ;
 lock_all W nocheck | lock_all W nocheck ;
 store f 1          | r0 = await f == 1  ;
 sync W             | unlock_all W       ;
 store f 0          |                    ;
 unlock_all W       |                    ;
exists (1:r0=1)
`, []string{"1:r0=0;", "1:r0=1;"}, []spec.RuleID{spec.Livelock, spec.Race}},
		{"until-is-a-control-dependency", "§2: stores after a loop wait for its exit (no value out of thin air)", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[2,0]; f = W@0[0]; g = W@0[1]; }
 P0                  | P1                 ;
 lock_all W nocheck  | lock_all W nocheck ;
 r0 = load g         | r1 = await f == 1  ;
 [r0 == 0] store f 1 | store g 1          ;
 unlock_all W        | unlock_all W       ;
exists (0:r0=1)
`, []string{"0:r0=0;"}, []spec.RuleID{spec.Race}},
		{"load-after-loop-speculates", "§2: a load after a loop may read before the loop's last iteration", "mpi-4.1", spec.Relaxed,
			`{ win W allocate_shared size=[2,0]; data = W@0[0]; flag = W@0[1]; }
 P0                 | P1                   ;
 lock_all W nocheck | lock_all W nocheck   ;
 store data 1       | r0 = await flag == 1 ;
 sync W             | r1 = load data       ;
 store flag 1       | unlock_all W         ;
 unlock_all W       |                      ;
exists (1:r1=0)
`, []string{"1:r1=0;", "1:r1=1;"}, []spec.RuleID{spec.Race}},
		{"load-after-loop-tso", "§2: ... but not on tso", "mpi-4.1", spec.TSO,
			`{ win W allocate_shared size=[2,0]; data = W@0[0]; flag = W@0[1]; }
 P0                 | P1                   ;
 lock_all W nocheck | lock_all W nocheck   ;
 store data 1       | r0 = await flag == 1 ;
 sync W             | r1 = load data       ;
 store flag 1       | unlock_all W         ;
 unlock_all W       |                      ;
exists (1:r1=0)
`, []string{"1:r1=1;"}, []spec.RuleID{spec.Race}},
		{"cas-lock", "§2: the cas lock-acquire loop gives mutual exclusion (released by cas, as MPI-4.1 Example 12.22)", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=[2,0]; l = W@0[0]; c = W@0[1]; }
 P0                  | P1                  ;
 lock_all W          | lock_all W          ;
 repeat              | repeat              ;
 r0 = cas l 0 1      | r0 = cas l 0 1      ;
 flush W 0           | flush W 0           ;
 until r0 == 0       | until r0 == 0       ;
 r1 = fop c sum 1    | r1 = fop c sum 1    ;
 flush W 0           | flush W 0           ;
 r2 = cas l 1 0      | r2 = cas l 1 0      ;
 unlock_all W        | unlock_all W        ;
exists (0:r1=1 /\ 1:r1=1)
`, []string{"0:r1=0; 1:r1=1;", "0:r1=1; 1:r1=0;"}, nil},
	})
}

// TestEpochEnd: docs/rules.md#e-epoch-end, one case per epoch left open, and a
// freed window, which raises E-EPOCH-MIX at its free instead.
func TestEpochEnd(t *testing.T) {
	two := "{ win W allocate size=1; x = W@1[0]; }\n P0 | P1 ;\n"
	runCases(t, []ruleCase{
		{"lock", "E-EPOCH-END: a lock without its unlock", "mpi-4.1", spec.Relaxed,
			two + " lock W 1 excl | ;\n put x 1 | ;\nexists (x=1)\n", []string{"x=1;"}, []spec.RuleID{spec.EEpochEnd}},
		{"lock_all", "E-EPOCH-END: lock_all without unlock_all", "mpi-4.1", spec.Relaxed,
			two + " lock_all W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochEnd}},
		{"start", "E-EPOCH-END: start without complete", "mpi-4.1", spec.Relaxed,
			two + " start W {1} | post W {0} ;\n | wait W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.Deadlock, spec.EEpochEnd}},
		{"post", "E-EPOCH-END: post without wait", "mpi-4.1", spec.Relaxed,
			two + " start W {1} | post W {0} ;\n complete W | ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochEnd}},
		{"closed", "no E-EPOCH-END: every epoch closed", "mpi-4.1", spec.Relaxed,
			two + " lock W 1 excl | ;\n put x 1 | ;\n unlock W 1 | ;\nexists (x=1)\n", []string{"x=1;"}, nil},
		{"freed", "no E-EPOCH-END on a freed window: its free with the epoch open is E-EPOCH-MIX", "mpi-4.1", spec.Relaxed,
			two + " lock_all W | ;\n free W | free W ;\nexists (x=0)\n", []string{"x=0;"}, []spec.RuleID{spec.EEpochMix}},
	})
}

// TestSpeculationWitness: a guarded load executed before its guard on relaxed (the
// witness of the stale outcome replays, with the speculative read before the flag
// load), and never on tso.
func TestSpeculationWitness(t *testing.T) {
	lt, err := litmus.Parse("t.lit", []byte("MPI MP+sync+ctrl\n"+mpSyncCtrl))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-4.1")
	for _, hw := range []spec.HW{spec.Relaxed, spec.TSO} {
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		r, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var witness *model.Witness
		for _, o := range r.Outcomes {
			if o.Sat {
				witness = &o.Witness
			}
		}
		if hw == spec.TSO {
			if witness != nil {
				t.Errorf("tso allows the stale read")
			}
			continue
		}
		if witness == nil {
			t.Fatalf("%s allows no stale read", hw)
		}
		tr := witness.Replay()
		if tr.Err != nil {
			t.Fatalf("the witness does not replay: %v", tr.Err)
		}
		early, flag := -1, -1
		for i, rec := range tr.Steps {
			switch {
			case strings.Contains(rec.Text, "load data") && strings.Contains(rec.Text, "speculatively"):
				early = i
			case strings.Contains(rec.Text, "load flag"):
				flag = i
			}
		}
		if early < 0 || flag < 0 || early > flag {
			t.Errorf("the witness does not read data speculatively before the flag:\n%v", tr.Steps)
		}
	}
}
