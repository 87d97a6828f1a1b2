package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestComputedRanges: docs/language.md#dynamic-windows, ranges relative to a register (W@1[r5+0..3],
// W@1[r5+{0,2}]), at a rank register, and at MPI_PROC_NULL (W@null[0..3]): the call
// resolves its base when issued and each element is base plus its offset; an
// element outside the target's memory makes the call E-TARGET and it moves
// nothing; at MPI_PROC_NULL it moves nothing, leaves its results as they were, and
// still needs an access epoch. Before the rule the parser refused every program
// here (MPICH's aint, get_struct, rmanull).
func TestComputedRanges(t *testing.T) {
	dyn := func(put, get string) string {
		return `{ win D dynamic; }
 P0              | P1              ;
 r0 = attach D 4 | r1 = recv 0     ;
 send 1 r0       | lock D 0 excl   ;
 barrier         | ` + put + ` ;
                 | flush D 0       ;
                 | ` + get + ` ;
                 | unlock D 0      ;
                 | barrier         ;
locations [1:r3];
exists (1:r2=0)
`
	}
	runCases(t, []ruleCase{
		{"relative-contiguous-indexed", "each element at the address plus its offset", "mpi-4.1", spec.Relaxed,
			dyn("put D@0[r1+0..3] (1,2,3,4)", "(r2,r3) = get D@0[r1+{3,1}]"), []string{"1:r2=4; 1:r3=2;"}, nil},
		{"relative-vector", "a vector relative to the address", "mpi-3.0", spec.TSO,
			dyn("put D@0[r1+0..2 by 2] 7   ", "(r2,r3) = get D@0[r1+0..1] "), []string{"1:r2=7; 1:r3=0;"}, nil},
		{"relative-past-the-region", "§5 E-TARGET: an element past the region; the call moves nothing", "mpi-4.1", spec.Relaxed,
			dyn("put D@0[r1+2..5] (1,2,3,4)", "(r2,r3) = get D@0[r1+2..3] "), []string{"1:r2=0; 1:r3=0;"}, []spec.RuleID{spec.ETarget}},
		{"null-range", "MPI_PROC_NULL: no data moves, the results stay as they were", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=2; 0:r1 = 9; }
 P0                          | P1 ;
 lock_all W                  |    ;
 put W@null[0..1] (1,2)      |    ;
 (r1,r2) = get W@null[{1,0}] |    ;
 unlock_all W                |    ;
locations [0:r2; W@0[0]; W@1[1]];
exists (0:r1=9)
`, []string{"0:r1=9; 0:r2=0; W@0[0]=0; W@1[1]=0;"}, nil},
		{"null-range-no-epoch", "§5 E-EPOCH: a range at MPI_PROC_NULL still needs an access epoch", "B", spec.Relaxed,
			`{ win W allocate size=2; }
 P0                     | P1 ;
 put W@null[0..1] (1,2) |    ;
exists (W@1[0]=0)
`, []string{"W@1[0]=0;"}, []spec.RuleID{spec.EEpoch}},
		{"rank-register-range", "a range at a rank held in a register", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=2; 0:r1 = 1; }
 P0                   | P1 ;
 lock W r1 excl       |    ;
 put W@r1[0..1] (5,6) |    ;
 unlock W r1          |    ;
exists (W@1[0]=5 /\ W@1[1]=6)
`, []string{"W@1[0]=5; W@1[1]=6;"}, nil},
		{"displacement-register-range", "a range relative to a displacement register", "mpi-4.1", spec.Relaxed,
			`{ win W allocate size=3; 0:r2 = 1; }
 P0                      | P1 ;
 lock W 1 excl           |    ;
 put W@1[r2+0..1] (5,6)  |    ;
 unlock W 1              |    ;
locations [W@1[0]];
exists (W@1[1]=5 /\ W@1[2]=6)
`, []string{"W@1[1]=5; W@1[2]=6; W@1[0]=0;"}, nil},
	})
}
