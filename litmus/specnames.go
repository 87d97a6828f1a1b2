package litmus

import "github.com/rmacheck/rmacheck/spec"

// Preset and rule names come from package spec (its presets and rule catalogue).

func presetNames() []string { return spec.PresetNames() }

func knownPreset(name string) bool {
	_, ok := spec.LookupPreset(name)
	return ok
}

// isRuleID reports whether id (spelled exactly, case included) is a raisable rule.
func isRuleID(id string) bool {
	r, ok := spec.LookupRule(id)
	return ok && r.ID == id && spec.IsRuleID(id)
}

// semanticRule reports whether id is a rule the model executes (R1-R6), never raised.
func semanticRule(id string) bool {
	r, ok := spec.LookupRule(id)
	return ok && r.ID == id && r.Class == spec.ClassRule
}

// rulesOfClass lists the ids of the catalogue's rules of one class, in order.
func rulesOfClass(c spec.Class) []string {
	var ids []string
	for _, r := range spec.Rules {
		if r.Class == c {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// erroneousRules are the rules Erroneous(RULE) may name.
func erroneousRules() []string { return rulesOfClass(spec.ClassErroneous) }

// raceRules are the rules OBS+RULE may name.
func raceRules() []string { return rulesOfClass(spec.ClassRace) }

// raceClass reports whether id (spelled exactly) is a race-class rule.
func raceClass(id string) bool {
	r, ok := spec.LookupRule(id)
	return ok && r.ID == id && r.Class == spec.ClassRace
}

// knownSwitch: name is a switch of --sem (an expect line's qualifier).
func knownSwitch(name string) bool {
	_, ok := spec.SwitchByName(name)
	return ok
}
