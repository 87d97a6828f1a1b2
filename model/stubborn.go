package model

import (
	"math/bits"

	"github.com/rmacheck/rmacheck/spec"
)

// The third reduction: stubborn sets (Valmari; Godefroid's persistent sets built
// from them). The singleton rules (reduce.go, independent.go) take a step alone
// when it commutes with everything the others can still do. On a ring of
// almost-independent accesses (an SB ring, a message chain, IRIW) no step does: each
// load conflicts with one other process's store. A stubborn set then takes a few
// steps instead of all: in a state, a set T of transitions such that
//
//   - for each enabled t in T, every transition (of any process, enabled now or
//     later) dependent on t is in T;
//   - for each disabled t in T, a necessary enabling set of t is in T: transitions
//     one of which must occur before t can be enabled;
//
// and the search expands only T's enabled transitions. Every path from the state
// to a final state is then equivalent, by swapping adjacent independent steps, to
// one that starts with a step of T (Valmari's theorem; the state graph is acyclic,
// so no cycle proviso is needed): final states, and so outcomes, are kept. Each
// state picks the smallest such set over seeds (one per enabled transition).
//
// Transitions are labels: Exec(q,j), instruction j of process q, and Drain(q), the
// tso store buffer of q writing its oldest entry to memory. Dependence is static
// and conservative:
//
//   - two plain accesses of different processes: same (or overlapping) cell and one
//     of them a store, or a candidate pair of the concurrency checks (§7);
//   - a plain access and a drain of another process: the drain may write the cell;
//   - two drains: they may write one cell;
//   - two transitions of one process: both can be enabled at once (neither must
//     precede the other) and they share a cell (one writing) or a register (one
//     writing), or one of them is an MPI call other than a remote store's issue
//     (which touches its registers and slot only: accessLike);
//   - a "quiet" call (an MPI call that reads and writes only its process's own
//     state, or commuting lock-holder bits: reduce.go's Local calls, and lock_all on
//     a window nobody locks exclusively, fences or exposes) and anything of another
//     process: independent.
//
// Every other instruction is "global": a state in which any process still has one
// to run gets no stubborn set (the other rules, or the full expansion, apply).
//
// Pairs (§7): a candidate pair (a, b) is dependent, so a stubborn set holding one of
// them enabled holds the other; if b is disabled there, its enabling set is in T
// too. Along a path of steps outside T, no step of T becomes enabled and none of T
// is disabled. So if the plain search reaches a state with a and b both enabled,
// the reduced one does: by induction on the height of the state (the graph is
// acyclic), either a step of T occurs on the path and can be moved first (it is
// independent of the steps before it), or none does, a and b are outside T (else
// both are enabled already here) and any enabled step of T is independent of them
// and of the whole path, so taking it first keeps them both enabled at the end.
// DESIGN.md gives the argument in full. A program compiled WithoutPairChecks (the
// tso and sc searches of a run, which take their pair flags from the relaxed
// search: nopairs.go) has no candidate pairs, so its sets have neither the pairs'
// dependence nor the RMA pairs' visibility rule (stubborn_rma.go): the argument
// for the final states, and for the flags raised by steps, never used them.
//
// The rule applies only to programs where that dependence is all there is:
// independenceAllowed (no guards, loops, speculation, frees, shared_query, tests,
// origin buffers, separate windows, nostore, weak_progress), no RMA calls (put,
// get, accumulates), no computed targets, no ranges, no assertions acted on.
// Remote loads and stores as RMA (ls_is_rma, preset A) are in scope: a remote
// load is a plain load of the public copy, a remote store's perform a transition
// of its own, flush and unlock_all wait for the performs (stubborn_rma.go).

// stubKind classifies an instruction for the stubborn sets.
type stubKind uint8

const (
	stubGlobal   stubKind = iota // depends on anything: no stubborn set while it is to run
	stubPlain                    // plain load or store
	stubQuiet                    // touches only its process (and commuting lock bits)
	stubIssue                    // a remote store's issue under ls_is_rma (stubborn_rma.go)
	stubComplete                 // flush or unlock_all completing remote stores (stubborn_rma.go)
	stubSync                     // fence, barrier, post, start, complete, wait (stubborn_sync.go)
	stubLock                     // lock acquisition (stubborn_sync.go)
)

// stubborn is what the stubborn sets need, computed at compile time.
type stubborn struct {
	kind   [][]stubKind
	global []uint64 // per process: its global instructions
	// dep[q][j][r]: the instructions of process r dependent on instruction j of q
	// (for r == q: those that can be enabled with it)
	dep [][][]uint64
	// pair[q][j][r]: the instructions of r that are a candidate pair of §7 with
	// instruction j of q (conflict.go): dependent for the pair checks only
	pair [][][]uint64
	// cellMask[q][j]: the cells instruction j touches (overlaps included); 0 none
	cellMask [][]uint64
	// access[r][c]: the plain accesses of r to cells overlapping cell c
	access  [][]uint64
	stores  []uint64 // per process: its plain stores
	overlap []uint64 // per cell: the cells overlapping it
	// deadLoads[q]: q's loads whose register nothing reads (no instruction of q, no
	// outcome item): the value they read is dead at once (the live-variable
	// quotient drops it, live.go), so which store they read does not matter.
	deadLoads []uint64
	rma       *stubRMA      // the slots and RMA pairs (stubborn_rma.go)
	sync      stubSyncLists // the calls of the synchronization calls' enabling sets (stubborn_sync.go)
}

// stubbornReduction computes the dependence of the stubborn sets, when the program
// is in their scope.
func (c *compiler) stubbornReduction(overlap []uint64) {
	p := c.p
	if !c.stubbornAllowed() {
		return
	}
	quietLockAll := c.quietLockAll()
	n := p.NProcs
	sb := &stubborn{
		kind: make([][]stubKind, n), global: make([]uint64, n), dep: make([][][]uint64, n), pair: make([][][]uint64, n),
		cellMask: make([][]uint64, n), access: make([][]uint64, n), stores: make([]uint64, n), overlap: overlap,
	}
	must := c.mustPrecede()
	sb.deadLoads = c.deadLoads()
	for q := range p.Procs {
		code := p.Procs[q].Code
		sb.kind[q] = make([]stubKind, len(code))
		sb.cellMask[q] = make([]uint64, len(code))
		sb.access[q] = make([]uint64, len(p.Cells))
		for j := range code {
			in := &code[j]
			rk, isRMA := c.stubRMAKind(in)
			sk, isSync := c.stubSyncKind(in)
			switch {
			case isRMA:
				sb.kind[q][j] = rk
			case isSync:
				sb.kind[q][j] = sk
			case in.Kind == KPlainLoad || in.Kind == KPlainStore || in.Kind == KRemoteLoad:
				sb.kind[q][j] = stubPlain
				sb.cellMask[q][j] = overlap[in.Cell]
				for cl := range p.Cells {
					if overlap[in.Cell]&(1<<uint(cl)) != 0 {
						sb.access[q][cl] |= 1 << uint(j)
					}
				}
				if in.Kind == KPlainStore {
					sb.stores[q] |= 1 << uint(j)
				}
			case in.Local && !in.TwoPhase && in.GuardReg < 0 && in.Asserts == 0 && (in.Kind == KArith || in.Kind == KUnlockAll || in.Kind == KSync || in.Kind == KFlush || in.Kind == KFlushLocal):
				sb.kind[q][j] = stubQuiet
			case in.Kind == KLockAll && quietLockAll[in.Win]:
				// nocheck too: no process locks the window (quietLockAll), so
				// no lock conflicts with it and no assertion pair reads it
				// (assert.go), and without exploit it takes its lock as lock_all does
				sb.kind[q][j] = stubQuiet
			default:
				sb.global[q] |= 1 << uint(j)
			}
		}
	}
	instrs := 0
	for q := range p.Procs {
		instrs += len(p.Procs[q].Code)
	}
	masks := make([]uint64, 2*n*instrs) // every dep and pair row, in one allocation
	for q := range p.Procs {
		code := p.Procs[q].Code
		sb.dep[q], sb.pair[q] = make([][]uint64, len(code)), make([][]uint64, len(code))
		for j := range code {
			sb.dep[q][j], sb.pair[q][j], masks = masks[:n:n], masks[n:2*n:2*n], masks[2*n:]
			a := &code[j]
			for r := range p.Procs {
				for i := range p.Procs[r].Code {
					b := &p.Procs[r].Code[i]
					if r == q {
						if i == j || must[q][i]&(1<<uint(j)) != 0 || must[q][j]&(1<<uint(i)) != 0 {
							continue // never enabled together
						}
						regs := writeRegs(a)&(readRegs(b)|writeRegs(b)) | writeRegs(b)&readRegs(a)
						if regs != 0 || !sb.accessLike(q, j) || !sb.accessLike(q, i) || cellsConflict(sb, q, j, r, i, a, b) {
							sb.dep[q][j][r] |= 1 << uint(i)
						}
						continue
					}
					if sb.kind[q][j] != stubPlain || sb.kind[r][i] != stubPlain {
						continue
					}
					dead := sb.deadLoads[q]&(1<<uint(j)) != 0 || sb.deadLoads[r]&(1<<uint(i)) != 0
					// under tso a store writes its own buffer: its drain is what conflicts
					buffered := p.HW == spec.TSO && (a.Kind == KPlainStore || b.Kind == KPlainStore)
					if cellsConflict(sb, q, j, r, i, a, b) && !dead && !buffered {
						sb.dep[q][j][r] |= 1 << uint(i)
					}
				}
			}
		}
	}
	for _, cd := range p.Candidates {
		a, b := &p.accesses[cd.A], &p.accesses[cd.B]
		if a.proc != b.proc && sb.kind[a.proc][a.instr] == stubPlain && sb.kind[b.proc][b.instr] == stubPlain {
			sb.pair[a.proc][a.instr][b.proc] |= 1 << uint(b.instr)
			sb.pair[b.proc][b.instr][a.proc] |= 1 << uint(a.instr)
		}
	}
	c.stubRMAReduction(sb, overlap)
	c.stubSyncReduction(sb)
	p.stub = sb
}

// deadLoads is, per process, its loads (plain, or remote: a read of the public
// copy under ls_is_rma) whose register no instruction of the process reads and no
// outcome item names. Such a load commutes with another process's store, drain or
// perform of its cell up to the quotient: the two orders differ in the load's
// register only, which DropDead zeroes in both (it is dead the moment it is
// written). The pair checks still see it (candidate pairs stay dependent, the RMA
// pairs keep their own rule).
func (c *compiler) deadLoads() []uint64 {
	p := c.p
	out := make([]uint64, p.NProcs)
	for q := range p.Procs {
		var read uint32
		for _, o := range p.Out {
			if o.Proc == q {
				read |= 1 << uint(o.Reg)
			}
		}
		for k := range p.Procs[q].Code {
			read |= readRegs(&p.Procs[q].Code[k])
		}
		for k := range p.Procs[q].Code {
			if in := &p.Procs[q].Code[k]; (in.Kind == KPlainLoad || in.Kind == KRemoteLoad) && writeRegs(in)&read == 0 {
				out[q] |= 1 << uint(k)
			}
		}
	}
	return out
}

// accessLike: instruction j of q is a plain access (or remote load), or a remote
// store's issue, which touches its process's registers and slot only (its perform
// is the transition that writes memory): two of them of one process, enabled
// together (only under relaxed: sc and tso keep program order), commute unless
// they share a register with a write or an overlapping cell with a store.
func (sb *stubborn) accessLike(q, j int) bool {
	return sb.kind[q][j] == stubPlain || sb.kind[q][j] == stubIssue
}

// cellsConflict: two plain accesses overlap and one of them stores.
func cellsConflict(sb *stubborn, q, j, r, i int, a, b *Instr) bool {
	return sb.cellMask[q][j]&sb.cellMask[r][i] != 0 && (a.Kind == KPlainStore || b.Kind == KPlainStore)
}

// stubbornAllowed: the program is in the stubborn sets' scope (see above).
func (c *compiler) stubbornAllowed() bool {
	p := c.p
	if !c.independenceAllowed() || (len(p.Slots) > 0 && !c.stubRMAAllowed()) || p.Exploit || c.attachesOrDetaches() || p.NProcs > MaxProcs {
		return false
	}
	for q := range p.Procs {
		if len(p.Procs[q].Code) > 64 {
			return false
		}
		for k := range p.Procs[q].Code {
			in := &p.Procs[q].Code[k]
			if in.Kind == KRMA && !c.stubRMAOp(in) || in.Computed != nil || in.Elems != nil {
				return false
			}
		}
	}
	return true
}

// quietLockAll: per window, lock_all on it touches only its caller's epoch state and
// the lock-holder bits (which commute): no process locks a window of its memory
// exclusively, fences or exposes it (E-EPOCH-MIX reads those), and no process
// waits on progress.
func (c *compiler) quietLockAll() []bool {
	return c.passiveWindows(false)
}

// passiveWindows: per window, its memory's epochs can only be passive-target ones
// (no fence, post, start, complete, wait, test or free on it), no process waits on
// progress and no window is separate; with locks false, no process locks it either
// (lock_all alone).
func (c *compiler) passiveWindows(locks bool) []bool {
	p := c.p
	out := make([]bool, len(p.Wins))
	for w := range p.Wins {
		out[w] = !p.weakProgress && !p.hasSeparate
		for q := range p.Procs {
			for _, in := range p.Procs[q].Code {
				if in.Win < 0 || p.Wins[in.Win].Base != p.Wins[w].Base {
					continue
				}
				switch in.Kind {
				case KLock:
					out[w] = out[w] && locks
				case KFence, KPost, KStart, KComplete, KWait, KTest, KFree:
					out[w] = false
				}
			}
		}
	}
	return out
}

// stubSet is a set of transitions: per process, instructions, and the drains.
type stubSet struct {
	instr [MaxProcs]uint64
	drain uint32
	perf  uint64 // performs of slots (stubborn_rma.go)
}

// meets: t and u share a transition (of n processes).
func (t *stubSet) meets(u *stubSet, n int) bool {
	if t.drain&u.drain != 0 || t.perf&u.perf != 0 {
		return true
	}
	for q := range t.instr[:n] {
		if t.instr[q]&u.instr[q] != 0 {
			return true
		}
	}
	return false
}

// count is the number of t's transitions enabled (in enabled), of n processes.
func (t *stubSet) count(enabled *stubSet, n int) int {
	k := bits.OnesCount32(t.drain&enabled.drain) + bits.OnesCount64(t.perf&enabled.perf)
	for q := range t.instr[:n] {
		k += bits.OnesCount64(t.instr[q] & enabled.instr[q])
	}
	return k
}

// stubState is what the closures of one state share: computed once, read by
// every seed's closure.
type stubState struct {
	s       State
	done    [MaxProcs]uint64
	enabled stubSet
	// drainCells[r]: the cells a drain of r may write from s on: those in its
	// buffer and those of its stores still to run (tso)
	drainCells [MaxProcs]uint64
	live       uint64 // the slots whose perform is still to happen (stubborn_rma.go)
	unsettled  stubUnsettled
	// tried: the enabled transitions whose closure is done. A closure is the
	// least set that holds its seed and is closed under rules monotone in the set
	// (more transitions only add), so one that comes to hold a tried t holds all
	// of t's closure: it fails where that one failed, and counts at least as many
	// enabled transitions as the best set, which t's closure was or did not beat.
	// So such a closure stops there. (One rule reads the set: an RMA pair takes
	// the up set of the side T already holds, stubPairUp; with it the stop may
	// rarely miss a smaller set, never keep a set that is not stubborn: every set
	// returned is closed.)
	tried stubSet
}

// stubDrainCells are the cells a drain of process r may write from s on.
func (p *Program) stubDrainCells(s State, r int, done uint64) uint64 {
	l := &p.Layout
	var m uint64
	for k := 0; k < int(s[l.TSOLen[r]]); k++ {
		m |= 1 << uint(s[l.TSOBuf[r]+9*k])
	}
	for st := p.stub.stores[r] &^ done; st != 0; st &= st - 1 {
		m |= p.stub.cellMask[r][bits.TrailingZeros64(st)]
	}
	return m
}

// drainsOn are the processes (a mask) whose drain may write one of cells.
func (x *stubState) drainsOn(n int, cells uint64) uint32 {
	var d uint32
	for r := 0; r < n; r++ {
		if x.drainCells[r]&cells != 0 {
			d |= 1 << uint(r)
		}
	}
	return d
}

// stubClose closes the set seeded with one enabled transition (the drain of
// seedDrain when >= 0, else instruction seedInstr of seedProc) and returns it, or
// false when the closure meets what it cannot bound (see above).
func (p *Program) stubClose(x *stubState, bound int, seedProc, seedInstr int, seedDrain bool) (stubSet, bool) {
	sb := p.stub
	l := &p.Layout
	s, done, enabled, live := x.s, &x.done, &x.enabled, x.live
	tso := p.HW == spec.TSO
	var t, seen stubSet
	switch {
	case seedDrain:
		t.drain = 1 << uint(seedProc)
	case seedProc < 0:
		t.perf = 1 << uint(seedInstr)
	default:
		t.instr[seedProc] = 1 << uint(seedInstr)
	}
	for changed := true; changed; {
		changed = false
		for m := t.perf &^ seen.perf; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			seen.perf |= 1 << uint(k)
			changed = true
			if enabled.perf&(1<<uint(k)) != 0 {
				p.stubClosePerform(x, &t, k)
			} else if live&(1<<uint(k)) != 0 {
				t.instr[p.Slots[k].Proc] |= 1 << uint(sb.rma.slotIssue[k]) // not issued: its issue enables it
			}
		}
		for q := 0; q < p.NProcs; q++ {
			if d := uint32(1) << uint(q); t.drain&d != 0 && seen.drain&d == 0 {
				seen.drain |= d
				changed = true
				if enabled.drain&d != 0 {
					// its oldest entry's cell: every other access to it, every other
					// drain that may write it, the process's own accesses to it
					c := int(s[l.TSOBuf[q]])
					for r := 0; r < p.NProcs; r++ {
						t.instr[r] |= sb.access[r][c] &^ (done[r] | sb.deadLoads[r])
					}
					t.drain |= x.drainsOn(p.NProcs, sb.overlap[c])
					if sb.rma != nil {
						t.perf |= sb.slotsOnCells(live, sb.overlap[c])
					}
				} else {
					t.instr[q] |= sb.stores[q] &^ done[q] // one of them must run first
				}
			}
			for m := t.instr[q] &^ seen.instr[q]; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				seen.instr[q] |= 1 << uint(j)
				changed = true
				if k := sb.kind[q][j]; k == stubSync || k == stubLock {
					if !p.stubCloseSync(x, &t, q, j) {
						return t, false
					}
					continue
				}
				if enabled.instr[q]&(1<<uint(j)) == 0 {
					nes, drain, ok := p.stubEnabling(s, q, j, done[q])
					if !ok && sb.kind[q][j] == stubComplete && p.Procs[q].Code[j].Blockers&^done[q] == 0 {
						// it waits for its process's operations to be performed (R4)
						nes, drain, ok = 0, false, true
						t.perf |= sb.rma.slotsOf[q] & live
					}
					if !ok {
						return t, false
					}
					t.instr[q] |= nes
					if drain {
						t.drain |= 1 << uint(q)
					}
					continue
				}
				switch sb.kind[q][j] {
				case stubGlobal:
					return t, false
				case stubPlain:
					cells := sb.cellMask[q][j]
					if sb.rma != nil && sb.deadLoads[q]&(1<<uint(j)) == 0 {
						t.perf |= sb.slotsOnCells(live, cells)
					}
					dep := sb.dep[q][j]
					for r := 0; r < p.NProcs; r++ {
						t.instr[r] |= dep[r] &^ done[r]
					}
					// a pair partner enabled here is concurrent with it here, where
					// checkConflicts sees the pair: no later state need show it
					for r, pm := range sb.pair[q][j] {
						t.instr[r] |= pm &^ (done[r] | enabled.instr[r])
					}
					if tso && sb.deadLoads[q]&(1<<uint(j)) == 0 {
						t.drain |= x.drainsOn(p.NProcs, cells)
					}
				case stubQuiet, stubIssue, stubComplete:
					t.instr[q] |= sb.dep[q][j][q] &^ done[q]
					if tso && x.drainCells[q] != 0 {
						t.drain |= 1 << uint(q)
					}
				}
			}
		}
		if !changed && sb.rma != nil && p.stubPairsClose(x, &t) {
			changed = true
		}
		if changed && (t.meets(&x.tried, p.NProcs) || t.count(enabled, p.NProcs) >= bound) {
			return t, false // no smaller than the best set found
		}
	}
	return t, true
}

// stubEnabling is a necessary enabling set of instruction j of q, disabled in s:
// instructions of q (a mask), or q's drain; false when it cannot tell.
func (p *Program) stubEnabling(s State, q, j int, done uint64) (nes uint64, drain, ok bool) {
	in := &p.Procs[q].Code[j]
	if p.stub.kind[q][j] == stubGlobal {
		return 0, false, false
	}
	if b := in.Blockers &^ done; b != 0 {
		nes |= b & -b // it cannot run before this one
		if in.FwdStore >= 0 {
			st := &p.Procs[q].Code[in.FwdStore]
			f := (in.FwdBlockers | st.Blockers) &^ done
			if f == 0 {
				return 0, false, false // it could forward now: it would be enabled
			}
			nes |= f & -f // nor forward before this one
		}
		return nes, false, true
	}
	if in.IsMPI && p.HW == spec.TSO && s[p.Layout.TSOLen[q]] > 0 {
		return 0, true, true // it waits for the store buffer to drain
	}
	return 0, false, false
}

// stubbornSuccessor emits the enabled transitions of the smallest stubborn set, when
// one is smaller than all the enabled transitions; it reports whether it did.
func (p *Program) stubbornSuccessor(s, scratch State, rec *Record, emit func(Step, State)) bool {
	sb := p.stub
	if sb == nil {
		return false
	}
	l := &p.Layout
	x := stubState{s: s}
	done, enabled := &x.done, &x.enabled
	total := 0
	for q := 0; q < p.NProcs; q++ {
		done[q] = p.done(s, q)
		if sb.global[q]&^done[q] != 0 {
			return false
		}
		if c := int(s[l.InCall[q]]) - 1; c >= 0 && (sb.kind[q][c] != stubSync || p.stubSyncEnabled(s, scratch, q, c, done[q])) {
			return false // a return the local rule would have taken (reduce.go), or out of scope
		}
		if p.HW == spec.TSO {
			if s[l.TSOLen[q]] > 0 {
				enabled.drain |= 1 << uint(q)
				total++
			}
			x.drainCells[q] = p.stubDrainCells(s, q, done[q])
		}
		for m := ^done[q] & (1<<uint(len(p.Procs[q].Code)) - 1); m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			if k := sb.kind[q][j]; k == stubSync || k == stubLock {
				if p.stubSyncEnabled(s, scratch, q, j, done[q]) {
					enabled.instr[q] |= 1 << uint(j)
					total++
				}
				continue
			}
			if p.ready(s, q, j, done[q]) && (sb.kind[q][j] != stubComplete || !p.completeBlocked(s, q, &p.Procs[q].Code[j])) {
				enabled.instr[q] |= 1 << uint(j)
				total++
			}
		}
	}
	if sb.rma != nil {
		x.live = p.slotsLive(s, done)
		enabled.perf = p.slotsPending(s)
		total += bits.OnesCount64(enabled.perf)
	}
	best, bestN := stubSet{}, total
	try := func(t stubSet, ok bool) {
		if !ok {
			return
		}
		if k := t.count(enabled, p.NProcs); k < bestN {
			best, bestN = t, k
		}
	}
	for m := enabled.perf; m != 0 && bestN > 1; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		try(p.stubClose(&x, bestN, -1, k, false))
		x.tried.perf |= 1 << uint(k)
	}
	for q := 0; q < p.NProcs && bestN > 1; q++ {
		if enabled.drain&(1<<uint(q)) != 0 {
			try(p.stubClose(&x, bestN, q, 0, true))
			x.tried.drain |= 1 << uint(q)
		}
		for m := enabled.instr[q]; m != 0 && bestN > 1; m &= m - 1 {
			j := bits.TrailingZeros64(m)
			try(p.stubClose(&x, bestN, q, j, false))
			x.tried.instr[q] |= 1 << uint(j)
		}
	}
	if bestN >= total {
		return false
	}
	for m := best.perf & enabled.perf; m != 0; m &= m - 1 {
		st := Step{Kind: StepPerform, Index: int8(bits.TrailingZeros64(m))}
		if p.try(s, scratch, st, rec) {
			emit(st, scratch)
		}
	}
	for q := 0; q < p.NProcs; q++ {
		if best.drain&enabled.drain&(1<<uint(q)) != 0 {
			st := Step{Kind: StepDrain, Proc: int8(q)}
			p.try(s, scratch, st, rec)
			emit(st, scratch)
		}
		for m := best.instr[q] & enabled.instr[q]; m != 0; m &= m - 1 {
			st := Step{Kind: StepExec, Proc: int8(q), Index: int8(bits.TrailingZeros64(m))}
			if p.try(s, scratch, st, rec) {
				emit(st, scratch)
			}
		}
	}
	return true
}
