package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestDynamicMemory: attach and detach at run time (docs/language.md#dynamic-windows): addresses are symbols that print as &W@rank[attROW+k], survive a
// message and register arithmetic, and detaching what is not attached is E-TARGET.
func TestDynamicMemory(t *testing.T) {
	runCases(t, []ruleCase{
		{"address-sent", "attach sets its register to the region's address; a message carries it; r0 + 1 is the next cell",
			"mpi-4.1", spec.Relaxed, `{ win D dynamic; }
 P0          | P1              ;
 r0 = recv 1 | r0 = attach D 2 ;
 r1 = r0 + 1 | send 0 r0       ;
             | detach D r0     ;
locations [0:r1];
exists (0:r0=0)
`, []string{"0:r0=&D@1[att1+0]; 0:r1=&D@1[att1+1];"}, nil},
		{"address-minus", "an address minus an offset is no cell of the region, and prints so",
			"mpi-4.1", spec.Relaxed, `{ win D dynamic; }
 P0              | P1      ;
 r0 = attach D 1 | barrier ;
 r1 = r0 - 2     |         ;
 barrier         |         ;
 detach D r0     |         ;
exists (0:r1=0)
`, []string{"0:r1=&D@0[att1-2];"}, nil},
		{"detach-twice", "§5 E-TARGET: detaching memory that is no longer attached",
			"mpi-4.1", spec.Relaxed, `{ win D dynamic; }
 P0              | P1      ;
 r0 = attach D 1 | barrier ;
 barrier         |         ;
 detach D r0     |         ;
 detach D r0     |         ;
exists (0:r0=0)
`, []string{"0:r0=&D@0[att1+0];"}, []spec.RuleID{spec.ETarget}},
		{"detach-other-rank", "§5 E-TARGET: detaching another rank's region",
			"mpi-4.1", spec.Relaxed, `{ win D dynamic; }
 P0          | P1              ;
 r0 = recv 1 | r0 = attach D 1 ;
 detach D r0 | send 0 r0       ;
exists (0:r0=0)
`, []string{"0:r0=&D@1[att1+0];"}, []spec.RuleID{spec.ETarget}},
	})
}

// TestAddressLoadStore: docs/language.md#dynamic-windows: a load or store through an
// address register (store D@0[r0] 5 after r0 = attach D 1) touches the cell the
// register names when it executes; attach is no MB, so stores into a fresh region
// need a later owner call before another rank may rely on them (MPICH's aint,
// get_struct, win_dynamic_acc). A register that names no memory is E-TARGET; a
// store through another rank's address has no load/store access (E-LS-ACCESS).
// Before the rule the parser refused every program here.
func TestAddressLoadStore(t *testing.T) {
	publish := func(owner string) string {
		return `{ win D dynamic; }
 P0              | P1                ;
 r0 = attach D 1 | r1 = recv 0       ;
 store D@0[r0] 5 | lock D 0 shared   ;
` + owner + ` send 1 r0       | r2 = get D@0[r1]  ;
                 | unlock D 0        ;
exists (1:r2=5)
`
	}
	runCases(t, []ruleCase{
		{"store-then-owner-call", "an owner call (lock/unlock of itself, an MB of scope own) publishes the store", "mpi-3.0", spec.Relaxed,
			publish(" lock D 0 excl   |                   ;\n unlock D 0      |                   ;\n"), []string{"1:r2=5;"}, nil},
		{"store-then-owner-call-tso", "the same under tso", "mpi-4.1", spec.TSO,
			publish(" lock D 0 excl   |                   ;\n unlock D 0      |                   ;\n"), []string{"1:r2=5;"}, nil},
		{"store-no-owner-call", "attach is no MB: without an owner call the get may miss the store, which it races with", "mpi-4.1", spec.Relaxed,
			publish(""), []string{"1:r2=0;", "1:r2=5;"}, []spec.RuleID{spec.U3}},
		{"load-own-offset", "a load through address + 1 reads the second cell of the region", "mpi-4.1", spec.Relaxed,
			`{ win D dynamic; }
 P0                  | P1 ;
 r0 = attach D 2     |    ;
 store D@0[r0+1] 7   |    ;
 r1 = load D@0[r0+1] |    ;
 r2 = load D@0[r0]   |    ;
locations [0:r2];
exists (0:r1=7)
`, []string{"0:r1=7; 0:r2=0;"}, nil},
		{"guarded-load-speculates", "§2: a guarded load through an address reads early and commits with its guard", "mpi-4.1", spec.Relaxed,
			`{ win D dynamic; }
 P0                      | P1 ;
 r0 = attach D 1         |    ;
 store D@0[r0] 3         |    ;
 r3 = 1                  |    ;
 [r3 == 1] r1 = load D@0[r0] | ;
exists (0:r1=3)
`, []string{"0:r1=3;"}, nil},
		{"not-an-address", "§5 E-TARGET: the register holds no address of memory the rank attaches", "mpi-4.1", spec.Relaxed,
			`{ win D dynamic; }
 P0              | P1 ;
 r0 = attach D 1 |    ;
 r1 = r0 + 4     |    ;
 store D@0[r1] 5 |    ;
 r2 = load D@0[r0] |  ;
exists (0:r2=0)
`, []string{"0:r2=0;"}, []spec.RuleID{spec.ETarget}},
		{"other-rank-address", "E-LS-ACCESS: a store through another rank's address (a dynamic window gives no load/store access)", "mpi-4.1", spec.Relaxed,
			`{ win D dynamic; }
 P0              | P1              ;
 r0 = recv 1     | r0 = attach D 1 ;
 store D@1[r0] 5 | send 0 r0       ;
 barrier         | barrier         ;
                 | r1 = load D@1[r0] ;
exists (1:r1=0)
`, []string{"1:r1=0;"}, []spec.RuleID{spec.ELSAccess}},
	})
}
