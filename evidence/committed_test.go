package evidence

import (
	"os"
	"path/filepath"
	"slices"
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

// TestCommittedFixedInAgreesWithMatrix: the release status.json says fixed a finding
// (fixed_in, what conform's "known" note rests on) is after every release the
// committed matrix reproduces it on, and no later than the first release where the
// matrix sees it stop: the hand-kept range and the measured one do not drift apart.
func TestCommittedFixedInAgreesWithMatrix(t *testing.T) {
	u, err := ReadUpstream("../reports/upstream/status.json")
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob("../reports/matrix/*.json")
	var recs []record.Conform
	for _, p := range paths {
		if strings.HasSuffix(p, "builds.json") || strings.HasSuffix(p, "-probe.json") {
			continue
		}
		more, err := record.ReadConform(p)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, more...)
	}
	if len(recs) == 0 {
		t.Skip("no committed matrix")
	}
	cols := MatrixColumns(recs)
	for i := range u.Findings {
		e := &u.Findings[i]
		if e.FixedIn == "" || e.Kind == KindProbe {
			continue
		}
		s := SpanOf(FindingVersions(e, cols, nil))
		fixed := versionNumbers(e.FixedIn)
		if s.NewestReproduced != "" && slices.Compare(versionNumbers(s.NewestReproduced), fixed) >= 0 {
			t.Errorf("%s: fixed_in %s, but the matrix reproduces it on %s", e.ID, e.FixedIn, s.NewestReproduced)
		}
		if s.FixedIn != "" && slices.Compare(versionNumbers(s.FixedIn), fixed) < 0 {
			t.Errorf("%s: fixed_in %s, but the matrix sees it stop earlier, in %s", e.ID, e.FixedIn, s.FixedIn)
		}
	}
}
