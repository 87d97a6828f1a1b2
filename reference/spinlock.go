package reference

import (
	"sync/atomic"
)

// spinLock is a test-and-test-and-set lock around one model step. A rank that waits
// for it spins on a load, and every 4096 spins (some microseconds, a few model steps:
// the holder is then likely off its CPU) yields its CPU to the OS (sched_yield)
// without going through the Go scheduler: parking a locked thread there costs more
// than the step it waits for (MP+fence ran 2-4 times slower that way). Yielding every
// 256 spins, shorter than one step, made the yield syscall 20% of MP+fence's time.
type spinLock struct{ state atomic.Int32 }

func (l *spinLock) Lock() {
	for spins := 0; !l.state.CompareAndSwap(0, 1); {
		// Test before test-and-set: spinning on a load leaves the line shared, so the
		// holder's unlock does not wait for it.
		for ; l.state.Load() != 0; spins++ {
			if spins&4095 == 4095 {
				yield()
			}
		}
	}
}

func (l *spinLock) Unlock() { l.state.Store(0) }
