package main

import (
	"runtime"

	"github.com/spf13/pflag"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/hugeheap"
	"github.com/rmacheck/rmacheck/model"
)

// defaultMaxStates bounds a search by default: a bound on its time as much as on its
// memory, which --max-memory bounds in bytes.
const defaultMaxStates = 20_000_000

// searchFlags are the bounds of every command that explores: --max-states for each
// search, --max-memory for all of the command's searches together.
type searchFlags struct {
	maxStates int
	maxMemory string
}

// addSearchFlags adds --max-states (default states) and --max-memory.
func addSearchFlags(fl *pflag.FlagSet, f *searchFlags, states int) {
	fl.IntVar(&f.maxStates, "max-states", states, "stop a search that stores more states than this (0: no bound)")
	fl.StringVar(&f.maxMemory, "max-memory", "", "stop a search when the states of all this command's searches would take more than SIZE (like 8G or 512M; 0: no bound; default: half of this machine's memory, "+
		explorer.FormatBytes(defaultMaxMemory())+")")
}

// options are the search options the flags say, workers ready to split a large
// search (a level of a few thousand states or more; smaller ones stay sequential).
func (f *searchFlags) options(workers int) (explorer.Options, error) {
	if err := atLeast("max-states", f.maxStates, 0, "0: no bound"); err != nil {
		return explorer.Options{}, err
	}
	explorer.LimitHeap()
	hugeheap.Advise() // once a process: a run over many tests faults its heap in
	limit := defaultMaxMemory()
	if f.maxMemory != "" {
		n, err := explorer.ParseBytes(f.maxMemory)
		if err != nil {
			return explorer.Options{}, usageErrorf("--max-memory: %v", err)
		}
		limit = n
	}
	budget := explorer.NewBudget(limit).Lowered(explorer.SystemMemory())
	return explorer.Options{MaxStates: f.maxStates, Memory: budget, Workers: capWorkers(workers, limit)}, nil
}

// memoryPerWorker is the least memory a worker is given: its goroutine, its level's
// successor buffers and its share of the collector's headroom.
const memoryPerWorker = 32 << 20

// capWorkers is how many workers -j N may start: N (0: one per CPU), at most one per
// CPU this process may use (a cgroup's quota counts; searches are CPU-bound, so more
// only add memory), and at most one per memoryPerWorker of the memory bound (0: no
// bound). -j 1000000 --max-memory 256M used 1.3 GB: every worker's buffers were
// outside the bound (issue 38 row 5).
func capWorkers(jobs int, limit int64) int {
	cpus := runtime.GOMAXPROCS(0)
	if jobs <= 0 || jobs > cpus {
		jobs = cpus
	}
	if limit > 0 {
		jobs = min(jobs, int(max(1, limit/memoryPerWorker)))
	}
	return jobs
}

// defaultMaxMemory is explorer.DefaultMemory: half of RAM, within the address-space and
// cgroup limits.
func defaultMaxMemory() int64 { return explorer.DefaultMemory() }

// withABI is opt with the ABI of --abi.
func withABI(opt explorer.Options, abi model.ABI) explorer.Options {
	opt.ABI = abi
	return opt
}
