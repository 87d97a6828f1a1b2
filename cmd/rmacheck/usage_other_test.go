//go:build !unix

package main

import (
	"os"
	"time"
)

// childUsage is a finished child's CPU time; its peak resident set is not known here.
func childUsage(ps *os.ProcessState) (time.Duration, int64) {
	return ps.UserTime() + ps.SystemTime(), 0
}
