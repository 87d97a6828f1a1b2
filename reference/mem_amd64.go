package reference

import "github.com/rmacheck/rmacheck/spec"

// load is a plain 64-bit machine load.
//
//go:noescape
func load(p *int64) int64

// store is a plain 64-bit machine store.
//
//go:noescape
func store(p *int64, v int64)

// fence is a full memory barrier (MFENCE).
func fence()

// cycles reads the processor's time-stamp counter (RDTSC): a clock that all cores
// share on current x86-64 machines, read in a few nanoseconds.
func cycles() int64

// MachineHW is the hardware model of this machine's plain accesses.
const MachineHW = spec.TSO

// relaxedVisible reports whether plain accesses show the processor's reordering.
const relaxedVisible = true
