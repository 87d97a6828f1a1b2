package gen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestScalingShapes: each scaling test has n processes of plain accesses in one
// lock_all epoch, the condition the shape describes, and the verdicts that make it a
// TSO test: under mpi-4.1 the SB ring's condition is reachable with hw tso and not
// with sc; the message chain's and IRIW's are not reachable with tso (forbidden by
// TSO) but are with relaxed.
func TestScalingShapes(t *testing.T) {
	for _, c := range []struct {
		shape            string
		n                int
		loads, stores    int    // accesses in all
		atoms            int    // of the condition
		tso, sc, relaxed string // observation under mpi-4.1
	}{
		{"SB", 2, 2, 2, 2, "Sometimes", "Never", "Sometimes"},
		{"SB", 4, 4, 4, 4, "Sometimes", "Never", "Sometimes"},
		{"MPC", 2, 2, 2, 2, "Never", "Never", "Sometimes"},
		{"MPC", 4, 4, 4, 4, "Never", "Never", "Sometimes"},
		{"IRIW", 4, 4, 2, 4, "Never", "Never", "Sometimes"},
		{"iriw", 5, 6, 2, 6, "Never", "Never", "Sometimes"},
	} {
		ft, err := Scaling(c.shape, c.n)
		if err != nil {
			t.Fatal(err)
		}
		lt := ft.Test
		if errs := litmus.Validate(lt); len(errs) > 0 {
			t.Fatalf("%s: %v", ft.Name, errs)
		}
		if got, _ := litmus.Parse("x.lit", ft.Source); string(litmus.Format(got)) != string(ft.Source) {
			t.Errorf("%s: not in canonical form", ft.Name)
		}
		if ft.Name != ScalingName(strings.ToUpper(c.shape), c.n) || len(lt.Procs) != c.n {
			t.Errorf("%s: %d processes, want %s with %d", ft.Name, len(lt.Procs), ScalingName(c.shape, c.n), c.n)
		}
		loads, stores := 0, 0
		for p, pr := range lt.Procs {
			var ops []litmus.Op
			for _, in := range pr.Code {
				if in != nil {
					ops = append(ops, in.Op)
				}
			}
			if ops[0] != litmus.OpLockAll || ops[len(ops)-1] != litmus.OpUnlockAll {
				t.Errorf("%s: P%d is not one lock_all epoch: %v", ft.Name, p, ops)
			}
			for _, op := range ops[1 : len(ops)-1] {
				switch op {
				case litmus.OpLoad:
					loads++
				case litmus.OpStore:
					stores++
				default:
					t.Errorf("%s: P%d has %s", ft.Name, p, op)
				}
			}
		}
		if loads != c.loads || stores != c.stores || countAtoms(lt.Cond) != c.atoms {
			t.Errorf("%s: %d loads, %d stores, %d atoms; want %d, %d, %d", ft.Name, loads, stores,
				countAtoms(lt.Cond), c.loads, c.stores, c.atoms)
		}
		sem, _ := spec.Preset("mpi-4.1")
		for hw, want := range map[spec.HW]string{spec.TSO: c.tso, spec.SC: c.sc, spec.Relaxed: c.relaxed} {
			jr := explorer.Job{Test: lt, Sem: sem, HW: hw}.Run(explorer.Options{})
			if jr.Err != nil {
				t.Fatal(jr.Err)
			}
			if got := jr.Result.Observation.String(); got != want {
				t.Errorf("%s under mpi-4.1, hw %s: %s, want %s", ft.Name, hw, got, want)
			}
		}
	}
}

func countAtoms(c litmus.Cond) int {
	switch c := c.(type) {
	case *litmus.Atom:
		return 1
	case *litmus.And:
		return countAtoms(c.L) + countAtoms(c.R)
	case *litmus.Or:
		return countAtoms(c.L) + countAtoms(c.R)
	case *litmus.Implies:
		return countAtoms(c.L) + countAtoms(c.R)
	case *litmus.Not:
		return countAtoms(c.C)
	}
	return 0
}

// TestScalingFamilyBounds: the family has every shape for every n asked (IRIW from
// 4), and numbers of processes outside the bounds are refused.
func TestScalingFamilyBounds(t *testing.T) {
	fam, err := ScalingFamily(nil, 3, 6)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ft := range fam {
		names = append(names, ft.Name)
	}
	want := "SB-n03 SB-n04 SB-n05 SB-n06 MPC-n03 MPC-n04 MPC-n05 MPC-n06 IRIW-n04 IRIW-n05 IRIW-n06"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("family 3-6:\n got %s\nwant %s", got, want)
	}
	for _, bad := range []struct {
		shape string
		n     int
	}{{"SB", 1}, {"IRIW", 3}, {"MPC", MaxScalingProcs + 1}, {"XX", 4}} {
		if _, err := Scaling(bad.shape, bad.n); err == nil {
			t.Errorf("Scaling(%s, %d) accepted", bad.shape, bad.n)
		}
	}
	if _, err := ScalingFamily([]string{"SB"}, 5, 4); err == nil {
		t.Error("processes 5-4 accepted")
	}
}

// TestScalingVariants: every shape in every sync variant is a valid test in
// canonical form whose accesses are the lock_all variant's, in the same order, and
// whose synchronization calls are the variant's only.
func TestScalingVariants(t *testing.T) {
	syncCalls := map[string][]litmus.Op{
		"lock_all": {litmus.OpLockAll, litmus.OpUnlockAll, litmus.OpBarrier},
		"nocheck":  {litmus.OpLockAll, litmus.OpUnlockAll, litmus.OpBarrier},
		"lock":     {litmus.OpLock, litmus.OpUnlock, litmus.OpBarrier},
		"pscw":     {litmus.OpPost, litmus.OpStart, litmus.OpComplete, litmus.OpWait},
		"fence":    {litmus.OpFence},
	}
	accesses := func(lt *litmus.Test, calls []litmus.Op) ([]string, error) {
		var out []string
		for p, pr := range lt.Procs {
			for _, in := range pr.Code {
				switch {
				case in == nil:
				case slices.Contains(calls, in.Op):
				case in.Op == litmus.OpLoad || in.Op == litmus.OpStore || in.Op == litmus.OpPut || in.Op == litmus.OpGet:
					out = append(out, fmt.Sprintf("%d:%s", p, litmus.InstrString(in)))
				default:
					return nil, fmt.Errorf("P%d has %s", p, in.Op)
				}
			}
		}
		return out, nil
	}
	for _, shape := range []string{"SB", "MPC", "IRIW", "RING"} {
		base, err := ScalingVariant(shape, "lock_all", 4)
		if err != nil {
			t.Fatal(err)
		}
		want, err := accesses(base.Test, syncCalls["lock_all"])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ScalingSyncs {
			ft, err := ScalingVariant(shape, s.Name, 4)
			if err != nil {
				t.Fatal(err)
			}
			if errs := litmus.Validate(ft.Test); len(errs) > 0 {
				t.Fatalf("%s: %v", ft.Name, errs)
			}
			if got, _ := litmus.Parse("x.lit", ft.Source); string(litmus.Format(got)) != string(ft.Source) {
				t.Errorf("%s: not in canonical form", ft.Name)
			}
			if ft.Name != ScalingVariantName(shape, s.Name, 4) {
				t.Errorf("%s: want the name %s", ft.Name, ScalingVariantName(shape, s.Name, 4))
			}
			got, err := accesses(ft.Test, syncCalls[s.Name])
			if err != nil {
				t.Errorf("%s: %v", ft.Name, err)
			} else if !slices.Equal(got, want) {
				t.Errorf("%s: accesses %v, want the lock_all variant's %v", ft.Name, got, want)
			}
		}
	}
	if _, err := ScalingVariant("SB", "flush", 4); err == nil {
		t.Error("an unknown sync was accepted")
	}
}
