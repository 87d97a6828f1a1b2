package model_test

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestWeakProgress: under weak_progress (docs/semantics.md#progress) an operation performs, and
// a lock on a process is granted, only while that process is in MPI. Before the
// switch existed `--sem PRESET,weak_progress=on` was refused, and every program
// here ended without LIVELOCK.
func TestWeakProgress(t *testing.T) {
	poll := func(body string) string {
		return `{ win W allocate size=1; flag = W@1[0]; }
 P0           | P1              ;
 lock_all W   | lock_all W      ;
 put flag 1   | repeat          ;
 flush W 1    | r0 = load flag  ;
` + body + ` unlock_all W | unlock_all W    ;
exists (1:r0=1)
`
	}
	runCases(t, []ruleCase{
		{"plain-poll", "weak_progress: a loop of plain loads gives its process no progress: LIVELOCK", "mpi-4.1,weak_progress=on", spec.Relaxed,
			poll("              | until r0 == 1   ;\n"), []string{"1:r0=0;", "1:r0=1;"}, []spec.RuleID{spec.U2, spec.Livelock}},
		{"plain-poll-preset", "control: the presets have asynchronous progress", "mpi-4.1", spec.Relaxed,
			poll("              | until r0 == 1   ;\n"), []string{"1:r0=1;"}, []spec.RuleID{spec.U2}},
		{"sync-in-loop", "weak_progress: a loop whose body holds an MPI call gives progress at each iteration", "mpi-4.1,weak_progress=on", spec.Relaxed,
			poll("              | sync W          ;\n              | until r0 == 1   ;\n"), []string{"1:r0=1;"}, []spec.RuleID{spec.U2}},
		{"get-poll", "weak_progress: a loop of MPI fetches (the flag idiom with accumulates) gives progress", "mpi-3.0,weak_progress=on", spec.Relaxed,
			`{ win W allocate size=1; flag = W@1[0]; }
 P0              | P1                ;
 lock W 1 shared | lock W 1 shared   ;
 acc flag replace 1 | repeat         ;
 unlock W 1      | r0 = gacc flag no_op 0 ;
                 | flush W 1         ;
                 | until r0 == 1     ;
                 | unlock W 1        ;
exists (1:r0=1)
`, []string{"1:r0=1;"}, nil},
		{"lock-grant", "weak_progress: a lock on a process that spins on plain loads from the start is never granted", "mpi-3.0,weak_progress=on", spec.SC,
			`{ win W allocate size=1; flag = W@1[0]; }
 P0            | P1              ;
 lock W 1 excl | r0 = await flag == 1 ;
 put flag 1    |                 ;
 unlock W 1    |                 ;
exists (1:r0=1)
`, []string{"1:r0=0;"}, []spec.RuleID{spec.Livelock}},
		{"finished-target", "weak_progress: a finished process progresses everything (MPI_Finalize)", "mpi-4.1,weak_progress=on", spec.Relaxed,
			`{ win W allocate size=1; x = W@1[0]; }
 P0            | P1 ;
 lock W 1 excl |    ;
 put x 1       |    ;
 unlock W 1    |    ;
exists (x=1)
`, []string{"x=1;"}, nil},
	})
}

// TestLivelockNamesStarvedOperation: the witness of a LIVELOCK under weak_progress
// names the operation that could not perform and the process whose progress it
// waited for.
func TestLivelockNamesStarvedOperation(t *testing.T) {
	src := `MPI t
{ win W allocate size=1; flag = W@1[0]; }
 P0           | P1             ;
 lock_all W   | lock_all W     ;
 put flag 1   | repeat         ;
 flush W 1    | r0 = load flag ;
 unlock_all W | until r0 == 1  ;
              | unlock_all W   ;
exists (1:r0=1)
`
	lt, err := litmus.Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.ParseSemantics("mpi-4.1,weak_progress=on")
	p, err := model.Compile(lt, sem, spec.SC)
	if err != nil {
		t.Fatal(err)
	}
	r, err := explorer.Explore(p, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "put flag 1 of P0 (row 2) could not perform: it waited for the progress of P1, which spins in the loop of row 4"
	for _, f := range r.Flags {
		if f.Rule == spec.Livelock && strings.Contains(f.Message, want) {
			return
		}
	}
	t.Errorf("no LIVELOCK witness says %q; flags: %v", want, r.Flags)
}
