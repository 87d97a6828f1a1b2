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
	// Flags are the rules raised by some execution ending in this outcome.
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
	for _, f := range r.Flags {
		switch f.Class {
		case spec.ClassErroneous:
			v.Erroneous = append(v.Erroneous, f.Rule)
		case spec.ClassRace:
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
	diag  model.Diagnostic
	pair  bool
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
	for idx := root; idx < e.seen.count; idx++ {
		cur := model.State(e.seen.state(idx)) // stored states never move: no copy needed
		if e.unfound > 0 {
			e.checkConflicts(idx, cur)
		}
		n := 0
		var limitErr error
		p.Successors(cur, scratch, !e.opt.NoReduce, func(st model.Step, next model.State) {
			n++
			e.trans++
			child, isNew := e.seen.insert(next, idx, st.Encode())
			if e.unfound > 0 {
				if m, cands := p.SpeculationPairs(cur, st); m != 0 {
					e.noteSpeculationPairs(idx, st, m, cands)
				}
			}
			if !isNew {
				return
			}
			if f := p.Flags(next) &^ p.Flags(cur); f != 0 {
				e.noteFlags(cur, st, child, f)
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
		if _, ok := e.flagAt[d.Rule]; !ok {
			e.flagAt[d.Rule] = flagSite{state: idx, diag: d}
		}
	}
	vals := p.OutcomeValues(s)
	if !p.Keep(vals) {
		return
	}
	key := model.KeyOf(vals)
	if k, ok := e.outcomes[key]; ok {
		e.outs[k].flags |= flags
		return
	}
	e.outcomes[key] = len(e.outs)
	e.outs = append(e.outs, outcomeAcc{values: vals, flags: flags, witness: idx})
}

func (e *search) noteStaticFlags(root int) {
	for _, d := range e.p.Static {
		if _, ok := e.flagAt[d.Rule]; !ok {
			e.flagAt[d.Rule] = flagSite{state: root, diag: d}
		}
	}
}

// noteFlags records the first place each newly raised rule was raised, with the
// step's own description of it (re-applied with a record: the search itself keeps none).
func (e *search) noteFlags(parent model.State, st model.Step, child int, f uint32) {
	var rec model.Record
	tmp := parent.Clone()
	e.p.Apply(tmp, st, &rec)
	for _, rule := range spec.FlagRules(f) {
		if _, ok := e.flagAt[rule]; ok {
			continue
		}
		site := flagSite{state: child, diag: model.Diagnostic{Rule: rule, Class: spec.ClassErroneous, Message: rule}}
		for _, d := range rec.Raised {
			if d.Rule == rule {
				site.diag = d
				break
			}
		}
		e.flagAt[rule] = site
	}
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
		if _, ok := e.flagAt[d.Rule]; !ok {
			e.flagAt[d.Rule] = flagSite{state: idx, then: []model.Step{st}, diag: d, pair: true}
		}
	}
}

// checkConflicts records the candidate pairs that are concurrent in state idx; the
// first pair found for a rule gives its message and witness (the path to idx).
func (e *search) checkConflicts(idx int, s model.State) {
	e.p.Conflicts(s, e.conflictFound, func(ci int, d model.Diagnostic) {
		e.conflictFound[ci] = true
		e.unfound--
		if _, ok := e.flagAt[d.Rule]; !ok {
			e.flagAt[d.Rule] = flagSite{state: idx, diag: d, pair: true}
		}
	})
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
	for _, o := range e.outs {
		out := Outcome{Values: o.values, Flags: spec.FlagRules(o.flags), Sat: e.p.Sat(o.values), Witness: e.trace(o.witness)}
		if out.Sat {
			r.Positive++
		} else {
			r.Negative++
		}
		r.Outcomes = append(r.Outcomes, out)
	}
	sort.Slice(r.Outcomes, func(i, j int) bool { return slices.Compare(r.Outcomes[i].Values, r.Outcomes[j].Values) < 0 })
	r.Observation = litmus.ObsOf(r.Positive, r.Negative)
	for _, rl := range spec.Rules { // catalogue order
		site, ok := e.flagAt[rl.ID]
		if !ok {
			continue
		}
		d := site.diag
		d.Trace = append(e.trace(site.state), site.then...)
		r.Flags = append(r.Flags, Flag{Diagnostic: d, Pair: site.pair})
	}
	return r
}
