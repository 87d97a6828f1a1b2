package supervise

// The guard: the launcher and the ranks of a run die with rmacheck, and their files go,
// however rmacheck ends (issue 25 row 15: after SIGKILL, Open MPI's mpiexec and both
// ranks ran on, and the rmacheck-* directory stayed). Three layers:
//   - the launcher gets SIGKILL when rmacheck dies (Pdeathsig, Linux);
//   - a guard process (this binary again, in a hidden mode) learns each run's process
//     group and directory through a pipe; when the pipe closes, rmacheck is gone, and it
//     kills the group and every process that carries this rmacheck's owner token in its
//     environment (the ranks, which run in sessions of their own, inherit it from the
//     launcher), and removes the directories;
//   - the next run removes the run directories of an rmacheck that is gone (when no
//     guard could act), and stops the processes carrying its token.
//
// Nothing else is touched (issue 38 row 1: a user's rmacheck-reports-2024-final went,
// and a tail -f on it was killed). A run directory is one this program made, proven by
// a marker file written inside it at creation (ownership.go): the owner's user, host,
// boot, PID and process start time. A directory without a valid marker, of another user,
// of another host or boot (a $TMPDIR shared by the nodes of a Slurm array), or of an
// owner still running, is left alone; a symbolic link is never followed. A process is
// stopped only when its environment carries the owner token this program gave the
// processes it started.

import (
	"os"
	"sync"
)

// runDirPrefix begins the name of a run's temporary directory.
const runDirPrefix = "rmacheck-"

var staleDirs sync.Once

// MakeDir makes a run's temporary directory, rmacheck-TARGET-RANDOM, with its marker,
// and tells the guard; the first call of a process removes the directories of
// rmacheck processes that are gone first.
func MakeDir(target string) (string, error) {
	staleDirs.Do(removeStaleRunDirs)
	startGuard()
	dir, err := os.MkdirTemp("", runDirPrefix+target+"-")
	if err != nil {
		return "", err
	}
	if err := writeMarker(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	guardSay("+dir", dir)
	return dir, nil
}

// RemoveDir removes a run's directory, and tells the guard.
func RemoveDir(dir string) {
	os.RemoveAll(dir)
	guardSay("-dir", dir)
}
