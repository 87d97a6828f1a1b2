package litmus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAddressAccessesAndComputedRanges: docs/language.md#dynamic-windows and computed
// targets, the forms the parser refused before: a load or store through an address
// register (store D@1[r0] 5 after r0 = attach ...), ranges relative to a register
// (W@1[r5+0..3], W@1[r5+{0,2}]), and a range at MPI_PROC_NULL (W@null[0..3]). Each
// parses, validates, and prints back as written (fmt's canonical form).
func TestAddressAccessesAndComputedRanges(t *testing.T) {
	cases := []struct {
		name, instr string
		loc         Loc // the parsed location, positions aside
	}{
		{"address-store", "store D@0[r0] 5", Loc{Win: "D", DispReg: "r0"}},
		{"address-store-offset", "store D@0[r0+1] 5", Loc{Win: "D", DispReg: "r0", Disp: 1}},
		{"address-load", "r1 = load D@0[r0+1]", Loc{Win: "D", DispReg: "r0", Disp: 1}},
		{"address-await", "r1 = await D@0[r0] == 0", Loc{Win: "D", DispReg: "r0"}},
		{"relative-range", "put D@0[r0+0..1] (1,2)", Loc{Win: "D", DispReg: "r0", Range: &Range{Lo: 0, Hi: 1, Step: 1}}},
		{"relative-vector", "put D@0[r0+0..2 by 2] 7", Loc{Win: "D", DispReg: "r0", Range: &Range{Lo: 0, Hi: 2, Step: 2, StepSet: true}}},
		{"relative-indexed", "(r1,r2) = get D@0[r0+{1,0}]", Loc{Win: "D", DispReg: "r0", Range: &Range{Indexed: true, List: []int{1, 0}, Step: 1}}},
		{"null-range", "put D@null[0..1] (1,2)", Loc{Win: "D", Null: true, Range: &Range{Lo: 0, Hi: 1, Step: 1}}},
		{"null-indexed", "(r1,r2) = get D@null[{0,1}]", Loc{Win: "D", Null: true, Range: &Range{Indexed: true, List: []int{0, 1}, Step: 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `MPI t
{ win D dynamic size=2; }
 P0              | P1 ;
 r0 = attach D 2 |    ;
 lock D 0 excl   |    ;
 ` + c.instr + ` |    ;
 unlock D 0      |    ;
exists (0:r1=0)
`
			lt, err := Parse("t.lit", []byte(src))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			in := lt.Procs[0].Code[2]
			got := *in.Loc
			got.Pos = Pos{}
			if got.Range != nil {
				r := *got.Range
				r.Pos, r.ListPos, r.StepPos = Pos{}, Pos{}, Pos{}
				got.Range = &r
			}
			if d := cmp.Diff(c.loc, got); d != "" {
				t.Errorf("location (-want +got):\n%s", d)
			}
			if printed := strings.TrimSpace(InstrString(in)); printed != c.instr {
				t.Errorf("prints as %q, written %q", printed, c.instr)
			}
		})
	}
}
