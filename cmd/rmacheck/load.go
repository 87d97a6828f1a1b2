package main

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/litmus"
)

// loadTests reads the files (of this shard) with one goroutine per CPU, printing
// every bad file's errors; see loadTestsOn.
func loadTests(cmd *cobra.Command, args []string, shard string) ([]*litmus.Test, bool, error) {
	return loadTestsOn(cmd, args, shard, 0)
}

// loadTestsOn reads, parses and validates the files (of this shard) on workers
// goroutines (0: one per CPU), and prints every bad file's errors in the order of
// the files, as one goroutine would. Reading a test is a tenth of the CPU time of
// run over a family of small tests (bench/generated), all of it before the first
// search: done by one goroutine, it alone capped run -j 2 near 1.8x.
func loadTestsOn(cmd *cobra.Command, args []string, shard string, workers int) ([]*litmus.Test, bool, error) {
	si, sn, err := parseShard(shard)
	if err != nil {
		return nil, false, err
	}
	files, ferr := collectFiles(args)
	bad := false
	if ferr != nil {
		printErrors(cmd.ErrOrStderr(), ferr)
		bad = true
	}
	var mine []string
	for k, path := range files {
		if k%sn == si-1 {
			mine = append(mine, path)
		}
	}
	type loaded struct {
		t   *litmus.Test
		err error
	}
	out := make([]loaded, len(mine))
	eachOn(len(mine), workers, func(k int) {
		t, err := loadTest(mine[k])
		out[k] = loaded{t, err}
	})
	var tests []*litmus.Test
	for _, l := range out {
		if l.err != nil {
			printErrors(cmd.ErrOrStderr(), l.err)
			bad = true
			continue
		}
		tests = append(tests, l.t)
	}
	return tests, bad, nil
}

// eachOn calls f(0) .. f(n-1) on workers goroutines (0: one per CPU), each taking
// the next index, and returns when all are done. With one worker, or one index,
// it calls them in order on this goroutine.
func eachOn(n, workers int, f func(k int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for k := range n {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				f(k)
			}
		}()
	}
	wg.Wait()
}
