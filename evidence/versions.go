package evidence

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// reproduces tells whether a record shows the finding: the kind of result the entry
// is about (NON-CONFORMING, a spin limit, a failed run) on one of its tests. A run that
// failed because the machine was loaded shows nothing (verdictOf).
func (e *UpstreamEntry) reproduces(r record.Conform) bool {
	if !slices.Contains(e.Tests, r.Test) || verdictOf(r) != finding {
		return false
	}
	switch e.Kind {
	case KindNonConforming:
		return r.Status == conform.StatusNonConforming
	case KindSpinLimit:
		return r.Status == conform.StatusSpinLimit
	case KindFailed:
		return r.Status == conform.StatusFailed
	}
	return false
}

// FindingVersion is what one build of the matrix says about a finding over one
// transport: the results of the finding's tests (or of its probe items), and whether
// one reproduced it.
type FindingVersion struct {
	Version, Transport string   // the library's name and version as it says them, and the transport
	Results            []string // "TEST: result", in the entry's order of tests; or the probe's count
	Reproduced         bool
	Verdict            bool // some result has a verdict (ok or a finding), not only skipped or refused runs
}

// FindingVersions are the builds of the finding's family that ran one of its tests
// (a column of the matrix each) or, for a probe finding, the probe (over shm), oldest
// version first (MatrixColumns' order).
func FindingVersions(e *UpstreamEntry, cols []MatrixColumn, probes []conform.Probe) []FindingVersion {
	if e.Kind == KindProbe {
		return probeVersions(e, probes)
	}
	var vs []FindingVersion
	for _, c := range cols {
		t := c[0].Target
		if t.Family != e.Target {
			continue
		}
		v := FindingVersion{Version: cmp.Or(t.Version, t.Name()), Transport: t.Transport}
		for _, test := range e.Tests {
			for _, r := range c {
				if r.Test == test {
					v.Results = append(v.Results, r.Test+": "+recordCell(r))
					v.Reproduced = v.Reproduced || e.reproduces(r)
					v.Verdict = v.Verdict || verdictOf(r) != noVerdict
				}
			}
		}
		if len(v.Results) > 0 {
			vs = append(vs, v)
		}
	}
	return vs
}

// probeVersions are the probes of the finding's family, oldest version first: each
// reproduces it when one of its results is the entry's item with its verdict
// (ForProbe's match).
func probeVersions(e *UpstreamEntry, probes []conform.Probe) []FindingVersion {
	var vs []FindingVersion
	for _, p := range probes {
		if p.Target != e.Target {
			continue
		}
		v := FindingVersion{Version: conform.LibraryLine(p.Library), Transport: "shm", Verdict: true}
		items, bad := 0, 0
		for _, r := range p.Results {
			if strings.HasPrefix(r.Item, e.ProbeItem) {
				items++
				if strings.Contains(r.Verdict, e.ProbeVerdict) {
					bad++
				}
			}
		}
		if items == 0 {
			continue
		}
		v.Reproduced = bad > 0
		v.Results = []string{fmt.Sprintf("probe: %d of %d %s... results %s", bad, items, e.ProbeItem, e.ProbeVerdict)}
		vs = append(vs, v)
	}
	slices.SortStableFunc(vs, func(x, y FindingVersion) int {
		return slices.Compare(versionNumbers(x.Version), versionNumbers(y.Version))
	})
	return vs
}

// FindingSpan is the releases of a finding in the matrix: the newest that reproduces
// it, the newest with a verdict, the first release after the newest reproducing one
// that has a verdict and does not reproduce it (where it was fixed), each "" when there
// is none, and the releases newer than all of those that have no verdict. A release
// reproduces it when any of its transports does; only the transports on which some
// release reproduced it count, so a shared-memory bug is not "fixed" by a release
// whose net runs are ok while its shm run gave no verdict.
type FindingSpan struct {
	NewestReproduced, Newest, FixedIn string
	NoVerdict                         []string
}

// SpanOf is the span of the finding over the versions (FindingVersions' order).
func SpanOf(vs []FindingVersion) FindingSpan {
	showing := map[string]bool{} // transports on which some release reproduced it
	for _, v := range vs {
		showing[v.Transport] = showing[v.Transport] || v.Reproduced
	}
	anyShows := slices.Contains(slices.Collect(maps.Values(showing)), true)
	var releases, all []string // with a verdict, and all, oldest first
	repro := map[string]bool{}
	for _, v := range vs {
		rel := v.Version
		if !slices.Contains(all, rel) {
			all = append(all, rel)
		}
		if !v.Verdict || anyShows && !showing[v.Transport] {
			continue
		}
		if !slices.Contains(releases, rel) {
			releases = append(releases, rel)
		}
		repro[rel] = repro[rel] || v.Reproduced
	}
	var s FindingSpan
	if len(releases) == 0 {
		s.NoVerdict = all
		return s
	}
	s.Newest = releases[len(releases)-1]
	for i, rel := range releases {
		if repro[rel] {
			s.NewestReproduced, s.FixedIn = rel, ""
			if i+1 < len(releases) {
				s.FixedIn = releases[i+1]
			}
		}
	}
	if later := all[slices.Index(all, s.Newest)+1:]; len(later) > 0 {
		s.NoVerdict = later
	}
	return s
}

// recordCell is one record's result in a Versions table.
func recordCell(r record.Conform) string {
	switch r.Status {
	case conform.StatusNonConforming:
		return fmt.Sprintf("NON-CONFORMING %d/%d", r.NonConforming, r.Runs)
	case conform.StatusOK:
		return fmt.Sprintf("ok %d/%d", r.Runs, r.Runs)
	case conform.StatusFailed:
		reason, _, _ := strings.Cut(r.Error, "; ") // without the hint of what to do
		switch {
		case verdictOf(r) == noVerdict:
			return "failed on a loaded machine (no verdict)"
		case timedOut(r):
			return "failed (a hang)"
		case strings.Contains(reason, ": "):
			return "failed (" + reason[strings.LastIndex(reason, ": ")+2:] + ")"
		}
		return "failed"
	}
	return r.Status.String()
}

// VersionsSection is a finding's Versions table in Markdown: a row for each build and
// transport of the matrix that ran one of its tests (or its probe), with each result
// and whether it reproduced the finding, then the newest release it reproduces on, or
// the first release where it stops and the upstream fix (the entry's fix) when known.
func VersionsSection(e *UpstreamEntry, cols []MatrixColumn, probes []conform.Probe) string {
	var b strings.Builder
	vs := FindingVersions(e, cols, probes)
	if len(vs) == 0 {
		what := strings.Join(e.Tests, ", ")
		if e.Kind == KindProbe {
			what = "the probe"
		}
		fmt.Fprintf(&b, "No build of %s in the matrix ran this finding's tests (%s).\n", e.Target.Name(), what)
		return b.String()
	}
	ran := "tests"
	if e.Kind == KindProbe {
		ran = "probe"
	}
	fmt.Fprintf(&b, "From the records of `make matrix-results` (reports/matrix), newest build first: every build and transport that ran the finding's %s; reproduced means %s.\n\n", ran, kindPhrases[e.Kind])
	b.WriteString("| build | transport | reproduced | results |\n|---|---|---|---|\n")
	newestFirst := slices.Clone(vs)
	slices.SortStableFunc(newestFirst, func(x, y FindingVersion) int {
		return slices.Compare(versionNumbers(y.Version), versionNumbers(x.Version))
	})
	for _, v := range newestFirst {
		repro := "no"
		switch {
		case v.Reproduced:
			repro = "**yes**"
		case !v.Verdict:
			repro = "no verdict"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", titleEscape(v.Version), cmp.Or(v.Transport, "-"), repro, mdEscape(strings.Join(v.Results, "; ")))
	}
	b.WriteString("\n" + spanSentence(e, SpanOf(vs)) + "\n")
	return b.String()
}

// kindPhrases say what result reproduces a finding of each kind.
var kindPhrases = [...]string{KindNonConforming: "a NON-CONFORMING result on one of them", KindSpinLimit: "a spin limit on one of them",
	KindFailed: "a failed run (a crash, or a hang: a run that did not finish) on one of them", KindProbe: "a probe result with the finding's verdict"}

// spanSentence says the newest release the finding reproduces on, or the first where
// it stops.
func spanSentence(e *UpstreamEntry, s FindingSpan) string {
	fix := ""
	if e.Fix != nil {
		fix = fmt.Sprintf(", by [%s](%s)", e.Fix.Text, e.Fix.URL)
	}
	later := ""
	if len(s.NoVerdict) > 0 {
		later = fmt.Sprintf(" Newer releases in the matrix gave no verdict on it (skipped, or failed on a loaded machine): %s.", strings.Join(s.NoVerdict, ", "))
	}
	switch {
	case s.NewestReproduced == "":
		return fmt.Sprintf("**Not reproduced** on any build in the matrix (newest with a verdict: %s).%s", cmp.Or(s.Newest, "none"), later)
	case s.FixedIn == "":
		return fmt.Sprintf("**Reproduces on %s, the newest release in the matrix with a verdict on it.**%s", s.NewestReproduced, later)
	}
	return fmt.Sprintf("**Fixed in %s**%s: the first release in the matrix where it stops; the newest it reproduces on is %s.%s", s.FixedIn, fix, s.NewestReproduced, later)
}

// versionsRE finds the generated Versions blocks of a Markdown file: between
// `<!-- versions of ID -->` and `<!-- end of versions -->`, hand-written text around them
// kept.
var versionsRE = regexp.MustCompile(`(?s)(<!-- versions of ([a-z0-9-]+)[^>]*-->\n).*?(<!-- end of versions -->)`)

// FillVersions rewrites each generated Versions block of a draft from the matrix's
// records and probes, the finding named by its marker; a marker that names no finding
// is an error.
func (u *Upstream) FillVersions(draft []byte, cols []MatrixColumn, probes []conform.Probe) ([]byte, error) {
	var err error
	out := versionsRE.ReplaceAllFunc(draft, func(m []byte) []byte {
		sub := versionsRE.FindSubmatch(m)
		id := string(sub[2])
		i := slices.IndexFunc(u.Findings, func(e UpstreamEntry) bool { return e.ID == id })
		if i < 0 {
			err = cmp.Or(err, fmt.Errorf("versions of %s: no finding has that id in the status file", id))
			return m
		}
		return slices.Concat(sub[1], []byte("\n"+VersionsSection(&u.Findings[i], cols, probes)+"\n"), sub[3])
	})
	return out, err
}

// HasVersions tells whether a Markdown file has a generated Versions block.
func HasVersions(draft []byte) bool { return bytes.Contains(draft, []byte("<!-- versions of ")) }
