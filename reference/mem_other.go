//go:build !amd64

package reference

import (
	"sync/atomic"
	"time"

	"github.com/rmacheck/rmacheck/spec"
)

// Without assembly stubs for this architecture, plain accesses go through Go's
// atomics, which are sequentially consistent: the runtime then shows no relaxed
// behaviour at all (its outcomes are still a subset of the model's).

func load(p *int64) int64     { return atomic.LoadInt64(p) }
func store(p *int64, v int64) { atomic.StoreInt64(p, v) }
func fence()                  { atomic.AddInt64(new(int64), 0) }

// MachineHW is the hardware model the runtime's accesses follow here.
const MachineHW = spec.SC

const relaxedVisible = false

// cycles is a clock all cores share: nanoseconds here.
func cycles() int64 { return time.Now().UnixNano() }
