package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// TestSpinForeverMeansOneThingOnEveryTarget: a loop whose register changes on every
// pass and never exits (testdata/spin-forever.lit, LIVELOCK by the model) hung the
// reference runtime forever (issue 25 row 10). It now stops at the spin bound, as the C
// program does on a library: the same SPIN-LIMIT line and record status, and the same
// exit status on every target (0: the model says the test spins forever on any
// implementation, so the hang is no failure of the target).
func TestSpinForeverMeansOneThingOnEveryTarget(t *testing.T) {
	const file = "testdata/spin-forever.lit"
	targets := []string{conform.ReferenceName}
	if _, err := exec.LookPath("mpiexec.mpich"); err == nil {
		targets = append(targets, "mpich")
	}
	code, stdout, stderr := runCLI("conform", "--target", conform.ReferenceName, "--include-erroneous", "--runs", "3", "--json", file)
	var r record.Conform
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &r); err != nil || code != 0 || r.Status != conform.StatusSpinLimit {
		t.Errorf("--json: exit %d, status %v (%v); want 0 and %v\n%s", code, r.Status, err, conform.StatusSpinLimit, stderr)
	}
	// the library last: a starved MPICH run skips what is left (skipIfStarved)
	for _, target := range targets {
		code, stdout, stderr := runCLI("conform", "--target", target, "--include-erroneous", "--runs", "3", file)
		if target != conform.ReferenceName {
			skipIfStarved(t, code, stderr) // MPICH's busy-polling ranks on a busy 2-core host
		}
		if code != 0 || !strings.Contains(stdout, "SPIN-LIMIT P0 row 2: the loop did not exit after 67108864 iterations") ||
			!strings.Contains(stderr, "spins forever on any implementation") || !strings.Contains(stdout, "spins forever on any implementation") { // stdout says what stderr says
			t.Errorf("%s: exit %d; want 0 and the SPIN-LIMIT of P0 row 2:\n%s%s", target, code, stdout, stderr)
		}
	}
}
