package gen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestComputedTargetsSameVerdicts: a family test with its target ranks in registers
// set by the init block (ComputedTargets) is the same program as the literal one,
// so every preset and hw model finds the same outcomes, observation and rules in
// both (model/target.go resolves the registers at issue; its may-sets narrow to
// the one value such a register holds).
func TestComputedTargetsSameVerdicts(t *testing.T) {
	fam, err := Family(FamilyOptions{Mix: true, Targets: Targets, Flavors: []string{"allocate"}})
	if err != nil {
		t.Fatal(err)
	}
	literal := map[string]FamilyTest{}
	computed := 0
	for _, ft := range fam {
		if !ft.Computed {
			literal[ft.Name] = ft
			continue
		}
		computed++
		if computed%7 != 0 { // a sample: every seventh computed test
			continue
		}
		lit, ok := literal[strings.TrimSuffix(ft.Name, "+computed")]
		if !ok {
			t.Fatalf("%s: no literal test before it", ft.Name)
		}
		if !strings.Contains(string(ft.Source), "W@t") && !strings.Contains(string(ft.Source), " W t") {
			t.Fatalf("%s: no computed target:\n%s", ft.Name, ft.Source)
		}
		for _, sem := range []string{"mpi-3.0", "A", "mpi-4.1"} {
			for _, hw := range spec.HWModels {
				a, b := verdict(t, lit.Test, sem, hw), verdict(t, ft.Test, sem, hw)
				if a != b {
					t.Errorf("%s under %s (hw %s): literal %s, computed %s\n%s", ft.Name, sem, hw, a, b, ft.Source)
				}
			}
		}
	}
	if computed < 100 {
		t.Fatalf("only %d computed tests in the allocate family", computed)
	}
}

// verdict is a search's outcomes, observation and rules, as one string.
func verdict(t *testing.T, lt *litmus.Test, sem string, hw spec.HW) string {
	t.Helper()
	s, err := spec.ParseSemantics(sem)
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Compile(lt, s, hw)
	if err != nil {
		t.Fatal(err)
	}
	r, err := explorer.Explore(p, explorer.Options{MaxStates: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	var outs, rules []string
	for _, o := range r.Outcomes {
		outs = append(outs, fmt.Sprint(o.Values, o.Flags))
	}
	for _, f := range r.Flags {
		rules = append(rules, f.Rule.String())
	}
	slices.Sort(outs)
	slices.Sort(rules)
	return fmt.Sprintf("%s %v %v", r.Observation, outs, slices.Compact(rules))
}
