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
//
// progress, when not nil, is told the candidates searched over every pair (each pair
// searches the same family) and the one being searched.
func SmallestTests(sems []spec.Semantics, procs, instrs int, progress func(done, total int, name string)) ([]*Smallest, error) {
	type pair struct{ i, j int }
	var pairs []pair
	for i := range sems {
		for j := i + 1; j < len(sems); j++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	out := make([]*Smallest, len(pairs))
	errs := make([]error, len(pairs))
	var mu sync.Mutex
	done := make([]int, len(pairs)) // candidates searched, per pair
	show := func(k, d, total int, name string) {
		if progress == nil {
			return
		}
		mu.Lock()
		done[k] = d
		sum := 0
		for _, n := range done {
			sum += n
		}
		mu.Unlock()
		progress(sum, total*len(pairs), name)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				out[k], errs[k] = smallestFor(sems[pairs[k].i], sems[pairs[k].j], procs, instrs,
					func(d, total int, name string) { show(k, d, total, name) })
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
func smallestFor(x, y spec.Semantics, procs, instrs int, progress func(done, total int, name string)) (*Smallest, error) {
	diffs, searched, err := Distinguish(DistinguishOptions{X: x, Y: y, HW: spec.Relaxed, MaxProcs: procs, MaxInstrs: instrs, Progress: progress})
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
