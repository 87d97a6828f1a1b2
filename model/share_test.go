package model_test

import (
	"reflect"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestUnderIsCompile: a program compiled under one semantics and taken Under another
// that agrees on the switches it read is the program compiled under the other, for
// every test of the corpus, every pair of presets (and each preset with each switch
// flipped) and every hw model; and programs that compile alike are SameBehaviour.
func TestUnderIsCompile(t *testing.T) {
	var sems []spec.Semantics
	for _, s := range spec.AllPresets() {
		sems = append(sems, s)
		for sw := spec.Switch(0); sw < spec.NumSwitches; sw++ {
			f := s
			f.Switches = s.Switches.With(sw, !s.Has(sw))
			f.Name = s.Name + "," + sw.String()
			sems = append(sems, f)
		}
	}
	reused := 0
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, hw := range spec.HWModels {
			first, err := model.Compile(lt, sems[0], hw)
			if err != nil {
				t.Fatal(err)
			}
			for _, sem := range sems[1:] {
				want, err := model.Compile(lt, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				got := first.Under(sem)
				if got == nil {
					continue
				}
				reused++
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s: the %s program Under %s is not its compile", f, hw, sems[0].Name, sem.Name)
				}
				if !got.SameBehaviour(want) || got.Fingerprint() != want.Fingerprint() {
					t.Errorf("%s %s: %s and %s compile alike, yet are not SameBehaviour", f, hw, sems[0].Name, sem.Name)
				}
			}
		}
	}
	if reused == 0 {
		t.Fatal("no compile could be reused: the test tests nothing")
	}
	t.Logf("%d compiles reused", reused)
}
