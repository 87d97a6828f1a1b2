//go:build unix

package explorer

import "syscall"

// rlimitAS is the soft address-space limit (ulimit -v) in bytes; 0 when unlimited (RLIM_INFINITY is all ones).
func rlimitAS() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur > 1<<62 {
		return 0
	}
	return int64(r.Cur)
}
