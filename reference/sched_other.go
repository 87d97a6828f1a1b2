//go:build !linux

package reference

import (
	"runtime"
	"time"
)

// threadRunWait is unknown here: Result.RunWait stays 0.
func threadRunWait() time.Duration { return 0 }

// yield lets another goroutine run.
func yield() { runtime.Gosched() }
