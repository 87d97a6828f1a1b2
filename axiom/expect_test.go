package axiom_test

import (
	"path/filepath"
	"testing"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
)

// TestExpectations: the expect lines of the corpus and the acceptance tests, written
// from the standard and not from either engine, hold under the axiomatic models for
// every test in scope (the lines with switches qualify a preset: they are not the
// presets' models). The acceptance disagreements file lists what neither engine
// meets yet.
func TestExpectations(t *testing.T) {
	known := corpus.Disagreements(t)
	models := map[string]*axiom.Model{}
	for _, p := range axiom.PresetNames() {
		m, err := axiom.Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		models[p] = m
	}
	checked, outside := 0, 0
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			continue // files that must not parse (litmus/errors) are the parser's tests
		}
		for _, e := range lt.Expects {
			if len(e.Switches) > 0 {
				continue
			}
			for _, it := range e.Items {
				m := models[it.Preset]
				if _, skip := known[filepath.Base(f)+" "+it.Preset+" "+e.HW.String()]; skip || m == nil {
					continue
				}
				r, err := axiom.Run(lt, m, e.HW)
				if _, ok := err.(axiom.ScopeError); ok {
					outside++
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				checked++
				if !it.Met(r.Verdict()) {
					t.Errorf("%s: expect %s=%s (hw %s), the axiomatic engine gives %s", f, it.Preset, it.ObsString(), e.HW, r.Verdict())
				}
			}
		}
	}
	t.Logf("%d expectations met, %d of tests outside the axiomatic engine's scope", checked, outside)
}
