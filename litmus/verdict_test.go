package litmus

import (
	"strings"
	"testing"
)

// TestExpectForms: every form of an expect item parses, prints back as written, and
// is met exactly by the verdicts LITMUS.md says.
func TestExpectForms(t *testing.T) {
	never := Verdict{Obs: ObsNever}
	neverU2 := Verdict{Obs: ObsNever, Race: []string{"U2"}}
	neverRaceU2 := Verdict{Obs: ObsNever, Race: []string{"U2", "RACE"}}
	someRaceU3 := Verdict{Obs: ObsSometimes, Race: []string{"U3", "RACE"}}
	epoch := Verdict{Obs: ObsNever, Erroneous: []string{"E-EPOCH"}}
	epochU2 := Verdict{Obs: ObsSometimes, Erroneous: []string{"E-EPOCH", "E-ASSERT"}, Race: []string{"U2"}}
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
		{Verdict{Obs: ObsSometimes, Race: []string{"RACE", "U2"}}, "Sometimes+RACE+U2"},
		{Verdict{Obs: ObsAlways, Erroneous: []string{"E-EPOCH", "E-ASSERT"}, Race: []string{"U2"}}, "Erroneous(E-EPOCH,E-ASSERT)"},
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
	c, err := ParseCondition(`~(0:r0=1 /\ x=2) \/ (W@1[0]=3 => 1:r1=4)`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Atoms(c) {
		got = append(got, RefString(a.Ref))
	}
	if strings.Join(got, " ") != "0:r0 x W@1[0] 1:r1" {
		t.Errorf("atoms %v", got)
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
// registers LITMUS.md says.
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
