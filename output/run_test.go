package output

import (
	"github.com/rmacheck/rmacheck/spec"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
)

// The plain verdict line answers the question the condition asks, whatever herd7's
// word for the quantifier: a forall condition is answered "holds in every outcome".
func TestPlainVerdict(t *testing.T) {
	cases := []struct {
		q        litmus.Quant
		v        litmus.Verdict
		pos, neg int
		want     string
	}{
		{litmus.Exists, litmus.Verdict{Obs: litmus.ObsNever}, 0, 2,
			"condition reachable under mpi-4.1 (hw relaxed): no (never), 0 of 2 outcomes; erroneous: none"},
		{litmus.NotExists, litmus.Verdict{Obs: litmus.ObsSometimes, Race: []spec.RuleID{spec.Race, spec.U2}}, 1, 2,
			"condition reachable under mpi-4.1 (hw relaxed): yes (sometimes), 1 of 3 outcomes; erroneous: none; races: RACE, U2"},
		{litmus.Forall, litmus.Verdict{Obs: litmus.ObsSometimes}, 1, 1,
			"condition holds in every outcome under mpi-4.1 (hw relaxed): no (sometimes), 1 of 2 outcomes; erroneous: none"},
		{litmus.Forall, litmus.Verdict{Obs: litmus.ObsAlways, Erroneous: []spec.RuleID{spec.EEpoch}}, 1, 0,
			"condition holds in every outcome under mpi-4.1 (hw relaxed): yes (always), 1 of 1 outcome; erroneous: E-EPOCH (not valid MPI: its outcomes are undefined)"},
	}
	for _, c := range cases {
		if got := PlainVerdict(c.q, "mpi-4.1", "relaxed", c.v, c.pos, c.neg); got != c.want {
			t.Errorf("PlainVerdict(%v, %+v, %d, %d) =\n%q\nwant\n%q", c.q, c.v, c.pos, c.neg, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 classes", 1: "1 class", 2: "2 classes"} {
		if got := Plural(n, "class"); got != want {
			t.Errorf("Plural(%d, class) = %q, want %q", n, got, want)
		}
	}
	if got := Plural(3, "search"); got != "3 searches" {
		t.Errorf("Plural(3, search) = %q", got)
	}
	if got := Plural(2, "outcome"); got != "2 outcomes" {
		t.Errorf("Plural(2, outcome) = %q", got)
	}
}
