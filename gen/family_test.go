package gen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestFamilyWellFormed: every test of the mixed family parses, formats to itself, has
// a doc string and a Generator line, and a name that encodes its choices; a sample
// runs without error under every preset (hw relaxed).
func TestFamilyWellFormed(t *testing.T) {
	fam, err := Family(FamilyOptions{Mix: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fam) < 1000 {
		t.Fatalf("the mixed family has %d tests, want at least 1000", len(fam))
	}
	names := map[string]bool{}
	for i, ft := range fam {
		if names[ft.Name] {
			t.Fatalf("two tests named %s", ft.Name)
		}
		names[ft.Name] = true
		lt, err := litmus.Parse(ft.Name+".lit", ft.Source)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", ft.Name, err, ft.Source)
		}
		if got := litmus.Format(lt); !bytes.Equal(got, ft.Source) {
			t.Fatalf("%s: Format is not a fixed point:\n%s\n----\n%s", ft.Name, ft.Source, got)
		}
		if !lt.HasDoc || len(lt.Meta) != 1 || lt.Meta[0].Key != "Generator" || len(lt.Expects) != 0 {
			t.Fatalf("%s: want a doc string, one Generator line and no expect lines", ft.Name)
		}
		if !strings.HasPrefix(ft.Name, ft.Shape+"+") || !strings.HasSuffix(ft.Name, "+"+flavorToken(ft.Flavor)+"+"+ft.Locality) {
			t.Fatalf("%s: the name does not encode shape %s, flavor %s, locality %s", ft.Name, ft.Shape, ft.Flavor, ft.Locality)
		}
		if i%7 != 0 {
			continue
		}
		for _, sem := range spec.AllPresets() {
			jr := explorer.Job{Test: lt, Sem: sem, HW: spec.Relaxed}.Run(explorer.Options{MaxStates: 1_000_000})
			if jr.Err != nil {
				t.Fatalf("%s %s: %v", ft.Name, sem.Name, jr.Err)
			}
			if jr.Result.HasFlag(spec.Deadlock) {
				t.Errorf("%s %s: deadlocks", ft.Name, sem.Name)
			}
		}
	}
}

// TestFamilyDeterministic: generation, and sampling with a seed, give the same tests.
func TestFamilyDeterministic(t *testing.T) {
	a, _ := Family(FamilyOptions{Mix: true, Max: 50, Seed: 3})
	b, _ := Family(FamilyOptions{Mix: true, Max: 50, Seed: 3})
	c, _ := Family(FamilyOptions{Mix: true, Max: 50, Seed: 4})
	if len(a) != 50 || len(b) != 50 {
		t.Fatalf("samples of %d and %d tests, want 50", len(a), len(b))
	}
	same := true
	for i := range a {
		if !bytes.Equal(a[i].Source, b[i].Source) {
			t.Fatalf("test %d differs between two runs with the same seed", i)
		}
		same = same && a[i].Name == c[i].Name
	}
	if same {
		t.Error("seeds 3 and 4 draw the same sample")
	}
}

// TestFamilyDedup: equivalent tests are dropped (LB has no writer-to-reader message,
// so LB+sendrecv is LB+po), and the plain cross product has the expected names.
func TestFamilyDedup(t *testing.T) {
	fam, err := Family(FamilyOptions{Shapes: []string{"LB", "SB"}, Syncs: []string{"none", "sendrecv", "fence"},
		Flavors: []string{"allocate_shared"}, Localities: []string{"remote"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ft := range fam {
		names = append(names, ft.Name)
	}
	want := "LB+po+shared+remote LB+fence+shared+remote SB+po+shared+remote SB+sendrecv+shared+remote SB+fence+shared+remote"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if _, err := Family(FamilyOptions{Syncs: []string{"dmb"}}); err == nil {
		t.Error("an unknown sync is accepted")
	}
}

// TestFamilyAcceptanceShapes: the family reproduces acceptance verdicts it shares a
// program with: SB (01) and SB+sync (02) under every preset.
func TestFamilyAcceptanceShapes(t *testing.T) {
	want := map[string]map[string]string{
		"SB+po+shared+local":   {"mpi-3.0": "Sometimes", "A": "Erroneous(E-EPOCH)", "B": "Sometimes", "mpi-4.1": "Sometimes"},
		"SB+sync+shared+local": {"mpi-3.0": "Never", "A": "Never", "B": "Never", "mpi-4.1": "Never"},
	}
	fam, _ := Family(FamilyOptions{Shapes: []string{"SB"}, Syncs: []string{"none", "sync"}, Flavors: []string{"allocate_shared"}})
	found := 0
	for _, ft := range fam {
		w, ok := want[ft.Name]
		if !ok {
			continue
		}
		found++
		for _, sem := range spec.AllPresets() {
			jr := explorer.Job{Test: ft.Test, Sem: sem, HW: spec.Relaxed}.Run(explorer.Options{})
			if jr.Err != nil {
				t.Fatal(jr.Err)
			}
			if got := jr.Result.Verdict().ObsString(); got != w[sem.Name] {
				t.Errorf("%s %s: %s, want %s", ft.Name, sem.Name, got, w[sem.Name])
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of the %d tests", found, len(want))
	}
}

// TestPlainFamily: the plain family is deterministic, every test checks, and every
// shape of PlainShapes occurs.
func TestPlainFamily(t *testing.T) {
	a, err := PlainFamily(200, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PlainFamily(200, 7)
	shapes := map[string]bool{}
	for i := range a {
		if string(a[i].Source) != string(b[i].Source) {
			t.Fatalf("test %d differs between two draws with one seed", i)
		}
		if errs := litmus.Validate(a[i].Test); len(errs) > 0 {
			t.Fatalf("%s: %v\n%s", a[i].Name, errs, a[i].Source)
		}
		shapes[a[i].Shape] = true
	}
	for _, s := range PlainShapes {
		if !shapes[s] {
			t.Errorf("no %s test in 200", s)
		}
	}
}
