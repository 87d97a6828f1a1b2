//go:build !linux

package explorer

// adviseHuge does nothing where transparent huge pages are not known.
func adviseHuge([]byte) {}
