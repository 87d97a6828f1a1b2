package gen

import (
	"fmt"
	"sync"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/spec"
)

// Smallest is the result of searching a generated family for a smallest test on
// which two semantics differ.
type Smallest struct {
	X, Y                spec.Semantics
	HW                  spec.HW
	MaxProcs, MaxInstrs int // the bounds of the search
	Candidates          int // tests searched
	Found               int // distinguishing tests found (after shrinking, distinct)
	// The smallest of them (nil when none): the comparison, its canonical text,
	// the family test it was shrunk from, and its size in instructions.
	Diff   *explorer.Diff
	Source []byte
	From   string
	Instrs int
}

// SmallestTests runs Distinguish (hw relaxed, at most procs processes of instrs
// instructions) for every pair of sems, two pairs at a time; the result is in pair
// order whatever the timing.
func SmallestTests(sems []spec.Semantics, procs, instrs int) ([]*Smallest, error) {
	type pair struct{ i, j int }
	var pairs []pair
	for i := range sems {
		for j := i + 1; j < len(sems); j++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	out := make([]*Smallest, len(pairs))
	errs := make([]error, len(pairs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				out[k], errs[k] = smallestFor(sems[pairs[k].i], sems[pairs[k].j], procs, instrs)
			}
		}()
	}
	for k := range pairs {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// smallestFor is the smallest test of the family that tells x and y apart.
func smallestFor(x, y spec.Semantics, procs, instrs int) (*Smallest, error) {
	diffs, searched, err := Distinguish(DistinguishOptions{X: x, Y: y, HW: spec.Relaxed, MaxProcs: procs, MaxInstrs: instrs})
	if err != nil {
		return nil, fmt.Errorf("distinguish %s and %s: %v", x.Name, y.Name, err)
	}
	s := &Smallest{X: x, Y: y, HW: spec.Relaxed, MaxProcs: procs, MaxInstrs: instrs, Candidates: searched, Found: len(diffs)}
	if len(diffs) > 0 {
		d := diffs[0]
		s.Diff, s.Source, s.From, s.Instrs = d.Diff, d.Source, d.From, Size(d.Test)
	}
	return s, nil
}
