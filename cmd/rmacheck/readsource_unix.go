//go:build unix

package main

import (
	"syscall"

	"github.com/rmacheck/rmacheck/litmus"
)

// readSource reads a test file as litmus.ReadFile does, in fewer system calls: open,
// fstat, a read of the whole file into a buffer of its size and one that finds the
// end, close. os.Open takes eleven here (it tries to add a regular file to the
// poller, which refuses, and sets and resets its flags), and in this VM a system
// call costs 1-3 us: reading bench/generated's 1,980 files took 30-47 us a file
// through os.ReadFile and 9-19 us so. Anything else than a regular file read whole
// within the limit (an error, a pipe, a file too large or that grew while read)
// goes to litmus.ReadFile, whose errors and limits are the ones to give.
func readSource(path string, limit int64) ([]byte, error) {
	if src, ok := readRegular(path, limit); ok {
		return src, nil
	}
	return litmus.ReadFile(path, limit)
}

// readRegular reads a regular file of at most limit bytes (litmus.MaxFileSize when
// limit <= 0); false when it could not, for any reason.
func readRegular(path string, limit int64) ([]byte, bool) {
	if limit <= 0 {
		limit = litmus.MaxFileSize
	}
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
