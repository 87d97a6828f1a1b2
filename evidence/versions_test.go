package evidence

import (
	"fmt"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// TestFindingSpan: per kind of finding, the newest release that reproduces it, or the
// first release after it that has a verdict and does not; a release reproduces it on
// any transport; skipped runs and runs failed on a loaded machine are no verdict, a
// test of another family or outside the finding's tests is ignored.
func TestFindingSpan(t *testing.T) {
	const nc, ok, skip, failed, spin = conform.StatusNonConforming, conform.StatusOK, conform.StatusSkipped, conform.StatusFailed, conform.StatusSpinLimit
	m, o := conform.MPICH, conform.OpenMPI
	const hang, loaded = "the run did not finish within 30s", "the run did not finish within 30s on a loaded machine"
	rec := func(fam conform.Family, v, tr, test string, st conform.Status, msg string) record.Conform {
		bad := 0
		if st == nc {
			bad = 3
		}
		return matrixRecord(fam, v, tr, "t/"+test+".lit", st, 100, bad, msg)
	}
	tests := []struct {
		name string
		kind UpstreamKind
		recs []record.Conform
		want FindingSpan
	}{
		{"fixed, newer versions ok", KindNonConforming, []record.Conform{
			rec(m, "MPICH 4.0.2", "shm", "a", nc, ""), rec(m, "MPICH 4.0.10", "shm", "a", ok, ""), rec(m, "MPICH 4.0.3", "shm", "a", ok, ""),
		}, FindingSpan{NewestReproduced: "MPICH 4.0.2", Newest: "MPICH 4.0.10", FixedIn: "MPICH 4.0.3"}},
		{"still on the newest, over one transport only", KindNonConforming, []record.Conform{
			rec(m, "MPICH 4.0.2", "shm", "a", nc, ""), rec(m, "MPICH 5.0.2", "net", "a", ok, ""), rec(m, "MPICH 5.0.2", "shm", "b", nc, ""),
		}, FindingSpan{NewestReproduced: "MPICH 5.0.2", Newest: "MPICH 5.0.2"}},
		{"a skipped newest release is no fix", KindNonConforming, []record.Conform{
			rec(m, "MPICH 4.0.2", "shm", "a", nc, ""), rec(m, "MPICH 5.0.2", "shm", "a", skip, ""),
		}, FindingSpan{NewestReproduced: "MPICH 4.0.2", Newest: "MPICH 4.0.2", NoVerdict: []string{"MPICH 5.0.2"}}},
		{"a hang is the failed finding, a loaded machine no verdict, ok over another transport no fix", KindFailed, []record.Conform{
			rec(o, "Open MPI 4.1.4", "shm", "a", failed, hang), rec(o, "Open MPI 4.1.4", "net", "a", ok, ""),
			rec(o, "Open MPI 5.0.11", "shm", "a", failed, loaded), rec(o, "Open MPI 5.0.11", "net", "a", ok, ""),
		}, FindingSpan{NewestReproduced: "Open MPI 4.1.4", Newest: "Open MPI 4.1.4", NoVerdict: []string{"Open MPI 5.0.11"}}},
		{"a crash stops over the transport it showed on", KindFailed, []record.Conform{
			rec(o, "Open MPI 4.1.8", "shm", "a", failed, "exit status 139"), rec(o, "Open MPI 4.1.8", "net", "a", ok, ""),
			rec(o, "Open MPI 5.0.11", "shm", "a", ok, ""),
		}, FindingSpan{NewestReproduced: "Open MPI 4.1.8", Newest: "Open MPI 5.0.11", FixedIn: "Open MPI 5.0.11"}},
		{"another kind of result does not reproduce it", KindSpinLimit, []record.Conform{
			rec(m, "MPICH 4.0.2", "shm", "a", nc, ""), rec(m, "MPICH 4.1.3", "shm", "a", spin, ""), rec(m, "MPICH 4.2.3", "shm", "a", ok, ""),
		}, FindingSpan{NewestReproduced: "MPICH 4.1.3", Newest: "MPICH 4.2.3", FixedIn: "MPICH 4.2.3"}},
		{"other families and tests are ignored", KindNonConforming, []record.Conform{
			rec(o, "Open MPI 5.0.11", "shm", "a", nc, ""), rec(m, "MPICH 4.0.2", "shm", "c", nc, ""), rec(m, "MPICH 4.0.2", "shm", "a", ok, ""),
		}, FindingSpan{Newest: "MPICH 4.0.2"}},
		{"never run", KindNonConforming, []record.Conform{rec(m, "MPICH 4.0.2", "shm", "c", nc, "")}, FindingSpan{}},
		{"only skipped", KindNonConforming, []record.Conform{rec(m, "MPICH 4.0.2", "net", "a", skip, "")}, FindingSpan{NoVerdict: []string{"MPICH 4.0.2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &UpstreamEntry{ID: "f", Target: conform.MPICH, Kind: tt.kind, Tests: []string{"a", "b"}}
			if tt.kind == KindFailed {
				e.Target = conform.OpenMPI
			}
			got := SpanOf(FindingVersions(e, MatrixColumns(tt.recs), nil))
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("span (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFillVersions: a draft's generated block is rewritten from the matrix, newest
// build first, with the fix beside the first release where the finding stops; the
// hand-written text around it is kept, and rewriting again changes nothing.
func TestFillVersions(t *testing.T) {
	fix := &UpstreamRef{Text: "pmodels/mpich#6140", URL: "https://github.com/pmodels/mpich/pull/6140"}
	u := &Upstream{Findings: []UpstreamEntry{{ID: "put", Target: conform.MPICH, Kind: KindNonConforming, Tests: []string{"a"}, Fix: fix}}}
	cols := MatrixColumns([]record.Conform{
		matrixRecord(conform.MPICH, "MPICH 4.0.2", "shm", "t/a.lit", conform.StatusNonConforming, 200, 200, ""),
		matrixRecord(conform.MPICH, "MPICH 4.0.2", "net", "t/a.lit", conform.StatusOK, 50, 0, ""),
		matrixRecord(conform.MPICH, "MPICH 4.0.3", "shm", "t/a.lit", conform.StatusOK, 200, 0, ""),
	})
	draft := "# D\n\n## Versions\n\n<!-- versions of put: rmacheck report --matrix --upstream -->\nold\n<!-- end of versions -->\n\nSource: read.\n"
	got, err := u.FillVersions([]byte(draft), cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| MPICH 4.0.3 | shm | no | a: ok 200/200 |\n| MPICH 4.0.2 | shm | **yes** | a: NON-CONFORMING 200/200 |\n| MPICH 4.0.2 | net | no | a: ok 50/50 |",
		"**Fixed in MPICH 4.0.3**, by [pmodels/mpich#6140](https://github.com/pmodels/mpich/pull/6140): the first release in the matrix where it stops; the newest it reproduces on is MPICH 4.0.2.",
		"<!-- end of versions -->\n\nSource: read.\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the draft lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "old") {
		t.Errorf("the old block is kept:\n%s", got)
	}
	again, err := u.FillVersions(got, cols, nil)
	if err != nil || string(again) != string(got) {
		t.Errorf("a second fill changes the draft (err %v):\n%s", err, again)
	}
	if _, err := u.FillVersions([]byte("<!-- versions of nope -->\n<!-- end of versions -->"), cols, nil); err == nil {
		t.Error("a block naming no finding is accepted")
	}
}

// TestProbeVersions: a probe finding's versions are the probes of its family, oldest
// first by the version the library says, each reproducing it when one of its items
// has the finding's verdict; its span is that of a test finding.
func TestProbeVersions(t *testing.T) {
	probe := func(fam conform.Family, library string, verdicts ...string) conform.Probe {
		p := conform.Probe{Target: fam, Library: library}
		for i, v := range verdicts {
			p.Results = append(p.Results, conform.ProbeResult{Topic: "alignment", Item: fmt.Sprintf("MPI_Win_allocate size=%d rank=1", i), Verdict: v})
		}
		p.Results = append(p.Results, conform.ProbeResult{Topic: "alignment", Item: "MPI_Alloc_mem size=1", Verdict: "VIOLATES MPI-4.0 alignment"})
		return p
	}
	const bad = "VIOLATES MPI-4.0 alignment (16 bytes)"
	e := &UpstreamEntry{ID: "align", Target: conform.MPICH, Kind: KindProbe, ProbeItem: "MPI_Win_allocate size=", ProbeVerdict: "VIOLATES MPI-4.0 alignment"}
	tests := []struct {
		name   string
		probes []conform.Probe
		want   []FindingVersion
		span   FindingSpan
	}{
		{"still on the newest", []conform.Probe{probe(conform.MPICH, "MPICH Version:\t5.0.2", bad, "ok"), probe(conform.OpenMPI, "Open MPI v5.0.11", bad),
			probe(conform.MPICH, "MPICH Version:      4.0.10", bad, bad)}, []FindingVersion{
			{Version: "MPICH 4.0.10", Transport: "shm", Results: []string{"probe: 2 of 2 MPI_Win_allocate size=... results VIOLATES MPI-4.0 alignment"}, Reproduced: true, Verdict: true},
			{Version: "MPICH 5.0.2", Transport: "shm", Results: []string{"probe: 1 of 2 MPI_Win_allocate size=... results VIOLATES MPI-4.0 alignment"}, Reproduced: true, Verdict: true},
		}, FindingSpan{NewestReproduced: "MPICH 5.0.2", Newest: "MPICH 5.0.2"}},
		{"fixed", []conform.Probe{probe(conform.MPICH, "MPICH Version:\t5.0.2", "ok"), probe(conform.MPICH, "MPICH Version:\t4.0.2", bad)}, []FindingVersion{
			{Version: "MPICH 4.0.2", Transport: "shm", Results: []string{"probe: 1 of 1 MPI_Win_allocate size=... results VIOLATES MPI-4.0 alignment"}, Reproduced: true, Verdict: true},
			{Version: "MPICH 5.0.2", Transport: "shm", Results: []string{"probe: 0 of 1 MPI_Win_allocate size=... results VIOLATES MPI-4.0 alignment"}, Verdict: true},
		}, FindingSpan{NewestReproduced: "MPICH 4.0.2", Newest: "MPICH 5.0.2", FixedIn: "MPICH 5.0.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FindingVersions(e, nil, tt.probes)
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
			if diff := gocmp.Diff(tt.span, SpanOf(got)); diff != "" {
				t.Errorf("span (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKnown: a result is a recorded finding on its family and tests, of its kind, on a
// release before the fix (or any release when no fix is recorded, or when the target
// does not say its version); the note names the upstream issue, else the draft.
func TestKnown(t *testing.T) {
	u := &Upstream{Findings: []UpstreamEntry{
		{ID: "put", Target: conform.MPICH, Kind: KindNonConforming, Tests: []string{"MP+put+fence"}, FixedIn: "MPICH 4.0.3",
			Links: []UpstreamRef{{Text: "pmodels/mpich#6140"}}},
		{ID: "sync", Target: conform.MPICH, Kind: KindNonConforming, Tests: []string{"SB+sync"}, Draft: "../upstream/sync.md"},
	}}
	mpich := func(v string) conform.TargetInfo {
		return conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: v}
	}
	tests := []struct {
		target conform.TargetInfo
		kind   UpstreamKind
		test   string
		want   string
	}{
		{mpich("MPICH 4.0.2"), KindNonConforming, "MP+put+fence", "known: pmodels/mpich#6140, fixed in MPICH 4.0.3"},
		{mpich("MPICH 4.0.10"), KindNonConforming, "MP+put+fence", ""},
		{mpich("MPICH 4.0.3"), KindNonConforming, "MP+put+fence", ""},
		{mpich(""), KindNonConforming, "MP+put+fence", "known: pmodels/mpich#6140, fixed in MPICH 4.0.3"},
		{mpich("MPICH 4.0.2"), KindFailed, "MP+put+fence", ""},
		{conform.TargetInfo{Kind: conform.KindMPI, Family: conform.OpenMPI, Version: "Open MPI 4.1.4"}, KindNonConforming, "MP+put+fence", ""},
		{mpich("MPICH 5.0.2"), KindNonConforming, "SB+sync", "known: sync (draft reports/upstream/sync.md), no fix released"},
		{mpich("MPICH 5.0.2"), KindNonConforming, "SB", ""},
	}
	for _, tt := range tests {
		got := ""
		if e := u.Known(tt.target, tt.kind, tt.test); e != nil {
			got = e.KnownNote()
		}
		if got != tt.want {
			t.Errorf("Known(%q, %s, %s) = %q, want %q", tt.target.Version, tt.kind, tt.test, got, tt.want)
		}
	}
	if (*Upstream)(nil).Known(mpich("MPICH 4.0.2"), KindNonConforming, "MP+put+fence") != nil {
		t.Error("no findings know a result")
	}
}
