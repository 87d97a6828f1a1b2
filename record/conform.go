package record

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// ConformFormat is the version of the conformance records. Format 2 records the
// target as an object (conform.TargetInfo: kind, family, version, prefix, transport,
// launcher); format 1 named it by a word (mpich), with the library's version and the
// transport beside it, and is still read (readFormat1).
const ConformFormat = 2

// Conform is one test on one target under one semantics, as `conform --json` prints
// it, one a line: a run that gave a histogram, one that did not (skipped, stopped at
// its spin limit), and one that failed or was refused (Error says why).
type Conform struct {
	Format        int                `json:"format"`
	Test          string             `json:"test"`
	File          string             `json:"file"`
	Target        conform.TargetInfo `json:"target"`
	Preset        string             `json:"preset"`
	HW            spec.HW            `json:"hw"`
	Status        conform.Status     `json:"status"`
	Runs          int                `json:"runs"`
	Positive      int                `json:"positive"`
	Negative      int                `json:"negative"`
	Observation   string             `json:"observation"`
	Histogram     []Bin              `json:"histogram"`
	NonConforming int                `json:"nonconforming"`
	Unseen        []map[string]int64 `json:"unseen"`
	Rate          float64            `json:"rate"`
	Seed          int64              `json:"seed"`
	TimeS         float64            `json:"time_s"`
	Skipped       string             `json:"skipped,omitempty"`
	SpinLimit     string             `json:"spin_limit,omitempty"`
	// Placement (real-MPI targets): the launcher's command line and each rank's node.
	Placement *Placement `json:"placement,omitempty"`
	// Error (a failed or refused run): what went wrong, one line, without the test's
	// name; Output: the end of the program's output, when it helps.
	Error  string `json:"error,omitempty"`
	Output string `json:"output,omitempty"`
}

// Placement is where a real-MPI run's ranks ran.
type Placement struct {
	Launcher string   `json:"launcher"`
	Nodes    int      `json:"nodes,omitempty"`
	Hosts    []string `json:"hosts,omitempty"`
}

// Bin is one outcome of a histogram.
type Bin struct {
	Values  map[string]int64 `json:"values"`
	Count   int              `json:"count"`
	Allowed bool             `json:"allowed"`
}

// NewConform turns a conformance report into its record.
func NewConform(rep *conform.Report) Conform {
	p := rep.Model.Program
	j := Conform{Format: ConformFormat, Test: rep.Test.Name, File: rep.Test.File, Target: rep.Target, Preset: rep.Sem.Name,
		HW: rep.HW, Status: rep.Status(), Runs: rep.Runs, Positive: rep.Positive, Negative: rep.Negative, Observation: rep.Observation(),
		Histogram: []Bin{}, NonConforming: rep.NonConforming, Unseen: []map[string]int64{}, Rate: rep.Rate,
		Seed: rep.Seed, TimeS: rep.Elapsed.Seconds(), Skipped: rep.Skipped, SpinLimit: rep.SpinLimit}
	if pl := rep.Placement; pl != nil {
		j.Placement = &Placement{Launcher: pl.Launcher, Nodes: pl.Nodes, Hosts: pl.Hosts}
	}
	for _, b := range rep.Bins {
		j.Histogram = append(j.Histogram, Bin{Values: ValueMap(p, b.Values), Count: b.Count, Allowed: b.Allowed})
	}
	for _, u := range rep.Unseen {
		j.Unseen = append(j.Unseen, ValueMap(p, u))
	}
	return j
}

// FailedConform is the record of a run of t on target under sem, compared with hw,
// that gave no report: err says why (a *conform.RunError when the target could not
// run it, refused included).
func FailedConform(t *litmus.Test, sem spec.Semantics, target conform.TargetInfo, hw spec.HW, seed int64, err error) Conform {
	c := Conform{Format: ConformFormat, Test: t.Name, File: t.File, Target: target, Preset: sem.Name, HW: hw,
		Status: conform.ErrorStatus(err), Histogram: []Bin{}, Unseen: []map[string]int64{}, Seed: seed}
	var re *conform.RunError
	if errors.As(err, &re) {
		c.Error, c.Output = re.Summary(), strings.TrimRight(re.Output, "\n")
		return c
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	c.Error = strings.TrimPrefix(msg, t.Name+": ")
	return c
}

// Check refuses a record no conform run writes: another format version, negative
// numbers, counts that do not add up (a record of "format":99 with negative runs and
// an impossible outcome marked allowed printed "ok" in a report).
func (c Conform) Check() error {
	if c.Format != ConformFormat && c.Format != 1 {
		return fmt.Errorf("record of format %d: this rmacheck reads formats 1 and %d", c.Format, ConformFormat)
	}
	sum, forbidden := 0, 0
	for _, b := range c.Histogram {
		if b.Count <= 0 {
			return fmt.Errorf("test %s: an outcome seen %d times", c.Test, b.Count)
		}
		sum += b.Count
		if !b.Allowed {
			forbidden += b.Count
		}
	}
	switch {
	case c.Runs < 0 || c.Positive < 0 || c.Negative < 0 || c.NonConforming < 0:
		return fmt.Errorf("test %s: negative counts (runs %d, positive %d, negative %d, nonconforming %d)", c.Test, c.Runs, c.Positive, c.Negative, c.NonConforming)
	case sum > c.Runs:
		return fmt.Errorf("test %s: the histogram counts %d runs of %d", c.Test, sum, c.Runs)
	case c.Positive+c.Negative != sum:
		return fmt.Errorf("test %s: positive %d + negative %d is not the histogram's %d runs", c.Test, c.Positive, c.Negative, sum)
	case c.NonConforming != forbidden:
		return fmt.Errorf("test %s: nonconforming %d, but the histogram's forbidden outcomes count %d", c.Test, c.NonConforming, forbidden)
	}
	return nil
}

// ReadConform reads the records `rmacheck conform --json` writes, of either format.
func ReadConform(path string) ([]Conform, error) {
	recs, err := readLines[Conform](path)
	fillFormat1(recs)
	return recs, err
}

// MarshalJSON writes the record in the current format, whichever it was read from
// (Format says which).
func (c Conform) MarshalJSON() ([]byte, error) {
	type plain Conform // the fields, without this method
	p := plain(c)
	p.Format = ConformFormat
	return json.Marshal(p)
}

// UnmarshalJSON reads a record of format 2, or of format 1, whose target is a word
// (conform.ParseTargetName) with the library's version and the transport beside it,
// and the launcher only in the placement of a run that launched.
func (c *Conform) UnmarshalJSON(b []byte) error {
	type plain Conform // the fields, without this method
	var v struct {
		plain
		Target    json.RawMessage `json:"target"` // format 1: a word
		Library   string          `json:"library"`
		Transport string          `json:"transport"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Conform(v.plain)
	if c.Format != 1 {
		if len(v.Target) == 0 {
			return nil
		}
		return json.Unmarshal(v.Target, &c.Target)
	}
	if len(v.Target) == 0 {
		return nil
	}
	var word string
	if err := json.Unmarshal(v.Target, &word); err != nil {
		return fmt.Errorf("target: %v", err)
	}
	kind, fam, err := conform.ParseTargetName(word)
	if err != nil {
		return err
	}
	c.Target = conform.TargetInfo{Kind: kind, Family: fam, Version: v.Library, Transport: v.Transport}
	if c.Placement != nil {
		c.Target.Launcher = launcherOf(c.Placement.Launcher)
	}
	return nil
}

// launcherOf is a placement's launcher without its "-n N".
func launcherOf(placed string) string {
	if i := strings.LastIndex(placed, " -n "); i >= 0 {
		return placed[:i]
	}
	return placed
}

// fillFormat1 completes the targets of format-1 records, which named only some of it
// on each record: the records of a file are one conform run, so a record without the
// library's version (a failed run) or the launcher (a run that did not launch) takes
// them from another record of the file with the same target and transport. Where no
// record names the launcher, it is the Debian package's of the family: format 1
// named every install by its family, and its reports showed that launcher.
func fillFormat1(recs []Conform) {
	type key struct {
		name, transport string
	}
	known := map[key]conform.TargetInfo{}
	for _, c := range recs {
		if c.Format == 1 {
			k, ti := key{c.Target.Name(), c.Target.Transport}, known[key{c.Target.Name(), c.Target.Transport}]
			ti.Version, ti.Launcher = cmp.Or(ti.Version, c.Target.Version), cmp.Or(ti.Launcher, c.Target.Launcher)
			known[k] = ti
		}
	}
	for i := range recs {
		c := &recs[i]
		if c.Format != 1 || c.Target.Kind != conform.KindMPI {
			continue
		}
		ti := known[key{c.Target.Name(), c.Target.Transport}]
		c.Target.Version = cmp.Or(c.Target.Version, ti.Version)
		c.Target.Launcher = cmp.Or(c.Target.Launcher, ti.Launcher, conform.PackageLauncher(c.Target.Family, c.Target.Transport))
	}
}
