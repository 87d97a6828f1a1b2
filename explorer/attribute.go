package explorer

import (
	"sort"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

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
func Attribute(t *litmus.Test, a, b spec.Semantics, hw spec.HW, opt Options) ([]SwitchEffect, error) {
	var effects []SwitchEffect
	for sw := spec.Switch(0); sw < spec.NumSwitches; sw++ {
		if a.Has(sw) == b.Has(sw) {
			continue
		}
		toggled := a
		toggled.Switches = a.Switches.With(sw, b.Has(sw))
		toggled.Name = a.Name + "," + sw.Setting(b.Has(sw))
		d, err := CompareSemantics(t, a, toggled, hw, opt)
		if err != nil {
			return nil, err
		}
		e := SwitchEffect{Switch: sw, ToB: b.Has(sw), Changes: d.Differs(), Diff: d}
		if toB, err := CompareSemantics(t, toggled, b, hw, opt); err == nil {
			e.Explains = !toB.Differs()
		}
		effects = append(effects, e)
	}
	sort.SliceStable(effects, func(i, j int) bool { return effects[i].Changes && !effects[j].Changes })
	return effects, nil
}
