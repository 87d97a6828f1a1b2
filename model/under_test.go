package model

import (
	"reflect"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestExecutionsUnder: on sc and tso, a program taken ExecutionsUnder another
// semantics is that semantics' compile but for the MB scopes (and the record of the
// switches read): SameBehaviour, the same fingerprint, every other field equal; for
// every corpus test, preset pair and preset with a switch flipped. It must share
// more compiles than Under, or it is Under again.
func TestExecutionsUnder(t *testing.T) {
	var sems []spec.Semantics
	for _, s := range spec.AllPresets() {
		sems = append(sems, s)
		for sw := spec.Switch(0); sw < spec.NumSwitches; sw++ {
			sems = append(sems, s.With(sw, !s.Has(sw)))
		}
	}
	under, exec := 0, 0
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, hw := range []spec.HW{spec.SC, spec.TSO} {
			first, err := Compile(lt, sems[0], hw)
			if err != nil {
				t.Fatal(err)
			}
			for _, sem := range sems[1:] {
				got := first.ExecutionsUnder(sem)
				if first.Under(sem) != nil {
					under++
				}
				if got == nil {
					continue
				}
				exec++
				want, err := Compile(lt, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				if !got.SameBehaviour(want) || !want.SameBehaviour(got) || got.Fingerprint() != want.Fingerprint() {
					t.Errorf("%s %s: the %s program ExecutionsUnder %s does not behave as its compile", f, hw, sems[0].Name, sem.Name)
				}
				if g, w := withoutScopes(got), withoutScopes(want); !reflect.DeepEqual(g, w) {
					t.Errorf("%s %s: the %s program ExecutionsUnder %s differs from its compile in more than MB scopes", f, hw, sems[0].Name, sem.Name)
				}
			}
		}
	}
	if exec <= under {
		t.Fatalf("ExecutionsUnder shared %d compiles, Under %d: no more", exec, under)
	}
	t.Logf("sc and tso: %d compiles shared, %d by Under", exec, under)
}

// withoutScopes is a copy of p with every MB scope and the record of the switches
// read set to zero.
func withoutScopes(p *Program) *Program {
	q := *p
	q.consulted, q.scopeRead = 0, 0
	q.Procs = make([]Proc, len(p.Procs))
	for i, pr := range p.Procs {
		pr.Code = append([]Instr(nil), pr.Code...)
		for k := range pr.Code {
			pr.Code[k].MBScope = 0
		}
		q.Procs[i] = pr
	}
	return &q
}

// TestAlignGuaranteeRead: a compile reads align_guarantee only when the guarantee
// changes which accesses raise E-ALIGN, or their messages: a long double at offset
// 16 of a contiguous allocation is aligned with the guarantee (16 bytes) and not
// without it (8); an int there is aligned either way.
func TestAlignGuaranteeRead(t *testing.T) {
	for _, c := range []struct {
		typ  string
		read bool
	}{{"longdouble", true}, {"int32", false}} {
		src := "MPI align\n{\n  win W allocate_shared bytes=[16,16];\n  z = W@1[0] : " + c.typ + ";\n}\n P0 | P1           ;\n    | r0 = load z  ;\nexists (1:r0=0)\n"
		lt, err := litmus.Parse("align.lit", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sem, _ := spec.Preset("mpi-3.0")
		for _, hw := range spec.HWModels {
			p, err := Compile(lt, sem, hw)
			if err != nil {
				t.Fatal(err)
			}
			on := sem.With(spec.AlignGuarantee, true)
			if got := p.Under(on) == nil; got != c.read {
				t.Errorf("%s %s: align_guarantee read = %v, want %v", c.typ, hw, got, c.read)
			}
			q, err := Compile(lt, on, hw)
			if err != nil {
				t.Fatal(err)
			}
			if misaligned := q.Procs[1].Code[0].AlignErr != "" || p.Procs[1].Code[0].AlignErr != ""; misaligned != c.read {
				t.Errorf("%s %s: E-ALIGN under one of the two = %v, want %v", c.typ, hw, misaligned, c.read)
			}
		}
	}
}
