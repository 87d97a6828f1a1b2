package evidence

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/litmus"
)

// Upstream is what is known upstream about each library finding (reports/upstream/
// status.json): the research of reports/upstream/README.md as data, so a report can
// say next to each finding whether its maintainers know it. It is the one hand-kept
// input of the Findings besides the question; every entry names its sources.
type Upstream struct {
	Read     string          `json:"read"` // when the sources were read
	Setups   []UpstreamSetup `json:"setups"`
	Findings []UpstreamEntry `json:"findings"`
}

// UpstreamSetup says how a target was run, where that matters for its results (the
// Open MPI osc component, say).
type UpstreamSetup struct {
	Target conform.Family `json:"target"`
	Text   string         `json:"text"`
	Link   string         `json:"link,omitempty"`
}

// UpstreamEntry is one library finding and its status upstream. It matches a
// finding of the report's data by target and either test (with the kind of result:
// nonconforming, spin-limit, failed) or probe item (a prefix of the item and a part
// of the verdict).
type UpstreamEntry struct {
	ID     string         `json:"id"`
	Target conform.Family `json:"target"`
	Kind   UpstreamKind   `json:"kind"`
	// Cause: what in the library the finding comes from, in a few words; a report
	// says it first, so that a finding about window allocation met in the polling
	// report is not read as a polling bug.
	Cause string   `json:"cause,omitempty"`
	Tests []string `json:"tests,omitempty"`
	// Probe: the item prefix ("MPI_Win_allocate size=") and a part of the verdict
	// ("VIOLATES MPI-4.0 alignment") of the probe results it covers.
	ProbeItem    string `json:"probe_item,omitempty"`
	ProbeVerdict string `json:"probe_verdict,omitempty"`
	// Breaks: the rule of the standard the finding breaks, with its node, or why it
	// breaks none.
	Breaks string `json:"breaks"`
	// Allowed: the standard allows the behaviour (so it is no bug, and no draft).
	Allowed bool          `json:"allowed,omitempty"`
	Status  string        `json:"status"`          // known, fixed in..., not found (with the queries' date)
	Links   []UpstreamRef `json:"links,omitempty"` // upstream issues and pull requests
	// Fix: the upstream change that fixed it, named in a draft's Versions table beside
	// the first release of the matrix where the finding stops.
	Fix *UpstreamRef `json:"fix,omitempty"`
	// FixedIn: the first release with the fix ("MPICH 4.0.3", as the library names
	// itself), from upstream's history; conform calls a result on an older release of
	// the family known, and one on this release or later not (a regression is news).
	FixedIn string `json:"fixed_in,omitempty"`
	Draft   string `json:"draft,omitempty"` // reports/upstream/NAME.md, relative to reports/
	Details string `json:"details,omitempty"`
	Note    string `json:"note,omitempty"`
}

// UpstreamKind is what an upstream entry is about: a kind of conformance result
// (nonconforming, spin-limit, failed, as status.json spells them) or a probe result.
type UpstreamKind uint8

const (
	KindNonConforming UpstreamKind = iota
	KindSpinLimit
	KindFailed
	KindProbe
)

var upstreamKinds = [...]string{KindNonConforming: "nonconforming", KindSpinLimit: "spin-limit", KindFailed: "failed", KindProbe: "probe"}

func (k UpstreamKind) String() string { return upstreamKinds[k] }

// UnmarshalText reads a kind of status.json.
func (k *UpstreamKind) UnmarshalText(b []byte) error {
	i := slices.Index(upstreamKinds[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown kind %q (%s)", b, strings.Join(upstreamKinds[:], ", "))
	}
	*k = UpstreamKind(i)
	return nil
}

// UpstreamRef is a link with its text (pmodels/mpich#6140).
type UpstreamRef struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// ReadUpstream reads and checks a status file.
func ReadUpstream(path string) (*Upstream, error) {
	data, err := litmus.ReadFile(path, litmus.MaxFileSize) // /dev/zero was read until memory ran out
	if err != nil {
		return nil, err
	}
	return ParseUpstream(path, data)
}

// ParseUpstream reads and checks the contents of a status file (path names it in
// errors).
func ParseUpstream(path string, data []byte) (*Upstream, error) {
	var u Upstream
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for i, e := range u.Findings {
		switch {
		case e.ID == "" || e.Target == conform.NoFamily || e.Status == "" || e.Breaks == "":
			return nil, fmt.Errorf("%s: finding %d: id, target, status and breaks are required", path, i+1)
		case e.Kind == KindProbe && e.ProbeItem == "":
			return nil, fmt.Errorf("%s: finding %s: a probe finding needs probe_item", path, e.ID)
		case e.Kind != KindProbe && len(e.Tests) == 0:
			return nil, fmt.Errorf("%s: finding %s: a %s finding needs tests", path, e.ID, e.Kind)
		}
	}
	return &u, nil
}

// ForTest is the entry about a test's result of a kind on a target, or nil.
func (u *Upstream) ForTest(target conform.Family, kind UpstreamKind, test string) *UpstreamEntry {
	if u == nil {
		return nil
	}
	for i := range u.Findings {
		e := &u.Findings[i]
		if e.Target != target || e.Kind != kind {
			continue
		}
		for _, t := range e.Tests {
			if t == test {
				return e
			}
		}
	}
	return nil
}

// ForProbe is the entry about a probe result of a target, or nil.
func (u *Upstream) ForProbe(target conform.Family, item, verdict string) *UpstreamEntry {
	if u == nil {
		return nil
	}
	for i := range u.Findings {
		e := &u.Findings[i]
		if e.Target == target && e.Kind == KindProbe && strings.HasPrefix(item, e.ProbeItem) && strings.Contains(verdict, e.ProbeVerdict) {
			return e
		}
	}
	return nil
}

// Known is the recorded finding that a result of a kind on a target is, or nil: an
// entry of the target's family whose tests include the test, on a release before the
// entry's fix (FixedIn), or on any release when the fix is not known; a target that
// does not say its version matches too (its note says where the fix is).
func (u *Upstream) Known(target conform.TargetInfo, kind UpstreamKind, test string) *UpstreamEntry {
	e := u.ForTest(target.Family, kind, test)
	if e == nil || e.FixedIn == "" || target.Version == "" {
		return e
	}
	if slices.Compare(versionNumbers(target.Version), versionNumbers(e.FixedIn)) >= 0 {
		return nil
	}
	return e
}

// KnownNote is what conform says beside a result that is this finding: "known:" and
// the finding's upstream issue (its first link) or its draft, with the release that
// fixed it, or that it is not fixed.
func (e *UpstreamEntry) KnownNote() string {
	name := e.ID
	switch {
	case len(e.Links) > 0:
		name = e.Links[0].Text
	case e.Draft != "":
		name += " (draft " + path.Join("reports/upstream", path.Base(e.Draft)) + ")"
	}
	if e.FixedIn != "" {
		return "known: " + name + ", fixed in " + e.FixedIn
	}
	return "known: " + name + ", no fix released"
}

// Setup is how a target was run, or "".
func (u *Upstream) Setup(target conform.Family) *UpstreamSetup {
	if u == nil {
		return nil
	}
	for i := range u.Setups {
		if u.Setups[i].Target == target {
			return &u.Setups[i]
		}
	}
	return nil
}
