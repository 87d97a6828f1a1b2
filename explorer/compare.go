package explorer

import (
	"cmp"
	"slices"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Comparison is how two results of one test differ (under two semantics, say): the
// outcomes only one of them allows, each with its witness, and the rules only one
// of them raises, rule by rule. A race-class flag whose two accesses the other side
// flags too, under another race-class rule (RACE under one reading, U3 under the
// one that makes remote loads RMA operations), is the same race renamed, not a
// difference: the accesses are unordered on both sides. It is the one comparison
// diff, distinguish and the reports share, so they count differences alike.
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
		if !y.HasFlag(f.Rule) && !renamedRace(&f, y) {
			out = append(out, f)
		}
	}
	return out
}

// renamedRace reports whether f is a race-class flag whose accesses y flags under
// another race-class rule.
func renamedRace(f *Flag, y *Result) bool {
	if f.Class != spec.ClassRace {
		return false
	}
	for i := range y.Flags {
		g := &y.Flags[i]
		if g.Class == spec.ClassRace && sameAccesses(&f.Diagnostic, &g.Diagnostic) {
			return true
		}
	}
	return false
}

// sameAccesses reports whether two diagnostics are about the same accesses (the
// same process and row each), in either order.
func sameAccesses(a, b *model.Diagnostic) bool {
	key := func(d *model.Diagnostic) []model.Site {
		var s []model.Site
		for _, x := range d.Sites() {
			s = append(s, model.Site{Proc: x.Proc, Row: x.Row})
		}
		slices.SortFunc(s, func(p, q model.Site) int { return cmp.Or(cmp.Compare(p.Proc, q.Proc), cmp.Compare(p.Row, q.Row)) })
		return s
	}
	return slices.Equal(key(a), key(b))
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
	return NewDiff(t, hw, a, b, ra.Result, rb.Result), nil
}

// NewDiff compares the results of t under a and b on hw, searched already.
func NewDiff(t *litmus.Test, hw spec.HW, a, b spec.Semantics, ra, rb *Result) *Diff {
	return &Diff{Test: t, HW: hw, SemA: a, SemB: b, A: ra, B: rb, Comparison: Compare(ra, rb)}
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
