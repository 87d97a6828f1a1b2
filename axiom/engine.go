package axiom

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/rmacheck/rmacheck/axiom/cat"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The search: for each control flow (which guards hold), the events; for each way
// the execution can end (every process finished, or some stuck for good), the events
// that happen; for each choice of reads-from, coherence, lock order and origin
// buffer order among them, a candidate execution. The model file decides which
// candidates are executions (its checks) and what each raises (its flags); the
// engine computes the values, in the order the model's ob gives, and keeps the
// executions whose guards evaluate as the control flow assumed.

// Outcome is one final result of the executions: the values of the outcome items.
type Outcome struct {
	Values []int64
	// Flags: the rules the executions ending in these values raise (not the relaxed
	// flags, which belong to no execution of the run's hw model); an outcome of
	// erroneous executions is listed apart from the same values of clean ones.
	Flags   []spec.RuleID
	Sat     bool
	Witness *Execution
}

// Flag is a rule some execution raises, with that execution.
type Flag struct {
	Rule spec.RuleID
	// Relaxed: judged on the executions of hw relaxed (a flag relaxed of the model:
	// concurrency, docs/semantics.md#concurrency).
	Relaxed bool
	Witness *Execution
	// Events are the events (a pair, or one) the flag's relation or set holds in the
	// witness, described.
	Events []string
}

// Result is what the axiomatic engine finds for a test under a model and a hw model.
type Result struct {
	Test        *litmus.Test
	Model       *Model
	HW          spec.HW
	Items       []string // the outcome items' names, in the order of Outcome.Values
	Outcomes    []Outcome
	Flags       []Flag
	Positive    int
	Negative    int
	Observation litmus.Obs
	// Candidates: candidate executions judged; Executions: those the model allows.
	Candidates, Executions int
	Time                   time.Duration
}

// Verdict is the answer in the shared vocabulary (litmus.Verdict).
func (r *Result) Verdict() litmus.Verdict {
	v := litmus.Verdict{Obs: r.Observation}
	for _, f := range r.Flags {
		switch c := f.Rule.Class(); {
		case c == spec.ClassErroneous && !slices.Contains(v.Erroneous, f.Rule):
			v.Erroneous = append(v.Erroneous, f.Rule)
		case c == spec.ClassRace && !slices.Contains(v.Race, f.Rule):
			v.Race = append(v.Race, f.Rule)
		}
	}
	return v
}

// Rules lists the rules raised, in catalogue order, each once.
func (r *Result) Rules() []spec.RuleID {
	var out []spec.RuleID
	for _, f := range r.Flags {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	slices.SortFunc(out, func(a, b spec.RuleID) int { return a.Order() - b.Order() })
	return out
}

// Run runs a test under a model and a hw model. A test with a construct outside the
// engine's scope is refused (a ScopeError).
func Run(t *litmus.Test, m *Model, hw spec.HW) (*Result, error) {
	start := time.Now()
	sem := m.Semantics()
	if err := CheckScope(t, sem); err != nil {
		return nil, err
	}
	p, err := compile(t, sem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	r := &Result{Test: t, Model: m, HW: hw}
	for _, o := range p.out {
		r.Items = append(r.Items, o.name)
	}
	acc := &accumulator{p: p, r: r, outcomes: map[string]int{}, flags: map[string]int{}}
	if err := explore(p, m, hw, hw == spec.Relaxed, true, acc); err != nil {
		return nil, err
	}
	if hw != spec.Relaxed && hasRelaxedFlags(m) {
		if err := explore(p, m, spec.Relaxed, true, false, acc); err != nil {
			return nil, err
		}
	}
	acc.finish()
	r.Time = time.Since(start)
	return r, nil
}

func hasRelaxedFlags(m *Model) bool {
	for _, f := range m.compiled.Flags {
		if f.Relaxed {
			return true
		}
	}
	return false
}

// explore enumerates the candidate executions of p under hw. outcomes: record the
// outcomes and the flags that are not relaxed; relaxedFlags: record the relaxed ones.
func explore(p *program, m *Model, hw spec.HW, relaxedFlags, outcomes bool, acc *accumulator) error {
	sem := m.Semantics()
	cond := func(name string) bool {
		if h, err := spec.ParseHW(name); err == nil {
			return h == hw
		}
		sw, _ := spec.SwitchByName(name)
		return sem.Has(sw)
	}
	guarded := p.guarded()
	for mask := 0; mask < 1<<len(guarded); mask++ {
		guards := map[*ins]bool{}
		for k, in := range guarded {
			guards[in] = mask&(1<<k) != 0
		}
		u := newUniverse(p, hw, guards)
		all := make([]int, len(u.events))
		for i := range all {
			all[i] = i
		}
		finished := make([]bool, p.nprocs)
		fu := u.frameOf(m.compiled, all, cond, finished, nil)
		if err := fu.EvalStatic(); err != nil {
			return err
		}
		wv, _ := fu.Lookup("wait")
		wait := wv.Rel
		for _, cut := range u.lockCuts() {
			d, ok := u.maximal(wait, cut)
			if !ok {
				continue
			}
			s := &search{u: u, m: m, cond: cond, d: d, acc: acc, relaxedFlags: relaxedFlags, outcomes: outcomes}
			if err := s.run(); err != nil {
				return err
			}
		}
	}
	return nil
}

// lockCuts lists the sets of lock calls that can be stuck for good at the end of an
// execution (a conflicting lock held by a process that never unlocks it): at most
// one a process, since a process stuck in a lock makes no later call.
func (u *universe) lockCuts() [][]int {
	perProc := make([][]int, u.p.nprocs)
	for proc, code := range u.p.procs {
		for _, in := range code {
			if (in.kind == kLock || in.kind == kLockAll) && u.effective(in) {
				perProc[proc] = append(perProc[proc], u.first[in])
			}
		}
	}
	cuts := [][]int{nil}
	for _, locks := range perProc {
		var next [][]int
		for _, c := range cuts {
			next = append(next, c)
			for _, l := range locks {
				next = append(next, append(slices.Clone(c), l))
			}
		}
		cuts = next
	}
	return cuts
}

// executed describes the events of an execution that happen, and how it ends.
type executed struct {
	events   []int // global ids, increasing
	in       []bool
	finished []bool
	stuck    []int // for a deadlock: the first event of each unfinished process not executed
}

// maximal is the set of events that happen in an execution in which the locks of cut
// wait for good: every event whose wait-predecessors all happen (wait is the model's,
// over the universe), repeatedly. It is a valid end only if each lock of cut has its
// predecessors and is refused by a conflicting lock held for good.
func (u *universe) maximal(wait cat.Rel, cut []int) (*executed, bool) {
	n := len(u.events)
	in := make([]bool, n)
	blocked := make([]bool, n)
	blocked[u.never] = true
	for _, l := range cut {
		blocked[l] = true
	}
	preds := make([][]int, n)
	wait.Each(func(i, j int) { preds[j] = append(preds[j], i) })
	for changed := true; changed; {
		changed = false
		for e := 0; e < n; e++ {
			if in[e] || blocked[e] {
				continue
			}
			ok := true
			for _, q := range preds[e] {
				if !in[q] {
					ok = false
					break
				}
			}
			if ok {
				in[e] = true
				changed = true
			}
		}
	}
	for _, l := range cut {
		for _, q := range preds[l] {
			if !in[q] {
				return nil, false // not stuck in the lock: stuck before it (another cut)
			}
		}
		if !u.lockRefused(l, in) {
			return nil, false
		}
	}
	x := &executed{in: in, finished: make([]bool, u.p.nprocs)}
	for e := 0; e < n; e++ {
		if in[e] {
			x.events = append(x.events, e)
		}
	}
	for proc, code := range u.p.procs {
		x.finished[proc] = true
		for _, ins := range code {
			if !in[u.first[ins]] || !in[u.last[ins]] {
				x.finished[proc] = false
				x.stuck = append(x.stuck, u.last[ins])
				if !in[u.first[ins]] {
					x.stuck[len(x.stuck)-1] = u.first[ins]
				}
				break
			}
		}
	}
	return x, true
}

// lockRefused: some other process holds, for good, a lock of a common target of l's
// window that conflicts with l (an exclusive lock, or l exclusive).
func (u *universe) lockRefused(l int, in []bool) bool {
	li := u.events[l].in
	for _, code := range u.p.procs {
		for _, h := range code {
			if h.proc == li.proc || h.win != li.win || (h.kind != kLock && h.kind != kLockAll) || !u.effective(h) || !in[u.first[h]] {
				continue
			}
			if c := u.info[h].closer; c != nil && in[u.first[c]] {
				continue
			}
			if u.locksConflict(h, li) {
				return true
			}
		}
	}
	return false
}

// locksConflict: two lock epochs of one window exclude each other: a common target,
// and one of them exclusive (lock_all is a shared lock of every member).
func (u *universe) locksConflict(a, b *ins) bool {
	if a.proc == b.proc || a.win != b.win {
		return false
	}
	targets := func(in *ins) uint32 {
		if in.kind == kLockAll {
			return u.p.wins[in.win].group
		}
		return 1 << uint(in.target)
	}
	excl := func(in *ins) bool { return in.kind == kLock && in.lockType == litmus.LockExclusive }
	return targets(a)&targets(b) != 0 && (excl(a) || excl(b))
}

// search enumerates the candidates of one control flow and one ending.
type search struct {
	u            *universe
	m            *Model
	cond         func(string) bool
	d            *executed
	acc          *accumulator
	relaxedFlags bool
	outcomes     bool

	f      *cat.Frame
	local  map[int]int
	evs    []int // frame index -> global event
	waitTC cat.Rel
	writes map[int][]int // cell -> local write events (the initial write first)
	reads  []int         // local read events
	fwd    cat.Rel
	locks  [][2]int // conflicting lock pairs (local events)
	bufo   [][3]int // origin buffer pairs (local events): a fetch's perform, the event it goes before, or after
	// the candidate
	rf    map[int]int // read -> write (local)
	co    map[int][]int
	loBit []bool
	boBit []bool
}

func (s *search) run() error {
	u := s.u
	// NEVER stands for the calls stuck for good, in a deadlocked execution
	evs := append([]int{u.never}, s.d.events...)
	s.evs = evs
	s.local = map[int]int{}
	for i, g := range evs {
		s.local[g] = i
	}
	var stuck []int
	if len(s.d.stuck) > 0 {
		stuck = []int{u.never}
	}
	s.f = u.frameOf(s.m.compiled, evs, s.cond, s.d.finished, stuck)
	if err := s.f.EvalStatic(); err != nil {
		return err
	}
	wv, _ := s.f.Lookup("wait")
	s.waitTC = cat.Plus(wv.Rel)
	if fv, ok := s.f.Lookup("fwd"); ok {
		s.fwd = fv.Rel
	}
	s.writes = map[int][]int{}
	for i, g := range evs {
		e := u.events[g]
		if e.write {
			s.writes[e.cell] = append(s.writes[e.cell], i)
		}
		if e.read {
			s.reads = append(s.reads, i)
		}
	}
	s.lockPairs()
	s.bufoPairs()
	s.rf = map[int]int{}
	s.co = map[int][]int{}
	cells := make([]int, 0, len(s.writes))
	for c := range s.writes {
		cells = append(cells, c)
	}
	sort.Ints(cells)
	r := reach{n: len(evs), w: (len(evs) + 63) / 64}
	r.bits = slices.Clone(s.waitTC.Bits)
	return s.coherence(cells, 0, r)
}

// The choices are pruned as they are made: the engine requires of a model that its
// ob contain what events wait for, coherence, from-reads, and reads-from (but a
// load reading its own store early, which instead comes after the store it could
// read and does not: fwd). A partial choice whose edges close a cycle is no
// execution whatever the rest; reach is the transitive closure of the edges so
// far.

// reach is a reachability matrix (row i: the events i comes before).
type reach struct {
	n, w int
	bits []uint64
}

func (r reach) row(i int) cat.Set { return cat.Set(r.bits[i*r.w : (i+1)*r.w]) }

func (r reach) clone() reach { return reach{n: r.n, w: r.w, bits: slices.Clone(r.bits)} }

// add puts a before b, false when b already comes before a (a cycle).
func (r reach) add(a, b int) bool {
	if a == b || r.row(b).Has(a) {
		return false
	}
	if r.row(a).Has(b) {
		return true
	}
	rb := r.row(b)
	for x := 0; x < r.n; x++ {
		if x == a || r.row(x).Has(a) {
			row := r.row(x)
			row.Add(b)
			for k := range row {
				row[k] |= rb[k]
			}
		}
	}
	return true
}

// coherence chooses the order of the writes of each cell, the initial write first.
func (s *search) coherence(cells []int, k int, r reach) error {
	if k == len(cells) {
		return s.readsFrom(0, r)
	}
	ws := s.writes[cells[k]]
	order := []int{ws[0]} // the initial write (the lowest event: events are numbered so)
	used := make([]bool, len(ws))
	used[0] = true
	var perm func(r reach) error
	perm = func(r reach) error {
		if len(order) == len(ws) {
			s.co[cells[k]] = slices.Clone(order)
			return s.coherence(cells, k+1, r)
		}
		for i, w := range ws {
			if used[i] {
				continue
			}
			next := r.clone()
			if !next.add(order[len(order)-1], w) {
				continue
			}
			used[i] = true
			order = append(order, w)
			if err := perm(next); err != nil {
				return err
			}
			order = order[:len(order)-1]
			used[i] = false
		}
		return nil
	}
	return perm(r)
}

// readsFrom chooses the write each read reads from: a write of its cell; a read
// that also writes (an accumulate) reads its coherence predecessor.
func (s *search) readsFrom(k int, r reach) error {
	if k == len(s.reads) {
		return s.lockOrder(0)
	}
	rd := s.reads[k]
	e := s.u.events[s.evs[rd]]
	order := s.co[e.cell]
	fwdFrom := -1 // the store rd could read before it executes
	for _, w := range order {
		if s.fwd.Bits != nil && s.fwd.Has(w, rd) {
			fwdFrom = w
		}
	}
	for i, w := range order {
		if w == rd {
			continue
		}
		if e.write && (i+1 >= len(order) || order[i+1] != rd) {
			continue // atomicity: an update reads the value it replaces
		}
		next := r.clone()
		ok := true
		if w != fwdFrom {
			ok = next.add(w, rd)
			if ok && fwdFrom >= 0 {
				ok = next.add(fwdFrom, rd)
			}
		}
		// from-reads: before the write after the one it reads (not itself)
		if ok && i+1 < len(order) && order[i+1] != rd {
			ok = next.add(rd, order[i+1])
		}
		if !ok {
			continue
		}
		s.rf[rd] = w
		if err := s.readsFrom(k+1, next); err != nil {
			return err
		}
	}
	delete(s.rf, rd)
	return nil
}

// lockPairs lists the pairs of conflicting lock epochs that both happen (the lock
// order chooses which acquires first).
func (s *search) lockPairs() {
	u := s.u
	var locks []*ins
	for _, code := range u.p.procs {
		for _, in := range code {
			if (in.kind == kLock || in.kind == kLockAll) && u.effective(in) && s.d.in[u.first[in]] {
				locks = append(locks, in)
			}
		}
	}
	for i, a := range locks {
		for _, b := range locks[i+1:] {
			if u.locksConflict(a, b) {
				s.locks = append(s.locks, [2]int{s.local[u.first[a]], s.local[u.first[b]]})
			}
		}
	}
	s.loBit = make([]bool, len(s.locks))
}

func (s *search) lockOrder(k int) error {
	if k == len(s.locks) {
		return s.bufoOrder(0)
	}
	for _, v := range []bool{false, true} {
		s.loBit[k] = v
		first := s.locks[k][0]
		if v {
			first = s.locks[k][1]
		}
		// the first epoch must end for the second to begin
		if c := s.u.info[s.u.events[s.evs[first]].in].closer; c == nil || !s.d.in[s.u.first[c]] {
			continue
		}
		if err := s.lockOrder(k + 1); err != nil {
			return err
		}
	}
	return nil
}

// bufoPairs lists a fetch's perform and each instruction that touches its result
// register before the call completing it (E-ORIGIN-BUF): the register's value then
// depends on which comes first, a choice of the execution.
func (s *search) bufoPairs() {
	u := s.u
	for _, code := range u.p.procs {
		for _, a := range code {
			if !a.fetches() {
				continue
			}
			c := u.completer(a)
			for k, pf := range u.perf[a] {
				r := a.elems[k].dst
				if r < 0 || !s.d.in[pf] {
					continue
				}
				for _, y := range code[a.idx+1:] {
					if c != nil && y.idx > c.idx {
						break
					}
					if s.d.in[u.first[y]] {
						s.bufoPair(s.local[pf], r, y)
					}
				}
			}
		}
	}
	s.boBit = make([]bool, len(s.bufo))
}

// bufoPair adds the choices between perform pf, writing register r, and the
// instruction y that touches r before the call completing pf's operation.
func (s *search) bufoPair(pf, r int, y *ins) {
	u := s.u
	// a guard reads the register whether it holds or not; the rest of the
	// instruction only when it does
	run := !u.info[y].skip
	reads := overlaps([]int{r}, y.guardRegs()) || run && overlaps([]int{r}, y.argRegs())
	writes := run && overlaps([]int{r}, y.writeRegs())
	first := s.local[u.first[y]]
	last, ok := s.local[u.last[y]]
	if !ok {
		last = first
	}
	if writes && y.fetches() {
		// the two performs write the register: which is first
		for k, py := range u.perf[y] {
			if y.elems[k].dst == r && s.d.in[py] {
				s.bufo = append(s.bufo, [3]int{pf, s.local[py], s.local[py]})
			}
		}
		writes = false
	}
	if reads || writes {
		s.bufo = append(s.bufo, [3]int{pf, first, last})
	}
	if reads && y.kind == kStore {
		// a load forwarding from the store reads its operand when it reads:
		// before or after the perform is a choice too
		for _, l := range s.forwardedBy(y) {
			s.bufo = append(s.bufo, [3]int{pf, l, l})
		}
	}
}

func (s *search) bufoOrder(k int) error {
	if k == len(s.bufo) {
		return s.judge()
	}
	for _, v := range []bool{false, true} {
		s.boBit[k] = v
		if err := s.bufoOrder(k + 1); err != nil {
			return err
		}
	}
	return nil
}

// judge sets the candidate's choices, asks the model, and records an execution.
func (s *search) judge() error {
	n := len(s.evs)
	rf := cat.NewRel(n)
	for r, w := range s.rf {
		rf.Add(w, r)
	}
	co := cat.NewRel(n)
	for _, order := range s.co {
		for i, a := range order {
			for _, b := range order[i+1:] {
				co.Add(a, b)
			}
		}
	}
	lo := cat.NewRel(n)
	for k, pr := range s.locks {
		if s.loBit[k] {
			lo.Add(pr[1], pr[0])
		} else {
			lo.Add(pr[0], pr[1])
		}
	}
	bo := cat.NewRel(n)
	for k, pr := range s.bufo {
		if s.boBit[k] {
			bo.Add(pr[2], pr[0]) // the instruction, then the perform
		} else {
			bo.Add(pr[0], pr[1])
		}
	}
	s.f.SetBaseRel("rf", rf)
	s.f.SetBaseRel("co", co)
	s.f.SetBaseRel("lo", lo)
	s.f.SetBaseRel("bufo", bo)
	s.acc.r.Candidates++
	if err := s.f.EvalDynamic(); err != nil {
		return err
	}
	bad, err := s.f.Violated()
	if err != nil {
		return err
	}
	if bad != nil {
		return nil
	}
	obv, _ := s.f.Lookup("ob")
	order := cat.TopoOrder(obv.Rel)
	if order == nil {
		return nil // the model allows a cyclic ob: no order to compute values in
	}
	x, ok := s.simulate(order)
	if !ok {
		return nil // a guard evaluates otherwise than the control flow assumed
	}
	s.acc.r.Executions++
	return s.acc.record(s, x)
}

// forwardedBy lists the local read events of the loads that may read store y before
// it executes (fwd).
func (s *search) forwardedBy(y *ins) []int {
	var out []int
	if s.fwd.Bits == nil {
		return nil
	}
	yi, ok := s.local[s.u.first[y]]
	if !ok {
		return nil
	}
	s.fwd.Row(yi).Each(func(l int) { out = append(out, l) })
	return out
}
