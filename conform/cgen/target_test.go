package cgen

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// TestComputedTargetsC: computed and null targets become the C arguments the
// libraries are called with (docs/language.md#computed-and-null-targets): MPI_PROC_NULL for null
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
	wantInC(t, src, []string{
		"MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win_W)",
		"MPI_Put(&src_row2, 1, MPI_INT64_T, MPI_PROC_NULL, 1, 1, MPI_INT64_T, win_W)",
		"MPI_Win_flush(MPI_PROC_NULL, win_W)",
		"MPI_Win_unlock(MPI_PROC_NULL, win_W)",
		"(r1 == -1 ? MPI_PROC_NULL : (int)r1), (MPI_Aint)(r2 + -1), 1, MPI_INT64_T, win_W)",
		"MPI_Get(&r4, 1, MPI_INT64_T, 1, (MPI_Aint)(r2 + 0), 1, MPI_INT64_T, win_W)",
		"MPI_Win_flush((r1 == -1 ? MPI_PROC_NULL : (int)r1), win_W)",
		// a window of a sub-communicator: the world rank's rank in it
		"MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (r3 == -1 ? MPI_PROC_NULL : (r3 < 0 || r3 >= NPROCS) ? (int)r3 : ((const int[]){0, -1, 1})[r3]), 0, win_V)",
	})
}

// TestSharedQueryNullC: shared_query of null, and of a register that may hold -1,
// records the segment under the rank MPI answers for (the lowest with a nonempty
// segment), as the model does.
func TestSharedQueryNullC(t *testing.T) {
	src := `MPI t
{
  win W allocate_shared size=[0,2];
  0:r1 = -1;
}
 P0                     | P1 ;
 r0 = shared_query W null | ;
 r2 = shared_query W r1 | ;
exists (0:r0=2)
`
	wantInC(t, src, []string{
		"MPI_Win_shared_query(win_W, MPI_PROC_NULL, &size, &du, &ptr)",
		"seg_W[1] = ptr;",
		"MPI_Win_shared_query(win_W, (r1 == -1 ? MPI_PROC_NULL : (int)r1), &size, &du, &ptr)",
		"seg_W[(r1 == -1 ? 1 : (int)r1)] = ptr;",
	})
}

// wantInC translates the program src and fails for each of wants the C does not hold.
func wantInC(t *testing.T, src string, wants []string) {
	t.Helper()
	lt, err := litmus.Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(lt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !strings.Contains(string(out), want) {
			t.Errorf("the C does not hold\n  %s\n%s", want, out)
		}
	}
}

// TestAddressAccessesAndComputedRangesC: docs/language.md, the forms added in round four
// become the C the libraries run: a store or load through an address register is a
// plain access at the memory the address names (rmc_dyn_ptr, NULL for none: the
// model's E-TARGET), a range relative to a register takes the register into its
// target displacement, and a range at MPI_PROC_NULL targets MPI_PROC_NULL.
func TestAddressAccessesAndComputedRangesC(t *testing.T) {
	src := `MPI t
{
  win D dynamic;
  win W allocate size=2;
}
 P0                         | P1                         ;
 r0 = attach D 4            | r1 = recv 0                ;
 store D@0[r0+1] 5          | lock D 0 excl              ;
 r2 = load D@0[r0]          | put D@0[r1+0..1] (1,2)     ;
 send 1 r0                  | (r2,r3) = get D@0[r1+{3,1}] ;
 lock_all W                 | unlock D 0                 ;
 put W@null[0..1] (1,2)     |                            ;
 unlock_all W               |                            ;
exists (1:r2=0)
`
	wantInC(t, src, []string{
		"{ char *p = rmc_dyn_ptr(rmc_add(r0, 1), base_D, bytes_D[me] / 8, 8); if (p) *(volatile int64_t *)p = 5; }",
		"{ char *p = rmc_dyn_ptr(rmc_add(r0, 0), base_D, bytes_D[me] / 8, 8); if (p) r2 = *(volatile int64_t *)p; }",
		"MPI_Put(src_row3, 2, MPI_INT64_T, 0, rmc_dyn_disp((MPI_Aint)(r1 + 0), addr_D[0], 8), 1, tdt_row3, win_D)",
		"MPI_Get(res_row4, 2, MPI_INT64_T, 0, rmc_dyn_disp((MPI_Aint)(r1 + 0), addr_D[0], 8), 1, tdt_row4, win_D)",
		"MPI_Put(src_row6, 2, MPI_INT64_T, MPI_PROC_NULL, 0, 1, tdt_row6, win_W)",
		// a range's result buffer starts as the registers: a get that moves nothing
		// (MPI_PROC_NULL, E-TARGET) leaves them as the model does
		"res_row4[0] = r2;",
	})
}
