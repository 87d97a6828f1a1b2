package litmus

import (
	"strings"
	"testing"
)

// TestTestsInLoopConditions: docs/semantics.md#spin-loops, a test or testreq may stand in a loop
// body when the condition requires r == 1 of its result (every alternative has it:
// MPI_Waitall), or when r == 1 is one term of a \/ on its own (MPI_Waitany: every
// earlier iteration had the test fail). Before the rule only the first form was
// accepted.
func TestTestsInLoopConditions(t *testing.T) {
	cases := []struct {
		name, until string
		ok          bool
	}{
		{"waitany", `r8 == 1 \/ r9 == 1`, true},
		{"waitall", `r8 == 1 /\ r9 == 1`, true},
		{"any-or-load", `r8 == 1 \/ r9 == 1 \/ r2 == 4`, true},
		{"all-in-every-term", `r8 == 1 /\ r9 == 1 \/ r8 == 1 /\ r2 == 4`, false}, // r9 needs it too
		{"not-one", `r8 == 0 \/ r9 == 1`, false},
		{"one-in-a-conjunction-only", `r8 == 1 /\ r2 == 4 \/ r9 == 1`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `MPI t
{ win W create size=2; }
 P0                   | P1 ;
 lock_all W           |    ;
 r0 = rget W@1[0] @q0 |    ;
 r1 = rget W@1[1] @q1 |    ;
 repeat               |    ;
 r8 = testreq q0      |    ;
 r9 = testreq q1      |    ;
 r2 = load W@0[0]     |    ;
 until ` + c.until + ` |    ;
 waitreq q0           |    ;
 waitreq q1           |    ;
 unlock_all W         |    ;
exists (0:r8=0)
`
			_, err := Parse("t.lit", []byte(src))
			if c.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !c.ok && (err == nil || !strings.Contains(err.Error(), "must end the loop when it succeeds")) {
				t.Fatalf("accepted, or refused for another reason: %v", err)
			}
		})
	}
}
