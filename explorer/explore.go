// Package explorer runs every execution of a compiled program (an exhaustive
// search of the model's state graph) and reports what is allowed: the final
// outcomes, the observation of the test's condition, the rules broken, and a
// witness trace for each outcome and each rule.
package explorer

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Options bound a search.
type Options struct {
	// MaxStates stops the search with ErrStateLimit once this many states are
	// stored (0: no bound).
	MaxStates int
	// NoReduce turns off the partial-order reduction (model.Program.Successors):
	// the plain search visits every interleaving.
	NoReduce bool
	// NoConflicts turns off the conflict and race checks (for measuring their cost).
	NoConflicts bool
	// ABI: the alignments E-ALIGN checks, for Job.Run's compile (zero: x86-64).
	ABI model.ABI
}

// ErrStateLimit is returned when a search reaches Options.MaxStates.
type ErrStateLimit struct {
	Test  string
	Limit int
}

func (e *ErrStateLimit) Error() string {
	return fmt.Sprintf("%s: stopped after %d states (--max-states %d): the result would be incomplete, so none is given; raise --max-states or shrink the test",
		e.Test, e.Limit, e.Limit)
}

// Outcome is one final result: the values of the outcome items (Program.Out).
type Outcome struct {
	Values []int64
	// Flags are the rules the executions ending in this outcome broke: an outcome
	// of erroneous executions is listed apart from the same values of clean ones
	// (Flags nil), after them.
	Flags []string
	// Sat: the outcome satisfies the condition (before the quantifier).
	Sat bool
	// Witness is an execution that ends in this outcome.
	Witness []model.Step
}

// Flag is a rule broken by some execution: its diagnostic, with the shortest
// execution found that breaks it.
type Flag struct {
	model.Diagnostic
	// Pair: found by the conflict and race checks (two accesses concurrent in some
	// reachable state), not raised by a step; not marked on outcomes.
	Pair bool
	// Program is the program the trace replays on, when it is not the result's
	// (the pair checks of a tso or sc search come from the relaxed model).
	Program *model.Program
}

// Result is what a search found.
type Result struct {
	Program     *model.Program
	States      int
	Transitions int
	Finals      int // terminal states
	Redundant   int // terminal states dropped: a blocked spin loop would exit there (SEMANTICS.md §2)
	Outcomes    []Outcome
	Positive    int
	Negative    int
	Observation litmus.Obs // Never, Sometimes or Always (of the condition, over the outcomes kept by the filter)
	Flags       []Flag
	Time        time.Duration
	StoreBytes  int // memory held by the visited set
}

// Erroneous reports whether some execution breaks an erroneous-class rule.
func (r *Result) Erroneous() bool {
	for _, f := range r.Flags {
		if f.Class == spec.ClassErroneous {
			return true
		}
	}
	return false
}

// TraceProgram is the program a flag's trace replays on.
func (r *Result) TraceProgram(f *Flag) *model.Program {
	if f.Program != nil {
		return f.Program
	}
	return r.Program
}

// HasFlag reports whether some execution raised rule.
func (r *Result) HasFlag(rule string) bool {
	for _, f := range r.Flags {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// Verdict is the answer of the search: the observation, and the erroneous- and
// race-class rules some execution raises, in catalogue order.
func (r *Result) Verdict() litmus.Verdict {
	v := litmus.Verdict{Obs: r.Observation}
	for _, f := range r.Flags { // in catalogue order, several flags of a rule together
		switch {
		case f.Class == spec.ClassErroneous && !slices.Contains(v.Erroneous, f.Rule):
			v.Erroneous = append(v.Erroneous, f.Rule)
		case f.Class == spec.ClassRace && !slices.Contains(v.Race, f.Rule):
			v.Race = append(v.Race, f.Rule)
		}
	}
	return v
}

// Meets reports whether an expectation holds for this result (litmus.ExpectItem.Met).
func (r *Result) Meets(e litmus.ExpectItem) bool { return e.Met(r.Verdict()) }

// Explore runs every execution of p.
func Explore(p *model.Program, opt Options) (*Result, error) {
	start := time.Now()
	e := &search{p: p, opt: opt, seen: newVisited(p.StateSize()), outcomes: map[model.OutcomeKey]int{}, flagAt: map[string]flagSite{}}
	if err := e.run(); err != nil {
		return nil, err
	}
	r := e.result()
	r.Time = time.Since(start)
	return r, nil
}

// flagSite is where a rule was first raised: its diagnostic and the state its trace ends in.
type flagSite struct {
	state int
	then  []model.Step // steps after state that end the witness
	marks []int        // indexes in then of the steps that are the accesses
	// speculated: a pair made real by a speculative load's commit (the last step);
	// its read, earlier in the trace, is marked too.
	speculated bool
	diag       model.Diagnostic
	pair       bool
}

type search struct {
	p      *model.Program
	opt    Options
	seen   *visited
	trans  int
	finals int
	// redundant counts the executions dropped because a blocked spin loop would
	// exit on their final memory (SEMANTICS.md §2).
	redundant int
	outcomes  map[model.OutcomeKey]int // index into outs
	outs      []outcomeAcc
	flagAt    map[string]flagSite
	// conflictFound marks the candidate pairs (model.Program.Candidates) already
	// found concurrent; unfound counts the others, so checks stop once all are found.
	conflictFound []bool
	unfound       int
}

type outcomeAcc struct {
	values  []int64
	flags   uint32
	witness int // terminal state
}

func (e *search) run() error {
	p := e.p
	init := p.Initial()
	root, _ := e.seen.insert(init, -1, 0)
	e.noteStaticFlags(root)
	// Breadth-first: states are numbered in the order they are found, so the next
	// state to expand is simply the next index, and every witness (the parent links
	// back to the root) is a shortest execution reaching its state.
	e.conflictFound = make([]bool, len(p.Candidates))
	e.unfound = len(p.Candidates)
	if e.opt.NoConflicts {
		e.unfound = 0
	}
	scratch := make(model.State, p.StateSize())
	rec := &model.Record{Light: true, Sites: make([]model.RaiseSite, 0, 8)}
	for idx := root; idx < e.seen.count; idx++ {
		cur := model.State(e.seen.state(idx)) // stored states never move: no copy needed
		if e.unfound > 0 {
			e.checkConflicts(idx, cur)
		}
		n := 0
		var limitErr error
		p.Successors(cur, scratch, !e.opt.NoReduce, rec, func(st model.Step, next model.State) {
			n++
			e.trans++
			_, isNew := e.seen.insert(next, idx, st.Encode())
			if e.unfound > 0 {
				if m, cands := p.SpeculationPairs(cur, st); m != 0 {
					e.noteSpeculationPairs(idx, st, m, cands)
				}
			}
			for _, site := range rec.Sites {
				e.noteRaised(idx, cur, st, site)
			}
			if !isNew {
				return
			}
			if e.opt.MaxStates > 0 && e.seen.count >= e.opt.MaxStates && limitErr == nil {
				limitErr = &ErrStateLimit{Test: p.Test.Name, Limit: e.opt.MaxStates}
			}
		})
		if limitErr != nil {
			return limitErr
		}
		if n == 0 {
			e.final(idx, cur)
		}
	}
	return nil
}

// final records a terminal state: its outcome, with the rules its ending raises
// (DEADLOCK, LIVELOCK, E-EPOCH-END). A redundant ending (a blocked spin loop that
// would exit now, SEMANTICS.md §2) has no outcome.
func (e *search) final(idx int, s model.State) {
	e.finals++
	p := e.p
	end := p.End(s)
	if end == model.Redundant {
		e.redundant++
		return
	}
	flags := p.Flags(s)
	for _, d := range p.EndDiagnostics(s, end) {
		flags |= spec.FlagBit(d.Rule)
		e.add(d, flagSite{state: idx})
	}
	vals := p.OutcomeValues(s)
	if !p.Keep(vals) {
		return
	}
	// An erroneous execution's outcome is listed apart from a clean one's with the
	// same values (SEMANTICS.md §5: its outcomes are listed, marked).
	key := model.KeyOf(vals)
	if flags != 0 {
		key += "!"
	}
	if k, ok := e.outcomes[key]; ok {
		e.outs[k].flags |= flags
		return
	}
	e.outcomes[key] = len(e.outs)
	e.outs = append(e.outs, outcomeAcc{values: vals, flags: flags, witness: idx})
}

func (e *search) noteStaticFlags(root int) {
	for _, d := range e.p.Static {
		e.add(d, flagSite{state: root})
	}
}

// noteRaised records a rule a step raised at an instruction, the first time that
// (rule, instruction) is raised: the step is re-applied with a full record for the
// diagnostic's message (the search keeps none), and the witness ends with it.
func (e *search) noteRaised(idx int, cur model.State, st model.Step, site model.RaiseSite) {
	key := fmt.Sprintf("%s|%d.%d|", site.Rule, site.Proc, site.Row)
	if _, ok := e.flagAt[key]; ok {
		return
	}
	var rec model.Record
	e.p.Apply(cur.Clone(), st, &rec)
	d := model.Diagnostic{Rule: site.Rule, Class: spec.ClassErroneous, Message: site.Rule, At: model.Site{Proc: site.Proc, Row: site.Row}}
	for _, r := range rec.Raised {
		if r.Rule == site.Rule && r.At.Proc == site.Proc && r.At.Row == site.Row {
			d = r
			break
		}
	}
	e.flagAt[key] = flagSite{state: idx, then: []model.Step{st}, marks: []int{0}, diag: d}
}

// noteSpeculationPairs records the pairs a speculative load's commit makes real: they
// were concurrent at its read, and its guard holds (model.SpeculationPairs). The
// witness is the path to the committing state and the commit itself.
func (e *search) noteSpeculationPairs(idx int, st model.Step, mask uint64, cands []int) {
	for m := mask; m != 0; m &= m - 1 {
		ci := cands[bits.TrailingZeros64(m)]
		if e.conflictFound[ci] {
			continue
		}
		e.conflictFound[ci] = true
		e.unfound--
		d := e.p.CandidateDiagnostic(ci)
		e.add(d, flagSite{state: idx, then: []model.Step{st}, marks: []int{0}, speculated: true, pair: true})
	}
}

// checkConflicts records the candidate pairs that are concurrent in state idx, each
// with its witness: the path to idx, then the two accesses themselves.
func (e *search) checkConflicts(idx int, s model.State) {
	e.p.Conflicts(s, e.conflictFound, func(ci int, d model.Diagnostic) {
		e.conflictFound[ci] = true
		e.unfound--
		then, marks := e.p.PairSteps(s, ci)
		e.add(d, flagSite{state: idx, then: then, marks: marks, pair: true})
	})
}

// add records a diagnostic the first time it is found (by rule and sites).
func (e *search) add(d model.Diagnostic, site flagSite) {
	key := fmt.Sprintf("%s|%d.%d|%v", d.Rule, d.At.Proc, d.At.Row, d.Related)
	if len(d.Related) == 0 {
		key = fmt.Sprintf("%s|%d.%d|", d.Rule, d.At.Proc, d.At.Row)
	}
	if _, ok := e.flagAt[key]; !ok {
		site.diag = d
		e.flagAt[key] = site
	}
}

// trace walks the parent links from the initial state to state idx.
func (e *search) trace(idx int) []model.Step {
	var steps []model.Step
	for idx > 0 {
		steps = append(steps, model.DecodeStep(e.seen.step(idx)))
		idx = e.seen.parent(idx)
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return steps
}

func (e *search) result() *Result {
	r := &Result{Program: e.p, States: e.seen.count, Transitions: e.trans, Finals: e.finals, Redundant: e.redundant, StoreBytes: e.seen.bytes()}
	counted := map[model.OutcomeKey]bool{} // Positive and Negative count distinct values
	for _, o := range e.outs {
		out := Outcome{Values: o.values, Flags: spec.FlagRules(o.flags), Sat: e.p.Sat(o.values), Witness: e.trace(o.witness)}
		if k := model.KeyOf(o.values); !counted[k] {
			counted[k] = true
			if out.Sat {
				r.Positive++
			} else {
				r.Negative++
			}
		}
		r.Outcomes = append(r.Outcomes, out)
	}
	// clean outcomes first, then those of erroneous executions, each by value
	sort.Slice(r.Outcomes, func(i, j int) bool {
		a, b := r.Outcomes[i], r.Outcomes[j]
		if (len(a.Flags) > 0) != (len(b.Flags) > 0) {
			return len(a.Flags) == 0
		}
		return slices.Compare(a.Values, b.Values) < 0
	})
	r.Observation = litmus.ObsOf(r.Positive, r.Negative)
	for _, site := range e.flagAt {
		d := site.diag
		d.Trace = append(e.trace(site.state), site.then...)
		base := len(d.Trace) - len(site.then)
		for _, m := range site.marks {
			d.Marks = append(d.Marks, base+m)
		}
		if site.speculated {
			commit := d.Trace[len(d.Trace)-1]
			for i, st := range d.Trace[:len(d.Trace)-1] {
				if st == commit {
					d.Marks = append([]int{i}, d.Marks...) // the speculative read
					break
				}
			}
		}
		r.Flags = append(r.Flags, Flag{Diagnostic: d, Pair: site.pair})
	}
	sortFlags(r.Flags)
	return r
}

// sortFlags orders flags by the catalogue, then by where they are (process, row, the
// related sites), so that every run lists them alike.
func sortFlags(flags []Flag) {
	order := map[string]int{}
	for i, rl := range spec.Rules {
		order[rl.ID] = i
	}
	sort.SliceStable(flags, func(i, j int) bool {
		a, b := &flags[i], &flags[j]
		if order[a.Rule] != order[b.Rule] {
			return order[a.Rule] < order[b.Rule]
		}
		as, bs := a.Sites(), b.Sites()
		for k := 0; k < len(as) && k < len(bs); k++ {
			if as[k].Proc != bs[k].Proc {
				return as[k].Proc < bs[k].Proc
			}
			if as[k].Row != bs[k].Row {
				return as[k].Row < bs[k].Row
			}
		}
		return len(as) < len(bs)
	})
}
