package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/record"
)

// TestCommittedReportsNameEveryNonConformingTest: each committed report's Findings
// name every NON-CONFORMING test of the conformance data beside it.
func TestCommittedReportsNameEveryNonConformingTest(t *testing.T) {
	pages, _ := filepath.Glob("../reports/*/report.md")
	if len(pages) == 0 {
		t.Skip("no committed reports")
	}
	for _, page := range pages {
		md, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		var recs []record.Conform
		for _, target := range []string{"reference", "mpich", "openmpi"} {
			path := filepath.Join(filepath.Dir(page), target+".json")
			if _, err := os.Stat(path); err != nil {
				continue
			}
			rs, err := record.ReadConform(path)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rs...)
		}
		checkFindingsName(t, page, string(md), recs)
		if !strings.Contains(string(md), "\n## Findings\n") {
			t.Errorf("%s does not open with Findings", page)
		}
	}
}
