package model

import (
	"math/bits"
)

// Partial-order reduction: the steps the reduced search takes alone (persistent
// sets of one), chosen at compile time; the property tests in explorer/ check that
// the reduced search gives the plain one's outcomes, flags and witnesses.

// localSuccessor emits the first enabled local step, if there is one.
func (p *Program) localSuccessor(s, scratch State, rec *Record, emit func(Step, State)) bool {
	l := &p.Layout
	for proc := range p.Procs {
		done := p.done(s, proc)
		candidates := p.Procs[proc].LocalMask &^ done
		if candidates == 0 {
			continue
		}
		inCall := int(s[l.InCall[proc]]) - 1
		code := p.Procs[proc].Code
		for ; candidates != 0; candidates &= candidates - 1 {
			j := bits.TrailingZeros64(candidates)
			in := &code[j]
			st := Step{Kind: StepExec, Proc: int8(proc), Index: int8(j)}
			switch {
			case speculative(in, done):
				continue // a speculative read reads memory: never local
			case in.Spec >= 0 && p.specRead(s, proc)&(1<<uint(j)) != 0:
				if !in.LocalCommit {
					continue
				}
			case j == inCall:
				if !in.LocalReturn && !(in.QuietReturn && p.fenceCompletesNothing(s, in)) {
					continue
				}
				st.Kind = StepReturn
			case !p.ready(s, proc, j, done):
				continue
			case in.GuardReg >= 0 && !p.guardHolds(s, proc, in):
				if !in.LocalSkip {
					continue
				}
			case !in.Local || (in.Kind == KSharedQuery && p.sqOpen(s, proc, in)):
				continue
			}
			if p.try(s, scratch, st, rec) {
				emit(st, scratch)
				return true
			}
		}
	}
	return false
}

// localSteps marks the steps the reduced search may take eagerly. A step is local
// when it reads and writes only its own process's state (registers, epoch state,
// done set), or only adds to shared state in ways that merely enable others
// (a message sent, a post or complete counted, a lock released), and when no other
// process can disable it. Such a step is independent of every step of the others,
// so exploring it alone from a state loses no terminal state (Godefroid's
// persistent sets; the state graph is acyclic, so no cycle proviso is needed).
// Registers a pending RMA operation writes at perform time are shared with that
// perform step, so a step touching them is never local.
func (c *compiler) localSteps(proc int) {
	p := c.p
	code := p.Procs[proc].Code
	var rmaDst uint32
	progressTarget := c.progressTargets()
	for k := range code {
		if code[k].Kind == KRMA && code[k].Dst >= 0 {
			rmaDst |= writeRegs(&code[k])
		}
	}
	for k := range code {
		in := &code[k]
		guardOK := in.GuardReg < 0 || readRegs(&Instr{GuardReg: in.GuardReg, GuardVal: in.GuardVal, Dst: -1})&rmaDst == 0
		in.LocalSkip = guardOK
		regs := readRegs(in) | writeRegs(in)
		if in.Kind == KRMA {
			regs = readRegs(in) // its own result register is written by its perform step
		}
		in.Local = guardOK && regs&rmaDst == 0 && c.localKind(proc, in)
		// A speculative load's commit writes its register and raises what it raises,
		// reading no memory: local when its registers are not an RMA result.
		in.LocalCommit = in.Spec >= 0 && guardOK && regs&rmaDst == 0
		// A free's return disables the process's later accesses to the window (they
		// become E-EPOCH), which the concurrency checks see: never local.
		// A fence's return opens an exposure epoch that others' locks read (E-EPOCH-MIX).
		in.LocalReturn = in.TwoPhase && in.Kind != KFree && (in.Kind != KFence || (!p.hasSeparate && !c.windowHasOps(int(in.Win)) && !c.windowLocked(int(in.Win))))
		in.QuietReturn = !in.LocalReturn && c.quietFence(in)
		if p.weakProgress && progressTarget&(1<<uint(proc)) != 0 {
			// weak_progress: every step of the process may change whether it is in
			// MPI, which others' performs and lock grants read: none is local.
			in.Local, in.LocalSkip, in.LocalReturn, in.LocalCommit, in.QuietReturn = false, false, false, false, false
		}
		if in.Local || (in.LocalSkip && in.GuardReg >= 0) || in.LocalReturn || in.LocalCommit || in.QuietReturn {
			p.Procs[proc].LocalMask |= 1 << uint(k)
		}
	}
}

// quietFence: the fence's return may be local when it completes nothing
// (fenceCompletesNothing). A fence return that completes nothing ends no pair's
// concurrency; what else it changes only enables: its own process, the exposure of
// operations targeting it, the other members' returns. Nothing the others do can
// disable it: the members' arrivals and the performs it waits for only add up. So
// it is local on a window whose epochs are all fence epochs (a lock or a PSCW epoch
// reads the exposure: E-EPOCH-MIX), without R5/R6 copies (they touch the public
// copy others' RMA reaches) and without assertions (noput lets a return skip
// performs; the assertion pairs read the calls). Under weak_progress, where a
// perform needs its target inside an MPI call, a return would disable performs:
// never local then.
func (c *compiler) quietFence(in *Instr) bool {
	p := c.p
	if in.Kind != KFence || !in.TwoPhase || p.hasSeparate || p.Exploit || p.weakProgress || c.windowLocked(int(in.Win)) || !c.performReductionAllowed() {
		return false
	}
	for i := range p.Procs {
		for _, other := range p.Procs[i].Code {
			if other.Win >= 0 && p.Wins[other.Win].Base == p.Wins[in.Win].Base && (other.Kind == KStart || other.Kind == KPost) {
				return false
			}
		}
	}
	return true
}

// fenceCompletesNothing: no operation of an epoch the fence closes is performed and
// not yet completed (an earlier return of the same fence completed them all, or
// there were none), so returning from it ends no operation's concurrency.
func (p *Program) fenceCompletesNothing(s State, in *Instr) bool {
	for k, sl := range p.Slots {
		off := p.Layout.Slot[k]
		if s[off] == SlotPerformed && s[off+1] == EpochFence && p.Procs[sl.Proc].Code[sl.Instr].Win == in.Win {
			return false
		}
	}
	return true
}

func (c *compiler) localKind(proc int, in *Instr) bool {
	p := c.p
	// Calls that complete RMA operations at the target (R2-R4) end their
	// concurrency with other accesses, which the conflict checks read: they are
	// visible, never local, on windows with RMA operations.
	completes := in.Win >= 0 && c.windowHasOps(int(in.Win))
	switch in.Kind {
	case KArith, KSend, KRecv, KStart, KBarrier, KSharedQuery, KUntil:
		return true
	case KRMA, KRemoteStore:
		// issuing disables a noprecede fence's return at the others (without
		// exploit it still waits for the operations it closes: noprecedeMayReturn);
		// on a window both fenced and locked, an issue in a fence epoch makes its
		// target's fence interval an exposure epoch, which locks read (exposure.go)
		return !c.noprecedeFenceElsewhere(proc, int(in.Win)) && !p.Wins[in.Win].FenceLock
	case KWaitReq:
		// completes a read-only fetching operation at its target (docs/semantics.md#rma-operations)
		return in.ReqSlot < 0 || !readOnlyFetch(&p.Procs[proc].Code[p.Slots[in.ReqSlot].Instr])
	case KFlushLocal:
		return !c.issuesFetches(proc, int(in.Win)) // it completes the caller's fetches (§3)
	case KComplete:
		// it completes the caller's fetches (§3), and a target's test reads it
		return !c.issuesFetches(proc, int(in.Win)) && !c.windowTested(int(in.Win))
	case KFlush:
		return !completes
	case KFence:
		// arrival only; a noprecede fence also copies, completes and opens an exposure
		// epoch. On a locked window the arrival ends the caller's fence interval,
		// which locks read (E-EPOCH-MIX, exposure.go): not local there.
		return !c.windowLocked(int(in.Win)) && (in.TwoPhase || (!p.hasSeparate && !completes))
	case KSync:
		return !p.hasSeparate // R5/R6 copies touch the public copy others' RMA reaches
	case KUnlock, KUnlockAll:
		// ending a nocheck lock epoch ends what the assertion check looks at; on a
		// fenced window, what a target's fence return finds held (exposure.go)
		return !p.hasSeparate && !completes && !c.nocheckLock[in.Win] && !p.Wins[in.Win].FenceLock
	case KPost:
		// Others' locks read the exposure (E-EPOCH-MIX), and R5 copies; a post
		// ends the state a start-before-post (nocheck) check looks for.
		return !p.hasSeparate && !c.windowLocked(int(in.Win)) && !c.nocheckPSCW[in.Win]
	case KWait:
		return !p.hasSeparate && !c.windowLocked(int(in.Win)) && !completes
	}
	return false // loads, stores, remote loads, lock acquisition, free
}

// noprecedeFenceElsewhere: a process other than proc calls a one-step fence
// (noprecede) on win or on a window sharing its memory.
func (c *compiler) noprecedeFenceElsewhere(proc, win int) bool {
	p := c.p
	if win < 0 {
		return false
	}
	for i := range p.Procs {
		for _, other := range p.Procs[i].Code {
			if i != proc && other.Kind == KFence && !other.TwoPhase && p.Wins[other.Win].Base == p.Wins[win].Base {
				return true
			}
		}
	}
	return false
}

// windowHasOps: some RMA operation (or, under ls_is_rma, remote store) is issued on
// the window or on one that shares its memory.
func (c *compiler) windowHasOps(win int) bool {
	for _, sl := range c.p.Slots {
		in := &c.p.Procs[sl.Proc].Code[sl.Instr]
		if in.Win == int8(win) || c.p.Wins[in.Win].Base == c.p.Wins[win].Base {
			return true
		}
	}
	return false
}

// issuesFetches: proc issues a read-only fetching operation (get, gacc or fop with
// no_op), which flush_local and complete complete at the target (§3), on win.
func (c *compiler) issuesFetches(proc, win int) bool {
	for _, sl := range c.p.Slots {
		in := &c.p.Procs[sl.Proc].Code[sl.Instr]
		if sl.Proc == proc && int(in.Win) == win && readOnlyFetch(in) {
			return true
		}
	}
	return false
}

func (c *compiler) windowLocked(win int) bool {
	for i := range c.p.Procs {
		for k := range c.p.Procs[i].Code {
			in := &c.p.Procs[i].Code[k]
			if int(in.Win) == win && (in.Kind == KLock || in.Kind == KLockAll) {
				return true
			}
		}
	}
	return false
}
