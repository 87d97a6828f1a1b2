package model_test

import (
	"github.com/rmacheck/rmacheck/spec"
	"testing"
)

// TestWindowLifetime: free W (docs/semantics.md#synchronization) ends the window, not the program's
// memory. Each program here was judged otherwise before the rule: every access
// after free was E-EPOCH, and free was no MB, so the load of create-load-after-free
// could run before it and read the stale 0 (U2).
func TestWindowLifetime(t *testing.T) {
	putThenFree := func(decl string) string {
		return `{ ` + decl + ` x = W@1[0]; }
 P0            | P1          ;
 lock W 1 excl | free W      ;
 put x 1       | r0 = load x ;
 unlock W 1    |             ;
 free W        |             ;
exists (1:r0=1)
`
	}
	ownStoreAfterFree := func(flavor string) string {
		return `{ win W ` + flavor + ` size=1; x = W@1[0]; }
 P0     | P1          ;
 free W | free W      ;
        | store x 2   ;
        | r0 = load x ;
exists (1:r0=2)
`
	}
	runCases(t, []ruleCase{
		{"create-load-after-free", "free W: create memory is the program's, the load is ordered after the put", "mpi-4.1", spec.Relaxed,
			putThenFree("win W create size=1;"), []string{"1:r0=1;"}, nil},
		{"create-load-after-free-tso", "free W: the same on tso", "mpi-3.0", spec.TSO,
			putThenFree("win W create size=1;"), []string{"1:r0=1;"}, nil},
		{"separate-create-load-after-free", "free W: R6 at free brings the put into the private copy", "mpi-3.0", spec.Relaxed,
			putThenFree("win W create size=1 model=separate;"), []string{"1:r0=1;"}, nil},
		{"allocate-load-after-free", "free W: memory MPI allocated is gone (E-EPOCH)", "mpi-4.1", spec.Relaxed,
			putThenFree("win W allocate size=1;"), []string{"1:r0=0;"}, []spec.RuleID{spec.EEpoch}},
		{"allocate-shared-load-after-free", "free W: allocate_shared memory is gone too (E-EPOCH)", "mpi-4.1", spec.Relaxed,
			putThenFree("win W allocate_shared size=1;"), []string{"1:r0=0;"}, []spec.RuleID{spec.EEpoch}},
		{"create-store-after-free", "free W: the owner's store and load of create memory are plain", "mpi-4.1", spec.Relaxed,
			ownStoreAfterFree("create"), []string{"1:r0=2;"}, nil},
		{"dynamic-store-after-free", "free W: attached memory of a dynamic window stays the program's", "mpi-4.1", spec.Relaxed,
			ownStoreAfterFree("dynamic"), []string{"1:r0=2;"}, nil},
		{"remote-create-after-free", "free W: another rank's memory reached through shared_query is E-LS-ACCESS after free", "mpi-4.1", spec.Relaxed,
			`{ win W create size=1; x = W@0[0]; }
 P0     | P1                    ;
 free W | r1 = shared_query W 0 ;
        | free W                ;
        | r0 = load x           ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, []spec.RuleID{spec.ELSAccess}},
		{"create-over-shared-after-free", "free W: memory a create window was given over another window stays that window's (sc: the remote load, outside free's scope own, would pass it on relaxed)", "mpi-4.1", spec.SC,
			`{ win S allocate_shared size=1; win W create over=S; x = W@0[0]; }
 P0     | P1          ;
 free W | free W      ;
        | r0 = load x ;
exists (1:r0=0)
`, []string{"1:r0=0;"}, nil},
	})
}
