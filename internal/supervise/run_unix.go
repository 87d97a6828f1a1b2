//go:build unix

package supervise

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Run runs argv in a process group of its own and returns its standard output and
// error, each kept within OutputCap (capture). When ctx ends first, or the output
// passes the cap (the error is then ErrOutputCap), the group gets SIGTERM, then SIGKILL
// after stopGrace; in every case Run returns only once the launcher has exited,
// and it stops and reaps the processes the launcher left behind (MPICH's proxy and
// ranks run in sessions of their own, so the group does not hold them: as a
// subreaper, rmacheck inherits them). The guard (guard.go) knows the group while it
// runs.
func Run(ctx context.Context, argv, env []string) (stdout, stderr []byte, err error) {
	becomeSubreaper()
	startGuard() // before the snapshot: the guard is no orphan to stop
	before := childPIDs()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = environ(env)
	cmd.SysProcAttr = procAttr()
	out, errb := newCapture(OutputCap), newCapture(OutputCap)
	cmd.Stdout, cmd.Stderr = out, errb
	cmd.WaitDelay = time.Second // ranks left behind may hold the output pipes open
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	pgid := cmd.Process.Pid
	guardSay("+pgid", strconv.Itoa(pgid))
	defer guardSay("-pgid", strconv.Itoa(pgid))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop := func() {
		syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(stopGrace):
			syscall.Kill(-pgid, syscall.SIGKILL)
			err = <-done
		}
	}
	select {
	case err = <-done:
	case <-ctx.Done():
		stop()
	case <-out.over:
		stop()
	case <-errb.over:
		stop()
	}
	syscall.Kill(-pgid, syscall.SIGKILL) // what is left of the group (a wrapper's children)
	stopOrphans(before)
	if out.Overflowed() || errb.Overflowed() {
		err = ErrOutputCap
	}
	return out.Bytes(), errb.Bytes(), err
}

var subreaper sync.Once

// becomeSubreaper makes orphaned descendants children of this process instead of PID 1
// (Linux; elsewhere a no-op), so that stopOrphans can find, stop and reap them.
func becomeSubreaper() {
	subreaper.Do(func() { prSetChildSubreaper() })
}

// childPIDs lists this process's children, from /proc (empty where there is none).
func childPIDs() []int {
	me := os.Getpid()
	var kids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			if ppid, err := strconv.Atoi(f[1]); err == nil && ppid == me {
				kids = append(kids, pid)
			}
		}
	}
	return kids
}

// stopOrphans stops and reaps the children this process has now and did not have
// before: processes a launcher left behind, inherited as their subreaper. They get
// SIGTERM, then SIGKILL after stopGrace; their own children, inherited in turn when
// they die, are stopped in the next round.
func stopOrphans(before []int) {
	for round := 0; round < 5; round++ {
		var orphans []int
		for _, pid := range childPIDs() {
			if !slices.Contains(before, pid) {
				orphans = append(orphans, pid)
			}
		}
		if len(orphans) == 0 {
			return
		}
		for _, pid := range orphans {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		deadline := time.Now().Add(stopGrace)
		for _, pid := range orphans {
			for {
				var ws syscall.WaitStatus
				if got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid || err != nil {
					break
				}
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					syscall.Wait4(pid, &ws, 0, nil)
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
}
