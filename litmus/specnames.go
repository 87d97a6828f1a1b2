package litmus

import "github.com/rmacheck/rmacheck/spec"

// Preset and rule names come from package spec (its presets and rule catalogue).

func presetNames() []string { return spec.PresetNames() }

func knownPreset(name string) bool {
	_, ok := spec.LookupPreset(spec.PresetName(name))
	return ok
}

// rulesOfClass lists the ids of the catalogue's rules of one class, in order, as
// error messages print them.
func rulesOfClass(c spec.Class) []string {
	var ids []string
	for _, r := range spec.Rules {
		if r.Class == c {
			ids = append(ids, r.ID.String())
		}
	}
	return ids
}

// erroneousRules are the rules Erroneous(RULE) may name.
func erroneousRules() []string { return rulesOfClass(spec.ClassErroneous) }

// raceRules are the rules OBS+RULE may name.
func raceRules() []string { return rulesOfClass(spec.ClassRace) }

// knownSwitch: name is a switch of --sem (an expect line's qualifier).
func knownSwitch(name string) bool {
	_, ok := spec.SwitchByName(name)
	return ok
}
