package supervise

import "syscall"

// procAttr puts a launcher in a process group of its own and kills it when rmacheck
// dies (Pdeathsig; the kernel sends it when the thread that started the launcher ends,
// and Go ends no thread of rmacheck's while it runs: the reference runtime's ranks
// unlock theirs). Its ranks, in sessions of their own, are the guard's (guard.go).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
