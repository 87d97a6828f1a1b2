package gen

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

func mustSem(t *testing.T, name string) spec.Semantics {
	t.Helper()
	s, err := spec.ParseSemantics(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDistinguishAcceptance: for every acceptance test whose expect lines give A and
// B different observations on some hw model, distinguish finds, under that hw, a test
// of the same shape and sync (MP+lock+rstore: an MP+lock... test) with the same two
// observations; when the family has no such sync (SB+rfi-guard), it finds at least
// three distinguishing tests within the acceptance test's size.
func TestDistinguishAcceptance(t *testing.T) {
	files := corpus.Acceptance(t)
	if len(files) == 0 {
		t.Skip("../shared/acceptance is absent")
	}
	a, b := mustSem(t, "A"), mustSem(t, "B")
	found := map[spec.HW][]*Difference{}
	checked := 0
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range lt.Expects {
			if len(e.Switches) > 0 {
				continue // a preset with switches changed: not A against B
			}
			obs := map[string]string{}
			for _, it := range e.Items {
				obs[it.Preset] = it.ObsString()
			}
			if obs["A"] == "" || obs["B"] == "" || obs["A"] == obs["B"] {
				continue
			}
			hw := e.HW
			if found[hw] == nil {
				found[hw], _, err = Distinguish(DistinguishOptions{X: a, Y: b, HW: hw, MaxProcs: 2, MaxInstrs: 6, NoShrink: true})
				if err != nil {
					t.Fatal(err)
				}
			}
			checked++
			parts := strings.Split(lt.Name, "+")
			shape, sync := parts[0], "po"
			if len(parts) > 1 {
				sync, _, _ = strings.Cut(parts[1], "-")
			}
			var same, small int
			for _, d := range found[hw] {
				n := d.Test.Name
				if strings.HasPrefix(n, shape+"+") && strings.Contains(n, "+"+sync+"+") &&
					obsMatch(d.A.Verdict().ObsString(), obs["A"]) && obsMatch(d.B.Verdict().ObsString(), obs["B"]) {
					same++
				}
				if Size(d.Test) <= Size(lt)+4 {
					small++
				}
			}
			t.Logf("%s (hw %s, A=%s B=%s): %d tests of the same shape and sync, %d of its size", lt.Name, hw, obs["A"], obs["B"], same, small)
			if same == 0 && small < 3 {
				t.Errorf("%s (hw %s): distinguish finds no %s+%s test with A=%s B=%s, and %d small ones", lt.Name, hw, shape, sync, obs["A"], obs["B"], small)
			}
		}
	}
	if checked < 4 {
		t.Errorf("only %d acceptance expect lines where A and B differ", checked)
	}
}

// obsMatch: an observation meets an expected one (Erroneous(R) is met by any list with R).
func obsMatch(got, want string) bool {
	if got == want {
		return true
	}
	if rule, ok := strings.CutPrefix(want, "Erroneous("); ok {
		rule = strings.TrimSuffix(rule, ")")
		inner := strings.TrimSuffix(strings.TrimPrefix(got, "Erroneous("), ")")
		for _, r := range strings.Split(inner, ",") {
			if r == rule && strings.HasPrefix(got, "Erroneous(") {
				return true
			}
		}
	}
	return false
}

// TestDistinguishSelf: a preset never differs from itself.
func TestDistinguishSelf(t *testing.T) {
	for _, p := range []string{"B", "mpi-4.1"} {
		s := mustSem(t, p)
		diffs, n, err := Distinguish(DistinguishOptions{X: s, Y: s, HW: spec.Relaxed, MaxProcs: 3, NoShrink: true})
		if err != nil {
			t.Fatal(err)
		}
		if n < 500 || len(diffs) != 0 {
			t.Errorf("%s vs itself: %d differences in %d candidates", p, len(diffs), n)
		}
	}
}

// TestDistinguishShrinks: the shrunk tests keep their difference, fit the bounds, and
// SB without synchronization shrinks to at most two instructions.
func TestDistinguishShrinks(t *testing.T) {
	a, b := mustSem(t, "A"), mustSem(t, "B")
	fam, _ := Family(FamilyOptions{Shapes: []string{"SB", "MP"}, Flavors: []string{"allocate_shared"}})
	var cands []*litmus.Test
	for _, ft := range fam {
		cands = append(cands, ft.Test)
	}
	diffs, _, err := Distinguish(DistinguishOptions{X: a, Y: b, HW: spec.Relaxed, Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) < 3 {
		t.Fatalf("%d differences between A and B on SB and MP", len(diffs))
	}
	for _, d := range diffs {
		again, err := Compare(d.Test, a, b, spec.Relaxed, explorer.Options{})
		if err != nil || again == nil || again.Signature() != d.Signature() {
			t.Errorf("%s: the shrunk test does not keep its difference", d.Test.Name)
		}
		if Instrs(d.Test) > 4 || len(d.Test.Procs) > 3 {
			t.Errorf("%s: outside the bounds", d.Test.Name)
		}
		if d.From == "SB+po+shared+local" && Size(d.Test) > 2 {
			t.Errorf("SB+po+shared+local shrinks to %d instructions:\n%s", Size(d.Test), d.Source)
		}
	}
}
