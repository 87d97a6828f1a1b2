package evidence

import (
	"regexp"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

var (
	testAnchorDefined = regexp.MustCompile(`<a id="(t-[^"]+)"></a>`)
	testAnchorLinked  = regexp.MustCompile(`\]\(#(t-[^)]+)\)`)
	generatedTest     = regexp.MustCompile("`[^` ]+-min(-[0-9]+)?`")
)

// checkScope fails when a report's Markdown names a test outside its question's
// tests: a link to a test the report does not hold, or a generated test
// (rmacheck distinguish's NAME-min) when the report did not ask for them.
func checkScope(t *testing.T, name, md string, distinguish bool) {
	t.Helper()
	defined := map[string]bool{}
	for _, m := range testAnchorDefined.FindAllStringSubmatch(md, -1) {
		defined[m[1]] = true
	}
	for _, m := range testAnchorLinked.FindAllStringSubmatch(md, -1) {
		if !defined[m[1]] {
			t.Errorf("%s links #%s, a test it does not hold", name, m[1])
		}
	}
	if !distinguish {
		if g := generatedTest.FindString(md); g != "" {
			t.Errorf("%s names the generated test %s, outside its question (no --distinguish)", name, g)
		}
		if strings.Contains(md, "## Smallest distinguishing tests") {
			t.Errorf("%s has a section of generated tests, outside its question (no --distinguish)", name)
		}
	}
}

// A report without generated tests names only its own tests; with them, the
// generated tests are named (so the check above can fail).
func TestReportScope(t *testing.T) {
	withSmallest := smallReport(t)
	md := string(withSmallest.Markdown())
	checkScope(t, "small report with --distinguish", md, true)
	if !strings.Contains(md, "## Smallest distinguishing tests") {
		t.Fatal("the small report with generated tests lacks them: the scope check tests nothing")
	}
	r := &Report{Title: "A vs B", Command: "rmacheck report testdata --out x", Version: "test", Date: "2026-12-01",
		Sems: withSmallest.Sems, HWs: withSmallest.HWs}
	if err := build(r, parseTests(t, "testdata/mp-post-start.lit", "testdata/sb.lit")); err != nil {
		t.Fatal(err)
	}
	checkScope(t, "small report", string(r.Markdown()), false)
}

// Each committed report names only its own tests, and generated ones only when the
// command that produced it asked for them.
func TestCommittedReportsStayInScope(t *testing.T) {
	for page, md := range committedReports(t) {
		produced := string(md[strings.LastIndex(string(md), "Produced by"):])
		checkScope(t, page, string(md), strings.Contains(produced, " --distinguish"))
	}
}

// MP+sync's race is RACE under mpi-4.1 and U3 under A, on the same accesses: the
// report does not count the pair as told apart, in its Findings or its summary.
func TestReportDoesNotCountRenamings(t *testing.T) {
	a, m41 := preset(t, "A"), preset(t, "mpi-4.1")
	r := &Report{Title: "renaming", Command: "rmacheck report", Version: "test", Date: "2026-12-01",
		Sems: []spec.Semantics{a, m41}, HWs: []spec.HW{spec.Relaxed}}
	if err := build(r, parseTests(t, "../litmus/ticket435/MP+sync.lit")); err != nil {
		t.Fatal(err)
	}
	tr := r.Tests[0]
	if va, vb := tr.Results[ResultKey{"A", spec.Relaxed}].Verdict(), tr.Results[ResultKey{"mpi-4.1", spec.Relaxed}].Verdict(); va.String() == vb.String() {
		t.Fatalf("A %v and mpi-4.1 %v name the race alike: the case tests nothing", va, vb)
	}
	if len(tr.Distinctions) != 0 {
		t.Errorf("the renaming counted as a difference: %d distinctions", len(tr.Distinctions))
	}
	md := string(r.Markdown())
	if strings.Contains(md, "tells them apart") || strings.Contains(md, "| 1/1 |") {
		t.Errorf("the report counts the renaming as a difference:\n%s", md)
	}
}
