package litmus

// Ranges and tuples (docs/language.md#ranges-and-tuples):
// each misuse and the exact errors it gives, checked by TestBadInputs.

const (
	initR = "  win W allocate size=8;\n  v = W@1[0..3];"
	tailR = "exists (W@1[0]=0)"
)

var rangeBadCases = []struct {
	name, src string
	want      []string
}{
	{"range of 9 elements", src(initR, " P0 | P1 ;\n put W@1[0..8] 1 | ;", tailR),
		[]string{`t.lit:7:10: W@1[0..8] names 9 elements: one call takes at most 8 (docs/language.md, Ranges and tuples)`}},
	{"range backwards", src(initR, " P0 | P1 ;\n put W@1[3..1] 1 | ;", tailR),
		[]string{`t.lit:7:10: W@1[3..1]: the range 3..1 runs backwards (write lo..hi with lo <= hi)`}},
	{"stride 0", src(initR, " P0 | P1 ;\n put W@1[0..4 by 0] 1 | ;", tailR),
		[]string{`t.lit:7:15: W@1[0..4 by 0]: the stride after "by" must be at least 1, found 0`}},
	{"span not a multiple of the stride", src(initR, " P0 | P1 ;\n put W@1[0..5 by 2] 1 | ;", tailR),
		[]string{`t.lit:7:15: W@1[0..5 by 2]: the span 0..5 is not a multiple of the stride 2 (a vector ends on its last element: write 0..4 by 2)`}},
	{"element outside the segment", src(initR, " P0 | P1 ;\n put W@1[6..9] 1 | ;", tailR),
		[]string{`t.lit:7:10: W@1[6..9]: element 2 (displacement 8) lies outside rank 1's segment of window W (size 8 cells; the target buffer must lie in the target window, MPI-4.1 node337)`}},
	{"indexed element outside the segment", src(initR, " P0 | P1 ;\n (r0,r1) = get W@1[{2,-1}] | ;", tailR),
		[]string{`t.lit:7:20: W@1[{2,-1}]: element 1 (displacement -1) lies outside rank 1's segment of window W (size 8 cells; the target buffer must lie in the target window, MPI-4.1 node337)`}},
	{"indexed put lists a displacement twice", src(initR, " P0 | P1 ;\n put W@1[{0,2,0}] (1,2,3) | ;", tailR),
		[]string{`t.lit:7:10: W@1[{0,2,0}] lists displacement 0 twice: the target datatype of put must not overlap (MPI-4.1 node337)`}},
	{"tuple of the wrong length", src(initR, " P0 | P1 ;\n put v (1,2,3) | ;", tailR),
		[]string{`t.lit:7:9: put: the origin buffer has 3 values, the location v names 4 elements (one value per element: origin and target datatypes have one type signature, MPI-4.1 node337)`}},
	{"result tuple of the wrong length", src(initR, " P0 | P1 ;\n (r0,r1) = get v | ;", tailR),
		[]string{`t.lit:7:3: get: 2 result registers for v, which names 4 elements (one register per element: origin and target datatypes have one type signature, MPI-4.1 node337)`}},
	{"one register for four elements", src(initR, " P0 | P1 ;\n r0 = get v | ;", tailR),
		[]string{`t.lit:7:2: get of v fetches 4 elements: write 4 result registers (r0,..) instead of r0`}},
	{"register twice in a result tuple", src(initR, " P0 | P1 ;\n (r0,r1,r0,r2) = get v | ;", tailR),
		[]string{`t.lit:7:9: register r0 stands twice in the result tuple: each element needs its own register`}},
	{"range on a load", src(initR, " P0 | P1 ;\n r0 = load W@1[0..1] | ;", tailR),
		[]string{`t.lit:7:12: load takes one location, found a range W@1[0..1] (ranges are for put, get, acc, gacc and their request forms; fop and cas move one element, MPI-4.1 node340)`}},
	{"alias of a range on a store", src(initR, " P0 | P1 ;\n store v 1 | ;", tailR),
		[]string{`t.lit:7:8: store takes one location, found an alias of a range v (ranges are for put, get, acc, gacc and their request forms; fop and cas move one element, MPI-4.1 node340)`}},
	{"range on fop", src(initR, " P0 | P1 ;\n r0 = fop W@1[0..1] sum 1 | ;", tailR),
		[]string{`t.lit:7:11: fop takes one location, found a range W@1[0..1] (ranges are for put, get, acc, gacc and their request forms; fop and cas move one element, MPI-4.1 node340)`}},
	{"tuple on a store", src(initR, " P0 | P1 ;\n store W@1[0] (1) | ;", tailR),
		[]string{`t.lit:7:15: expected a value (integer or register), found "("`}},
	{"tuple result of a load", src(initR, " P0 | P1 ;\n (r0) = load W@1[0] | ;", tailR),
		[]string{`t.lit:7:9: load takes one result register, not a tuple (only get, gacc, rget and rgacc fetch several elements)`}},
	{"range in the condition", src(initR, " P0 | P1 ;\n fence W | fence W ;", "exists (W@1[0..1]=0)"),
		[]string{`t.lit:8:9: a condition or locations entry names one cell, found the range W@1[0..1] (name an element: W@1[d])`}},
	{"alias of a range in the condition", src(initR, " P0 | P1 ;\n fence W | fence W ;", "exists (v=0)"),
		[]string{`t.lit:8:9: a condition or locations entry names one cell, found the range v (name an element: W@1[d])`}},
	{"initial value of a range", src(initR+"\n  v = 3;", " P0 | P1 ;\n fence W | fence W ;", tailR),
		[]string{`t.lit:5:3: an initial value names one cell, found the range v (name an element: W@1[d])`}},
	{"typed alias of a range", src("  win W allocate size=8;\n  v = W@1[0..3] : int32;", " P0 | P1 ;\n fence W | fence W ;", tailR),
		[]string{`t.lit:4:3: alias v of the range W@1[0..3] cannot take a type: a range's elements are the window's cells`}},
	{"range on a bytes= window", src("  win W allocate bytes=[64,64];", " P0 | P1 ;\n put W@1[0..3] 1 | ;", tailR),
		[]string{`t.lit:6:6: W@1[0..3]: window W is declared with bytes=, whose displacements are bytes: a range names cells of a window declared with size=`}},
	{"missing upper end", src(initR, " P0 | P1 ;\n put W@1[0..] 1 | ;", tailR),
		[]string{`t.lit:7:13: expected upper end of the range lo..hi, found "]"`}},
	{"unclosed tuple", src(initR, " P0 | P1 ;\n put v (1,2,3,4 | ;", tailR),
		[]string{`t.lit:7:17: expected ")" to close the origin buffer (v0,v1,..), found "|"`}},
}

func init() { badCases = append(badCases, rangeBadCases...) }
