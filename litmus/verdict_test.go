package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestExpectForms: every form of an expect item parses, prints back as written, and
// is met exactly by the verdicts docs/language.md says.
func TestExpectForms(t *testing.T) {
	never := Verdict{Obs: ObsNever}
	neverU2 := Verdict{Obs: ObsNever, Race: []spec.RuleID{spec.U2}}
	neverRaceU2 := Verdict{Obs: ObsNever, Race: []spec.RuleID{spec.U2, spec.Race}}
	someRaceU3 := Verdict{Obs: ObsSometimes, Race: []spec.RuleID{spec.U3, spec.Race}}
	epoch := Verdict{Obs: ObsNever, Erroneous: []spec.RuleID{spec.EEpoch}}
	epochU2 := Verdict{Obs: ObsSometimes, Erroneous: []spec.RuleID{spec.EEpoch, spec.EAssert}, Race: []spec.RuleID{spec.U2}}
	cases := []struct {
		item      string
		met, miss []Verdict
	}{
		{"Never", []Verdict{never, neverU2, neverRaceU2}, []Verdict{someRaceU3, epoch}},
		{"Never+U2", []Verdict{neverU2}, []Verdict{never, neverRaceU2, epoch, epochU2}},
		{"Never+RACE+U2", []Verdict{neverRaceU2}, []Verdict{never, neverU2}},
		{"Never+none", []Verdict{never}, []Verdict{neverU2, epoch}},
		{"Sometimes+RACE+U3", []Verdict{someRaceU3}, []Verdict{never, neverRaceU2}},
		{"Erroneous", []Verdict{epoch, epochU2}, []Verdict{never, neverU2}},
		{"Erroneous(E-ASSERT)", []Verdict{epochU2}, []Verdict{epoch, never}},
	}
	for _, c := range cases {
		src := "MPI t\n{\n  win W allocate size=1;\n  x = W@1[0];\n}\n P0 | P1 ;\n fence W | fence W ;\nexists (x=1)\nexpect A=" + c.item + "\n"
		tst, err := Parse("t.lit", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.item, err)
		}
		it := tst.Expects[0].Items[0]
		if got := it.ObsString(); got != c.item {
			t.Errorf("%s prints as %s", c.item, got)
		}
		if !strings.Contains(string(Format(tst)), "A="+c.item) {
			t.Errorf("%s: Format lost it:\n%s", c.item, Format(tst))
		}
		for _, v := range c.met {
			if !it.Met(v) {
				t.Errorf("%s is not met by %s", c.item, v)
			}
		}
		for _, v := range c.miss {
			if it.Met(v) {
				t.Errorf("%s is met by %s", c.item, v)
			}
		}
	}
}

func TestVerdictString(t *testing.T) {
	for _, c := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Obs: ObsNever}, "Never"},
		{Verdict{Obs: ObsSometimes, Race: []spec.RuleID{spec.Race, spec.U2}}, "Sometimes+RACE+U2"},
		{Verdict{Obs: ObsAlways, Erroneous: []spec.RuleID{spec.EEpoch, spec.EAssert}, Race: []spec.RuleID{spec.U2}}, "Erroneous(E-EPOCH,E-ASSERT)"},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%+v prints %q, want %q", c.v, got, c.want)
		}
	}
}

func TestQuant(t *testing.T) {
	for _, c := range []struct {
		q          Quant
		word       string
		pos, neg   int
		holds, obs string
	}{
		{Exists, "Allowed", 1, 2, "true", "Sometimes"},
		{Exists, "Allowed", 0, 2, "false", "Never"},
		{NotExists, "Forbidden", 0, 3, "true", "Never"},
		{NotExists, "Forbidden", 1, 0, "false", "Always"},
		{Forall, "Required", 3, 0, "true", "Always"},
		{Forall, "Required", 3, 1, "false", "Sometimes"},
	} {
		if c.q.VerdictWord() != c.word {
			t.Errorf("%s: word %s, want %s", c.q, c.q.VerdictWord(), c.word)
		}
		if got := c.q.Holds(c.pos, c.neg); (got && c.holds != "true") || (!got && c.holds == "true") {
			t.Errorf("%s %d/%d: holds %v", c.q, c.pos, c.neg, got)
		}
		if got := ObsOf(c.pos, c.neg).String(); got != c.obs {
			t.Errorf("ObsOf(%d, %d) = %s, want %s", c.pos, c.neg, got, c.obs)
		}
	}
}

func TestAtoms(t *testing.T) {
	c, err := ParseCondition(`~(0:r0=1 /\ x=2) \/ (W@1[0]=3 => 1:r1=4) \/ 0:r1=y`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Atoms(c) {
		got = append(got, RefString(a.Ref))
	}
	if strings.Join(got, " ") != "0:r0 x W@1[0] 1:r1 0:r1" {
		t.Errorf("atoms %v", got)
	}
	got = got[:0]
	for _, r := range CondRefs(c) {
		got = append(got, RefString(*r))
	}
	if strings.Join(got, " ") != "0:r0 x W@1[0] 1:r1 0:r1 y" {
		t.Errorf("items %v", got)
	}
	vals := map[string]int64{"0:r1": 4, "y": 4}
	if a := Atoms(c)[4]; !a.Holds(func(r *Ref) int64 { return vals[RefString(*r)] }) {
		t.Errorf("%s does not hold with both 4", CondString(a))
	}
}

// TestParseCondition: replay --outcome's argument is a condition, with herd7's
// outcome spelling (atoms separated by ';') accepted as a conjunction.
func TestParseCondition(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{`0:r0=0 /\ 1:r0=0`, `0:r0=0 /\ 1:r0=0`, ""},
		{`0:r0=0; 1:r0=0;`, `0:r0=0 /\ 1:r0=0`, ""},
		{`1:r0=1; x=2`, `1:r0=1 /\ x=2`, ""},
		{`~x=1 \/ x=2`, `~x=1 \/ x=2`, ""},
		{`1:r0=`, "", `1:6: expected value (an integer) in condition, found end of file`},
		{`P1:r0=1`, "", `write 1:r0, not P1:r0`},
		// two items compared in one atom (issue 39 item 6)
		{`1:r0=1:r1`, `1:r0=1:r1`, ""},
		{`x=y /\ ~W@1[0]=0:r2`, `x=y /\ ~W@1[0]=0:r2`, ""},
		{`1:r0=1:`, "", `expected register`},
		{``, "", `expected condition`},
	} {
		got, err := ParseCondition(c.in)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.in, err)
		case CondString(got) != c.want:
			t.Errorf("%q parses as %q, want %q", c.in, CondString(got), c.want)
		}
	}
}

// TestLoopForms: repeat/until and await parse, print back as written, and read the
// registers docs/language.md says.
func TestLoopForms(t *testing.T) {
	src := `MPI loops
{
  win W allocate_shared size=2;
  x = W@0[0];
  y = W@0[1];
  1:r2 = 5;
}
 P0                           | P1                 ;
 repeat                       | r3 = await y != r2 ;
 r0 = load x                  |                    ;
 r1 = r0 + 1                  |                    ;
 until r0 == 1 /\ r1 != 0 \/ r0 == r1 |            ;
exists (0:r0=1)
`
	tst, err := Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	until, await := tst.Procs[0].Code[3], tst.Procs[1].Code[0]
	if got := InstrString(until); got != `until r0 == 1 /\ r1 != 0 \/ r0 == r1` {
		t.Errorf("until prints as %q", got)
	}
	if got := InstrString(await); got != "r3 = await y != r2" {
		t.Errorf("await prints as %q", got)
	}
	if got := strings.Join(until.ReadRegs(), " "); got != "r0 r1" {
		t.Errorf("until reads %q", got)
	}
	if got := strings.Join(await.ReadRegs(), " ") + "|" + strings.Join(await.WriteRegs(), " "); got != "r2|r3" {
		t.Errorf("await reads|writes %q", got)
	}
}

// TestByteOrderMark: a UTF-8 byte-order mark before the header is no error, and
// positions count from after it; CRLF line ends are read as LF.
func TestByteOrderMark(t *testing.T) {
	src := "\xef\xbb\xbfMPI t\r\n{\r\n  win W allocate size=1;\r\n}\r\n P0 ;\r\n fence W ;\r\nexists (true)\r\n"
	tst, err := Parse("t.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tst.NamePos.Col != 5 || tst.Procs[0].Code[0].Pos.Line != 6 {
		t.Errorf("positions after a BOM: name at %s, fence at %s", tst.NamePos, tst.Procs[0].Code[0].Pos)
	}
}

// TestModelLimits: check refuses a test beyond the model's limits, at the place it
// passes them: the 17th process, the 65th instruction of a process (await counts
// two), the 33rd register of a process, the 65th memory cell, the 65th window, the
// 257th row.
func TestModelLimits(t *testing.T) {
	procs := func(n int) string {
		var head, row []string
		for i := 0; i < n; i++ {
			head = append(head, fmt.Sprintf("P%d", i))
			row = append(row, "barrier")
		}
		return "MPI t\n{\n}\n " + strings.Join(head, " | ") + " ;\n " + strings.Join(row, " | ") + " ;\nexists (true)\n"
	}
	rows := func(n int, instr func(i int) string) string {
		var b strings.Builder
		b.WriteString("MPI t\n{\n  win W allocate_shared size=64;\n}\n P0 ;\n")
		for i := 0; i < n; i++ {
			b.WriteString(" " + instr(i) + " ;\n")
		}
		b.WriteString("exists (true)\n")
		return b.String()
	}
	windows := func(n int) string {
		var b strings.Builder
		b.WriteString("MPI t\n{\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  win W%d allocate size=1;\n", i)
		}
		b.WriteString("}\n P0 ;\n fence W0 ;\nexists (true)\n")
		return b.String()
	}
	emptyRows := func(n int) string { // a barrier, then empty rows
		var b strings.Builder
		b.WriteString("MPI t\n{\n}\n P0 | P1 ;\n barrier | barrier ;\n")
		for i := 1; i < n; i++ {
			b.WriteString(" | ;\n")
		}
		b.WriteString("exists (true)\n")
		return b.String()
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"16 processes", procs(16), ""},
		{"17 processes", procs(17), "t.lit:4:88: 17 processes: rmacheck models at most 16"},
		{"64 instructions", rows(64, func(int) string { return "barrier" }), ""},
		{"65 instructions", rows(65, func(int) string { return "barrier" }), "t.lit:70:2: P0 passes 64 instructions here"},
		{"await counts two", rows(33, func(i int) string { return fmt.Sprintf("r%d = await W@0[0] == 0", i%8) }), "t.lit:38:2: P0 passes 64 instructions here"},
		{"32 registers", rows(32, func(i int) string { return fmt.Sprintf("r%d = 1", i) }), ""},
		{"33 registers", rows(33, func(i int) string { return fmt.Sprintf("r%d = 1", i) }), "t.lit:38:2: register r32 is P0's 33th"},
		{"65 cells", rows(2, func(i int) string { return fmt.Sprintf("store W@0[%d] 1", 63*i) }), ""},
		// issue 38 row 20: 5,000 windows or 50,000 rows gave C gcc could not compile
		{"64 windows", windows(64), ""},
		{"65 windows", windows(65), "t.lit:67:3: 65 windows: rmacheck models at most 64"},
		{"256 rows", emptyRows(256), ""},
		{"257 rows", emptyRows(257), "t.lit:261:2: row 257: rmacheck models at most 256 rows"},
	} {
		_, err := Parse("t.lit", []byte(c.src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	cells := "MPI t\n{\n  win W allocate_shared size=40;\n}\n P0 | P1 ;\n"
	for i := 0; i < 33; i++ {
		cells += fmt.Sprintf(" store W@0[%d] 1 | store W@1[%d] 1 ;\n", i, i)
	}
	cells += "exists (true)\n"
	if _, err := Parse("t.lit", []byte(cells)); err == nil || !strings.Contains(err.Error(), "t.lit:37:26: the 65th distinct memory cell") {
		t.Errorf("65 cells: error %v", err)
	}
}
