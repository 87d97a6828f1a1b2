// Package explorer runs every execution of a compiled program (an exhaustive
// search of the model's state graph) and reports what is allowed: the final
// outcomes, the observation of the test's condition, the rules broken, and a
// witness trace for each outcome and each rule.
package explorer

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
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
	// NoReduce turns off the partial-order reduction (model.Program.Successors)
	// and the live-variable quotient (model.Program.DropDead): the plain search
	// visits every interleaving and keeps every value.
	NoReduce bool
	// NoStubborn turns off the stubborn sets alone (model/stubborn.go), for
	// measuring them; NoReduce turns them off too.
	NoStubborn bool
	// NoConflicts turns off the conflict and race checks (for measuring their cost).
	NoConflicts bool
	// ABI: the alignments E-ALIGN checks, for Job.Run's compile (zero: x86-64).
	ABI model.ABI
	// Cache, when not nil, shares Job.Run's searches between the jobs of a run.
	Cache *Cache
	// Workers is how many goroutines may expand one search's states (0 or 1: one).
	// A search runs them on its breadth-first levels of more than parallelLevel
	// states; smaller searches stay sequential, so their witnesses are those of a
	// sequential run. In a Stream, only as many as its CPUs left free (cpus).
	Workers int
	// cpus, set by Stream, are the run's CPUs its workers leave free.
	cpus *cpus
	// Memory, when not nil, bounds the bytes the searches that share it may hold
	// (their visited sets): a search that would pass it stops with ErrMemoryLimit.
	Memory *Budget
	// parallelFrom replaces parallelLevel when positive (tests: parallel levels in
	// small searches).
	parallelFrom int
	// noQuotient keeps the reduction and every value (tests: the quotient alone).
	noQuotient bool
	// flatStates stores every state whole, not by its parts (compact.go), for
	// measuring the compression; compactAt, when positive, replaces compactFrom
	// (tests: small searches stored by their parts).
	flatStates bool
	compactAt  int
}

// parallelLevel is the size of a breadth-first level from which a search expands
// it with Options.Workers goroutines: below it, a level is over too soon for
// goroutines to pay.
const parallelLevel = 4096

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
	Flags []spec.RuleID
	// Sat: the outcome satisfies the condition (before the quantifier).
	Sat bool
	// Witness is an execution that ends in this outcome (Trace: its replay).
	Witness model.Witness
	Replay  *Replay
}

// Flag is a rule broken by some execution: its diagnostic, with the shortest
// execution found that breaks it.
type Flag struct {
	model.Diagnostic
	// Pair: found by the conflict and race checks (two accesses concurrent in some
	// reachable state), not raised by a step; not marked on outcomes. The witness of
	// a tso or sc job's pair flag runs on the relaxed program it was found on.
	Pair   bool
	Replay *Replay // the witness's replay (Trace)
}

// Result is what a search found.
type Result struct {
	Program     *model.Program
	States      int
	Transitions int
	Finals      int // terminal states
	Redundant   int // terminal states dropped: a blocked spin loop would exit there (docs/semantics.md#spin-loops)
	Outcomes    []Outcome
	Positive    int
	Negative    int
	Observation litmus.Obs // Never, Sometimes or Always (of the condition, over the outcomes kept by the filter)
	Flags       []Flag
	Time        time.Duration
	StoreBytes  int // memory held by the visited set (with its part tables, compact.go)
	// PairTime and PairStates: for tso and sc, the relaxed search its conflict and
	// race flags come from (shared with the relaxed job of the preset when it ran).
	PairTime   time.Duration
	PairStates int
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

// HasFlag reports whether some execution raised rule.
func (r *Result) HasFlag(rule spec.RuleID) bool {
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
	e := &search{p: p, opt: opt, outcomes: map[string]int{}, flagAt: map[flagKey]flagSite{}}
	e.seen = newVisited(p.StateSize(), opt.Memory)
	defer func() {
		e.seen.release()
		e.parts.release()
	}()
	if err := e.run(); err != nil {
		if me, ok := err.(*ErrMemoryLimit); ok {
			me.Test = p.Test.Name
		}
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
	p    *model.Program
	opt  Options
	seen *visited
	// parts, when not nil, stores the states by their parts (compact.go): seen
	// then holds tuples of part indices; merger is the merge's buffers for
	// encoding (a parallel level's workers have their own).
	parts  *compact
	merger *worker
	// mu guards what the workers of a parallel level change besides the visited
	// set and found: the outcomes, the flags, the counts below.
	mu     sync.Mutex
	trans  int
	finals int
	// redundant counts the executions dropped because a blocked spin loop would
	// exit on their final memory (docs/semantics.md#spin-loops).
	redundant int
	outcomes  map[string]int // index into outs, by outcomeAcc.key
	outs      []outcomeAcc
	vals      []int64 // final's buffers (under mu)
	key       []byte
	flagAt    map[flagKey]flagSite
	// found holds, for each candidate pair (model.Program.Candidates), 1 + the
	// lowest state found so far where it is concurrent (0: none yet); unfound
	// counts the pairs not found, and checking (at the start of a level: some are
	// not) spares a search whose pairs are all found the checks.
	found    []atomic.Int64
	unfound  atomic.Int64
	checking bool
	// stop, once set, ends the search (the state or memory bound).
	stop atomic.Pointer[error]
}

type outcomeAcc struct {
	key     string // the values as varints, and "!" for an erroneous execution's (final)
	flags   uint32
	witness int // terminal state
}

// worker is what one goroutine of the search needs of its own.
type worker struct {
	scratch model.State
	rec     *model.Record
	trans   int
	// cur is the state being expanded, decoded from its tuple (compact.go); tuple
	// and part are buffers for encoding a successor.
	cur         model.State
	tuple, part []byte
}

func (e *search) newWorker() *worker {
	w := &worker{scratch: make(model.State, e.p.StateSize()), rec: &model.Record{Light: true, Sites: make([]model.RaiseSite, 0, 8)}}
	if e.parts != nil {
		w.cur, w.tuple, w.part = make(model.State, e.p.StateSize()), make([]byte, e.parts.tupleWidth()), make([]byte, 0, e.p.StateSize())
	}
	return w
}

// run explores breadth-first: states are numbered in the order they are found, a
// level (the states first found at one depth) after the other, so every witness
// (the parent links back to the root) is a shortest execution reaching its state.
// A large level is expanded by several workers (expandLevel), which number the
// states as one would: the result, witnesses included, does not depend on how
// many workers ran. What the workers record first is kept only when found at a
// lower state than what another recorded (the lowest is what one worker finds first).
func (e *search) run() error {
	p := e.p
	init := p.Initial()
	e.quotient(init)
	workers := []*worker{e.newWorker()}
	if err := e.storeState(workers[0], init, -1, 0, nil); err != nil {
		return err
	}
	root := 0
	e.noteStaticFlags(root)
	e.found = make([]atomic.Int64, len(p.Candidates))
	if !e.opt.NoConflicts {
		e.unfound.Store(int64(len(p.Candidates) - e.markOrdered()))
	}
	for lo, hi := root, root+1; lo < hi; lo, hi = hi, e.seen.size() {
		e.checking = e.unfound.Load() > 0
		if helpers := e.helpers(hi - lo); helpers == 0 {
			w := workers[0]
			for idx := lo; idx < hi && e.stop.Load() == nil && !e.pairsDone(); idx++ {
				e.expand(w, idx, func(st model.Step, next model.State) { e.storeState(w, next, idx, st.Encode(), w.cur) })
			}
		} else {
			for len(workers) < 1+helpers {
				workers = append(workers, e.newWorker())
			}
			e.expandLevel(workers[:1+helpers], lo, hi)
			e.release(helpers)
		}
		e.seen.quiesce() // the level's readers are done
		e.parts.quiesce()
		if err := e.stop.Load(); err != nil {
			return *err
		}
		if err := e.compactFrom(workers); err != nil {
			return err
		}
		if e.pairsDone() {
			break
		}
	}
	for _, w := range workers {
		e.trans += w.trans
	}
	return nil
}

// markOrdered marks the candidate pairs that can never be concurrent
// (model.Program.Ordered) as found at no state, so that no check looks for them
// and a pairs-only search does not wait for them, and returns how many. The
// unreduced search (NoReduce) checks them like the others: the exactness property
// compares the two.
func (e *search) markOrdered() int {
	if e.opt.NoReduce {
		return 0
	}
	n := 0
	for ci, never := range e.p.Ordered() {
		if never {
			e.found[ci].Store(neverFound)
			n++
		}
	}
	return n
}

// neverFound marks a candidate pair no state can have (markOrdered): below every
// 1 + state, so skip and claimPair pass it by.
const neverFound = -1

// pairsOnly: the search is for its pair flags alone (a program that forgets
// values: model.Program.WithoutValues), so it may stop once every candidate pair
// is found (pairsDone), each at the lowest state it is concurrent in: states are
// numbered breadth-first, so its trace is as short as a whole search would give.
func (e *search) pairsOnly() bool { return e.p.ForgetsValues() && !e.opt.NoConflicts }

// pairsDone: a pairs-only search has found every candidate pair, so it ends at
// once, not at the end of the level (whose successors, the next level, it would
// store for nothing). A sequential level expands its states in their order, so
// every state below the current one has been checked: each pair's lowest state is
// known, and the states left hold only higher ones. In a parallel level
// (expandLevel) the other workers' states below may not be checked yet: they
// still are (checking is the level's), and claimPair keeps the lowest; only their
// successors are left out. Either way each pair keeps the state a whole search
// gives it, and with it its trace.
func (e *search) pairsDone() bool { return e.pairsOnly() && e.unfound.Load() == 0 }

func (e *search) parallelLevel() int {
	if e.opt.parallelFrom > 0 {
		return e.opt.parallelFrom
	}
	return parallelLevel
}

// insert stores a successor, stopping the search at the state or memory bound.
func (e *search) insert(next []byte, parent int, step uint32, hash uint64) error {
	_, isNew, err := e.seen.insertHashed(next, hash, parent, step)
	switch {
	case err != nil:
		e.halt(err)
	case isNew && e.opt.MaxStates > 0 && e.seen.size() >= e.opt.MaxStates:
		e.halt(&ErrStateLimit{Test: e.p.Test.Name, Limit: e.opt.MaxStates})
	}
	return err
}

// halt stops the search with err (the first error wins).
func (e *search) halt(err error) { e.stop.CompareAndSwap(nil, &err) }

// expand generates the successors of state idx, handing each to store, and records
// what they raise; a state without successors is final.
func (e *search) expand(w *worker, idx int, store func(model.Step, model.State)) {
	p := e.p
	cur := e.load(w, idx)
	if e.checking {
		e.checkConflicts(idx, cur)
		if e.pairsDone() {
			return // a pairs-only search needs no successors now (pairsDone)
		}
	}
	n := 0
	p.SuccessorsWith(cur, w.scratch, e.reduction(), w.rec, func(st model.Step, next model.State) {
		n++
		w.trans++
		e.quotient(next)
		store(st, next)
		if e.checking {
			if m, cands := p.SpeculationPairs(cur, st); m != 0 {
				e.noteSpeculationPairs(idx, st, m, cands)
			}
		}
		for _, site := range w.rec.Sites {
			e.noteRaised(idx, cur, st, site)
		}
	})
	if n == 0 {
		e.final(idx, cur)
	}
}

// reduction is the reductions the options leave on.
func (e *search) reduction() model.Reduction {
	switch {
	case e.opt.NoReduce:
		return model.ReduceNone
	case e.opt.NoStubborn:
		return model.ReduceSingletons
	}
	return model.ReduceAll
}

// quotient drops the dead values of a state before it is stored (the reduced
// search only): states that differ in values nothing reads again are one.
func (e *search) quotient(s model.State) {
	if !e.opt.NoReduce && !e.opt.noQuotient {
		e.p.DropDead(s)
	}
}

// final records a terminal state: its outcome, with the rules its ending raises
// (DEADLOCK, LIVELOCK, E-EPOCH-END). A redundant ending (a blocked spin loop that
// would exit now, docs/semantics.md#spin-loops) has no outcome.
func (e *search) final(idx int, s model.State) {
	p := e.p
	end := p.End(s)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.finals++
	if end == model.Redundant {
		e.redundant++
		return
	}
	flags := p.Flags(s)
	for _, d := range p.EndDiagnostics(s, end) {
		flags |= spec.FlagBit(d.Rule)
		e.addLocked(d, flagSite{state: idx})
	}
	e.vals = p.OutcomeValuesTo(s, e.vals)
	if !p.Keep(e.vals) {
		return
	}
	// An erroneous execution's outcome is listed apart from a clean one's with the
	// same values (docs/semantics.md#verdicts: its outcomes are listed, marked). The key is
	// the values as varints (most are small: a byte each), and the map is looked
	// up without a new string: a search with 10^5 outcomes and 10^7 final states
	// allocates per outcome, not per final state.
	e.key = e.key[:0]
	for _, v := range e.vals {
		e.key = binary.AppendVarint(e.key, v)
	}
	if flags != 0 {
		e.key = append(e.key, '!')
	}
	if k, ok := e.outcomes[string(e.key)]; ok {
		e.outs[k].flags |= flags
		e.outs[k].witness = min(e.outs[k].witness, idx)
		return
	}
	key := string(e.key)
	e.outcomes[key] = len(e.outs)
	e.outs = append(e.outs, outcomeAcc{key: key, flags: flags, witness: idx})
}

// values are an outcome's values, from its key (final).
func (o *outcomeAcc) values(n int) []int64 {
	vals := make([]int64, n)
	b := []byte(o.key)
	for i := range vals {
		v, k := binary.Varint(b)
		vals[i], b = v, b[k:]
	}
	return vals
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
	key := flagKey{rule: site.Rule, proc: site.Proc, row: site.Row}
	e.mu.Lock()
	defer e.mu.Unlock()
	if f, ok := e.flagAt[key]; ok && f.state <= idx {
		return
	}
	var rec model.Record
	e.p.Apply(cur.Clone(), st, &rec)
	d := model.Diagnostic{Rule: site.Rule, Class: spec.ClassErroneous, Message: site.Rule.String(), At: model.Site{Proc: site.Proc, Row: site.Row}}
	for _, r := range rec.Raised {
		if r.Rule == site.Rule && r.At.Proc == site.Proc && r.At.Row == site.Row {
			d = r
			break
		}
	}
	e.flagAt[key] = flagSite{state: idx, then: []model.Step{st}, marks: []int{0}, diag: d}
}

// claimPair marks candidate pair ci found at state idx, unless it was found at a
// state as low.
func (e *search) claimPair(ci, idx int) bool {
	for {
		f := e.found[ci].Load()
		if f != 0 && int(f-1) <= idx {
			return false
		}
		if e.found[ci].CompareAndSwap(f, int64(idx+1)) {
			if f == 0 {
				e.unfound.Add(-1)
			}
			return true
		}
	}
}

// noteSpeculationPairs records the pairs a speculative load's commit makes real: they
// were concurrent at its read, and its guard holds (model.SpeculationPairs). The
// witness is the path to the committing state and the commit itself.
func (e *search) noteSpeculationPairs(idx int, st model.Step, mask uint64, cands []int) {
	for m := mask; m != 0; m &= m - 1 {
		ci := cands[bits.TrailingZeros64(m)]
		if !e.claimPair(ci, idx) {
			continue
		}
		d := e.p.CandidateDiagnostic(ci)
		e.add(d, flagSite{state: idx, then: []model.Step{st}, marks: []int{0}, speculated: true, pair: true})
	}
}

// checkConflicts records the candidate pairs that are concurrent in state idx, each
// with its witness: the path to idx, then the two accesses themselves.
func (e *search) checkConflicts(idx int, s model.State) {
	skip := func(ci int) bool { f := e.found[ci].Load(); return f != 0 && int(f-1) <= idx }
	e.p.Conflicts(s, skip, func(ci int, d model.Diagnostic) {
		if !e.claimPair(ci, idx) {
			return // another worker found it at a lower state
		}
		then, marks := e.p.PairSteps(s, ci)
		e.add(d, flagSite{state: idx, then: then, marks: marks, pair: true})
	})
}

// flagKey is what makes two flags one: the rule, the instruction it is about, and
// the related ones (a racing pair's other access; "" for none). A struct, so that a
// step that raises a rule (noteRaised, on every such step) formats nothing.
type flagKey struct {
	rule      spec.RuleID
	proc, row int
	related   string
}

// add records a diagnostic the first time it is found (by rule and sites), or
// when found at a lower state than before.
func (e *search) add(d model.Diagnostic, site flagSite) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.addLocked(d, site)
}

func (e *search) addLocked(d model.Diagnostic, site flagSite) {
	key := flagKey{rule: d.Rule, proc: d.At.Proc, row: d.At.Row}
	if len(d.Related) > 0 {
		key.related = fmt.Sprint(d.Related) // pairs: one key a pair, made once
	}
	if f, ok := e.flagAt[key]; !ok || site.state < f.state {
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
	r := &Result{Program: e.p, States: e.seen.size(), Transitions: e.trans, Finals: e.finals, Redundant: e.redundant, StoreBytes: e.seen.bytes() + e.parts.bytes()}
	counted := map[model.OutcomeKey]bool{} // Positive and Negative count distinct values
	for _, o := range e.outs {
		w := e.trace(o.witness)
		vals := o.values(len(e.p.Out))
		out := Outcome{Values: vals, Flags: spec.FlagRules(o.flags), Sat: e.p.Sat(vals), Witness: model.Witness{Program: e.p, Steps: w, Arrange: &model.Arrangement{By: e.p, Early: len(w)}}, Replay: &Replay{}}
		if k := model.KeyOf(vals); !counted[k] {
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
		prefix := e.trace(site.state)
		w := model.Witness{Program: e.p, Steps: append(prefix, site.then...),
			Arrange: &model.Arrangement{By: e.p, Early: len(prefix), SpeculativeRead: site.speculated}}
		for _, m := range site.marks {
			w.Marks = append(w.Marks, len(prefix)+m)
		}
		d.Witness = w
		r.Flags = append(r.Flags, Flag{Diagnostic: d, Pair: site.pair, Replay: &Replay{}})
	}
	sortFlags(r.Flags)
	return r
}

// sortFlags orders flags by the catalogue, then by where they are (process, row, the
// related sites), so that every run lists them alike.
func sortFlags(flags []Flag) {
	sort.SliceStable(flags, func(i, j int) bool {
		a, b := &flags[i], &flags[j]
		if a.Rule != b.Rule {
			return a.Rule.Order() < b.Rule.Order()
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
