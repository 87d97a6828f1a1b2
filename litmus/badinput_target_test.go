package litmus

// Bad inputs of computed and null targets (docs/language.md#computed-and-null-targets): each names
// the file, line and column, and what was expected.
var badTargetCases = []struct {
	name, src string
	want      []string
}{
	{"rank register never written", src(initW, " P0 | P1 ;\n fence W | fence W ;\n put W@r1[0] 1 | ;\n fence W | fence W ;", ""),
		[]string{`t.lit:8:6: register "r1" is read but P0 never writes it and the init block does not set it`}},
	{"displacement register never written", src(initW, " P0 | P1 ;\n fence W | fence W ;\n put W@1[r2+1] 1 | ;\n fence W | fence W ;", ""),
		[]string{`t.lit:8:6: register "r2" is read but P0 never writes it and the init block does not set it`}},
	{"null as a store location", src(initW, " P0 | P1 ;\n store W@null[0] 1 | fence W ;", ""),
		[]string{`t.lit:7:8: W@null[0]: null (MPI_PROC_NULL) is known only when an RMA call is issued: store (a plain access of memory) needs a fixed cell W@rank[disp], or an address register at a literal rank of a dynamic window (W@1[r5])`}},
	{"computed load location", src(initW+"\n  0:r1 = 1;", " P0 | P1 ;\n r0 = load W@r1[0] | fence W ;", ""),
		[]string{`t.lit:8:12: W@r1[0]: a computed rank or displacement is known only when an RMA call is issued: load (a plain access of memory) needs a fixed cell W@rank[disp], or an address register at a literal rank of a dynamic window (W@1[r5])`}},
	{"computed alias", src("  win W allocate size=1;\n  x = W@r1[0];", table2, ""),
		[]string{`t.lit:4:7: W@r1[0]: a computed rank or displacement is known only when an RMA call is issued: an alias, an initial value, the locations line or a condition needs a fixed cell W@rank[disp]`}},
	{"null in a condition", src(initW, table2, "exists (W@null[0]=1)"),
		[]string{`t.lit:8:9: W@null[0]: null (MPI_PROC_NULL) is known only when an RMA call is issued: an alias, an initial value, the locations line or a condition needs a fixed cell W@rank[disp]`}},
	{"null as a displacement", src(initW, " P0 | P1 ;\n put W@1[null] 1 | fence W ;", ""),
		[]string{`t.lit:7:10: null is a rank (W@null[0]), not a displacement`}},
	{"literal displacement outside every segment", src(initW+"\n  0:r1 = 1;", " P0 | P1 ;\n fence W | fence W ;\n put W@r1[3] 1 | ;\n fence W | fence W ;", ""),
		[]string{`t.lit:9:6: W@r1[3]: displacement 3 outside every segment of window W it may name`}},
	{"computed target on a bytes window", src("  win W allocate bytes=[16,16];\n  0:r1 = 1;", " P0 | P1 ;\n fence W | fence W ;\n put W@r1[0] 1 | ;\n fence W | fence W ;", "exists (true)"),
		[]string{`t.lit:8:6: W@r1[0]: a computed rank or displacement on window W, whose segments are sized in bytes (bytes=): rmacheck computes targets on windows sized in cells (size=) only`}},
	{"lock target register never written", src(initW, " P0 | P1 ;\n lock W r4 excl | ;\n unlock W r4 | ;", ""),
		[]string{`t.lit:7:9: register "r4" is read but P0 never writes it and the init block does not set it`, `t.lit:8:11: register "r4" is read but P0 never writes it and the init block does not set it`}},
	{"send to null", src(initW, " P0 | P1 ;\n send null | recv 0 ;", ""),
		[]string{`t.lit:7:7: expected destination rank, found "null"`}},
	{"lock null without a window", src(initW, " P0 | P1 ;\n lock null | ;", ""),
		[]string{`t.lit:7:7: expected window name, found keyword "null"`}},
	{"address store on an allocate window", src(initW+"\n  0:r2 = 0;", " P0 | P1 ;\n store W@0[r2] 1 | fence W ;", ""),
		[]string{`t.lit:8:8: W@0[r2]: a computed rank or displacement is known only when an RMA call is issued: store (a plain access of memory) needs a fixed cell W@rank[disp], or an address register at a literal rank of a dynamic window (W@1[r5])`}},
	{"range of an address store", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 2 | barrier ;\n store D@0[r0+0..1] 1 | ;", "exists (0:r0=0)"),
		[]string{`t.lit:7:8: D@0[r0+0..1]: a computed rank or displacement is known only when an RMA call is issued: store (a plain access of memory) needs a fixed cell W@rank[disp], or an address register at a literal rank of a dynamic window (W@1[r5])`}},
	{"relative range listing a displacement twice", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 2 | barrier ;\n lock D 0 excl | ;\n put D@0[r0+{1,1}] (1,2) | ;\n unlock D 0 | ;", "exists (0:r0=0)"),
		[]string{`t.lit:8:13: D@0[r0+{1,1}] lists displacement 1 twice: the target datatype of put must not overlap (MPI-4.1 node337)`}},
	{"relative range running backwards", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 2 | barrier ;\n lock D 0 excl | ;\n put D@0[r0+3..1] 1 | ;\n unlock D 0 | ;", "exists (0:r0=0)"),
		[]string{`t.lit:8:13: D@0[r0+3..1]: the range 3..1 runs backwards (write lo..hi with lo <= hi)`}},
	{"null range of a store", src(initW, " P0 | P1 ;\n store W@null[0..1] 1 | fence W ;", ""),
		[]string{`t.lit:7:8: W@null[0..1]: null (MPI_PROC_NULL) is known only when an RMA call is issued: store (a plain access of memory) needs a fixed cell W@rank[disp], or an address register at a literal rank of a dynamic window (W@1[r5])`}},
	{"null range of a fop", src(initW, " P0 | P1 ;\n fence W | fence W ;\n r0 = fop W@null[0..1] sum 1 | ;\n fence W | fence W ;", ""),
		[]string{`t.lit:8:11: fop takes one location, found a range W@null[0..1] (ranges are for put, get, acc, gacc and their request forms; fop and cas move one element, MPI-4.1 node340)`}},
	{"register named null", src(initW+"\n  0:null = 1;", table2, ""),
		[]string{`t.lit:5:5: expected register name, found keyword "null"`}},
}

// TestBadInputs runs them with the others.
func init() { badCases = append(badCases, badTargetCases...) }
