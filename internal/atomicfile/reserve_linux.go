package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// reserve allocates the blocks of the first n bytes of f (fallocate), so that writing
// them cannot fail for lack of space. A file system without fallocate is written as is.
func reserve(f *os.File, n int64) error {
	if n == 0 {
		return nil
	}
	err := syscall.Fallocate(int(f.Fd()), 0, 0, n)
	if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
		return nil
	}
	return err
}
