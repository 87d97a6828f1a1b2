package main

// Helpers of the tests that run conform on an MPI library, on every platform the
// command builds for (the tests that use them may be Linux-only).

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/record"
)

// skipIfStarved skips a test whose MPI run timed out on a loaded machine (exit 3 and
// the message says so): CPU starvation, not a finding about the library or rmacheck.
func skipIfStarved(t *testing.T, code int, stderr string) {
	t.Helper()
	if code == exitCannotRun && strings.Contains(stderr, "on a loaded machine") {
		t.Skipf("CPU starvation, not a finding: %s", stderr)
	}
}

func needMPICH(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("mpiexec.mpich"); err != nil {
		t.Skip("MPICH is not installed")
	}
}

// conformRecords reads conform --json's records, one a line.
func conformRecords(t *testing.T, stdout string) []record.Conform {
	t.Helper()
	var recs []record.Conform
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r record.Conform
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		recs = append(recs, r)
	}
	return recs
}
