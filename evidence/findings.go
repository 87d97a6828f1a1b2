package evidence

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

// Findings are what a report says first, each computed from its data: how each pair
// of readings differs, what each conformance target did that the model does not
// allow (or could not be run), and what each probe found against MPI-4.0/4.1.
type Findings struct {
	Pairs   []PairFinding
	Targets []TargetFinding
	Probes  []ProbeFinding
}

// PairFinding is one pair of semantics.
type PairFinding struct {
	X, Y     spec.Semantics
	Tests    []string  // the report's tests that tell them apart (hw relaxed)
	Smallest *Smallest // the smallest generated distinguishing test (nil: not searched)
}

// TargetFinding is one conformance target.
type TargetFinding struct {
	Target   conform.TargetInfo
	Name     string
	Records  int // conformance records
	Ran      int // runs with a histogram
	Statuses map[conform.Status]int
	NonConf  []NonConfFinding
	Spins    []ResultFinding // SPIN-LIMIT
	Failures []ResultFinding // no histogram: time-out, crash, error
	Refused  []string        // tests not run (more ranks than cores)
}

// NonConfFinding is a test on which a target showed an outcome the model forbids.
type NonConfFinding struct {
	Test     string
	Runs     []record.Conform // the records with forbidden outcomes
	Outcomes []string         // the forbidden outcomes seen
	// Forbid: the semantics whose model forbids them (hw: HW); Allow: those whose
	// model allows them, among the records of the test.
	Forbid, Allow []string
	HW            spec.HW
	Min, Max      int // forbidden runs per record
	RunsEach      int // runs per record (the largest)
	Upstream      *UpstreamEntry
}

// ResultFinding is a test whose runs on a target ended in a spin limit or failed.
type ResultFinding struct {
	Test     string
	Presets  []string
	Message  string
	Upstream *UpstreamEntry
	// Hangs: for a spin limit, what the model makes of the runs under weak_progress
	// on and off (conform.HangOf), each reading once, in the order met.
	Hangs []conform.Hang
}

// ProbeFinding is one probe's violations, grouped.
type ProbeFinding struct {
	Probe  *Probe
	Groups []ProbeGroup
}

// ProbeGroup is the results of one call with one verdict.
type ProbeGroup struct {
	Topic, Call, Verdict string
	Items                []string // "size=1 rank=1: address % 64 = 1"
	Versions             []string // the MPI versions the verdict says are violated
	Claimed              bool     // some of them the library claims to implement
	Upstream             *UpstreamEntry
}

// Findings are the report's findings (computed by Build).
func (r *Report) Findings() *Findings {
	if r.findings == nil {
		r.findings = r.computeFindings()
	}
	return r.findings
}

func (r *Report) computeFindings() *Findings {
	f := &Findings{}
	for i := range r.Sems {
		for j := i + 1; j < len(r.Sems); j++ {
			pf := PairFinding{X: r.Sems[i], Y: r.Sems[j]}
			for _, tr := range r.Tests {
				for _, d := range tr.Distinctions {
					if d.SemA.Name == pf.X.Name && d.SemB.Name == pf.Y.Name {
						pf.Tests = append(pf.Tests, tr.Test.Name)
					}
				}
			}
			for _, s := range r.Smallest {
				if s.X.Name == pf.X.Name && s.Y.Name == pf.Y.Name {
					pf.Smallest = s
				}
			}
			f.Pairs = append(f.Pairs, pf)
		}
	}
	for _, target := range r.targets() {
		f.Targets = append(f.Targets, r.targetFinding(target))
	}
	for i := range r.Probes {
		f.Probes = append(f.Probes, r.probeFinding(&r.Probes[i]))
	}
	return f
}

func (r *Report) targetFinding(target conform.TargetInfo) TargetFinding {
	tf := TargetFinding{Target: target, Name: targetName(target), Statuses: map[conform.Status]int{}}
	for _, tr := range r.Tests {
		var nc NonConfFinding
		spins := map[string]*ResultFinding{}
		var spinOrder []string
		for _, c := range tr.Conform {
			if c.Target != target {
				continue
			}
			tf.Records++
			st := c.Status
			tf.Statuses[st]++
			if st == conform.StatusOK || st == conform.StatusNonConforming {
				tf.Ran++
			}
			switch st {
			case conform.StatusSpinLimit:
				rf := spins[c.SpinLimit]
				if rf == nil {
					rf = &ResultFinding{Test: tr.Test.Name, Message: c.SpinLimit, Upstream: r.Upstream.ForTest(target.Family, KindSpinLimit, tr.Test.Name)}
					spins[c.SpinLimit] = rf
					spinOrder = append(spinOrder, c.SpinLimit)
				}
				rf.Presets = append(rf.Presets, c.Preset)
				if h, ok := tr.Hangs[ResultKey{c.Preset, c.HW}]; ok && !slices.Contains(rf.Hangs, h) {
					rf.Hangs = append(rf.Hangs, h)
				}
			case conform.StatusNonConforming:
				nc.Runs = append(nc.Runs, c)
				nc.HW = c.HW
			}
		}
		for _, k := range spinOrder {
			tf.Spins = append(tf.Spins, *spins[k])
		}
		if len(nc.Runs) > 0 {
			nc.Test = tr.Test.Name
			nc.Upstream = r.Upstream.ForTest(target.Family, KindNonConforming, tr.Test.Name)
			nc.Min = nc.Runs[0].NonConforming
			for _, c := range nc.Runs {
				nc.Min, nc.Max = min(nc.Min, c.NonConforming), max(nc.Max, c.NonConforming)
				nc.RunsEach = max(nc.RunsEach, c.Runs)
				for _, h := range c.Histogram {
					if v := valuesText(h.Values); !h.Allowed && !slices.Contains(nc.Outcomes, v) {
						nc.Outcomes = append(nc.Outcomes, v)
					}
				}
			}
			// which semantics forbid and which allow the outcomes seen
			for _, c := range tr.Conform {
				if c.Target != target || c.Skipped != "" || c.SpinLimit != "" {
					continue
				}
				res := tr.Results[ResultKey{c.Preset, c.HW}]
				if res == nil {
					continue
				}
				allowed := map[string]bool{}
				for _, o := range res.Outcomes {
					allowed[valuesText(record.ValueMap(res.Program, o.Values))] = true
				}
				forbids := false
				for _, o := range nc.Outcomes {
					if !allowed[o] {
						forbids = true
					}
				}
				if forbids && !slices.Contains(nc.Forbid, c.Preset) {
					nc.Forbid = append(nc.Forbid, c.Preset)
				} else if !forbids && !slices.Contains(nc.Allow, c.Preset) {
					nc.Allow = append(nc.Allow, c.Preset)
				}
			}
			tf.NonConf = append(tf.NonConf, nc)
		}
		fails := map[string]*ResultFinding{}
		var failOrder []string
		for _, e := range tr.Errors {
			if e.Target != target {
				continue
			}
			tf.Records++
			tf.Statuses[e.Status]++
			if e.Status == conform.StatusRefused {
				if !slices.Contains(tf.Refused, tr.Test.Name) {
					tf.Refused = append(tf.Refused, tr.Test.Name)
				}
				continue
			}
			msg := e.Error
			rf := fails[msg]
			if rf == nil {
				rf = &ResultFinding{Test: tr.Test.Name, Message: msg, Upstream: r.Upstream.ForTest(target.Family, KindFailed, tr.Test.Name)}
				fails[msg] = rf
				failOrder = append(failOrder, msg)
			}
			rf.Presets = append(rf.Presets, e.Preset)
		}
		for _, k := range failOrder {
			tf.Failures = append(tf.Failures, *fails[k])
		}
	}
	return tf
}

func (r *Report) probeFinding(pr *Probe) ProbeFinding {
	pf := ProbeFinding{Probe: pr}
	index := map[string]int{}
	for _, res := range pr.Results {
		if !strings.Contains(res.Verdict, "VIOLATES") {
			continue
		}
		verdict, _, _ := strings.Cut(res.Verdict, " (the library implements")
		call, rest, _ := strings.Cut(res.Item, " ")
		key := res.Topic + "\x00" + call + "\x00" + verdict
		k, ok := index[key]
		if !ok {
			k = len(pf.Groups)
			index[key] = k
			g := ProbeGroup{Topic: res.Topic, Call: call, Verdict: verdict, Versions: violatedVersions(verdict)}
			for _, v := range g.Versions {
				if versionAtMost(v, pr.Version) {
					g.Claimed = true
				}
			}
			g.Upstream = r.Upstream.ForProbe(pr.Target, res.Item, verdict)
			pf.Groups = append(pf.Groups, g)
		}
		item := res.Value
		if rest != "" {
			item = rest + ": " + res.Value
		}
		pf.Groups[k].Items = append(pf.Groups[k].Items, item)
	}
	// the ones against a version the library claims first
	sort.SliceStable(pf.Groups, func(i, j int) bool { return pf.Groups[i].Claimed && !pf.Groups[j].Claimed })
	return pf
}

// violatedVersions are the versions a probe verdict names: "VIOLATES MPI-4.0 and
// MPI-4.1 (...)" -> 4.0, 4.1.
func violatedVersions(verdict string) []string {
	var out []string
	_, verdict, _ = strings.Cut(verdict, "VIOLATES")
	verdict, _, _ = strings.Cut(verdict, "(")
	for _, f := range strings.FieldsFunc(verdict, func(r rune) bool { return r == ' ' || r == ';' || r == ':' || r == ',' || r == '(' || r == ')' }) {
		if v, ok := strings.CutPrefix(f, "MPI-"); ok && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// versionAtMost compares "4.0" <= "4.1" numerically.
func versionAtMost(v, claimed string) bool {
	parse := func(s string) (int, int) {
		a, b, _ := strings.Cut(s, ".")
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x, y
	}
	va, vb := parse(v)
	ca, cb := parse(claimed)
	return va < ca || va == ca && vb <= cb
}

// NonConformingTests lists the tests with a NON-CONFORMING record in conformance
// data, target by target (what the Findings must name).
func NonConformingTests(recs []record.Conform) map[conform.TargetInfo][]string {
	out := map[conform.TargetInfo][]string{}
	for _, c := range recs {
		if c.NonConforming > 0 && !slices.Contains(out[c.Target], c.Test) {
			out[c.Target] = append(out[c.Target], c.Test)
		}
	}
	return out
}

// rangeText is "8" or "2-25".
func rangeText(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// percent is a share of runs, to two significant figures.
func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	p := 100 * float64(n) / float64(of)
	switch {
	case p >= 10:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 1:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.2f%%", p)
}

// listProse joins items, at most n, with "and k more".
func listProse(items []Prose, n int) Prose {
	if len(items) <= n {
		return Join(items, ", ")
	}
	return P(Join(items[:n], ", "), Pf(" and %d more", len(items)-n))
}
