// Package explorer runs every execution of a compiled program (an exhaustive
// search of the model's state graph) and reports what is allowed: the final
// outcomes, the observation of the test's condition, the rules broken, and a
// witness trace for each outcome and each rule.
package explorer

import (
	"fmt"
	"slices"
	"strings"
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

// Flag is a rule broken by some execution, with the first execution found that breaks it.
type Flag struct {
	Rule    string
	Class   spec.Class
	Message string
	Procs   []int
	Rows    []int
	Trace   []model.Step
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

// ObservationString is the verdict as .lit expect lines spell it: Never, Sometimes,
// Always, or Erroneous(R1,R2) listing the erroneous-class rules raised.
func (r *Result) ObservationString() string {
	var rules []string
	for _, f := range r.Flags {
		if f.Class == spec.ClassErroneous {
			rules = append(rules, f.Rule)
		}
	}
	if len(rules) > 0 {
		return "Erroneous(" + strings.Join(rules, ",") + ")"
	}
	return obsName(r.Observation)
}

func obsName(o litmus.Obs) string {
	switch o {
	case litmus.ObsAlways:
		return "Always"
	case litmus.ObsSometimes:
		return "Sometimes"
	}
	return "Never"
}

// Meets reports whether an expectation holds for this result (SEMANTICS.md §5):
// Erroneous(RULE) when some execution raises RULE; Erroneous when some execution
// raises an erroneous-class rule; Always/Sometimes/Never when that is the
// observation and no execution raises an erroneous-class rule.
func (r *Result) Meets(e litmus.ExpectItem) bool {
	if e.Obs == litmus.ObsErroneous {
		if e.Rule != "" {
			return r.HasFlag(e.Rule)
		}
		return r.Erroneous()
	}
	return !r.Erroneous() && r.Observation == e.Obs
}

// Explore runs every execution of p.
func Explore(p *model.Program, opt Options) (*Result, error) {
	start := time.Now()
	e := &search{p: p, opt: opt, seen: newVisited(p.StateSize()), outcomes: map[string]int{}, flagAt: map[string]flagSite{}}
	e.cond = compileCond(p, p.Test.Cond)
	if p.Test.Filter != nil {
		e.filter = compileCond(p, p.Test.Filter)
	}
	if err := e.run(); err != nil {
		return nil, err
	}
	r := e.result()
	r.Time = time.Since(start)
	return r, nil
}

type flagSite struct {
	state int // the state the rule was first raised in
	msg   string
	procs []int
	rows  []int
	pair  bool
}

type search struct {
	p        *model.Program
	opt      Options
	seen     *visited
	trans    int
	finals   int
	outcomes map[string]int // key: values; index into outs
	outs     []outcomeAcc
	flagAt   map[string]flagSite
	cond     func([]int64) bool
	filter   func([]int64) bool
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

// final records a terminal state: its outcome, and DEADLOCK if a process is stuck.
func (e *search) final(idx int, s model.State) {
	e.finals++
	p := e.p
	flags := p.Flags(s)
	if !p.Finished(s) {
		flags |= flagBitOf("DEADLOCK")
		if _, ok := e.flagAt["DEADLOCK"]; !ok {
			e.flagAt["DEADLOCK"] = flagSite{state: idx, msg: deadlockMessage(p, s)}
		}
	}
	vals := p.OutcomeValues(s)
	if e.filter != nil && !e.filter(vals) {
		return
	}
	key := fmt.Sprint(vals)
	if k, ok := e.outcomes[key]; ok {
		e.outs[k].flags |= flags
		return
	}
	e.outcomes[key] = len(e.outs)
	e.outs = append(e.outs, outcomeAcc{values: vals, flags: flags, witness: idx})
}

func flagBitOf(rule string) uint32 {
	for i, r := range model.FlagRules {
		if r == rule {
			return 1 << uint(i)
		}
	}
	return 0
}

func deadlockMessage(p *model.Program, s model.State) string {
	var stuck []string
	for i := range p.Procs {
		if row, text, ok := p.NextInstr(s, i); ok {
			stuck = append(stuck, fmt.Sprintf("P%d at row %d (%s)", i, row, text))
		}
	}
	return "no process can move and some have not finished: " + strings.Join(stuck, ", ")
}

func (e *search) noteStaticFlags(root int) {
	for _, f := range e.p.Static {
		if _, ok := e.flagAt[f.Rule]; !ok {
			e.flagAt[f.Rule] = flagSite{state: root, msg: f.Message, procs: []int{f.Proc}, rows: []int{f.Row}}
		}
	}
}

// noteFlags records the first place each newly raised rule was raised, with the
// step's own description of it (re-applied with a record: the search itself keeps none).
func (e *search) noteFlags(parent model.State, st model.Step, child int, f uint32) {
	var rec model.Record
	tmp := parent.Clone()
	e.p.Apply(tmp, st, &rec)
	for _, rule := range model.FlagList(f) {
		if _, ok := e.flagAt[rule]; ok {
			continue
		}
		site := flagSite{state: child, msg: rule}
		for _, r := range rec.Raised {
			if r.Rule == rule {
				site.msg, site.procs, site.rows = r.Message, []int{r.Proc}, []int{r.Row}
				break
			}
		}
		e.flagAt[rule] = site
	}
}

// checkConflicts records the candidate pairs that are concurrent in state idx; the
// first pair found for a rule gives its message and witness (the path to idx).
func (e *search) checkConflicts(idx int, s model.State) {
	e.p.Conflicts(s, e.conflictFound, func(c model.ConflictReport) {
		e.conflictFound[c.Candidate] = true
		e.unfound--
		if _, ok := e.flagAt[c.Rule]; !ok {
			e.flagAt[c.Rule] = flagSite{state: idx, msg: c.Message, procs: c.Procs, rows: c.Rows, pair: true}
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
	r := &Result{Program: e.p, States: e.seen.count, Transitions: e.trans, Finals: e.finals, StoreBytes: e.seen.bytes()}
	for _, o := range e.outs {
		out := Outcome{Values: o.values, Flags: model.FlagList(o.flags), Sat: e.cond(o.values), Witness: e.trace(o.witness)}
		if out.Sat {
			r.Positive++
		} else {
			r.Negative++
		}
		r.Outcomes = append(r.Outcomes, out)
	}
	slices.SortFunc(r.Outcomes, func(a, b Outcome) int { return slices.Compare(a.Values, b.Values) })
	switch {
	case r.Positive == 0:
		r.Observation = litmus.ObsNever
	case r.Negative == 0:
		r.Observation = litmus.ObsAlways
	default:
		r.Observation = litmus.ObsSometimes
	}
	for _, rl := range spec.Rules { // catalogue order
		site, ok := e.flagAt[rl.ID]
		if !ok {
			continue
		}
		r.Flags = append(r.Flags, Flag{Rule: rl.ID, Class: rl.Class, Message: site.msg, Procs: site.procs, Rows: site.rows,
			Trace: e.trace(site.state), Pair: site.pair})
	}
	return r
}

// compileCond turns a condition into a predicate over outcome values.
func compileCond(p *model.Program, c litmus.Cond) func([]int64) bool {
	index := map[string]int{}
	for i, o := range p.Out {
		index[o.Name] = i
	}
	var build func(litmus.Cond) func([]int64) bool
	build = func(c litmus.Cond) func([]int64) bool {
		switch x := c.(type) {
		case *litmus.Atom:
			i := index[refName(x.Ref)]
			v := x.Value
			return func(vals []int64) bool { return vals[i] == v }
		case *litmus.Not:
			f := build(x.C)
			return func(vals []int64) bool { return !f(vals) }
		case *litmus.And:
			l, r := build(x.L), build(x.R)
			return func(vals []int64) bool { return l(vals) && r(vals) }
		case *litmus.Or:
			l, r := build(x.L), build(x.R)
			return func(vals []int64) bool { return l(vals) || r(vals) }
		case *litmus.Implies:
			l, r := build(x.L), build(x.R)
			return func(vals []int64) bool { return !l(vals) || r(vals) }
		case *litmus.Bool:
			v := x.V
			return func([]int64) bool { return v }
		}
		return func([]int64) bool { return true }
	}
	return build(c)
}

// refName is the name an outcome item has (model.OutItem.Name).
func refName(r litmus.Ref) string {
	if r.Reg != nil {
		return fmt.Sprintf("%d:%s", r.Reg.Proc, r.Reg.Reg)
	}
	return litmus.RefString(r)
}

// ConditionOf is the test's condition as a predicate over outcome values (in the
// order of Program.Out), for drivers that collect outcomes of their own.
func ConditionOf(p *model.Program) func([]int64) bool { return compileCond(p, p.Test.Cond) }

// FilterOf is the test's filter as a predicate (nil when the test has none).
func FilterOf(p *model.Program) func([]int64) bool {
	if p.Test.Filter == nil {
		return nil
	}
	return compileCond(p, p.Test.Filter)
}
