//go:build unix && !linux

package supervise

import "syscall"

// procAttr puts a launcher in a process group of its own.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
