package supervise

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// sampleRun reads the run times of this process's descendants (the launchers, ranks
// and compilers of its runs; orphans of a launcher come back to it as their
// subreaper), the guard excepted.
func sampleRun() runSample {
	s := runSample{tasks: map[int]taskTimes{}, ok: true}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return runSample{}
	}
	parent := map[int]int{}
	state := map[int]byte{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		parent[pid], state[pid] = ppid, f[0][0]
	}
	me, guardPID := os.Getpid(), guardProcess()
	for pid := range parent {
		if !descends(pid, me, guardPID, parent) {
			continue
		}
		if st := state[pid]; st == 'T' || st == 't' {
			s.stopped = true
		}
		tasks, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "task"))
		for _, task := range tasks {
			tid, err := strconv.Atoi(task.Name())
			if err != nil {
				continue
			}
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", task.Name(), "schedstat"))
			if err != nil {
				continue
			}
			if f := bytes.Fields(b); len(f) >= 2 {
				run, _ := strconv.ParseInt(string(f[0]), 10, 64)
				wait, _ := strconv.ParseInt(string(f[1]), 10, 64)
				s.tasks[tid] = taskTimes{run: time.Duration(run), wait: time.Duration(wait)}
			}
		}
	}
	return s
}

// descends reports whether pid descends from ancestor, not through skip.
func descends(pid, ancestor, skip int, parent map[int]int) bool {
	for hops := 0; hops < 64 && pid > 1; hops++ {
		if pid == skip {
			return false
		}
		pp, ok := parent[pid]
		if !ok {
			return false
		}
		if pp == ancestor {
			return true
		}
		pid = pp
	}
	return false
}
