package supervise

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
)

// CPUPressure is the share of the last 10 seconds in which some task on this machine
// was ready to run but had no CPU (Linux's /proc/pressure/cpu, "some avg10", 0 to 1),
// or, without it, the load average over the CPUs less one, capped at 1. ok is false
// when neither is known. Near 1 the machine is loaded: ranks that need each other rarely
// run at once, so a run is slow and rare outcomes get rarer.
func CPUPressure() (pressure float64, ok bool) {
	if b, err := os.ReadFile("/proc/pressure/cpu"); err == nil {
		for _, f := range bytes.Fields(b) {
			if v, found := bytes.CutPrefix(f, []byte("avg10=")); found {
				if p, err := strconv.ParseFloat(string(v), 64); err == nil {
					return p / 100, true
				}
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := bytes.Fields(b); len(f) > 0 {
			if l, err := strconv.ParseFloat(string(f[0]), 64); err == nil {
				return max(0, min(1, l/float64(runtime.NumCPU())-1)), true
			}
		}
	}
	return 0, false
}

// Loaded reports whether CPUPressure is over one half.
func Loaded() bool {
	p, ok := CPUPressure()
	return ok && p > 0.5
}
