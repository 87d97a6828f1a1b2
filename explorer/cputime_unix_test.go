//go:build unix

package explorer_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: the measure of a
// benchmark's work on a shared machine, where wall time counts the others' load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
