package axiom

import (
	"github.com/rmacheck/rmacheck/axiom/cat"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The base names: the sets and relations the engine gives a model file, the
// vocabulary its axioms are written in. Each is what the program's text and the
// control flow fix (static), or a choice of the candidate execution (dynamic: rf,
// co, lo, bufo). Docs (docs/axioms.md) lists them from this table.

type baseName struct {
	name string
	info cat.BaseInfo
}

func set(doc string) cat.BaseInfo { return cat.BaseInfo{Type: cat.TSet, Doc: doc} }
func rel(doc string) cat.BaseInfo { return cat.BaseInfo{Type: cat.TRel, Doc: doc} }
func dyn(doc string) cat.BaseInfo { return cat.BaseInfo{Type: cat.TRel, Dynamic: true, Doc: doc} }

// Bases lists the base names, in the order docs print them.
var Bases = []baseName{
	{"IW", set("the initial write of each cell")},
	{"NEVER", set("⊥: the event that never happens, the partner of a call whose partner the program lacks")},
	{"R", set("memory reads: a plain load's read, a remote load under ls_is_rma, the perform of a get, gacc, fop or cas")},
	{"W", set("memory writes: a plain store, the perform of a put, acc, gacc or fop (but no_op), cas, or of a remote store under ls_is_rma; the initial writes")},
	{"IN", set("the first event of each instruction (the arrival of a fence or barrier, the read of a relaxed load)")},
	{"OUT", set("the last event of each instruction (the return of a fence or barrier, the commit of a relaxed load); the same event as IN for the others")},
	{"PERF", set("the perform of each RMA operation issued")},
	{"DRAIN", set("hw tso: a store's drain from the store buffer to memory (its write)")},
	{"ISSUE", set("the issue of each RMA operation issued in an epoch (its call's event), a remote store's under ls_is_rma included")},
	{"MPI", set("the events of MPI calls (remote loads and stores under ls_is_rma included)")},
	{"SKIP", set("the events of instructions whose guard is false")},
	{"NOEFF", set("the events of erroneous calls that have no effect (docs/rules.md: the call is flagged and the execution goes on)")},
	{"LOAD", set("plain loads")}, {"STORE", set("plain stores")},
	{"RLOAD", set("remote loads under ls_is_rma")}, {"RSTORE", set("remote stores under ls_is_rma (issue and perform)")},
	{"RMA", set("put, get, acc, gacc, fop, cas (issue and perform)")},
	{"PUT", set("put")}, {"GET", set("get")}, {"ACC", set("acc")}, {"GACC", set("gacc")}, {"FOP", set("fop")}, {"CAS", set("cas")},
	{"UPD", set("operations that write their target cell: put, acc, gacc and fop but no_op, cas, remote stores")},
	{"FETCH", set("operations with a result: get, gacc, fop, cas")},
	{"RO", set("read-only fetching operations: get, gacc and fop with no_op")},
	{"ACCUM", set("accumulates: acc, gacc, fop, cas")},
	{"FENCE", set("fence")}, {"POST", set("post")}, {"START", set("start")}, {"COMPLETE", set("complete")}, {"WAIT", set("wait")},
	{"LOCK", set("lock")}, {"UNLOCK", set("unlock")}, {"LOCKALL", set("lock_all")}, {"UNLOCKALL", set("unlock_all")},
	{"FLUSH", set("flush (one target)")}, {"FLUSHALL", set("flush_all")}, {"FLUSHLOCAL", set("flush_local")}, {"FLUSHLOCALALL", set("flush_local_all")},
	{"SYNC", set("sync (MPI_Win_sync)")}, {"BARRIER", set("barrier")}, {"SEND", set("send")}, {"RECV", set("recv")}, {"ARITH", set("register arithmetic")},
	{"IN-FENCE", set("issues and performs of operations in a fence epoch")},
	{"IN-PSCW", set("issues and performs of operations in a start epoch")},
	{"IN-PASSIVE", set("issues and performs of operations in a lock or lock_all epoch")},
	{"SELF", set("lock and unlock calls whose target is the caller")},
	{"SAMEOP", set("operations on windows with accumulate_ops=same_op")},
	{"ERR-EPOCH", set("RMA calls (and remote loads/stores under ls_is_rma) outside an access epoch to their target; unlock, unlock_all, complete, wait with no epoch to end")},
	{"ERR-SYNC-EPOCH", set("flush*, sync outside a passive-target epoch")},
	{"ERR-EPOCH-MIX", set("calls that mix epochs in the caller's own state: a second lock to a target, lock_all inside a lock epoch, a nested start or post, a fence or start in a lock epoch, a lock in a start epoch")},
	{"ERR-INFO", set("lock or lock_all on a window created with no_locks=true")},
	{"ERR-LS-ACCESS", set("loads and stores of another rank's segment without load/store access")},
	{"ERR-ASSERT", set("calls whose assertion the program's text shows false (nostore after a store, noprecede closing an epoch with operations, an RMA call after nosucceed, an update into a noput epoch), and the program when the members of a fence disagree on noprecede or nosucceed or a post and its start on nocheck")},
	{"PROGRAM", set("the program itself, always there: the errors its text alone decides are raised on it")},
	{"NOCHECK", set("calls asserting nocheck (start, post, lock, lock_all)")},
	{"NOPRECEDE", set("fences asserting noprecede (one event: no barrier)")},
	{"NOSUCCEED", set("fences asserting nosucceed (they open no epoch)")},
	{"OPEN-END", set("the calls that opened an epoch still open when their process finishes")},
	{"STUCK", set("the calls that a process of a deadlocked execution waits in forever (not executed)")},
	{"po", rel("program order: the events of one process, instruction by instruction (an instruction's first event before its last)")},
	{"ins", rel("the events of one instruction")},
	{"int", rel("the events of one process")},
	{"loc", rel("events on the same cell: accesses, RMA calls (at issue, their target cell), performs, initial writes")},
	{"data", rel("the instruction writes a register that the other's operands read")},
	{"ctrl", rel("the instruction writes a register that the other's guard reads")},
	{"regdep", rel("the instruction writes a register the other writes, or reads a register the other writes")},
	{"same-win", rel("events of calls, accesses and operations on the same window")},
	{"same-target", rel("events whose target rank (of the operation, lock, unlock, flush) is the same")},
	{"to-target", rel("from an event to the events of the process it targets (every member of the group for lock_all, unlock_all, flush_all)")},
	{"own", rel("from a call to the accesses of the caller's own segment of the call's window (an MB of scope own)")},
	{"iss", rel("from the issue of an RMA operation to its perform")},
	{"drain", rel("hw tso: from a store's execution (into the buffer) to its drain")},
	{"fwd", rel("store forwarding: from the store a load may read before it reaches memory to the load (relaxed: the latest earlier unguarded store to the cell; tso: the latest earlier store)")},
	{"obuf", rel("from an RMA call to a later instruction whose operands or result touch its origin buffer before the call that completes it at the origin (only when the instruction's guard holds)")},
	{"obuf-guard", rel("the same, for an instruction whose guard reads the call's result register (whether the guard holds or not)")},
	{"obuf-wait", rel("from the call completing an RMA operation to a later instruction touching its origin buffer, which waits for it")},
	{"obuf-commit", rel("the same, for a relaxed load that reads the buffer only through its guard: its commit waits")},
	{"epoch", rel("from an operation (issue and perform) to the call that opened its access epoch (the fence's return)")},
	{"closer", rel("from the call opening an epoch (a fence's return) to the call closing it (the next fence's arrival, unlock, unlock_all, complete, wait)")},
	{"fgen", rel("the events of the fences of one generation on one window (the k-th fence of every member)")},
	{"farr", rel("from each member's arrival at a fence to every member's return from it; from NEVER when a member lacks that fence")},
	{"barr", rel("from each process's arrival at a barrier to every return from it; from NEVER when one lacks it")},
	{"ps", rel("from a post to the start it matches; from NEVER to a start whose post is missing")},
	{"cw", rel("from a complete to the wait it matches; from NEVER to a wait whose complete is missing")},
	{"sr", rel("from a send to the recv it matches; from NEVER to a recv with no send")},
	{"expose", rel("from an operation (issue, perform, remote load) to the target's call exposing it: the return of its fence of the same generation, or its post matching the start; NEVER when missing")},
	{"aord", rel("performs kept in issue order: accumulates of one origin to one cell, as accumulate_ordering says")},
	{"same-op", rel("accumulates with the same op")},
	{"lock-conf", rel("lock and lock_all calls of different processes on one window that exclude each other (a common target, one exclusive)")},
	{"rf", dyn("reads-from: from a write to each read of its value (chosen)")},
	{"co", dyn("coherence: the order of the writes to each cell, the initial one first (chosen)")},
	{"lo", dyn("lock order: from a lock epoch to a conflicting one of the same target that acquires after its unlock (chosen)")},
	{"bufo", dyn("origin buffer order: which of a fetch's perform and an instruction touching its result register first (chosen, when E-ORIGIN-BUF leaves it open)")},
}

func baseInfos() map[string]cat.BaseInfo {
	m := map[string]cat.BaseInfo{}
	for _, b := range Bases {
		m[b.name] = b.info
	}
	return m
}

// frameOf builds the frame of a model over the events evs of u (global ids): the
// static base names, indexed locally (local i is global evs[i]).
func (u *universe) frameOf(c *cat.Compiled, evs []int, cond func(string) bool, finished []bool, stuck []int) *cat.Frame {
	n := len(evs)
	local := map[int]int{}
	for i, g := range evs {
		local[g] = i
	}
	f := c.NewFrame(n, cond)
	b := &builder{u: u, n: n, evs: evs, local: local, sets: map[string]cat.Set{}, rels: map[string]cat.Rel{}}
	b.build(finished, stuck)
	for name, s := range b.sets {
		f.SetBaseSet(name, s)
	}
	for name, r := range b.rels {
		f.SetBaseRel(name, r)
	}
	for _, bn := range Bases {
		if bn.info.Dynamic {
			continue
		}
		if bn.info.Type == cat.TSet {
			if _, ok := b.sets[bn.name]; !ok {
				f.SetBaseSet(bn.name, cat.NewSet(n))
			}
		} else if _, ok := b.rels[bn.name]; !ok {
			f.SetBaseRel(bn.name, cat.NewRel(n))
		}
	}
	return f
}

type builder struct {
	u     *universe
	n     int
	evs   []int
	local map[int]int
	sets  map[string]cat.Set
	rels  map[string]cat.Rel
}

func (b *builder) addSet(name string, i int) {
	s, ok := b.sets[name]
	if !ok {
		s = cat.NewSet(b.n)
		b.sets[name] = s
	}
	s.Add(i)
}

func (b *builder) addRel(name string, i, j int) {
	r, ok := b.rels[name]
	if !ok {
		r = cat.NewRel(b.n)
		b.rels[name] = r
	}
	r.Add(i, j)
}

// insEvents are the local events of an instruction (not its perform).
func (b *builder) insEvents(in *ins) []int {
	var out []int
	f, l := b.u.first[in], b.u.last[in]
	if i, ok := b.local[f]; ok {
		out = append(out, i)
	}
	if l != f {
		if i, ok := b.local[l]; ok {
			out = append(out, i)
		}
	}
	return out
}

func (b *builder) ev(g int) (int, bool) { i, ok := b.local[g]; return i, ok }

// liftIns relates every event of a to every event of b.
func (b *builder) liftIns(name string, x, y *ins) {
	for _, i := range b.insEvents(x) {
		for _, j := range b.insEvents(y) {
			b.addRel(name, i, j)
		}
	}
}

var kindSets = map[kind]string{
	kLoad: "LOAD", kStore: "STORE", kRLoad: "RLOAD", kRStore: "RSTORE", kRMA: "RMA", kFence: "FENCE", kPost: "POST",
	kStart: "START", kComplete: "COMPLETE", kWait: "WAIT", kLock: "LOCK", kUnlock: "UNLOCK", kLockAll: "LOCKALL",
	kUnlockAll: "UNLOCKALL", kFlush: "FLUSH", kFlushAll: "FLUSHALL", kFlushLocal: "FLUSHLOCAL",
	kFlushLocalAll: "FLUSHLOCALALL", kSync: "SYNC", kBarrier: "BARRIER", kSend: "SEND", kRecv: "RECV", kArith: "ARITH",
}

var opSets = map[litmus.Op]string{litmus.OpPut: "PUT", litmus.OpGet: "GET", litmus.OpAcc: "ACC", litmus.OpGacc: "GACC", litmus.OpFop: "FOP", litmus.OpCas: "CAS"}

var errSets = map[spec.RuleID]string{spec.EEpoch: "ERR-EPOCH", spec.ESyncEpoch: "ERR-SYNC-EPOCH", spec.EEpochMix: "ERR-EPOCH-MIX",
	spec.EInfo: "ERR-INFO", spec.ELSAccess: "ERR-LS-ACCESS", spec.EAssert: "ERR-ASSERT"}

func (b *builder) build(finished []bool, stuck []int) {
	u, p := b.u, b.u.p
	for _, g := range stuck {
		if i, ok := b.ev(g); ok {
			b.addSet("STUCK", i)
		}
	}
	// event sets
	for i, g := range b.evs {
		e := u.events[g]
		switch e.kind {
		case eNever:
			b.addSet("NEVER", i)
			continue
		case eProgram:
			b.addSet("PROGRAM", i)
			for _, r := range u.programErrs {
				b.addSet(errSets[r], i)
			}
			continue
		case eInit:
			b.addSet("IW", i)
			b.addSet("W", i)
			continue
		}
		if e.read {
			b.addSet("R", i)
		}
		if e.write {
			b.addSet("W", i)
		}
		in := e.in
		inf := u.info[in]
		switch e.kind {
		case ePerform:
			b.addSet("PERF", i)
		case eDrain:
			b.addSet("DRAIN", i)
		default:
			if g == u.first[in] {
				b.addSet("IN", i)
			}
			if g == u.last[in] {
				b.addSet("OUT", i)
			}
			if in.kind.mpi() {
				b.addSet("MPI", i)
			}
			if inf.skip {
				b.addSet("SKIP", i)
			}
			if inf.noEff {
				b.addSet("NOEFF", i)
			}
			if e.kind == eExec && (in.kind == kRMA || in.kind == kRStore) && !inf.skip && !inf.noEff {
				b.addSet("ISSUE", i)
			}
			for _, r := range inf.errs {
				if name, ok := errSets[r]; ok {
					b.addSet(name, i)
				}
			}
			if inf.openAtEnd && finished[in.proc] {
				b.addSet("OPEN-END", i)
			}
		}
		b.addSet(kindSets[in.kind], i)
		if name, ok := opSets[in.op]; ok && in.kind == kRMA {
			b.addSet(name, i)
		}
		if in.kind == kRMA || in.kind == kRStore {
			if in.updates() {
				b.addSet("UPD", i)
			}
			if in.fetches() {
				b.addSet("FETCH", i)
			}
			if in.fetches() && !in.updates() {
				b.addSet("RO", i)
			}
			if in.accumulate() {
				b.addSet("ACCUM", i)
			}
			if p.wins[in.win].sameOp {
				b.addSet("SAMEOP", i)
			}
		}
		switch inf.epoch {
		case epFence:
			b.addSet("IN-FENCE", i)
		case epPSCW:
			b.addSet("IN-PSCW", i)
		case epPassive:
			b.addSet("IN-PASSIVE", i)
		}
		if (in.kind == kLock || in.kind == kUnlock) && in.target == in.proc {
			b.addSet("SELF", i)
		}
		for bit, name := range map[uint8]string{assertNocheck: "NOCHECK", assertNoprecede: "NOPRECEDE", assertNosucceed: "NOSUCCEED"} {
			if in.has(bit) && e.kind != ePerform && e.kind != eDrain {
				b.addSet(name, i)
			}
		}
	}
	b.pairs()
	b.instrRelations()
	b.syncRelations()
}

// pairs are the relations decided event by event.
func (b *builder) pairs() {
	u, p := b.u, b.u.p
	for i, gi := range b.evs {
		ei := u.events[gi]
		for j, gj := range b.evs {
			ej := u.events[gj]
			if ei.proc >= 0 && ei.proc == ej.proc {
				b.addRel("int", i, j)
				if ei.in == ej.in && instrEvent(ei) && instrEvent(ej) {
					b.addRel("ins", i, j)
				}
			}
			if sharesCell(b.cellsOf(gi), b.cellsOf(gj)) {
				b.addRel("loc", i, j)
			}
			if ei.in == nil || ej.in == nil {
				continue
			}
			if ei.in.win >= 0 && ei.in.win == ej.in.win {
				b.addRel("same-win", i, j)
			}
			if instrEvent(ei) && instrEvent(ej) && (ei.in.kind == kLock || ei.in.kind == kLockAll) && (ej.in.kind == kLock || ej.in.kind == kLockAll) && u.locksConflict(ei.in, ej.in) {
				b.addRel("lock-conf", i, j)
			}
			if ei.in.target >= 0 && ei.in.target == ej.in.target && ei.in.kind != kSend && ei.in.kind != kRecv && ej.in.kind != kSend && ej.in.kind != kRecv {
				b.addRel("same-target", i, j)
			}
			if instrEvent(ej) {
				switch ei.in.kind {
				case kLockAll, kUnlockAll, kFlushAll, kFlushLocalAll:
					if p.wins[ei.in.win].group&(1<<uint(ej.proc)) != 0 {
						b.addRel("to-target", i, j)
					}
				default:
					if ei.in.target >= 0 && ei.in.target == ej.proc && ei.in.kind != kSend && ei.in.kind != kRecv {
						b.addRel("to-target", i, j)
					}
				}
			}
			// own: a call of ei's process on its window, to an access of a cell of the
			// caller's segment of that window
			if instrEvent(ei) && ei.in.win >= 0 && ei.in.kind.mpi() && instrEvent(ej) && ej.in.kind.hasCell() {
				for _, cj := range ej.in.cells() {
					if c := p.cells[cj]; c.win == ei.in.win && c.rank == ei.proc {
						b.addRel("own", i, j)
						break
					}
				}
			}
			// po: events of one process, by instruction, an instruction's first event
			// before its last
			if ei.proc >= 0 && ei.proc == ej.proc && instrEvent(ei) && instrEvent(ej) {
				if ei.in.idx < ej.in.idx || ei.in == ej.in && gi == u.first[ei.in] && gj == u.last[ei.in] && gi != gj {
					b.addRel("po", i, j)
				}
			}
		}
	}
}

// cellsOf are the cells an event is about: its memory access, or its
// instruction's (an RMA call at issue, all its elements'; a skipped access).
func (b *builder) cellsOf(g int) []int {
	e := b.u.events[g]
	if e.kind == eInit || e.kind == ePerform || e.kind == eDrain {
		return []int{e.cell}
	}
	if e.in != nil && e.in.kind.hasCell() {
		return e.in.cells()
	}
	return nil
}

func sharesCell(a, b []int) bool { return overlaps(a, b) }

// instrRelations are the relations between instructions of one process: register
// dependencies, store forwarding, origin buffers, accumulate order.
func (b *builder) instrRelations() {
	u, p := b.u, b.u.p
	for proc, code := range p.procs {
		for j, y := range code {
			for _, x := range code[:j] {
				if overlaps(x.writeRegs(), y.argRegs()) {
					b.liftIns("data", x, y)
				}
				if overlaps(x.writeRegs(), y.guardRegs()) {
					b.liftIns("ctrl", x, y)
				}
				if overlaps(x.writeRegs(), y.writeRegs()) || overlaps(append(x.argRegs(), x.guardRegs()...), y.writeRegs()) {
					b.liftIns("regdep", x, y)
				}
			}
			if y.kind == kLoad {
				if w := u.forwardFrom(proc, j); w != nil {
					from := b.insEvents(w)
					if d, ok := u.drain[w]; ok { // tso: the drain is the store's write
						from = nil
						if di, ok := b.ev(d); ok {
							from = []int{di}
						}
					}
					for _, wi := range from {
						if yi, ok := b.ev(u.first[y]); ok {
							b.addRel("fwd", wi, yi)
						}
					}
				}
			}
		}
		b.originBuffers(proc)
		b.accumulateOrder(proc)
	}
}

// forwardFrom is the store a load may read before that store reaches memory
// (docs/semantics.md#hardware-models): relaxed, the latest earlier store to the cell when it is not
// guarded; tso, the latest earlier store executed (its buffer's newest entry).
func (u *universe) forwardFrom(proc, j int) *ins {
	code := u.p.procs[proc]
	y := code[j]
	for k := j - 1; k >= 0; k-- {
		x := code[k]
		if x.kind != kStore || x.cell != y.cell {
			continue
		}
		switch u.hw {
		case spec.Relaxed:
			if x.guard != nil {
				return nil
			}
			return x
		case spec.TSO:
			if !u.effective(x) {
				continue
			}
			return x
		}
		return nil
	}
	return nil
}

func overlaps(a, b []int) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// completer is the first later call of the process that completes RMA operation a at
// the origin (docs/semantics.md#rma-operations, R1): fence, complete, unlock_all on its window; unlock,
// flush, flush_local of its target or flush_all, flush_local_all on its window. Only
// a call that runs and has its effect completes anything.
func (u *universe) completer(a *ins) *ins {
	for _, c := range u.p.procs[a.proc][a.idx+1:] {
		if c.win != a.win || !u.effective(c) {
			continue
		}
		switch c.kind {
		case kFence, kComplete, kUnlockAll, kFlushAll, kFlushLocalAll:
			return c
		case kUnlock, kFlush, kFlushLocal:
			if c.target == a.target {
				return c
			}
		}
	}
	return nil
}

// touchesBuffer: y's guard reads a's result register (guard: whether the guard
// holds or not), or the rest of y reads or writes it, or writes a's source register
// (body: only when y's guard holds, docs/semantics.md#hardware-models, "a guard found false cancels
// it").
func touchesBuffer(a, y *ins) (guard, body bool) {
	res := a.resultRegs()
	guard = overlaps(res, y.guardRegs())
	body = overlaps(res, y.argRegs()) || overlaps(res, y.writeRegs())
	return guard, body || overlaps(a.argRegs(), y.writeRegs())
}

func (b *builder) originBuffers(proc int) {
	u, p := b.u, b.u.p
	code := p.procs[proc]
	for _, a := range code {
		if a.kind != kRMA || !u.effective(a) {
			continue
		}
		c := u.completer(a)
		for _, y := range code[a.idx+1:] {
			guard, body := touchesBuffer(a, y)
			if !guard && !body {
				continue
			}
			switch {
			case c == nil || y.idx < c.idx:
				name := "obuf"
				if guard {
					name = "obuf-guard"
				}
				for _, ai := range b.insEvents(a) {
					for _, yi := range b.insEvents(y) {
						b.addRel(name, ai, yi)
					}
				}
			case y.idx > c.idx && u.hw == spec.Relaxed && y.kind == kLoad && a.fetches() && !overlaps(a.resultRegs(), append(y.argRegs(), y.writeRegs()...)):
				b.liftIns("obuf-commit", c, y)
			case y.idx > c.idx:
				b.liftIns("obuf-wait", c, y)
			}
		}
	}
}

// accumulateOrder: accumulates from one origin to one cell perform in issue order,
// for the pairs the later one's window's accumulate_ordering lists (node338).
func (b *builder) accumulateOrder(proc int) {
	u, p := b.u, b.u.p
	code := p.procs[proc]
	for j, y := range code {
		if !y.accumulate() {
			continue
		}
		for _, py := range u.perf[y] {
			ey := u.events[py]
			for _, x := range code[:j] {
				if !x.accumulate() || !accOrdered(p.wins[y.win].accOrder, x, y) {
					continue
				}
				for _, px := range u.perf[x] {
					if u.events[px].cell != ey.cell {
						continue
					}
					li, ok1 := b.ev(px)
					lj, ok2 := b.ev(py)
					if ok1 && ok2 {
						b.addRel("aord", li, lj)
					}
				}
			}
		}
	}
}

func accOrdered(order uint8, a, b *ins) bool {
	aw, ar := a.updates(), a.readsTarget()
	bw, br := b.updates(), b.readsTarget()
	return aw && bw && order&ordWAW != 0 || aw && br && order&ordRAW != 0 ||
		ar && bw && order&ordWAR != 0 || ar && br && order&ordRAR != 0
}

// syncRelations are the relations between the calls that synchronize processes and
// the operations their epochs hold (docs/semantics.md#rma-operations, #synchronization): which call matches which,
// and which epoch an operation is in.
func (b *builder) syncRelations() {
	u, p := b.u, b.u.p
	never, hasNever := b.ev(u.never)
	from := func(name string, x *ins, y *ins, yEvent int) {
		if yi, ok := b.ev(yEvent); ok {
			if x == nil {
				if hasNever {
					b.addRel(name, never, yi)
				}
				return
			}
			if xi, ok := b.ev(u.first[x]); ok {
				b.addRel(name, xi, yi)
			}
		}
	}
	for _, code := range p.procs {
		for _, in := range code {
			inf := u.info[in]
			targets := map[string][]int{"iss": u.perf[in]}
			if d, ok := u.drain[in]; ok {
				targets["drain"] = []int{d}
			}
			for name, evs := range targets {
				for _, pf := range evs {
					if ii, ok1 := b.ev(u.first[in]); ok1 {
						if pi, ok2 := b.ev(pf); ok2 {
							b.addRel(name, ii, pi)
						}
					}
				}
			}
			// epoch: the operation to the call that opened its epoch (a fence's return)
			if inf.opener != nil {
				for _, g := range u.opEvents(in) {
					oi, ok1 := b.ev(u.last[inf.opener])
					gi, ok2 := b.ev(g)
					if ok1 && ok2 {
						b.addRel("epoch", gi, oi)
					}
				}
				b.expose(in, inf)
			}
			if inf.closer != nil {
				if oi, ok := b.ev(u.last[in]); ok {
					if ci, ok := b.ev(u.first[inf.closer]); ok {
						b.addRel("closer", oi, ci)
					}
				}
			}
			if in.accumulate() {
				for _, code2 := range p.procs {
					for _, o := range code2 {
						if o.accumulate() && o.accOp == in.accOp {
							b.liftPerf("same-op", in, o)
						}
					}
				}
			}
		}
	}
	// fence generations
	for w := range p.wins {
		members := p.wins[w].group
		maxK := 0
		for proc := 0; proc < p.nprocs; proc++ {
			maxK = max(maxK, len(u.fences[[2]int{w, proc}]))
		}
		for k := 0; k < maxK; k++ {
			var gen []*ins
			missing := false
			for proc := 0; proc < p.nprocs; proc++ {
				if members&(1<<uint(proc)) == 0 {
					continue
				}
				fs := u.fences[[2]int{w, proc}]
				if k < len(fs) {
					gen = append(gen, fs[k])
				} else {
					missing = true
				}
			}
			b.generation("fgen", "farr", gen, missing)
		}
	}
	maxB := 0
	for _, bs := range u.barriers {
		maxB = max(maxB, len(bs))
	}
	for k := 0; k < maxB; k++ {
		var gen []*ins
		missing := false
		for _, bs := range u.barriers {
			if k < len(bs) {
				gen = append(gen, bs[k])
			} else {
				missing = true
			}
		}
		b.generation("", "barr", gen, missing)
	}
	// post -> start, complete -> wait, send -> recv
	for key, s := range u.startOf {
		o, t, j := key[0], key[1], key[2]
		from("ps", u.postOf[[3]int{t, o, j}], s, u.first[s])
	}
	for key, w := range u.waitOf {
		from("cw", u.complOf[key], w, u.first[w])
	}
	for key, rs := range u.recvs {
		ss := u.sends[key]
		for k, r := range rs {
			var s *ins
			if k < len(ss) {
				s = ss[k]
			}
			from("sr", s, r, u.first[r])
		}
	}
}

// liftPerf relates the issue and perform events of x to those of y.
func (b *builder) liftPerf(name string, x, y *ins) {
	evs := func(in *ins) []int {
		out := b.insEvents(in)
		for _, pf := range b.u.perf[in] {
			if i, ok := b.ev(pf); ok {
				out = append(out, i)
			}
		}
		return out
	}
	for _, i := range evs(x) {
		for _, j := range evs(y) {
			b.addRel(name, i, j)
		}
	}
}

// generation relates the calls of one generation of a collective: gen (each
// member's events to each other's, when genName is set), and each arrival to every
// return (from NEVER when a member lacks the call).
func (b *builder) generation(genName, arrName string, gen []*ins, missing bool) {
	u := b.u
	never, hasNever := b.ev(u.never)
	for _, x := range gen {
		for _, y := range gen {
			if genName != "" {
				b.liftIns(genName, x, y)
			}
			xi, ok1 := b.ev(u.first[x])
			yi, ok2 := b.ev(u.last[y])
			if ok1 && ok2 && y.twoPhase() {
				b.addRel(arrName, xi, yi)
			}
		}
		if yi, ok := b.ev(u.last[x]); ok && missing && hasNever && x.twoPhase() {
			b.addRel(arrName, never, yi)
		}
	}
}

// expose relates an operation (its issue, its perform, a remote load) to the
// target's call that exposes the target to it (docs/semantics.md#rma-operations, "Perform"): the
// return of the target's fence of the epoch's generation, or the post matching the
// start; NEVER when the target makes no such call.
func (b *builder) expose(in *ins, inf *info) {
	u := b.u
	var by int
	switch inf.epoch {
	case epFence:
		fs := u.fences[[2]int{in.win, in.target}]
		if inf.epochK <= len(fs) {
			by = u.last[fs[inf.epochK-1]]
		} else {
			by = u.never
		}
	case epPSCW:
		post := u.postOf[[3]int{in.target, in.proc, inf.startJ}]
		if post == nil {
			by = u.never
		} else {
			by = u.first[post]
		}
	default:
		return
	}
	bi, ok := b.ev(by)
	if !ok {
		return
	}
	for _, g := range u.opEvents(in) {
		if gi, ok := b.ev(g); ok {
			b.addRel("expose", gi, bi)
		}
	}
}

// opEvents are an operation's issue and perform (a remote load's one event).
func (u *universe) opEvents(in *ins) []int {
	return append([]int{u.first[in]}, u.perf[in]...)
}

// instrEvent: an event of an instruction's own steps (not a perform or a drain, not
// an initial write or NEVER).
func instrEvent(e event) bool {
	return e.in != nil && e.kind != ePerform && e.kind != eDrain
}
