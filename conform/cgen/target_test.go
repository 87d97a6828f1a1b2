package cgen

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// TestComputedTargetsC: computed and null targets become the C arguments the
// libraries are called with (LITMUS.md, "Real programs"): MPI_PROC_NULL for null
// and for a rank register holding -1, an MPI_Aint from a displacement register.
func TestComputedTargetsC(t *testing.T) {
	src := `MPI t
{
  win W allocate size=2;
  win V allocate size=2 ranks=0,2;
  0:r1 = 1;
  0:r2 = 1;
  0:r3 = 2;
}
 P0                 | P1 | P2 ;
 lock W null        |    |    ;
 put W@null[1] 5    |    |    ;
 flush W null       |    |    ;
 unlock W null      |    |    ;
 lock_all W         |    |    ;
 put W@r1[r2-1] 7   |    |    ;
 r4 = get W@1[r2]   |    |    ;
 flush W r1         |    |    ;
 unlock_all W       |    |    ;
 lock V r3 excl     |    |    ;
 acc V@r3[0] sum 1  |    |    ;
 unlock V r3        |    |    ;
exists (W@1[0]=7)
`
	lt, err := litmus.Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(lt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := string(out)
	for _, want := range []string{
		"MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win_W)",
		"MPI_Put(&src_row2, 1, MPI_INT64_T, MPI_PROC_NULL, 1, 1, MPI_INT64_T, win_W)",
		"MPI_Win_flush(MPI_PROC_NULL, win_W)",
		"MPI_Win_unlock(MPI_PROC_NULL, win_W)",
		"(r1 == -1 ? MPI_PROC_NULL : (int)r1), (MPI_Aint)(r2 + -1), 1, MPI_INT64_T, win_W)",
		"MPI_Get(&r4, 1, MPI_INT64_T, 1, (MPI_Aint)(r2 + 0), 1, MPI_INT64_T, win_W)",
		"MPI_Win_flush((r1 == -1 ? MPI_PROC_NULL : (int)r1), win_W)",
		// a window of a sub-communicator: the world rank's rank in it
		"MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (r3 == -1 ? MPI_PROC_NULL : (r3 < 0 || r3 >= NPROCS) ? (int)r3 : ((const int[]){0, -1, 1})[r3]), 0, win_V)",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("the C does not call\n  %s\n%s", want, c)
		}
	}
}
