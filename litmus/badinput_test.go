package litmus

import (
	"strings"
	"testing"
)

// src builds a small test: init statements (one a line), table rows, and the tail.
func src(init, table, tail string) string {
	if tail == "" {
		tail = "exists (x=0)"
	}
	return "MPI t\n{\n" + init + "\n}\n" + table + "\n" + tail + "\n"
}

const (
	initW  = "  win W allocate size=1;\n  x = W@1[0];"
	table2 = " P0 | P1 ;\n fence W | fence W ;"
)

// badCases: each input and the exact list of errors it must give.
var badCases = []struct {
	name, src string
	want      []string
}{
	// syntax
	{"no header", "MP t\n{\n}\n P0 ;\n barrier ;\nexists (true)\n",
		[]string{`t.lit:1:1: expected header "MPI NAME", found "MP"`}},
	{"no name", "MPI\n{\n}\n",
		[]string{`t.lit:2:1: expected test name after "MPI", found "{"`}},
	{"missing brace", "MPI t\n win W allocate size=1;\n",
		[]string{`t.lit:2:2: expected "{" to open the init block, found "win"`}},
	{"unterminated comment", src(initW+" (* oops", table2, ""),
		[]string{`t.lit:4:15: unterminated comment: "(*" has no closing "*)"`, `t.lit:9:1: expected "}" to close the init block, found end of file`}},
	{"unterminated string", "MPI t\n\"doc\n{\n}\n P0 ;\n barrier ;\nexists (true)\n",
		[]string{`t.lit:2:1: unterminated string: missing closing " on this line`}},
	{"bad flavor", src("  win W alloc size=1;", table2, ""),
		[]string{`t.lit:3:9: unknown window flavor "alloc" (flavors: create, allocate, allocate_shared, dynamic)`}},
	{"bad type", src("  win W allocate size=1 type=int128;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:30: unknown type "int128" (types: int8, int16, int32, int64, double, longdouble, v32, v64)`}},
	{"value too large for int8", src("  win W allocate size=2 type=int8;\n  x = W@0[0];\n  W@0[1] = 128;", " P0 | P1 ;\n store x 300 | put W@0[1] -129 ;\n store x -128 | ;", ""),
		[]string{`t.lit:5:3: value 128 does not fit W@0[1] (type int8: -128 to 127)`, `t.lit:8:10: value 300 does not fit x (type int8: -128 to 127)`, `t.lit:8:27: value -129 does not fit W@0[1] (type int8: -128 to 127)`}},
	{"missing semicolon init", src("  win W allocate size=1\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:4:3: expected ";" after window declaration, found "x"`}},
	{"missing semicolon row", src(initW, " P0 | P1 ;\n fence W | fence W\n fence W | fence W ;", ""),
		[]string{`t.lit:7:19: expected ";" at the end of the row (each row of the table ends with ";")`}},
	{"missing bar", src(initW, " P0 | P1 ;\n fence W fence W ;", ""),
		[]string{`t.lit:7:10: expected "|" or ";" after instruction, found "fence"`}},
	{"column count", src(initW, " P0 | P1 ;\n fence W | fence W | fence W ;", ""),
		[]string{`t.lit:7:2: row 1 has 3 columns, expected 2 (one per process P0..P1)`}},
	{"process order", src(initW, " P0 | P2 ;\n fence W | fence W ;", ""),
		[]string{`t.lit:6:7: expected process name "P1" (columns are P0, P1, ... in order), found "P2"`}},
	{"unknown instruction", src(initW, " P0 | P1 ;\n fense W | fence W ;", ""),
		[]string{`t.lit:7:2: unknown instruction "fense"`}},
	{"an MPI call's C name", src(initW, " P0 | P1 ;\n MPI_Win_fence W | fence W ;", ""),
		[]string{`t.lit:7:2: unknown instruction "MPI_Win_fence": MPI_Win_fence is written fence`}},
	{"load without dst", src(initW, " P0 | P1 ;\n load x | fence W ;", ""),
		[]string{`t.lit:7:2: load needs a result register: write "r = load ..."`}},
	{"put with dst", src(initW, " P0 | P1 ;\n r0 = put x 1 | fence W ;", ""),
		[]string{`t.lit:7:7: put produces no value (after "r =" expected load, get, gacc, fop, cas, rget, rgacc, shared_query, recv, await, attach, test, testreq or a value)`}},
	{"bad acc op", src(initW, " P0 | P1 ;\n acc x plus 1 | fence W ;", ""),
		[]string{`t.lit:7:8: unknown accumulate op "plus" (ops: sum, prod, max, min, band, bor, bxor, replace, no_op)`}},
	{"lock type", src(initW, " P0 | P1 ;\n lock W 1 | fence W ;", ""),
		[]string{`t.lit:7:11: expected lock type excl or shared, found "|"`}},
	{"no quantifier", src(initW, table2, "expect A=Never"),
		[]string{`t.lit:8:1: expected final condition "exists", "~exists" or "forall", found "expect"`}},
	{"bad cond", src(initW, table2, "exists (x=1 /\\ )"),
		[]string{`t.lit:8:16: expected condition (P:reg=V, LOC=V, "~", "(", true or false), found ")"`}},
	{"bad obs", src(initW, table2, "exists (x=1)\nexpect A=Maybe"),
		[]string{`t.lit:9:10: expected observation (Always, Sometimes, Never or Erroneous(RULE)), found "Maybe"`}},
	{"trailing junk", src(initW, table2, "exists (x=1) x"),
		[]string{`t.lit:8:14: expected "expect" or end of file, found "x"`}},
	{"int overflow", src("  win W allocate size=1;\n  x = W@1[0];\n  x = 99999999999999999999;", table2, ""),
		[]string{`t.lit:5:7: integer 99999999999999999999 out of range`}},
	{"keyword register", src(initW, " P0 | P1 ;\n store x load | fence W ;", ""),
		[]string{`t.lit:7:10: expected a value (integer or register), found keyword "load"`}},

	// validation: windows
	{"duplicate window", src("  win W allocate size=1;\n  win W allocate size=1;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:4:3: duplicate window "W" (first declared at 3:3)`}},
	{"size and bytes", src("  win W allocate size=1 bytes=[8,8];\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: both size= and bytes= given (use one)`}},
	{"no size", src("  win W allocate;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:3: window W has no size: give size=N, size=[..], bytes=[..] or over=OTHER`}},
	{"size list length", src("  win W allocate size=[1,1,1];\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:18: window W: size list has 3 entries, expected 2 (one per process)`}},
	{"bytes list length", src("  win W allocate bytes=[8];\n  x = W@0[0];", table2, ""),
		[]string{`t.lit:3:18: window W: bytes list has 1 entries, expected 2 (one per process)`}},
	{"over non-create", src("  win S allocate_shared size=1;\n  win W allocate over=S;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:4:23: window W: over= is only for create windows, not allocate`}},
	{"over unknown", src("  win W create over=S;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:21: window W: over= names unknown window "S" (declared: W)`}},
	{"over self", src("  win W create over=W;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:21: window W: over= names the window itself`}},
	{"over with size", src("  win S allocate_shared size=1;\n  win W create size=1 over=S;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:4:16: window W: size= given together with over= (over= takes S's sizes)`}},
	{"over loop", src("  win A create over=B;\n  win W create over=A;\n  win B create over=W;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:21: window A: over= windows form a loop`, `t.lit:4:21: window W: over= windows form a loop`, `t.lit:5:21: window B: over= windows form a loop`}},
	{"ranks out of range", src("  win W allocate size=1 ranks=0,2;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: rank 2 in ranks= out of range (2 processes: ranks 0..1)`, `t.lit:4:7: W@1[0]: rank 1 is not in the group of window W (ranks=0,2)`, `t.lit:7:18: P1 is not in the group of window W (ranks=0,2)`}},
	{"ranks duplicate", src("  win W allocate size=1 ranks=0,1,1;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: rank 1 listed twice in ranks=`}},
	{"info unknown key", src("  win W allocate size=1 no_lock=true;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: unknown key "no_lock" (keys: size, bytes, type, disp_unit, model, ranks, over, no_locks, accumulate_ordering, accumulate_ops, alloc_shared_noncontig, mpi_minimum_memory_alignment, same_size, same_disp_unit)`}},
	{"info bad bool", src("  win W allocate size=1 no_locks=yes;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: bad value "yes" for info key no_locks (expected true or false)`}},
	{"info bad ordering", src("  win W allocate size=1 accumulate_ordering=\"rar,rwa\";\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: bad value "rar,rwa" for info key accumulate_ordering (expected none or a list of distinct rar, raw, war, waw such as "rar,raw")`}},
	{"info bad alignment", src("  win W allocate size=1 mpi_minimum_memory_alignment=48;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: bad value "48" for info key mpi_minimum_memory_alignment (expected a positive power of two)`}},
	{"info bad ops", src("  win W allocate size=1 accumulate_ops=any_op;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: bad value "any_op" for info key accumulate_ops (expected same_op or same_op_no_op)`}},
	{"duplicate key", src("  win W allocate size=1 size=2;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: duplicate key "size" in window W`}},
	{"disp_unit zero", src("  win W allocate size=1 disp_unit=0;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:3:25: window W: disp_unit must be positive, found 0`}},

	// validation: aliases and locations
	{"duplicate alias", src(initW+"\n  x = W@0[0];", table2, ""),
		[]string{`t.lit:5:3: duplicate alias "x" (first declared at 4:3)`}},
	{"alias names window", src(initW+"\n  W = W@0[0];", table2, ""),
		[]string{`t.lit:5:3: alias "W" has the name of a window`}},
	{"unknown window in alias", src(initW+"\n  y = V@0[0];", table2, ""),
		[]string{`t.lit:5:7: unknown window "V" (declared: W)`}},
	{"rank out of range", src(initW+"\n  y = W@2[0];", table2, ""),
		[]string{`t.lit:5:7: W@2[0]: rank 2 out of range (2 processes: ranks 0..1)`}},
	{"disp outside", src(initW+"\n  y = W@0[1];", table2, ""),
		[]string{`t.lit:5:7: W@0[1]: displacement 1 outside rank 0's segment of window W (size 1 cell)`}},
	{"negative disp", src(initW+"\n  y = W@0[-1];", table2, ""),
		[]string{`t.lit:5:7: W@0[-1]: displacement -1 outside rank 0's segment of window W (size 1 cell)`}},
	{"typed does not fit", src("  win W allocate_shared bytes=[3,16];\n  z = W@1[8] : longdouble;\n  x = W@0[0];", table2, ""),
		[]string{`t.lit:4:7: W@1[8]: a longdouble (16 bytes) at byte 8 does not fit rank 1's segment of window W (16 bytes)`, `t.lit:5:7: W@0[0]: a int64 (8 bytes) at byte 0 does not fit rank 0's segment of window W (3 bytes)`}},
	{"segment over", src("  win S allocate_shared size=[2,1];\n  win W create over=S;\n  x = W@1[1];", table2, ""),
		[]string{`t.lit:5:7: W@1[1]: displacement 1 outside rank 1's segment of window W (size 1 cell)`}},
	{"unknown alias", src(initW, " P0 | P1 ;\n store y 1 | fence W ;", ""),
		[]string{`t.lit:7:8: unknown location "y" (declared: x)`}},
	{"window as location", src(initW, " P0 | P1 ;\n store W 1 | fence W ;", ""),
		[]string{`t.lit:7:8: window "W" used as a location (write W@rank[disp])`}},
	{"duplicate mem init", src(initW+"\n  x = 1;\n  W@1[0] = 2;", table2, ""),
		[]string{`t.lit:6:3: duplicate initial value for W@1[0] (first at 5:3)`}},
	{"register init rank", src(initW+"\n  2:r0 = 1;", table2, ""),
		[]string{`t.lit:5:3: register 2:r0: rank 2 out of range (2 processes: ranks 0..1)`}},
	{"register init alias clash", src(initW+"\n  0:x = 1;", table2, ""),
		[]string{`t.lit:5:3: register "x" has the name of a location alias`}},

	// validation: instructions
	{"undefined register", src(initW, " P0 | P1 ;\n store x r1 | fence W ;", ""),
		[]string{`t.lit:7:10: register "r1" is read but P0 never writes it and the init block does not set it`}},
	{"register of other proc", src(initW, " P0 | P1 ;\n store x r1 | r1 = load x ;", ""),
		[]string{`t.lit:7:10: register "r1" is read but P0 never writes it and the init block does not set it`}},
	{"location as value", src(initW, " P0 | P1 ;\n r0 = x + 1 | fence W ;", ""),
		[]string{`t.lit:7:7: location "x" used as a value (only registers and integers are values)`}},
	{"alias as dst", src(initW, " P0 | P1 ;\n x = load x | fence W ;", ""),
		[]string{`t.lit:7:2: register "x" has the name of a location alias`}},
	{"undefined guard", src(initW, " P0 | P1 ;\n [r5 == 1] store x 1 | fence W ;", ""),
		[]string{`t.lit:7:2: predicate on undefined register "r5" (P0 never writes it and the init block does not set it)`}},
	{"unknown window op", src(initW, " P0 | P1 ;\n fence V | fence W ;", ""),
		[]string{`t.lit:7:8: unknown window "V" (declared: W)`}},
	{"assert on complete", src(initW, " P0 | P1 ;\n complete W nocheck | fence W ;", ""),
		[]string{`t.lit:7:13: complete takes no assertions, found "nocheck"`}},
	{"assert on start", src(initW, " P0 | P1 ;\n start W {1} nostore | post W {0} ;", ""),
		[]string{`t.lit:7:14: start does not take assertion "nostore" (it takes: nocheck)`}},
	{"unknown assert", src(initW, " P0 | P1 ;\n fence W nostroe | fence W ;", ""),
		[]string{`t.lit:7:10: unknown assertion "nostroe" (assertions: nocheck, nostore, noput, noprecede, nosucceed)`}},
	{"duplicate assert", src(initW, " P0 | P1 ;\n fence W noput noput | fence W ;", ""),
		[]string{`t.lit:7:16: duplicate assertion "noput"`}},
	{"lock target", src(initW, " P0 | P1 ;\n lock W 2 excl | fence W ;", ""),
		[]string{`t.lit:7:9: lock target rank 2 out of range (2 processes: ranks 0..1)`}},
	{"flush target", src(initW, " P0 | P1 ;\n flush W -1 | fence W ;", ""),
		[]string{`t.lit:7:10: flush target rank -1 out of range (2 processes: ranks 0..1)`}},
	{"shared_query target", src(initW, " P0 | P1 ;\n r0 = shared_query W 3 | fence W ;", ""),
		[]string{`t.lit:7:22: shared_query target rank 3 out of range (2 processes: ranks 0..1)`}},
	{"target outside group", src("  win W allocate size=1 ranks=0;\n  x = W@0[0];", " P0 | P1 ;\n unlock W 1 | barrier ;", ""),
		[]string{`t.lit:7:11: unlock target rank 1 is not in the group of window W (ranks=0)`}},
	{"send self", src(initW, " P0 | P1 ;\n send 0 | fence W ;", ""),
		[]string{`t.lit:7:7: send destination is the caller itself (P0)`}},
	{"recv unknown", src(initW, " P0 | P1 ;\n recv 4 | fence W ;", ""),
		[]string{`t.lit:7:7: recv source rank 4 out of range (2 processes: ranks 0..1)`}},
	{"post twice", src(initW, " P0 | P1 ;\n post W {1,1} | start W {0} ;", ""),
		[]string{`t.lit:7:9: post group lists rank 1 twice`}},
	{"start unknown rank", src(initW, " P0 | P1 ;\n start W {5} | post W {0} ;", ""),
		[]string{`t.lit:7:10: start group: rank 5 out of range (2 processes: ranks 0..1)`}},
	{"waitreq unknown", src(initW, " P0 | P1 ;\n waitreq q | fence W ;", ""),
		[]string{`t.lit:7:10: waitreq on request "q" that no rput, rget, racc or rgacc of P0 creates`}},
	{"request twice", src(initW, " P0 | P1 ;\n rput x 1 @q | fence W ;\n rput x 2 @q | fence W ;", ""),
		[]string{`t.lit:8:12: request "q" created twice in P0 (first at 7:12)`}},
	{"acc no_op", src(initW, " P0 | P1 ;\n acc x no_op 1 | fence W ;", ""),
		[]string{`t.lit:7:2: acc cannot use no_op (only gacc, rgacc and fop can)`}},
	{"caller outside group", src("  win W allocate size=1 ranks=1;\n  x = W@1[0];", table2, ""),
		[]string{`t.lit:7:8: P0 is not in the group of window W (ranks=1)`}},

	// validation: conditions and expect
	{"cond unknown rank", src(initW, table2, "exists (3:r0=1)"),
		[]string{`t.lit:8:9: register 3:r0: rank 3 out of range (2 processes: ranks 0..1)`}},
	{"cond unknown location", src(initW, table2, "exists (y=1)"),
		[]string{`t.lit:8:9: unknown location "y" (declared: x)`}},
	{"cond alias register", src(initW, table2, "exists (0:x=1)"),
		[]string{`t.lit:8:9: register "x" has the name of a location alias`}},
	{"locations unknown", src(initW, table2, "locations [x; W@0[4]];\nexists (x=1)"),
		[]string{`t.lit:8:15: W@0[4]: displacement 4 outside rank 0's segment of window W (size 1 cell)`}},
	{"unknown preset", src(initW, table2, "exists (x=1)\nexpect mpi-5.0=Never"),
		[]string{`t.lit:9:8: unknown preset "mpi-5.0" (presets: mpi-3.0, A, B, mpi-4.1)`}},
	{"unknown hw", src(initW, table2, "exists (x=1)\nexpect hw=arm: A=Never"),
		[]string{`t.lit:9:11: unknown hardware model "arm" (hw: sc, tso, relaxed)`}},
	{"switch value", src(initW, table2, "exists (x=1)\nexpect weak_progress=yes: A=Never"),
		[]string{`t.lit:9:8: switch weak_progress in an expect line: expected on or off, found "yes"`}},
	// every error in one pass (issue 39): a cell's syntax error drops that cell alone,
	// and what parsed is validated too, but for what the dropped cell may cause (the
	// register P0's bad cell would write)
	{"syntax and validation errors together", src(initW, " P0 | P1 ;\n r0 = get ( | fence W ;\n r1 = r0 + 1 | r2 = load z ;\n fence V | fence W ;", "exists (0:r1=1 /\\ )\nexpect A=Maybe mpi-5=Never"),
		[]string{`t.lit:7:11: expected location (alias or W@rank[disp]), found "("`, `t.lit:8:26: unknown location "z" (declared: x)`,
			`t.lit:9:8: unknown window "V" (declared: W)`, `t.lit:10:19: expected condition (P:reg=V, LOC=V, "~", "(", true or false), found ")"`,
			`t.lit:11:10: expected observation (Always, Sometimes, Never or Erroneous(RULE)), found "Maybe"`}},
	{"switch twice", src(initW, table2, "exists (x=1)\nexpect weak_progress=on weak_progress=off: A=Never"),
		[]string{`t.lit:9:25: switch weak_progress given twice in one expect line`}},
	{"switch without colon", src(initW, table2, "exists (x=1)\nexpect weak_progress=on A=Never"),
		[]string{`t.lit:9:25: expected ":" after weak_progress=on|off, found "A"`}},
	{"same preset, other switches", src(initW, table2, "exists (x=1)\nexpect A=Never\nexpect weak_progress=on: A=Never\nexpect weak_progress=on: A=Never"),
		[]string{`t.lit:11:26: preset A expected twice for hw=relaxed weak_progress=on (first at 10:26)`}},
	{"unknown rule", src(initW, table2, "exists (x=1)\nexpect A=Erroneous(E-FOO)"),
		[]string{`t.lit:9:8: unknown rule "E-FOO" in Erroneous(...) (rules: U1 U4 U5 S1 S2 S3 C-CONFLICT E-EPOCH E-EPOCH-MIX E-SYNC-EPOCH E-ORIGIN-BUF E-ASSERT E-INFO E-SQ-FLAVOR E-LS-ACCESS E-SEPARATE-SHM E-ALIGN DEADLOCK LIVELOCK E-EPOCH-END E-TARGET)`}},
	{"semantic rule", src(initW, table2, "exists (x=1)\nexpect A=Erroneous(R2)"),
		[]string{`t.lit:9:8: rule R2 is a rule the model executes, never raised: Erroneous(RULE) needs one of U1 U4 U5 S1 S2 S3 C-CONFLICT E-EPOCH E-EPOCH-MIX E-SYNC-EPOCH E-ORIGIN-BUF E-ASSERT E-INFO E-SQ-FLAVOR E-LS-ACCESS E-SEPARATE-SHM E-ALIGN DEADLOCK LIVELOCK E-EPOCH-END E-TARGET`}},
	{"race-class rule in Erroneous", src(initW, table2, "exists (x=1)\nexpect A=Erroneous(U2)"),
		[]string{`t.lit:9:8: U2 is race-class, never erroneous: write Never+U2 (or Sometimes+U2, Always+U2)`}},
	{"erroneous rule after +", src(initW, table2, "exists (x=1)\nexpect A=Never+E-EPOCH"),
		[]string{`t.lit:9:16: E-EPOCH is not race-class (race-class rules: U2 U3 RACE); an erroneous rule goes in Erroneous(E-EPOCH)`}},
	{"unknown race rule", src(initW, table2, "exists (x=1)\nexpect A=Never+U9"),
		[]string{`t.lit:9:16: unknown race-class rule "U9" (race-class rules: U2 U3 RACE, or none)`}},
	{"none with a rule", src(initW, table2, "exists (x=1)\nexpect A=Never+none+U2"),
		[]string{`t.lit:9:16: +none stands alone: it means no race-class rule at all`}},
	{"race rule twice", src(initW, table2, "exists (x=1)\nexpect A=Sometimes+U2+U2"),
		[]string{`t.lit:9:23: U2 listed twice`}},
	{"race rules on Erroneous", src(initW, table2, "exists (x=1)\nexpect A=Erroneous+U2"),
		[]string{`t.lit:9:20: race-class rules go with Always, Sometimes or Never, not with Erroneous (which ignores them)`}},
	// line ends
	{"lone carriage returns", "MPI t\r{\r}\r P0 ;\r barrier ;\rexists (true)\r",
		[]string{`t.lit:1:6: a line ends with a lone carriage return (CR, old Mac line ends): .lit files end lines with LF or CRLF`}},

	// spin loops (docs/semantics.md#spin-loops)
	{"until without repeat", src(initW, " P0 | P1 ;\n r0 = load x | ;\n until r0 == 1 | ;", ""),
		[]string{`t.lit:8:2: until without a repeat above it in P0's column`}},
	{"repeat without until", src(initW, " P0 | P1 ;\n repeat | ;\n r0 = load x | ;", ""),
		[]string{`t.lit:7:2: repeat without until: the loop of P0 that starts here is never closed (until COND in the same column)`}},
	{"until in another column", src(initW, " P0 | P1 ;\n repeat | ;\n r0 = load x | ;\n | until r0 == 1 ;", ""),
		[]string{`t.lit:7:2: repeat without until: the loop of P0 that starts here is never closed (until COND in the same column)`,
			`t.lit:9:4: until without a repeat above it in P1's column`,
			`t.lit:9:10: predicate on undefined register "r0" (P1 never writes it and the init block does not set it)`}},
	{"nested loops", src(initW, " P0 | P1 ;\n repeat | ;\n r1 = await x == 1 | ;\n r0 = load x | ;\n until r0 == 1 | ;", ""),
		[]string{`t.lit:8:2: loops do not nest: await inside the loop of P0 that starts at 7:2`}},
	{"store in a loop body", src(initW, " P0 | P1 ;\n repeat | ;\n store x 1 | ;\n r0 = load x | ;\n until r0 == 1 | ;", ""),
		[]string{`t.lit:8:2: store x 1 has side effects on memory: a loop body may hold only loads, get, gacc and fop with no_op, cas, flushes, sync, test, testreq and register arithmetic (docs/semantics.md, Spin loops)`}},
	{"fop sum in a loop body", src(initW, " P0 | P1 ;\n lock_all W | ;\n repeat | ;\n r0 = fop x sum 1 | ;\n flush W 1 | ;\n until r0 == 1 | ;\n unlock_all W | ;", ""),
		[]string{`t.lit:9:2: r0 = fop x sum 1 has side effects on memory: a loop body may hold only loads, get, gacc and fop with no_op, cas, flushes, sync, test, testreq and register arithmetic (docs/semantics.md, Spin loops)`}},
	{"empty loop body", src(initW, " P0 | P1 ;\n r0 = load x | ;\n repeat | ;\n until r0 == 1 | ;", ""),
		[]string{`t.lit:8:2: empty loop body: put the instructions that poll between repeat and until`}},
	{"condition the body never writes", src(initW, " P0 | P1 ;\n r0 = load x | ;\n repeat | ;\n r1 = load x | ;\n until r0 == 1 | ;", ""),
		[]string{`t.lit:10:8: no instruction of the loop body writes a register of "r0 == 1", so the loop can never change its condition`}},
	{"cas loop exits on another condition", src(initW, " P0 | P1 ;\n lock_all W | ;\n repeat | ;\n r0 = cas x 0 1 | ;\n flush W 1 | ;\n until r0 != 0 | ;\n unlock_all W | ;", ""),
		[]string{`t.lit:9:2: a cas in a loop body writes memory when its compare succeeds: the loop must exit exactly then (until r0 == 0)`}},
	{"guarded until", src(initW, " P0 | P1 ;\n repeat | ;\n r0 = load x | ;\n [r0 == 2] until r0 == 1 | ;", ""),
		[]string{`t.lit:9:2: until cannot be guarded: a loop runs or blocks, it is never skipped`}},
	{"until with =", src(initW, " P0 | P1 ;\n repeat | ;\n r0 = load x | ;\n until r0 = 1 | ;", ""),
		[]string{`t.lit:9:11: until compares with ==, not =: write until r0 == ...`}},
	{"await without comparison", src(initW, " P0 | P1 ;\n r0 = await x | ;", ""),
		[]string{`t.lit:7:15: expected "==" or "!=" after the location of await, found "|"`}},
	{"preset twice", src(initW, table2, "exists (x=1)\nexpect A=Never B=Never\nexpect hw=relaxed: A=Sometimes"),
		[]string{`t.lit:10:20: preset A expected twice for hw=relaxed (first at 9:8)`}},
	{"empty expect", src(initW, table2, "exists (x=1)\nexpect"),
		[]string{`t.lit:9:1: expect line lists no PRESET=OBS item`}},

	// several independent errors, in order
	{"several", src(initW+"\n  y = V@0[0];", " P0 | P1 ;\n fence V | fence W nocheck ;\n store x r3 | fence W ;", "exists (x=1)\nexpect C=Never"),
		[]string{
			`t.lit:5:7: unknown window "V" (declared: W)`,
			`t.lit:8:8: unknown window "V" (declared: W)`,
			`t.lit:8:20: fence does not take assertion "nocheck" (it takes: nostore, noput, noprecede, nosucceed)`,
			`t.lit:9:10: register "r3" is read but P0 never writes it and the init block does not set it`,
			`t.lit:11:8: unknown preset "C" (presets: mpi-3.0, A, B, mpi-4.1)`,
		}},
}

func TestBadInputs(t *testing.T) {
	for _, c := range badCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.lit", []byte(c.src))
			if err == nil {
				t.Fatalf("no error; want:\n%s\nsource:\n%s", strings.Join(c.want, "\n"), c.src)
			}
			got := err.Error()
			if want := strings.Join(c.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s\nsource:\n%s", got, want, c.src)
			}
		})
	}
}

// Every C name the parser suggests an instruction for names an instruction that exists.
func TestMPINamesSuggestInstructions(t *testing.T) {
	for c, lit := range mpiNames {
		if _, ok := opByName[lit]; !ok {
			t.Errorf("%s is suggested as %q, which is no instruction", c, lit)
		}
	}
}
