package conform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTool writes an executable shell script named name into dir.
func fakeTool(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLauncherVersionIsBounded (issue 38 rows 3 and 4): an mpiexec whose --version never
// answers, or prints without end, is an error within a bound, not a hang or an
// out-of-memory death.
func TestLauncherVersionIsBounded(t *testing.T) {
	saved := toolTimeout
	toolTimeout = 2 * time.Second
	defer func() { toolTimeout = saved }()
	dir := t.TempDir()
	mpicc := fakeTool(t, dir, "mpicc", "exit 0")
	for _, c := range []struct{ name, body, want string }{
		{"silent", "exec sleep 3600", "--version"},
		{"endless", "exec yes 'Version: 4.0.2 and on and on'", "--version"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mpiexec := fakeTool(t, dir, "mpiexec-"+c.name, c.body)
			done := make(chan error, 1)
			go func() { _, err := libraryOf(mpicc, mpiexec); done <- err }()
			err := <-done // the clock bounds it; a hang here is the defect
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("libraryOf: %v; want an error about %s", err, c.want)
			}
			if len(err.Error()) > 4096 {
				t.Errorf("the error holds %d bytes of the tool's output", len(err.Error()))
			}
		})
	}
}
