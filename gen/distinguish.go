package gen

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// DistinguishOptions bound the search for tests on which two semantics differ.
type DistinguishOptions struct {
	X, Y      spec.Semantics
	HW        spec.HW
	MaxProcs  int // processes of a test (default 3)
	MaxInstrs int // instructions of a process, sync calls included (default 4)
	// Candidates replace the programs searched (default: Candidates(MaxProcs), with
	// Computed their computed-target variants too).
	Candidates []*litmus.Test
	// Computed adds the family's computed-target tests (gen --target computed).
	Computed bool
	// NoShrink reports the candidates as found; by default each distinguishing
	// candidate is shrunk (Shrink) to a smallest test with the same difference.
	NoShrink bool
	// Search bounds each search (MaxStates 0: 1,000,000).
	Search explorer.Options
	// Progress, when set, is called before each candidate: done of total, and its name.
	Progress func(done, total int, name string)
}

// Difference is a test on which the two semantics differ: the comparison of the
// two results (explorer.Diff, the one comparison diff and the reports use too),
// with the test's canonical text and the candidate it was shrunk from.
type Difference struct {
	*explorer.Diff
	Source []byte // canonical .lit text
	From   string // the candidate it was shrunk from ("" when not shrunk)
}

// Signature summarizes the difference: the two verdicts and which side has outcomes
// or rules of its own. Shrinking keeps it.
func (d *Difference) Signature() string {
	return fmt.Sprintf("%s|%s|%v|%v|%s|%s", d.A.Verdict(), d.B.Verdict(),
		len(d.OnlyX) > 0, len(d.OnlyY) > 0, ruleNames(d.FlagsX), ruleNames(d.FlagsY))
}

// ruleNames lists the rules of flags, each once (a rule may be raised at several places).
func ruleNames(flags []explorer.Flag) string {
	var ids []spec.RuleID
	for _, f := range flags {
		if !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	return strings.Join(spec.RuleNames(ids), ",")
}

// Class is the shape and synchronizations of the test's name (SHAPE+SYNCS, without
// flavor and locality), with the signature: the CLI shows one test per class.
func (d *Difference) Class() string {
	name := d.Test.Name
	if d.From != "" {
		name = d.From
	}
	parts := strings.Split(name, "+")
	if len(parts) > 2 {
		parts = parts[:len(parts)-2]
	}
	return strings.Join(parts, "+") + "|" + d.Signature()
}

// SmallSearch is search with the bound of the searches on generated programs, which
// are small (MaxStates 0: 1,000,000).
func SmallSearch(search explorer.Options) explorer.Options {
	if search.MaxStates == 0 {
		search.MaxStates = 1_000_000
	}
	return search
}

// Compare runs t under both semantics and returns the difference, or nil when they
// answer alike (the same outcomes and the same rules, rule by rule).
func Compare(t *litmus.Test, x, y spec.Semantics, hw spec.HW, search explorer.Options) (*Difference, error) {
	d, err := explorer.CompareSemantics(t, x, y, hw, SmallSearch(search))
	if err != nil || !d.Differs() {
		return nil, err
	}
	return &Difference{Diff: d}, nil
}

// Candidates are the programs distinguish searches, smallest first: the tests of
// the mixed family (every shape, sync, flavor and locality) with at most maxProcs
// processes.
func Candidates(maxProcs int, targets ...string) []*litmus.Test {
	fam, _ := Family(FamilyOptions{Mix: true, Targets: targets})
	var out []*litmus.Test
	for _, ft := range fam {
		if len(ft.Test.Procs) <= maxProcs {
			out = append(out, ft.Test)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return Size(out[i]) < Size(out[j]) })
	return out
}

// Distinguish searches the candidates, smallest first, for tests on which X and Y
// differ; each is shrunk (unless NoShrink) keeping its Signature, and kept when it
// fits MaxProcs and MaxInstrs. Tests with the same program are reported once. The
// result is sorted by size (instructions), then name. searched counts the candidates.
func Distinguish(opt DistinguishOptions) (diffs []*Difference, searched int, err error) {
	if opt.MaxProcs == 0 {
		opt.MaxProcs = 3
	}
	if opt.MaxInstrs == 0 {
		opt.MaxInstrs = 4
	}
	cands := opt.Candidates
	if cands == nil {
		cands = Candidates(opt.MaxProcs)
		if opt.Computed {
			cands = Candidates(opt.MaxProcs, Targets...)
		}
	}
	seen := map[string]bool{}
	names := map[string]bool{} // two shrunk programs may be named alike: their files must not be
	for i, t := range cands {
		if opt.Progress != nil {
			opt.Progress(i, len(cands), t.Name)
		}
		if len(t.Procs) > opt.MaxProcs {
			continue
		}
		searched++
		d, err := Compare(t, opt.X, opt.Y, opt.HW, opt.Search)
		if err != nil {
			return nil, searched, err
		}
		if d == nil {
			continue
		}
		if !opt.NoShrink {
			d = shrinkDifference(d, opt)
		}
		if len(d.Test.Procs) > opt.MaxProcs || Instrs(d.Test) > opt.MaxInstrs {
			continue
		}
		key := programKey(d.Test)
		if seen[key] {
			continue
		}
		seen[key] = true
		uniqueName(d.Test, names)
		d.Source = litmus.Format(d.Test)
		diffs = append(diffs, d)
	}
	sort.SliceStable(diffs, func(i, j int) bool {
		a, b := Size(diffs[i].Test), Size(diffs[j].Test)
		if a != b {
			return a < b
		}
		return diffs[i].Test.Name < diffs[j].Test.Name
	})
	return diffs, searched, nil
}

// uniqueName appends -2, -3, ... to t's name when an earlier test has it.
func uniqueName(t *litmus.Test, names map[string]bool) {
	base := t.Name
	for k := 2; names[t.Name]; k++ {
		t.Name = fmt.Sprintf("%s-%d", base, k)
	}
	names[t.Name] = true
}

// syncTokens names, as the family's test names do, the synchronization each call
// belongs to (lock_all and unlock_all frame the accesses of every shape: not named).
var syncTokens = map[litmus.Op]string{
	litmus.OpSync: "sync", litmus.OpFlush: "flush", litmus.OpFlushAll: "flush", litmus.OpLock: "lock",
	litmus.OpFence: "fence", litmus.OpPost: "pscw", litmus.OpStart: "pscw", litmus.OpComplete: "pscw",
	litmus.OpWait: "pscw", litmus.OpBarrier: "barrier", litmus.OpSend: "sendrecv", litmus.OpRecv: "sendrecv",
}

// shrunkName names a shrunk test after what it still does, as the family names its
// tests: the shape of the candidate it came from, the synchronization left in it
// (po when none: shrinking drops calls, and a name that kept +sync+flush after they
// were gone would mislead), the candidate's flavor and locality, and -min.
func shrunkName(from string, t *litmus.Test) string {
	parts := strings.Split(from, "+")
	var syncs []string
	for _, p := range t.Procs {
		for _, in := range p.Code {
			if in == nil {
				continue
			}
			if tok, ok := syncTokens[in.Op]; ok && !slices.Contains(syncs, tok) {
				syncs = append(syncs, tok)
			}
		}
	}
	if len(syncs) == 0 {
		syncs = []string{"po"}
	}
	name := parts[0] + "+" + strings.Join(syncs, "+")
	if len(parts) >= 3 {
		name += "+" + parts[len(parts)-2] + "+" + parts[len(parts)-1]
	}
	return name + "-min"
}

// shrinkDifference shrinks d's test while the difference keeps its signature.
func shrinkDifference(d *Difference, opt DistinguishOptions) *Difference {
	sig := d.Signature()
	var last *Difference
	small := Shrink(d.Test, func(t *litmus.Test) bool {
		nd, err := Compare(t, opt.X, opt.Y, opt.HW, opt.Search)
		if err != nil || nd == nil || nd.Signature() != sig {
			return false
		}
		last = nd
		return true
	}, 400)
	if small == d.Test || last == nil {
		return d
	}
	last.Test = small
	last.From = d.Test.Name
	small.Name = shrunkName(d.Test.Name, small)
	small.Doc = "Shrunk by rmacheck distinguish from " + d.Test.Name + ": the smallest program with the same difference."
	small.HasDoc = true
	small.Meta = []litmus.Meta{{Key: "From", Value: d.Test.Name}}
	// the results were computed on the parsed copy: same program, so same results
	return last
}
