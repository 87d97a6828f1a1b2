package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
)

// tempName is the name of a temporary file of base written by the process pid: the
// writer's PID in the name lets a later run tell the files of a killed writer, which
// it removes at once, from those of a writer still at work (issue 25 row 15: a run
// killed by SIGTERM or SIGKILL left hundreds, and only those over ten minutes old were
// ever removed).
func tempName(base string, pid int, random string) string {
	return "." + base + ".tmp" + strconv.Itoa(pid) + "-" + random
}

// tempNameRE matches tempName's names: the PID is the first group.
var tempNameRE = regexp.MustCompile(`^\..+\.tmp([1-9][0-9]*)-[0-9a-f]{8}$`)

// cleanedDirs are the directories whose dead writers' temporary files this process
// has removed: once per directory is enough, a batch of thousands stages into one.
var cleanedDirs sync.Map

// removeDeadWritersTemps removes, once per directory and process, the temporary files
// in dir of writers that are no longer running.
func removeDeadWritersTemps(dir string) {
	if dir == "" {
		dir = "."
	}
	if _, done := cleanedDirs.LoadOrStore(filepath.Clean(dir), true); done {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := tempNameRE.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		if pid, err := strconv.Atoi(m[1]); err == nil && pid != os.Getpid() && !processRunning(pid) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
