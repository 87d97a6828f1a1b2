package crosscheck

import (
	"path/filepath"
	"testing"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The two engines' time on the plain family (rmacheck gen --plain 1000) and on
// bench/generated, each test under the four presets on hw relaxed; the tests the
// axiomatic engine refuses (spin loops, ranges) are left out of both.

func benchFiles(b *testing.B, family string) []*litmus.Test {
	b.Helper()
	var tests []*litmus.Test
	switch family {
	case "plain":
		fam, err := gen.PlainFamily(1000, 1)
		if err != nil {
			b.Fatal(err)
		}
		for _, ft := range fam {
			tests = append(tests, ft.Test)
		}
	case "generated":
		files, _ := filepath.Glob("../bench/generated/*.lit")
		for _, f := range files {
			lt, err := litmus.ParseFile(f)
			if err != nil {
				b.Fatal(err)
			}
			tests = append(tests, lt)
		}
	}
	sem, _ := spec.Preset("mpi-4.1")
	var in []*litmus.Test
	for _, t := range tests {
		if axiom.CheckScope(t, sem) == nil {
			in = append(in, t)
		}
	}
	return in
}

func BenchmarkEngines(b *testing.B) {
	for _, family := range []string{"plain", "generated"} {
		tests := benchFiles(b, family)
		b.Run(family+"/operational", func(b *testing.B) {
			for range b.N {
				for _, t := range tests {
					for _, p := range axiom.PresetNames() {
						sem, _ := spec.Preset(spec.PresetName(p))
						if jr := (explorer.Job{Test: t, Sem: sem, HW: spec.Relaxed}).Run(explorer.Options{}); jr.Err != nil {
							b.Fatal(jr.Err)
						}
					}
				}
			}
			b.ReportMetric(float64(len(tests)), "tests")
		})
		b.Run(family+"/axiomatic", func(b *testing.B) {
			models := map[string]*axiom.Model{}
			for _, p := range axiom.PresetNames() {
				models[p], _ = axiom.Preset(p)
			}
			for range b.N {
				for _, t := range tests {
					for _, p := range axiom.PresetNames() {
						if _, err := axiom.Run(t, models[p], spec.Relaxed); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.ReportMetric(float64(len(tests)), "tests")
		})
	}
}
