//go:build unix

package litmus

import "syscall"

// ReadFile's common case, a regular file read whole within the limit, in fewer
// system calls: open, fstat, a read of the whole file into a buffer of its size and
// one that finds the end, close. os.Open takes eleven (it tries to add a regular file
// to the poller, which refuses, and sets and resets its flags), and in a virtual
// machine a system call costs 1-3 us: reading bench/generated's 1,980 files took
// 30-47 us a file through os.ReadFile and 9-19 us so. Anything else (an error, a
// pipe, a file too large or that grew while read) goes to readFile, whose errors and
// limits are the ones to give.

// readRegular reads a regular file of at most limit bytes; false when it could not,
// for any reason.
func readRegular(path string, limit int64) ([]byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > limit {
		return nil, false
	}
	buf := make([]byte, st.Size+1) // one byte more: a read that fills it says the file grew
	n := 0
	for {
		k, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, false
		case k == 0:
			return buf[:n:n], true
		}
		n += k
		if n == len(buf) {
			return nil, false
		}
	}
}
