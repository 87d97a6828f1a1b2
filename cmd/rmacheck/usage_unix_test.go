//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// childUsage is a finished child's CPU time (user + system) and peak resident set in
// KiB, from its rusage.
func childUsage(ps *os.ProcessState) (time.Duration, int64) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return ps.UserTime() + ps.SystemTime(), 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss
}
