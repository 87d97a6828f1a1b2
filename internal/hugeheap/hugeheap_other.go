//go:build !linux

package hugeheap

// Advise does nothing where transparent huge pages are not known.
func Advise() {}
