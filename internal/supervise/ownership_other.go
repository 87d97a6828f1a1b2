//go:build !unix

package supervise

import (
	"os"
	"path/filepath"
)

// markerName is the file inside every run directory that proves rmacheck made it.
const markerName = ".rmacheck-run-dir"

// writeMarker writes dir's marker; without /proc no owner can be checked later, so
// removeStaleRunDirs removes nothing here.
func writeMarker(dir string) error {
	return os.WriteFile(filepath.Join(dir, markerName), []byte("rmacheck run directory\n"), 0o600)
}

func removeStaleRunDirs() {}

func environ(env []string) []string {
	if len(env) == 0 {
		return nil
	}
	return append(os.Environ(), env...)
}
