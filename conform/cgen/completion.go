package cgen

import "github.com/rmacheck/rmacheck/litmus"

// completionTest prints r = test W (MPI_Win_test) and r = testreq q (MPI_Test):
// the flag, an int, becomes the register. MPI_Test on a request that already
// completed (MPI_REQUEST_NULL) sets the flag, as the model's testreq returns 1.
func (pg *procGen) completionTest(row int, in *litmus.Instr, wi *winInfo) {
	pg.decl("int flag_row%d;\n", row)
	pg.printf("flag_row%d = 0;\n", row)
	if in.Op == litmus.OpTest {
		pg.printf("CHECK(%d, MPI_Win_test(win_%s, &flag_row%d));\n", row, wi.id, row)
	} else {
		pg.printf("CHECK(%d, MPI_Test(%s, &flag_row%d, MPI_STATUS_IGNORE));\n", row, pg.req(in.Req), row)
	}
	pg.printf("%s = flag_row%d != 0;\n", regName(in.Dst), row)
}
