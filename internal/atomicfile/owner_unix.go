//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

func sameOwner(path string, fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	nfi, err := os.Stat(path)
	if err != nil {
		return false
	}
	nst, ok := nfi.Sys().(*syscall.Stat_t)
	return ok && nst.Uid == st.Uid && nst.Gid == st.Gid
}

func chownLike(path string, fi fs.FileInfo) error {
	st := fi.Sys().(*syscall.Stat_t)
	return os.Chown(path, int(st.Uid), int(st.Gid))
}
