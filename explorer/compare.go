package explorer

import (
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Comparison is how two results of one test differ (under two semantics, say): the
// outcomes only one of them allows, each with its witness, and the rules only one
// of them raises, rule by rule (a RACE on one side and a U2 on the other are two
// differences: the rule is what tells the user which access is unordered). It is
// the one comparison diff, distinguish and the reports share.
type Comparison struct {
	OnlyX, OnlyY   []Outcome
	FlagsX, FlagsY []Flag
}

// Compare compares x with y. Results of one test under two semantics share their
// outcome items (the condition fixes them), so outcomes compare by value.
func Compare(x, y *Result) Comparison {
	return Comparison{
		OnlyX: outcomesOnly(x, y), OnlyY: outcomesOnly(y, x),
		FlagsX: flagsOnly(x, y), FlagsY: flagsOnly(y, x),
	}
}

// Differs reports whether the outcome sets or the rules raised differ (the
// observations then differ too, or the flags do).
func (c *Comparison) Differs() bool {
	return len(c.OnlyX)+len(c.OnlyY)+len(c.FlagsX)+len(c.FlagsY) > 0
}

func outcomesOnly(x, y *Result) []Outcome {
	in := map[model.OutcomeKey]bool{}
	for _, o := range y.Outcomes {
		in[model.KeyOf(o.Values)] = true
	}
	var out []Outcome
	for _, o := range x.Outcomes {
		if !in[model.KeyOf(o.Values)] {
			out = append(out, o)
		}
	}
	return out
}

func flagsOnly(x, y *Result) []Flag {
	var out []Flag
	for _, f := range x.Flags {
		if !y.HasFlag(f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

// Diff is how two semantics answer one test on one hw model.
type Diff struct {
	Test       *litmus.Test
	HW         spec.HW
	SemA, SemB spec.Semantics
	A, B       *Result
	Comparison // X is A, Y is B
}

// CompareSemantics explores t under both semantics on one hw model and compares.
func CompareSemantics(t *litmus.Test, a, b spec.Semantics, hw spec.HW, opt Options) (*Diff, error) {
	ra := Job{Test: t, Sem: a, HW: hw}.Run(opt)
	if ra.Err != nil {
		return nil, ra.Err
	}
	rb := Job{Test: t, Sem: b, HW: hw}.Run(opt)
	if rb.Err != nil {
		return nil, rb.Err
	}
	return &Diff{Test: t, HW: hw, SemA: a, SemB: b, A: ra.Result, B: rb.Result, Comparison: Compare(ra.Result, rb.Result)}, nil
}

// Side is one semantics' half of a Diff: what only it allows and raises.
type Side struct {
	Name   string
	Only   []Outcome
	Flags  []Flag
	Result *Result
}

// Sides lists the two halves, A first.
func (d *Diff) Sides() []Side {
	return []Side{{d.SemA.Name, d.OnlyX, d.FlagsX, d.A}, {d.SemB.Name, d.OnlyY, d.FlagsY, d.B}}
}
