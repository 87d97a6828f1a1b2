package supervise

// The guard: the launcher and the ranks of a run die with rmacheck, and their files go,
// however rmacheck ends (issue 25 row 15: after SIGKILL, Open MPI's mpiexec and both
// ranks ran on, and the rmacheck-* directory stayed). Three layers:
//   - the launcher gets SIGKILL when rmacheck dies (Pdeathsig, Linux);
//   - a guard process (this binary again, in a hidden mode) learns each run's process
//     group and directory through a pipe; when the pipe closes, rmacheck is gone, and it
//     kills the group and every process whose command line names the directory (the
//     ranks, which run in sessions of their own), and removes the directory;
//   - a run's directory is named rmacheck-TARGET-PID-*, and the next run removes those
//     of dead PIDs, and stops what still runs from them (when no guard could run).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// runDirPrefix begins the name of a run's temporary directory.
const runDirPrefix = "rmacheck-"

var staleDirs sync.Once

// MakeDir makes a run's temporary directory, rmacheck-TARGET-PID-RANDOM, and tells
// the guard; the first call of a process removes the directories of dead rmacheck
// processes first.
func MakeDir(target string) (string, error) {
	staleDirs.Do(removeStaleRunDirs)
	startGuard()
	dir, err := os.MkdirTemp("", runDirPrefix+target+"-"+strconv.Itoa(os.Getpid())+"-")
	if err == nil {
		guardSay("+dir", dir)
	}
	return dir, err
}

// RemoveDir removes a run's directory, and tells the guard.
func RemoveDir(dir string) {
	os.RemoveAll(dir)
	guardSay("-dir", dir)
}

// removeStaleRunDirs removes the run directories of rmacheck processes that no longer
// run (killed before they could), after stopping the processes that still run from
// them.
func removeStaleRunDirs() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), runDirPrefix+"*-*-*"))
	for _, dir := range matches {
		if pid, ok := runDirPID(filepath.Base(dir)); ok && pid != os.Getpid() && !processRunning(pid) {
			stopProcessesUnder(dir)
			os.RemoveAll(dir)
		}
	}
}

// runDirPID is the PID in a run directory's name (rmacheck-TARGET-PID-RANDOM).
func runDirPID(name string) (int, bool) {
	f := strings.Split(name, "-")
	if len(f) < 4 || f[0]+"-" != runDirPrefix {
		return 0, false
	}
	pid, err := strconv.Atoi(f[len(f)-2])
	return pid, err == nil && pid > 0
}
