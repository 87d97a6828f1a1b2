package supervise

import "syscall"

// prSetChildSubreaper is prctl(PR_SET_CHILD_SUBREAPER, 1).
func prSetChildSubreaper() { syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0) }
