package supervise

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// guardEnv, set in the guard's environment, puts this binary in the guard's mode.
const guardEnv = "RMACHECK_GUARD"

var (
	guardEnabled atomic.Bool
	guard        struct {
		once sync.Once
		mu   sync.Mutex
		w    *os.File // the pipe to the guard (nil: no guard)
		pid  atomic.Int64
	}
)

// GuardMain is called first in main (and in TestMain of tests that run MPI targets):
// in the guard's mode it runs the guard and exits; otherwise it lets MPI runs start a
// guard, which re-executes this binary (/proc/self/exe), so only a binary that calls
// GuardMain gets one.
func GuardMain() {
	if os.Getenv(guardEnv) == "" {
		guardEnabled.Store(true)
		return
	}
	runGuard()
	os.Exit(0)
}

// startGuard starts the guard once, before the first launcher.
func startGuard() {
	if !guardEnabled.Load() {
		return
	}
	guard.once.Do(func() {
		r, w, err := os.Pipe() // close-on-exec: no launcher inherits the write end
		if err != nil {
			return
		}
		defer r.Close()
		cmd := exec.Command("/proc/self/exe")
		cmd.Args[0] = fmt.Sprintf("rmacheck-guard-of-%d", os.Getpid()) // what ps shows
		cmd.Env = append(os.Environ(), guardEnv+"="+currentOwner().token())
		cmd.Stdin = r
		// a group of its own: a terminal's Ctrl-C to rmacheck's group must not stop the
		// guard before it has done its work
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if cmd.Start() != nil {
			w.Close()
			return
		}
		go cmd.Wait() // reap it, should it end before rmacheck
		guard.w = w
		guard.pid.Store(int64(cmd.Process.Pid))
	})
}

// guardSay tells the guard of a run's process group or directory (+) or that it is
// gone (-). A record ends with NUL, the one byte no path holds (issue 38 row 15: a
// $TMPDIR with a newline split the paths of a line format).
func guardSay(what, arg string) {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if guard.w != nil {
		fmt.Fprintf(guard.w, "%s %s\x00", what, arg)
	}
}

// runGuard reads what rmacheck tells it until the pipe closes (rmacheck has ended, by
// any means), then kills the process groups it was told of, and every process that
// carries rmacheck's owner token (its ranks), and removes the run directories that are
// still there and carry rmacheck's marker.
func runGuard() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	token := os.Getenv(guardEnv)
	pgids, dirs := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(splitNUL)
	for sc.Scan() {
		what, arg, _ := strings.Cut(sc.Text(), " ")
		switch what {
		case "+pgid":
			pgids[arg] = true
		case "-pgid":
			delete(pgids, arg)
		case "+dir":
			dirs[arg] = true
		case "-dir":
			delete(dirs, arg)
		}
	}
	for pg := range pgids {
		if n, err := strconv.Atoi(pg); err == nil && n > 1 {
			syscall.Kill(-n, syscall.SIGKILL)
		}
	}
	if len(pgids) > 0 || len(dirs) > 0 {
		stopProcessesOf(token)
	}
	for dir := range dirs {
		if o, ok := readMarker(dir); ok && o.token() == token {
			os.RemoveAll(dir)
		}
	}
}

// splitNUL is a bufio.SplitFunc for NUL-terminated records.
func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// stopProcessesOf kills every process that carries the owner token in its environment
// (a run's launcher, proxies and ranks, and nothing a user started), in rounds, for
// those that start others as they go.
func stopProcessesOf(token string) {
	if token == "" {
		return
	}
	me := os.Getpid()
	for round := 0; round < 5; round++ {
		killed := 0
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == me || !carriesToken(pid, token) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		if killed == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processRunning reports whether a process pid exists (one of another user's too).
func processRunning(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// guardProcess is the guard's PID (0: none).
func guardProcess() int { return int(guard.pid.Load()) }
