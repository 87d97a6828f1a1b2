package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/record"
)

// committedReports reads every committed reports/*/report.md, by path; the test
// skips when there is none.
func committedReports(t *testing.T) map[string][]byte {
	t.Helper()
	pages, _ := filepath.Glob("../reports/*/report.md")
	if len(pages) == 0 {
		t.Skip("no committed reports")
	}
	out := map[string][]byte{}
	for _, page := range pages {
		md, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		out[page] = md
	}
	return out
}

// TestCommittedReportsNameEveryNonConformingTest: each committed report's Findings
// name every NON-CONFORMING test of the conformance data beside it.
func TestCommittedReportsNameEveryNonConformingTest(t *testing.T) {
	for page, md := range committedReports(t) {
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
