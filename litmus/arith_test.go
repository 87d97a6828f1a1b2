package litmus

import "testing"

// TestAccOpApply: each predefined reduction MPI_Accumulate takes on integers (MPI-4.1
// section 12.3.4, the operations of section 6.9.2 and MPI_REPLACE), and MPI_NO_OP / none
// leaving the cell as it was.
func TestAccOpApply(t *testing.T) {
	for _, c := range []struct {
		op     AccOp
		old, v int64
		want   int64
	}{
		{AccSum, 3, 4, 7}, {AccProd, 3, 4, 12}, {AccMax, 3, 4, 4}, {AccMin, 3, 4, 3},
		{AccBand, 6, 3, 2}, {AccBor, 6, 3, 7}, {AccBxor, 6, 3, 5}, {AccReplace, 6, 3, 3},
		{AccNoOp, 6, 3, 6}, {AccNone, 6, 3, 6}, {AccMin, -1, 2, -1},
	} {
		if got := c.op.Apply(c.old, c.v); got != c.want {
			t.Errorf("%v.Apply(%d, %d) = %d, want %d", c.op, c.old, c.v, got, c.want)
		}
	}
}

// TestOpArith: register arithmetic, wrapping as the generated C's unsigned values do.
func TestOpArith(t *testing.T) {
	const maxInt = int64(^uint64(0) >> 1)
	for _, c := range []struct {
		op         Op
		a, b, want int64
	}{
		{OpMov, 5, 9, 5}, {OpAdd, 5, 9, 14}, {OpSub, 5, 9, -4}, {OpAdd, maxInt, 1, -maxInt - 1},
	} {
		if got := c.op.Arith(c.a, c.b); got != c.want {
			t.Errorf("Arith(%d, %d, %d) = %d, want %d", c.op, c.a, c.b, got, c.want)
		}
	}
}
