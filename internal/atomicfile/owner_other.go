//go:build !unix

package atomicfile

import "io/fs"

func links(fs.FileInfo) uint64            { return 1 }
func sameOwner(string, fs.FileInfo) bool  { return true }
func chownLike(string, fs.FileInfo) error { return nil }
