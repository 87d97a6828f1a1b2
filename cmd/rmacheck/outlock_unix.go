//go:build unix

package main

import (
	"os"
	"syscall"
)

// lockFolder holds an exclusive lock on a folder until unlock: two report runs on one
// --out replace each other's files as a set, never one's report.md beside the other's
// report.html (issue 38 row 2). flock on the folder itself: no lock file left behind.
func lockFolder(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "lock", Path: dir, Err: err}
	}
	return func() { f.Close() }, nil // closing the last descriptor releases the lock
}
