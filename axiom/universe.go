package axiom

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// A universe is the set of events of the program for one control flow (which guards
// hold), before any choice of who reads from whom: every instruction's events, the
// performs of the RMA operations it issues, an initial write per cell, and one event
// that never happens (⊥, the missing partner of a call that waits for nobody). Its
// per-process bookkeeping (which call opens and closes which epoch, which calls are
// erroneous and have no effect) follows docs/semantics.md (RMA operations, Synchronization) and docs/rules.md in program order; every
// order between events, and every rule about them, is the model file's.

type evKind uint8

const (
	eExec    evKind = iota // an instruction executes (arrives, for a two-phase call)
	eRet                   // a two-phase call (fence, barrier) returns
	eRead                  // hw relaxed: a plain load reads (maybe before its guard is known)
	eCommit                // hw relaxed: a plain load commits its register
	ePerform               // an RMA operation is performed at its target
	eDrain                 // hw tso: a store leaves the store buffer for memory
	eInit                  // the initial write of a cell
	eNever                 // ⊥
	eProgram               // the program itself: where the errors its text alone decides are raised
)

type event struct {
	kind  evKind
	elem  int // a perform's element
	proc  int // -1: init, never
	in    *ins
	cell  int // the cell a memory event reads or writes, -1 none
	read  bool
	write bool
}

// epoch kinds of an RMA operation (docs/semantics.md#rma-operations, "Issue").
const (
	epNone = iota
	epFence
	epPSCW
	epPassive
)

// info is what the per-process bookkeeping says of one instruction.
type info struct {
	skip   bool // its guard is false
	noEff  bool // erroneous, and without effect
	errs   []spec.RuleID
	epoch  int  // an issue's epoch kind
	opener *ins // the call whose epoch the issue is in
	closer *ins // an opener's closing call (lock -> unlock, fence -> next fence, ...)
	// fenceK: a fence's index on its window (1 = the first); epochK: a fence-epoch
	// issue's fence index (the fence that opened it); startJ: a PSCW issue's start
	// index to its target.
	fenceK, epochK, startJ int
	// openAtEnd: an opener whose epoch is still open when the process ends.
	openAtEnd bool
}

type universe struct {
	p      *program
	hw     spec.HW
	guards map[*ins]bool // the control flow: the value of each guard
	events []event
	never  int
	// program is the event of the program text (always happens): programErrs, the
	// rules the text alone breaks (E-ASSERT's all-or-none and nocheck pairing).
	program     int
	programErrs []spec.RuleID
	init        []int // per cell, its initial write
	first       map[*ins]int
	last        map[*ins]int
	perf        map[*ins][]int // an RMA call's performs, one per element
	drain       map[*ins]int
	info        map[*ins]*info
	// sync matching (docs/semantics.md#synchronization), by instruction
	fences   map[[2]int][]*ins // (window, proc) -> its fences, in order
	barriers [][]*ins
	postOf   map[[3]int]*ins // (t, o, j): t's j-th post naming o
	startOf  map[[3]int]*ins // (o, t, j): o's j-th start naming t
	complOf  map[[3]int]*ins // (o, t, j): o's j-th complete of a start naming t
	waitOf   map[[3]int]*ins // (o, t, j): t's wait closing its j-th post naming o
	sends    map[[2]int][]*ins
	recvs    map[[2]int][]*ins
}

// guarded lists the instructions with a guard, the ones a control flow decides.
func (p *program) guarded() []*ins {
	var out []*ins
	for _, code := range p.procs {
		for _, in := range code {
			if in.guard != nil {
				out = append(out, in)
			}
		}
	}
	return out
}

func newUniverse(p *program, hw spec.HW, guards map[*ins]bool) *universe {
	u := &universe{p: p, hw: hw, guards: guards, first: map[*ins]int{}, last: map[*ins]int{}, perf: map[*ins][]int{}, drain: map[*ins]int{},
		info: map[*ins]*info{}, fences: map[[2]int][]*ins{}, barriers: make([][]*ins, p.nprocs),
		postOf: map[[3]int]*ins{}, startOf: map[[3]int]*ins{}, complOf: map[[3]int]*ins{}, waitOf: map[[3]int]*ins{},
		sends: map[[2]int][]*ins{}, recvs: map[[2]int][]*ins{}}
	u.never = u.add(event{kind: eNever, proc: -1, cell: -1})
	u.program = u.add(event{kind: eProgram, proc: -1, cell: -1})
	for c := range p.cells {
		u.init = append(u.init, u.add(event{kind: eInit, proc: -1, cell: c, write: true}))
	}
	for proc := range p.procs {
		u.bookkeep(proc)
	}
	u.assertions()
	for proc, code := range p.procs {
		for _, in := range code {
			u.addEvents(proc, in)
		}
	}
	return u
}

// assertions checks what the assertions of node332 promise across processes, where
// the program's calls decide it: noput (no put or accumulate targets the caller in
// the epoch its fence or post opens), noprecede and nosucceed given by every member
// of a fence's group or none, nocheck on a post and its matching start both or
// neither.
func (u *universe) assertions() {
	p := u.p
	for _, code := range p.procs {
		for _, in := range code {
			inf := u.info[in]
			if inf.skip || inf.noEff || !(in.updates() || in.kind == kRStore) {
				continue
			}
			var opener *ins
			switch inf.epoch {
			case epFence:
				if fs := u.fences[[2]int{in.win, in.target}]; inf.epochK <= len(fs) {
					opener = fs[inf.epochK-1]
				}
			case epPSCW:
				opener = u.postOf[[3]int{in.target, in.proc, inf.startJ}]
			}
			if opener != nil && opener.has(assertNoput) {
				inf.errs = append(inf.errs, spec.EAssert)
			}
		}
	}
	for w := range p.wins {
		longest := 0
		for proc := 0; proc < p.nprocs; proc++ {
			longest = max(longest, len(u.fences[[2]int{w, proc}]))
		}
		for k := 0; k < longest; k++ {
			for _, bit := range []uint8{assertNoprecede, assertNosucceed} {
				with, without := false, false
				for proc := 0; proc < p.nprocs; proc++ {
					if fs := u.fences[[2]int{w, proc}]; k < len(fs) && p.wins[w].group&(1<<uint(proc)) != 0 {
						with = with || fs[k].has(bit)
						without = without || !fs[k].has(bit)
					}
				}
				if with && without {
					u.programErrs = append(u.programErrs, spec.EAssert)
				}
			}
		}
	}
	for key, start := range u.startOf {
		if post := u.postOf[[3]int{key[1], key[0], key[2]}]; post != nil && post.has(assertNocheck) != start.has(assertNocheck) {
			u.programErrs = append(u.programErrs, spec.EAssert)
		}
	}
}

func (u *universe) add(e event) int {
	u.events = append(u.events, e)
	return len(u.events) - 1
}

// executes: the instruction runs with its guard true.
func (u *universe) executes(in *ins) bool { return in.guard == nil || u.guards[in] }

// effective: the instruction runs and has its effect (it is not skipped and not an
// erroneous call without effect).
func (u *universe) effective(in *ins) bool {
	inf := u.info[in]
	return !inf.skip && !inf.noEff
}

func (u *universe) addEvents(proc int, in *ins) {
	inf := u.info[in]
	ev := event{proc: proc, in: in, cell: -1}
	if in.kind == kLoad && u.hw == spec.Relaxed {
		// a relaxed load reads, then commits (docs/semantics.md#hardware-models: it may read before
		// its guard is known)
		r := ev
		r.kind = eRead
		if u.effective(in) {
			r.cell, r.read = in.cell, true
		}
		u.first[in] = u.add(r)
		c := ev
		c.kind = eCommit
		u.last[in] = u.add(c)
		return
	}
	ex := ev
	ex.kind = eExec
	if u.effective(in) {
		switch in.kind {
		case kLoad, kRLoad:
			ex.cell, ex.read = in.cell, true
		case kStore:
			if u.hw != spec.TSO {
				ex.cell, ex.write = in.cell, true
			}
		}
	}
	u.first[in] = u.add(ex)
	u.last[in] = u.first[in]
	if in.kind == kStore && u.hw == spec.TSO && u.effective(in) {
		// tso: the store enters the buffer when it executes, and drains later
		u.drain[in] = u.add(event{kind: eDrain, proc: proc, in: in, cell: in.cell, write: true})
	}
	if inf.skip {
		return
	}
	switch in.kind {
	case kFence, kBarrier:
		if in.twoPhase() {
			u.last[in] = u.add(event{kind: eRet, proc: proc, in: in, cell: -1})
		}
	case kRMA, kRStore:
		if inf.noEff {
			break
		}
		read, write := in.readsTarget() || in.accumulate(), in.updates() || in.kind == kRStore
		if in.kind == kRStore {
			u.perf[in] = []int{u.add(event{kind: ePerform, proc: proc, in: in, cell: in.cell, read: read, write: write})}
			break
		}
		for k, e := range in.elems {
			u.perf[in] = append(u.perf[in], u.add(event{kind: ePerform, proc: proc, in: in, elem: k, cell: e.cell, read: read, write: write}))
		}
	}
}

// epochState is one process's epochs on one window as its calls run (docs/semantics.md
// #rma-operations, #synchronization): what the operational model keeps in its state, followed here in program
// order, since a process's MPI calls never pass each other.
type epochState struct {
	fences    int  // fences called
	fenceOpen bool // the last fence opened an epoch (no nosucceed)
	issued    int  // operations issued in the current fence epoch (noprecede)
	stored    bool // the caller stored to its segment since its last R5 point (nostore)
	lockHeld  map[int]*ins
	lockAll   *ins
	start     *ins
	post      *ins
}

// bookkeep walks proc's instructions in program order: which calls are skipped,
// erroneous (and then without effect), which epoch each issue is in, and the
// counts that match calls across processes.
func (u *universe) bookkeep(proc int) {
	p := u.p
	code := p.procs[proc]
	st := make([]epochState, len(p.wins))
	for w := range st {
		st[w].lockHeld = map[int]*ins{}
	}
	postCnt := map[int]int{}  // o -> posts naming o
	startCnt := map[int]int{} // t -> starts naming t
	doneCnt := map[int]int{}  // t -> completes of starts naming t
	fail := func(inf *info, rule spec.RuleID, noEff bool) {
		inf.errs = append(inf.errs, rule)
		inf.noEff = inf.noEff || noEff
	}
	laterFence := func(k, win int) bool {
		for _, in := range code[k+1:] {
			if in.kind == kFence && in.win == win && u.executes(in) {
				return true
			}
		}
		return false
	}
	for k, in := range code {
		inf := &info{}
		u.info[in] = inf
		if !u.executes(in) {
			inf.skip = true
			continue
		}
		var e *epochState
		if in.win >= 0 {
			e = &st[in.win]
		}
		if in.kind == kUnlockAll || in.kind == kSync || in.kind == kUnlock && in.target == proc {
			e.stored = false // an R5 point: a later nostore speaks of the stores after it
		}
		switch in.kind {
		case kLoad, kStore:
			if rule := u.lsProblem(in); rule != spec.NoRule {
				fail(inf, rule, true)
			} else if in.kind == kStore && !in.remote {
				e.stored = true // nostore speaks of these
			}
		case kRLoad, kRStore, kRMA:
			if in.kind != kRMA {
				if rule := u.lsProblem(in); rule != spec.NoRule {
					fail(inf, rule, true)
					continue
				}
			}
			t := in.target
			switch {
			case e.start != nil && e.start.group&(1<<uint(t)) != 0:
				inf.epoch, inf.opener, inf.startJ = epPSCW, e.start, startCnt[t]
			case e.lockHeld[t] != nil:
				inf.epoch, inf.opener = epPassive, e.lockHeld[t]
			case e.lockAll != nil:
				inf.epoch, inf.opener = epPassive, e.lockAll
			case e.fences > 0 && e.fenceOpen && laterFence(k, in.win):
				inf.epoch, inf.opener, inf.epochK = epFence, u.fences[[2]int{in.win, proc}][e.fences-1], e.fences
				if in.kind != kRLoad {
					e.issued++ // a remote load completes at once: no fence completes it
				}
			default:
				if e.fences > 0 && !e.fenceOpen && laterFence(k, in.win) && in.kind != kRLoad {
					// an RMA call after a fence that asserted nosucceed; a remote load
					// under ls_is_rma, which completes at once, starts no sequence the
					// next fence would complete (noprecede does not count it either)
					fail(inf, spec.EAssert, false)
				}
				fail(inf, spec.EEpoch, true)
			}
		case kFence:
			if e.start != nil || len(e.lockHeld) > 0 || e.lockAll != nil {
				fail(inf, spec.EEpochMix, false) // flagged, and the fence still runs
			}
			if in.has(assertNostore) && e.stored {
				fail(inf, spec.EAssert, false) // nostore, but the caller stored to its segment
			}
			if in.has(assertNoprecede) && e.issued > 0 {
				fail(inf, spec.EAssert, false) // noprecede, but it closes an epoch with operations
			}
			e.fences++
			e.fenceOpen = !in.has(assertNosucceed)
			e.issued, e.stored = 0, false
			inf.fenceK = e.fences
			key := [2]int{in.win, proc}
			if n := len(u.fences[key]); n > 0 {
				u.info[u.fences[key][n-1]].closer = in
			}
			u.fences[key] = append(u.fences[key], in)
		case kPost:
			if e.post != nil {
				fail(inf, spec.EEpochMix, true)
				e.stored = false // an R5 point even so
				continue
			}
			if in.has(assertNostore) && e.stored {
				fail(inf, spec.EAssert, false)
			}
			e.stored = false
			e.post = in
			for o := 0; o < p.nprocs; o++ {
				if in.group&(1<<uint(o)) != 0 {
					postCnt[o]++
					u.postOf[[3]int{proc, o, postCnt[o]}] = in
				}
			}
		case kStart:
			if e.start != nil {
				fail(inf, spec.EEpochMix, true)
				continue
			}
			if len(e.lockHeld) > 0 || e.lockAll != nil {
				fail(inf, spec.EEpochMix, false)
			}
			e.start = in
			for t := 0; t < p.nprocs; t++ {
				if in.group&(1<<uint(t)) != 0 {
					startCnt[t]++
					u.startOf[[3]int{proc, t, startCnt[t]}] = in
				}
			}
		case kComplete:
			if e.start == nil {
				fail(inf, spec.EEpoch, true) // ending an epoch that is not open
				continue
			}
			for t := 0; t < p.nprocs; t++ {
				if e.start.group&(1<<uint(t)) != 0 {
					doneCnt[t]++
					u.complOf[[3]int{proc, t, doneCnt[t]}] = in
				}
			}
			u.info[e.start].closer = in
			e.start = nil
		case kWait:
			if e.post == nil {
				fail(inf, spec.EEpoch, true) // ending an epoch that is not open
				continue
			}
			for o := 0; o < p.nprocs; o++ {
				if e.post.group&(1<<uint(o)) != 0 {
					u.waitOf[[3]int{o, proc, postCnt[o]}] = in
				}
			}
			u.info[e.post].closer = in
			e.post = nil
		case kLock:
			if e.lockHeld[in.target] != nil || e.lockAll != nil {
				fail(inf, spec.EEpochMix, true)
				continue
			}
			if p.wins[in.win].noLocks {
				fail(inf, spec.EInfo, false)
			}
			if e.start != nil {
				fail(inf, spec.EEpochMix, false) // a lock inside a start epoch
			}
			e.lockHeld[in.target] = in
		case kUnlock:
			l := e.lockHeld[in.target]
			if l == nil {
				fail(inf, spec.EEpoch, true) // ending an epoch that is not open
				continue
			}
			u.info[l].closer = in
			delete(e.lockHeld, in.target)
		case kLockAll:
			if len(e.lockHeld) > 0 || e.lockAll != nil {
				fail(inf, spec.EEpochMix, true)
				continue
			}
			if p.wins[in.win].noLocks {
				fail(inf, spec.EInfo, false)
			}
			if e.start != nil {
				fail(inf, spec.EEpochMix, false)
			}
			e.lockAll = in
		case kUnlockAll:
			if e.lockAll == nil {
				fail(inf, spec.EEpoch, true) // ending an epoch that is not open
				continue
			}
			u.info[e.lockAll].closer = in
			e.lockAll = nil
		case kFlush, kFlushLocal:
			if e.lockHeld[in.target] == nil && e.lockAll == nil {
				fail(inf, spec.ESyncEpoch, true)
			}
		case kFlushAll, kFlushLocalAll, kSync:
			if len(e.lockHeld) == 0 && e.lockAll == nil {
				fail(inf, spec.ESyncEpoch, true)
			}
		case kBarrier:
			u.barriers[proc] = append(u.barriers[proc], in)
		case kSend:
			key := [2]int{proc, in.target}
			u.sends[key] = append(u.sends[key], in)
		case kRecv:
			key := [2]int{in.target, proc}
			u.recvs[key] = append(u.recvs[key], in)
		}
	}
	// E-EPOCH-END: epochs still open when the process ends (judged only when it ends)
	for w := range st {
		e := &st[w]
		for _, l := range e.lockHeld {
			u.info[l].openAtEnd = true
		}
		for _, l := range []*ins{e.lockAll, e.start, e.post} {
			if l != nil {
				u.info[l].openAtEnd = true
			}
		}
	}
}

// lsProblem: a load/store of another rank's segment needs load/store access: an
// allocate_shared window (no shared_query in scope), and never a separate window's
// (docs/rules.md, E-LS-ACCESS, E-SEPARATE-SHM).
func (u *universe) lsProblem(in *ins) spec.RuleID {
	if !in.remote {
		return spec.NoRule
	}
	if u.p.wins[in.win].flavor == litmus.FlavorAllocateShared {
		return spec.NoRule
	}
	return spec.ELSAccess
}

// describe is an event as a witness prints it.
func (u *universe) describe(i int) string {
	e := u.events[i]
	switch e.kind {
	case eNever:
		return "never"
	case eProgram:
		return "the program"
	case eInit:
		return fmt.Sprintf("init %s=%d", u.p.cells[e.cell].name, u.p.cellInit[e.cell])
	case ePerform:
		return fmt.Sprintf("perform %s (P%d row %d)", e.in.text, e.proc, e.in.row)
	case eDrain:
		return fmt.Sprintf("drain %s (P%d row %d)", e.in.text, e.proc, e.in.row)
	}
	s := fmt.Sprintf("P%d row %d: %s", e.proc, e.in.row, e.in.text)
	switch e.kind {
	case eRet:
		s += "  (returns)"
	case eRead:
		s += "  (reads)"
	case eCommit:
		s += "  (commits)"
	}
	if e.kind == eExec && e.in.twoPhase() && !u.info[e.in].skip {
		s += "  (arrives)"
	}
	if u.info[e.in].skip {
		s += "  (guard false: skipped)"
	}
	return s
}

// ordered lists the events of proc in program order.
func (u *universe) procEvents(proc int) []int {
	var out []int
	for i, e := range u.events {
		if e.proc == proc && e.kind != ePerform && e.kind != eDrain {
			out = append(out, i)
		}
	}
	return out
}
