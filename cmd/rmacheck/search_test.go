package main

import (
	"strings"
	"testing"
)

// TestMaxMemory: a search that would pass --max-memory stops with a message naming
// the test and the bound, and the status of a search stopped at --max-states (1); a
// size that is not one is a usage error (2).
func TestMaxMemory(t *testing.T) {
	code, _, stderr := runCLI("run", "--sem", "mpi-4.1", "--max-memory", "64K", "../../explorer/testdata/stress-4x4.lit")
	if code != exitFailed || !strings.Contains(stderr, "stress-4x4: stopped: its states would pass the memory bound (--max-memory 64K)") {
		t.Errorf("--max-memory 64K: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI("run", "--max-memory", "lots", "testdata/sb.lit")
	if code != exitBadInput || !strings.Contains(stderr, `--max-memory: "lots" is not a size`) {
		t.Errorf("--max-memory lots: exit %d, stderr:\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"diff", "--sem", "A", "--sem", "B", "--max-memory", "1M", "testdata/sb.lit"},
		{"replay", "testdata/sb.lit", "--outcome", "0:r0=0", "--max-memory", "1M"},
		{"distinguish", "--sem", "A", "--sem", "B", "--max-procs", "2", "--max-instrs", "2", "--max-memory", "1G"},
	} {
		if code, _, stderr := runCLI(args...); code == exitBadInput {
			t.Errorf("rmacheck %s: exit 2: %s", strings.Join(args, " "), stderr)
		}
	}
}

// TestJobsSameOutput: a search split among workers (-j 2: its large levels are
// expanded in parallel) prints what one worker prints, witnesses included.
func TestJobsSameOutput(t *testing.T) {
	args := []string{"run", "--sem", "mpi-4.1", "--show", "witness", "../../explorer/testdata/stress-4x4.lit"}
	_, one, _ := runCLI(append([]string{"-j", "1"}, args...)...)
	_, two, _ := runCLI(append([]string{"-j", "2"}, args...)...)
	if one == "" || maskTimes(one) != maskTimes(two) {
		t.Errorf("-j 2 prints otherwise than -j 1:\n%s\n----\n%s", one, two)
	}
}
