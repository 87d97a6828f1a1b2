package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestDynamicMemory: attach and detach at run time (LITMUS.md, "Dynamic windows at
// run time"): addresses are symbols that print as &W@rank[attROW+k], survive a
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
