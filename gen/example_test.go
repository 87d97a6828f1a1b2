package gen_test

import (
	"fmt"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Example draws well-formed programs from gen.Program and uses the explorer as the
// oracle: under option B, fence-synchronized programs never allow more outcomes on
// sc hardware than on relaxed. In a property-based test, call
// gen.Program(cfg).Draw(t, "program") inside rapid.Check instead of Example.
func Example() {
	programs := gen.Program(gen.Config{MaxProcs: 2, MaxInstrs: 3, Syncs: []string{"fence"}})
	sem, _ := spec.Preset("B")
	ok := true
	for seed := 0; seed < 20; seed++ {
		lt := programs.Example(seed)
		sc, _ := model.Compile(lt, sem, model.SC)
		relaxed, _ := model.Compile(lt, sem, model.Relaxed)
		a, _ := explorer.Explore(sc, explorer.Options{})
		b, _ := explorer.Explore(relaxed, explorer.Options{})
		ok = ok && len(a.Outcomes) <= len(b.Outcomes)
	}
	fmt.Println(ok)
	// Output: true
}
