//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processRunning reports whether a process pid exists (one of another user's too).
func processRunning(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
