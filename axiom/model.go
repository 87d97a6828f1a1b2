package axiom

import (
	"embed"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/rmacheck/rmacheck/axiom/cat"
	"github.com/rmacheck/rmacheck/spec"
)

// The model files built in: one per preset, each naming its readings of the
// standard, and rma.cat, the rules every preset shares (docs/axioms.md prints them).
//
//go:embed models/*.cat
var builtin embed.FS

// Model is a model file, checked against the engine's base names.
type Model struct {
	Name     string // the preset, or the file's base name
	File     string
	Title    string
	Switches spec.Set // the options the file sets (ls_is_rma shapes the events)
	Cat      *cat.Model
	compiled *cat.Compiled
	flagRule map[string]spec.RuleID
}

// Preset is the built-in model file of a preset (mpi-3.0, A, B, mpi-4.1).
func Preset(name string) (*Model, error) {
	src, err := builtin.ReadFile("models/" + name + ".cat")
	if err != nil {
		return nil, fmt.Errorf("no axiomatic model for preset %q (built in: %s)", name, strings.Join(PresetNames(), ", "))
	}
	m, err := parseModel(name+".cat", src, builtinInclude)
	if err != nil {
		return nil, err
	}
	m.Name = name
	return m, nil
}

// PresetNames lists the presets with a built-in model.
func PresetNames() []string {
	var out []string
	for _, p := range spec.Presets {
		if _, err := builtin.ReadFile("models/" + string(p.Name) + ".cat"); err == nil {
			out = append(out, string(p.Name))
		}
	}
	return out
}

// BuiltinFile returns a built-in model file's text (docs print them).
func BuiltinFile(name string) ([]byte, error) { return builtin.ReadFile("models/" + name) }

func builtinInclude(name string) ([]byte, bool) {
	src, err := builtin.ReadFile("models/" + name)
	return src, err == nil
}

// LoadModel reads a model file (--model FILE); its includes are looked up beside it,
// then among the built-in files (include "rma.cat" works from anywhere).
func LoadModel(file string) (*Model, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	m, err := parseModel(file, src, builtinInclude)
	if err != nil {
		return nil, err
	}
	m.Name = strings.TrimSuffix(path.Base(file), ".cat")
	return m, nil
}

// ParseModel reads a model from source (includes resolve among the built-in files).
func ParseModel(file string, src []byte) (*Model, error) {
	m, err := parseModel(file, src, builtinInclude)
	if err != nil {
		return nil, err
	}
	m.Name = strings.TrimSuffix(path.Base(file), ".cat")
	return m, nil
}

func parseModel(file string, src []byte, fallback func(string) ([]byte, bool)) (*Model, error) {
	resolve := cat.DirResolver(os.ReadFile, fallback)
	if file != "" && !strings.Contains(file, "/") && fallback != nil {
		// a built-in file: its includes are built in too
		resolve = func(from, name string) ([]byte, string, error) {
			if src, ok := fallback(name); ok {
				return src, name, nil
			}
			return cat.DirResolver(os.ReadFile, nil)(from, name)
		}
	}
	cm, err := cat.Parse(file, src, resolve)
	if err != nil {
		return nil, err
	}
	m := &Model{File: file, Title: cm.Title, Cat: cm, flagRule: map[string]spec.RuleID{}}
	for _, o := range cm.Options {
		sw, ok := spec.SwitchByName(o)
		if !ok {
			return nil, fmt.Errorf("%s: option %q: not a switch (%s)", file, o, switchNames())
		}
		if sw != spec.LsIsRMA {
			return nil, fmt.Errorf("%s: option %q: only ls_is_rma shapes the events (write the other readings as relations)", file, o)
		}
		m.Switches = m.Switches.With(sw, true)
	}
	c, err := cat.Compile(cm, baseInfos(), validCond)
	if err != nil {
		return nil, err
	}
	for _, need := range []string{"wait", "ob"} {
		if !c.Has(need) {
			return nil, fmt.Errorf("%s: the model defines no %q (the engine needs it: %s)", file, need, needs[need])
		}
	}
	if c.Dynamic("wait") {
		return nil, fmt.Errorf("%s: %q depends on rf, co, lo or bufo: it must be fixed by the program (the engine uses it to find the deadlocked executions)", file, "wait")
	}
	for _, f := range c.Flags {
		rule, ok := spec.ParseRuleID(f.Name)
		if !ok {
			return nil, &cat.Error{Pos: f.P, Msg: fmt.Sprintf("flag %q: not a rule id of the catalogue (rmacheck explain --all lists them)", f.Name)}
		}
		m.flagRule[f.Name] = rule
	}
	m.compiled = c
	return m, nil
}

var needs = map[string]string{
	"wait": "what every event waits for, fixed by the program: the engine runs a deadlocked execution until nothing it waits for can happen",
	"ob":   "the order an execution's events happen in: an execution is one whose ob is acyclic, and its values are computed in that order",
}

func validCond(name string) bool {
	if _, err := spec.ParseHW(name); err == nil {
		return true
	}
	_, ok := spec.SwitchByName(name)
	return ok
}

func switchNames() string {
	var names []string
	for _, s := range spec.Switches {
		names = append(names, s.Switch.String())
	}
	return strings.Join(names, ", ")
}

// Semantics is the semantics a model runs a test under: the preset it is named
// after (its switches), with the model's options; a user's file starts from mpi-4.1.
func (m *Model) Semantics() spec.Semantics {
	sem, ok := spec.Preset(spec.PresetName(m.Name))
	if !ok {
		sem, _ = spec.Preset(spec.DefaultPreset)
		sem.Name = m.Name
	}
	sem.Switches = sem.Switches.With(spec.LsIsRMA, m.Switches.Has(spec.LsIsRMA))
	return sem
}
