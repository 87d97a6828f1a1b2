package crosscheck

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestRandomProgramsAgree: on random programs of gen within the axiomatic engine's
// scope (plain accesses, put/get/accumulates, fence, PSCW, lock_all, lock per access,
// lock_all rounds between barriers, barrier, no synchronization, assertions true or
// false, calls of two elements), under a random preset and hw model, the two engines find the
// same outcomes (with the rules of their executions) and the same rules. make
// test runs rapid's default 100 draws; the 2,000:
// make crosscheck (go test ./crosscheck -rapid.checks=2000 ...).
func TestRandomProgramsAgree(t *testing.T) {
	models := map[string]*axiom.Model{}
	for _, p := range axiom.PresetNames() {
		m, err := axiom.Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		models[p] = m
	}
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MaxProcs: 3, MaxInstrs: 4, Asserts: rapid.Bool().Draw(t, "asserts"), Ranges: rapid.Bool().Draw(t, "ranges"),
			Syncs: []string{"none", "fence", "lock_all", "pscw", "barrier", "lock", "rounds"}}
		lt := gen.Program(cfg).Draw(t, "program")
		preset := rapid.SampledFrom(axiom.PresetNames()).Draw(t, "preset")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		c := Case{File: "gen.lit", Test: lt, Preset: preset, HW: hw}
		r := Run(c, models[preset], explorer.Options{})
		switch {
		case r.OutOfScope != nil:
			t.Fatalf("gen drew a program outside the axiomatic engine's scope: %v\n%s", r.OutOfScope, litmus.Format(lt))
		case r.Err != nil:
			t.Fatalf("%s: %v\n%s", c, r.Err, litmus.Format(lt))
		case len(r.Diffs) > 0:
			var b strings.Builder
			for _, d := range r.Diffs {
				b.WriteString("\n  " + d.String())
				for _, l := range d.Witness {
					b.WriteString("\n      " + l)
				}
			}
			t.Fatalf("%s %s: the engines disagree:%s\n%s", preset, hw, b.String(), litmus.Format(lt))
		}
	})
}
