package explorer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
)

// TestAcceptance runs every expect line of ../shared/acceptance: each preset and hw
// model a file names must give the stated observation.
func TestAcceptance(t *testing.T) {
	known := corpus.Disagreements(t)
	for key, why := range known {
		t.Logf("known disagreement, skipped: %s: %s", key, why)
	}
	files := corpus.Acceptance(t)
	if len(files) == 0 {
		t.Skip("no acceptance files")
	}
	checked := 0
	for _, file := range files {
		lt, err := litmus.ParseFile(file)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, ex := range lt.Expects {
			hw := ex.HW
			for _, item := range ex.Items {
				sem, err := ex.Semantics(item) // the preset, with the line's switches
				if err != nil {
					t.Errorf("%s: %v", file, err)
					continue
				}
				key := strings.Join([]string{filepath.Base(file), sem.Name, hw.String()}, " ")
				if _, skip := known[key]; skip {
					continue
				}
				jr := explorer.Job{Test: lt, Sem: sem, HW: hw}.Run(explorer.Options{MaxStates: 1_000_000})
				checked++
				if jr.Err != nil {
					t.Errorf("%s: %s hw=%s: %v", file, sem.Name, hw, jr.Err)
					continue
				}
				if !jr.Result.Meets(item) {
					t.Errorf("%s: semantics %s, hw %s: expected %s, found %s", filepath.Base(file), sem.Name, hw,
						item.ObsString(), jr.Result.Verdict().ObsString())
				}
			}
		}
	}
	t.Logf("%d acceptance expectations checked, %d known disagreements skipped", checked, len(known))
}
