package model_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStatePartsTile: the parts of a state (collapse compression) and the block
// of zeros cover each of its bytes exactly once, on random programs with every
// feature that has state of its own, under every preset and hw model.
func TestStatePartsTile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := gen.Config{MaxProcs: 4, Loops: true, Asserts: true, Separate: true, Tests: rapid.Bool().Draw(t, "tests"),
			Computed: rapid.Bool().Draw(t, "computed"), Ranges: rapid.Bool().Draw(t, "ranges"),
			Dynamic: rapid.IntRange(0, 4).Draw(t, "dynamic") == 0,
			Syncs:   []string{"none", "fence", "lock_all", "pscw", "barrier", "lock"}}
		lt := gen.Program(cfg).Draw(t, "program")
		sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
		hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		covered := make([]int, p.StateSize())
		mark := func(sp model.Span) {
			for i := sp.Off; i < sp.Off+sp.Len; i++ {
				covered[i]++
			}
		}
		for _, part := range p.StateParts() {
			for _, sp := range part {
				mark(sp)
			}
		}
		mark(p.ZeroBlock())
		for i, c := range covered {
			if c != 1 {
				t.Fatalf("byte %d of %d is covered %d times", i, p.StateSize(), c)
			}
		}
	})
}
