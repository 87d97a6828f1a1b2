//go:build unix

package supervise

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// markerName is the file inside every run directory that proves rmacheck made it.
const markerName = ".rmacheck-run-dir"

// markerMagic is the marker's first line.
const markerMagic = "rmacheck run directory, format 1"

// ownerEnv, in the environment of every process Run starts (and so of the ranks a
// launcher starts from it), is the owner token of the rmacheck that started it: what
// the guard and the next run stop processes by.
const ownerEnv = "RMACHECK_OWNER"

// owner identifies one rmacheck process across hosts and time: a PID is reused, a host
// name is shared by nothing else, and a boot id tells a PID of before a reboot.
type owner struct {
	UID   int
	Host  string
	Boot  string
	PID   int
	Start uint64 // the process's start time, in clock ticks since boot (/proc/PID/stat)
}

var me struct {
	once sync.Once
	o    owner
}

// currentOwner is this process as an owner.
func currentOwner() owner {
	me.once.Do(func() {
		host, _ := os.Hostname()
		pid := os.Getpid()
		start, _ := processStart(pid)
		me.o = owner{UID: os.Getuid(), Host: host, Boot: bootID(), PID: pid, Start: start}
	})
	return me.o
}

// token is the owner as one word, the value of ownerEnv.
func (o owner) token() string {
	return fmt.Sprintf("%s/%s/%d/%d", o.Host, o.Boot, o.PID, o.Start)
}

// sameMachineAndUser reports whether o ran as this user on this host since its last
// boot: only then can its PID be checked, and its files be this user's to remove.
func (o owner) sameMachineAndUser(me owner) bool {
	return o.UID == me.UID && o.Host == me.Host && o.Boot == me.Boot && o.Host != ""
}

// running reports whether the owner still runs: its PID is alive with the same start
// time (a PID reused by another process does not count).
func (o owner) running() bool {
	start, ok := processStart(o.PID)
	if !ok {
		return !canReadProc() && processRunning(o.PID) // no /proc: keep what may be live
	}
	return start == o.Start
}

// writeMarker writes dir's marker, refusing to follow or replace anything there.
func writeMarker(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, markerName), os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	o := currentOwner()
	_, err = fmt.Fprintf(f, "%s\nuid %d\nhost %s\nboot %s\npid %d\nstart %d\n", markerMagic, o.UID, o.Host, o.Boot, o.PID, o.Start)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readMarker reads dir's marker: ok only for a regular file (no link followed) in the
// marker's format, owned by this user.
func readMarker(dir string) (owner, bool) {
	f, err := os.OpenFile(filepath.Join(dir, markerName), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return owner{}, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > 4096 || !ownedByMe(st) {
		return owner{}, false
	}
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != markerMagic {
		return owner{}, false
	}
	var o owner
	seen := 0
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		var err error
		switch key {
		case "uid":
			o.UID, err = strconv.Atoi(val)
		case "host":
			o.Host = val
		case "boot":
			o.Boot = val
		case "pid":
			o.PID, err = strconv.Atoi(val)
		case "start":
			o.Start, err = strconv.ParseUint(val, 10, 64)
		default:
			continue
		}
		if err != nil {
			return owner{}, false
		}
		seen++
	}
	return o, seen == 5 && o.PID > 0
}

// ownedByMe reports whether a file belongs to this process's user.
func ownedByMe(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}

// bootID is this boot's id (Linux), "" elsewhere.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// canReadProc reports whether /proc describes this process.
func canReadProc() bool {
	_, ok := processStart(os.Getpid())
	return ok
}

// processStart is the start time of process pid in clock ticks since boot (field 22
// of /proc/PID/stat), false when there is no such process or no /proc.
func processStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	return start, err == nil
}

// carriesToken reports whether process pid's environment holds ownerEnv=token.
func carriesToken(pid int, token string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := ownerEnv + "=" + token
	for _, kv := range strings.Split(string(b), "\x00") {
		if kv == want {
			return true
		}
	}
	return false
}

// removeStaleRunDirs removes the run directories whose marker names an owner on this
// host and boot that no longer runs, after stopping the processes that carry its token.
func removeStaleRunDirs() {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	me := currentOwner()
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), runDirPrefix) || e.Type()&os.ModeSymlink != 0 || !e.IsDir() {
			continue
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		o, ok := readMarker(dir)
		if !ok || !o.sameMachineAndUser(me) || o.PID == me.PID || o.running() {
			continue
		}
		stopProcessesOf(o.token())
		os.RemoveAll(dir)
	}
}

// environ is the environment of a supervised program: this process's, with env's
// settings (NAME=VALUE) over it, and the owner token that marks it, and the ranks its
// launcher starts, as this rmacheck's (ownership.go).
func environ(env []string) []string {
	return append(append(os.Environ(), env...), ownerEnv+"="+currentOwner().token())
}
