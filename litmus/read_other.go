//go:build !unix

package litmus

// readRegular: no fast path here; readFile reads every file.
func readRegular(path string, limit int64) ([]byte, bool) { return nil, false }
