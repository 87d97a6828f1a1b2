package reference

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// threadRunWait is the time the calling OS thread has spent ready to run but waiting
// for a CPU (the second field of /proc/thread-self/schedstat); 0 when unknown.
func threadRunWait() time.Duration {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	ns, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0
	}
	return time.Duration(ns)
}

// yield gives the CPU to another thread that is ready to run, if any (sched_yield):
// the rank keeps its Go P, so no other runtime thread wakes up to take it.
func yield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
