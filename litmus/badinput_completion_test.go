package litmus

// badCompletionCases: bad test, testreq, attach and detach calls (docs/language.md#completion-tests,
// docs/language.md#dynamic-windows), each with the exact list of errors, FILE:LINE:COL first.
var badCompletionCases = []struct {
	name, src string
	want      []string
}{
	{"test without post", src(initW, " P0 | P1 ;\n r0 = test W | fence W ;", ""),
		[]string{`t.lit:7:12: test on window W without a post of P0 above it: MPI_Win_test tests the exposure epoch a post opens (node329)`}},
	{"test before post", src(initW, " P0 | P1 ;\n r0 = test W | start W {0} ;\n post W {1} | complete W ;", ""),
		[]string{`t.lit:7:12: test on window W without a post of P0 above it: MPI_Win_test tests the exposure epoch a post opens (node329)`}},
	{"test unknown window", src(initW, " P0 | P1 ;\n r0 = test V | fence W ;", ""),
		[]string{`t.lit:7:12: unknown window "V" (declared: W)`}},
	{"test no result", src(initW, " P0 | P1 ;\n test W | fence W ;", ""),
		[]string{`t.lit:7:2: test needs a result register: write "r = test ..."`}},
	{"testreq on register", src(initW, " P0 | P1 ;\n r1 = 3 | fence W ;\n r0 = testreq r1 | fence W ;", ""),
		[]string{`t.lit:8:15: testreq on request "r1" that no rput, rget, racc or rgacc of P0 creates`}},
	{"testreq above request", src(initW, " P0 | P1 ;\n lock_all W | barrier ;\n r0 = testreq q | barrier ;\n rput x 1 @q | barrier ;\n unlock_all W | barrier ;", ""),
		[]string{`t.lit:8:15: testreq on request "q" above the call that creates it (at 9:12)`}},
	{"test in loop not exit", src(initW, " P0 | P1 ;\n post W {1} | start W {0} ;\n repeat | complete W ;\n r0 = test W | ;\n until r0 != 0 | ;", ""),
		[]string{`t.lit:9:2: a test in a loop body must end the loop when it succeeds: every alternative of the until condition needs r0 == 1, or r0 == 1 is an alternative on its own (docs/semantics.md, Spin loops)`}},
	{"testreq in loop or", src(initW, " P0 | P1 ;\n lock_all W | ;\n r1 = rget x @q | ;\n repeat | ;\n r0 = testreq q | ;\n r2 = load x | ;\n until r0 == 1 /\\ r2 == 1 \\/ r2 == 2 | ;\n unlock_all W | ;", ""),
		[]string{`t.lit:10:2: a testreq in a loop body must end the loop when it succeeds: every alternative of the until condition needs r0 == 1, or r0 == 1 is an alternative on its own (docs/semantics.md, Spin loops)`}},
	{"attach on allocate", src(initW, " P0 | P1 ;\n r0 = attach W 1 | fence W ;", ""),
		[]string{`t.lit:7:14: attach on window W of flavor allocate: MPI_Win_attach needs a dynamic window (MPI_Win_create_dynamic, node312)`}},
	{"attach size", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 0 | r0 = attach D 9 ;", "exists (0:r0=0)"),
		[]string{`t.lit:6:16: attach of 0 cells: an attach makes 1 to 8 cells`, `t.lit:6:34: attach of 9 cells: an attach makes 1 to 8 cells`}},
	{"detach literal", src("  win D dynamic;", " P0 | P1 ;\n detach D 4 | barrier ;", "exists (0:r0=0)"),
		[]string{`t.lit:6:11: detach takes the register holding the address an attach returned, found 4`}},
	{"address plus register", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 2 | barrier ;\n r1 = 1 | ;\n r2 = r0 + r1 | ;\n r3 = r2 + 1 | ;\n r4 = 8 - r3 | ;", "exists (0:r0=0)"),
		[]string{
			`t.lit:8:2: arithmetic on an address in P0: only a literal offset gives an address (r = ADDR + N, r = ADDR - N); r2 = r0 + r1 is refused (docs/language.md, Dynamic windows)`,
		}},
	{"address minus address", src("  win D dynamic;", " P0 | P1 ;\n r0 = attach D 2 | barrier ;\n r1 = r0 + 1 | ;\n r2 = r1 - r0 | ;", "exists (0:r0=0)"),
		[]string{`t.lit:8:2: arithmetic on an address in P0: only a literal offset gives an address (r = ADDR + N, r = ADDR - N); r2 = r1 - r0 is refused (docs/language.md, Dynamic windows)`}},
}

// TestBadInputs runs them with the others.
func init() { badCases = append(badCases, badCompletionCases...) }
