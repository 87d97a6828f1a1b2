// Package evidence turns explorer results into evidence for standards discussions:
// the tests on which two semantics differ, the switch that makes each difference,
// and reports (Markdown and self-contained HTML) where every claim is a litmus test,
// an outcome table, a witness and a citation.
package evidence

import (
	"fmt"
	"sort"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Diff is how two semantics answer one test.
type Diff struct {
	Test       *litmus.Test
	HW         model.HW
	SemA, SemB spec.Semantics
	A, B       *explorer.Result
	OnlyA      []explorer.Outcome // outcomes only A allows (with A's witness)
	OnlyB      []explorer.Outcome
	FlagsOnlyA []explorer.Flag // rules only A's executions raise
	FlagsOnlyB []explorer.Flag
}

// Side is one semantics' half of a Diff: what only it allows and raises.
type Side struct {
	Name   string
	Only   []explorer.Outcome
	Flags  []explorer.Flag
	Result *explorer.Result
}

// Sides lists the two halves, A first.
func (d *Diff) Sides() []Side {
	return []Side{{d.SemA.Name, d.OnlyA, d.FlagsOnlyA, d.A}, {d.SemB.Name, d.OnlyB, d.FlagsOnlyB, d.B}}
}

// Differs reports whether the outcome sets or the flags differ.
func (d *Diff) Differs() bool {
	return len(d.OnlyA)+len(d.OnlyB)+len(d.FlagsOnlyA)+len(d.FlagsOnlyB) > 0
}

// Compare explores t under both semantics on one hw model.
func Compare(t *litmus.Test, a, b spec.Semantics, hw model.HW, opt explorer.Options) (*Diff, error) {
	ra := explorer.Job{Test: t, Sem: a, HW: hw}.Run(opt)
	if ra.Err != nil {
		return nil, ra.Err
	}
	rb := explorer.Job{Test: t, Sem: b, HW: hw}.Run(opt)
	if rb.Err != nil {
		return nil, rb.Err
	}
	d := &Diff{Test: t, HW: hw, SemA: a, SemB: b, A: ra.Result, B: rb.Result}
	d.OnlyA, d.OnlyB = outcomesOnly(ra.Result, rb.Result), outcomesOnly(rb.Result, ra.Result)
	d.FlagsOnlyA, d.FlagsOnlyB = flagsOnly(ra.Result, rb.Result), flagsOnly(rb.Result, ra.Result)
	return d, nil
}

func outcomesOnly(x, y *explorer.Result) []explorer.Outcome {
	in := map[string]bool{}
	for _, o := range y.Outcomes {
		in[fmt.Sprint(o.Values)] = true
	}
	var out []explorer.Outcome
	for _, o := range x.Outcomes {
		if !in[fmt.Sprint(o.Values)] {
			out = append(out, o)
		}
	}
	return out
}

func flagsOnly(x, y *explorer.Result) []explorer.Flag {
	var out []explorer.Flag
	for _, f := range x.Flags {
		if !y.HasFlag(f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

// SwitchEffect says what one switch does to a difference between A and B.
type SwitchEffect struct {
	Switch spec.Switch
	ToB    bool // the value B gives it
	// Changes: A with only this switch set as in B answers differently from A.
	Changes bool
	// Explains: A with only this switch set as in B answers exactly as B does.
	Explains bool
	Diff     *Diff // A against A-with-the-switch
}

// Attribute toggles, one at a time, each switch on which A and B disagree, and
// reports which of them change A's answer and which alone turn it into B's.
func Attribute(t *litmus.Test, a, b spec.Semantics, hw model.HW, opt explorer.Options) ([]SwitchEffect, error) {
	var effects []SwitchEffect
	for sw := spec.Switch(0); sw < spec.NumSwitches; sw++ {
		if a.Has(sw) == b.Has(sw) {
			continue
		}
		toggled := a
		toggled.Switches = a.Switches.With(sw, b.Has(sw))
		toggled.Name = fmt.Sprintf("%s,%s=%s", a.Name, sw, onOff(b.Has(sw)))
		d, err := Compare(t, a, toggled, hw, opt)
		if err != nil {
			return nil, err
		}
		e := SwitchEffect{Switch: sw, ToB: b.Has(sw), Changes: d.Differs(), Diff: d}
		if toB, err := Compare(t, toggled, b, hw, opt); err == nil {
			e.Explains = !toB.Differs()
		}
		effects = append(effects, e)
	}
	sort.SliceStable(effects, func(i, j int) bool { return effects[i].Changes && !effects[j].Changes })
	return effects, nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
