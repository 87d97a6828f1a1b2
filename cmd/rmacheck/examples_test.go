package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
)

// exampleIdioms are the idioms of examples/ (docs/tutorial.md#10-gates-for-eight-idioms): each
// correct program, its broken twin (a mistake users make), and the --fail-on gate a CI
// puts on the idiom, which the correct one passes and the twin fails.
var exampleIdioms = []struct{ correct, broken, gate string }{
	{"pc-lockall-sync", "pc-lockall-sync-broken", "race,sometimes"},
	{"pscw-ring", "pscw-ring-broken", "sometimes"},
	{"rget-wait", "rget-wait-broken", "erroneous"},
	{"vector-put", "vector-put-broken", "erroneous"},
	{"fop-counter-computed", "fop-counter-computed-broken", "erroneous,sometimes"},
	{"attach-put-detach", "attach-put-detach-broken", "erroneous"},
	{"wintest-poll", "wintest-poll-broken", "erroneous"},
	{"progress-sync-poll", "progress-sync-poll-broken", "may-hang"},
}

// TestExampleGates: run --fail-on GATE exits 0 on each correct idiom and 1 on its
// broken twin, naming the gate; every file of examples/ is one of them.
func TestExampleGates(t *testing.T) {
	t.Chdir(corpus.Root())
	var listed []string
	for _, ex := range exampleIdioms {
		correct, broken := filepath.Join("examples", ex.correct+".lit"), filepath.Join("examples", ex.broken+".lit")
		listed = append(listed, correct, broken)
		if code, stdout, stderr := runCLI("run", "--fail-on", ex.gate, correct); code != exitOK {
			t.Errorf("run --fail-on %s %s: exit %d, want 0\n%s%s", ex.gate, correct, code, stdout, stderr)
		}
		code, stdout, stderr := runCLI("run", "--fail-on", ex.gate, broken)
		if code != exitFailed || !strings.Contains(stderr, "rmacheck: --fail-on ") {
			t.Errorf("run --fail-on %s %s: exit %d, want 1 and the gate's message\n%s%s", ex.gate, broken, code, stdout, stderr)
		}
	}
	files, _ := filepath.Glob(filepath.Join("examples", "*.lit"))
	for _, f := range files {
		if !slices.Contains(listed, f) {
			t.Errorf("%s is no idiom of exampleIdioms: give it a twin and a gate", f)
		}
		if code, _, _ := runCLI("fmt", "-l", f); code != 0 {
			t.Errorf("%s is not in canonical form (rmacheck fmt -w)", f)
		}
	}
}
