package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/spec"
)

// StepKind says what a step does.
type StepKind uint8

const (
	StepExec    StepKind = iota // a process executes an instruction (or arrives at a two-phase call)
	StepReturn                  // a process returns from the two-phase call it arrived at
	StepPerform                 // a pending RMA operation is performed at its target
	StepDrain                   // tso: the oldest entry of a store buffer reaches memory
	StepLocal                   // a request-based operation completes locally at its origin (completion.go)
)

// Step is one transition. It is a small value: a trace is a list of steps.
type Step struct {
	Kind   StepKind
	Proc   int8 // the process (StepExec, StepReturn, StepDrain; the origin for StepLocal)
	Index  int8 // the instruction (StepExec, StepReturn) or the slot (StepPerform, StepLocal)
	Choice int8 // shared_query under sq_any_flavor: 1 the segment, 2 size 0
}

// Encode packs a step into 32 bits.
func (st Step) Encode() uint32 {
	return uint32(st.Kind) | uint32(uint8(st.Proc))<<8 | uint32(uint8(st.Index))<<16 | uint32(uint8(st.Choice))<<24
}

// DecodeStep unpacks Encode.
func DecodeStep(v uint32) Step {
	return Step{Kind: StepKind(v & 0xff), Proc: int8(v >> 8), Index: int8(v >> 16), Choice: int8(v >> 24)}
}

// Successors calls emit for every step enabled in s with the state it leads to.
// The state passed to emit lives in scratch (len StateSize) and is overwritten by
// the next call: emit must copy what it keeps.
//
// With reduce, when some process has a local step enabled (Instr.Local), only the
// first such step is emitted: the reduced search reaches the same terminal states.
//
// rec, when not nil, is a light record (Record.Light) that each step's Apply fills
// anew: emit may read the rules the step raised from it.
func (p *Program) Successors(s, scratch State, reduce bool, rec *Record, emit func(Step, State)) {
	r := ReduceNone
	if reduce {
		r = ReduceAll
	}
	p.SuccessorsWith(s, scratch, r, rec, emit)
}

// Reduction says which reductions SuccessorsWith applies.
type Reduction uint8

const (
	ReduceNone       Reduction = 0
	ReduceSingletons Reduction = 1 << iota // the local and independent steps taken alone (reduce.go, independent.go)
	ReduceStubborn                         // stubborn sets (stubborn.go)
	ReduceAll        = ReduceSingletons | ReduceStubborn
)

// SuccessorsWith is Successors with the reductions r.
func (p *Program) SuccessorsWith(s, scratch State, r Reduction, rec *Record, emit func(Step, State)) {
	if r&ReduceSingletons != 0 && (p.localSuccessor(s, scratch, rec, emit) || p.independentSuccessor(s, scratch, rec, emit)) {
		return
	}
	if r&ReduceStubborn != 0 && p.stubbornSuccessor(s, scratch, rec, emit) {
		return
	}
	for proc := range p.Procs {
		p.procSuccessors(s, scratch, proc, rec, emit)
	}
	for k := range p.Slots {
		st := Step{Kind: StepPerform, Index: int8(k)}
		if s[p.Layout.Slot[k]] != SlotPending {
			continue
		}
		if p.Slots[k].Multi {
			m := s[p.maskOff(k)] // each element not yet performed, without allocating
			for e := 0; e < p.Slots[k].Elems; e++ {
				if st := PerformStep(k, e); m&(1<<uint(e)) == 0 && p.try(s, scratch, st, rec) {
					emit(st, scratch)
				}
			}
			continue
		}
		if p.try(s, scratch, st, rec) {
			emit(st, scratch)
		}
	}
	p.localSuccessors(s, scratch, rec, emit) // requests completing locally (completion.go)
}

// try applies st to a copy of s in scratch, with rec emptied first.
func (p *Program) try(s, scratch State, st Step, rec *Record) bool {
	copy(scratch, s)
	if rec != nil {
		rec.Sites = rec.Sites[:0]
	}
	if !p.Apply(scratch, st, rec) {
		return false
	}
	p.forget(scratch)
	return true
}

func (p *Program) procSuccessors(s, scratch State, proc int, rec *Record, emit func(Step, State)) {
	l := &p.Layout
	if p.HW == spec.TSO && s[l.TSOLen[proc]] > 0 {
		st := Step{Kind: StepDrain, Proc: int8(proc)}
		p.try(s, scratch, st, rec)
		emit(st, scratch)
	}
	done := p.done(s, proc)
	inCall := int(s[l.InCall[proc]]) - 1
	code := p.Procs[proc].Code
	for j := range code {
		if done&(1<<uint(j)) != 0 {
			continue
		}
		if j == inCall {
			st := Step{Kind: StepReturn, Proc: int8(proc), Index: int8(j)}
			if p.try(s, scratch, st, rec) {
				emit(st, scratch)
			}
			continue
		}
		if !p.ready(s, proc, j, done) {
			continue
		}
		st := Step{Kind: StepExec, Proc: int8(proc), Index: int8(j)}
		if code[j].Kind == KSharedQuery && p.sqOpen(s, proc, &code[j]) {
			for choice := int8(1); choice <= 2; choice++ {
				st.Choice = choice
				if p.try(s, scratch, st, rec) {
					emit(st, scratch)
				}
			}
			continue
		}
		if p.try(s, scratch, st, rec) {
			emit(st, scratch)
		}
	}
}

// ready reports whether instruction j is not held back by an earlier one (docs/semantics.md#hardware-models).
func (p *Program) ready(s State, proc, j int, done uint64) bool {
	in := &p.Procs[proc].Code[j]
	if in.ReadBlockers != 0 && in.ReadBlockers&^(done|p.specRead(s, proc)) != 0 {
		return false // an earlier speculative load has not read yet
	}
	if speculative(in, done) && p.specRead(s, proc)&(1<<uint(j)) != 0 {
		return false // read, and waiting for its guard to commit
	}
	if in.Blockers&^done == 0 {
		return !in.IsMPI || p.HW != spec.TSO || s[p.Layout.TSOLen[proc]] == 0
	}
	return p.canForward(proc, in, done)
}

// canForward: a relaxed load may read its own process's latest earlier store to
// the cell before that store executes, once that store's value is known.
func (p *Program) canForward(proc int, in *Instr, done uint64) bool {
	if in.FwdStore < 0 || in.FwdBlockers&^done != 0 {
		return false
	}
	st := &p.Procs[proc].Code[in.FwdStore]
	return st.Blockers&^done == 0
}

// Apply performs step st on s in place. It returns false, leaving s unspecified,
// when the step is not enabled. rec, when not nil, receives a description.
func (p *Program) Apply(s State, st Step, rec *Record) bool {
	switch st.Kind {
	case StepDrain:
		p.drain(s, int(st.Proc), rec)
		return true
	case StepPerform:
		return p.perform(s, int(st.Index), int(st.Choice), rec)
	case StepReturn:
		return p.returnFrom(s, int(st.Proc), int(st.Index), rec)
	case StepLocal:
		return p.completeLocally(s, int(st.Index), rec)
	}
	proc, j := int(st.Proc), int(st.Index)
	in := &p.Procs[proc].Code[j]
	if in.Spec >= 0 {
		switch {
		case speculative(in, p.done(s, proc)):
			return p.specReadStep(s, proc, j, in, rec)
		case p.specRead(s, proc)&(1<<uint(j)) != 0:
			p.commit(s, proc, j, in, rec)
			return true
		}
	}
	if rec.full() {
		rec.Text = fmt.Sprintf("P%d row %d: %s", proc, in.Row, in.Text)
	}
	p.originBufferUse(s, proc, in, in.OriginBufGuard, rec) // the guard is read either way
	if in.GuardReg >= 0 && !p.guardHolds(s, proc, in) {
		p.setDone(s, proc, j)
		if rec.full() {
			rec.Text += "  (guard false: skipped)"
		}
		return true
	}
	p.originBufferUse(s, proc, in, in.OriginBuf, rec)
	if in.Computed != nil && in.Slot < 0 {
		// lock, unlock, flush, flush_local, shared_query of a register or null
		// (target.go); an RMA call resolves its own at issue.
		r, ok := p.resolveCall(s, proc, in, rec)
		if !ok {
			p.setDone(s, proc, j) // E-TARGET: the call has no effect
			return true
		}
		in = r
	}
	if !p.exec(s, proc, j, in, st.Choice, rec) {
		return false
	}
	if in.AlignErr != "" {
		p.raise(s, rec, spec.EAlign, proc, in, func() string { return in.AlignErr })
	}
	switch {
	case in.Kind == KPost, in.Kind == KUnlockAll, in.Kind == KSync, in.Kind == KUnlock && int(in.Target) == proc:
		// An R5 point (the fence's is in fenceReturn): a later nostore speaks of
		// the stores since the last one, the ones the next copy would carry.
		p.syncPoint(s, proc, in)
	}
	if s[p.Layout.InCall[proc]] != byte(j+1) {
		p.setDone(s, proc, j)
	}
	return true
}

// originBufferUse raises E-ORIGIN-BUF when the instruction touches the origin buffer
// of an earlier RMA call (one of rmas) that has been issued and not completed
// locally (§3).
func (p *Program) originBufferUse(s State, proc int, in *Instr, rmas []int8, rec *Record) {
	for _, i := range rmas {
		if s[p.Layout.Slot[p.Procs[proc].Code[i].Slot]] != SlotIdle {
			rma := &p.Procs[proc].Code[i]
			p.raise(s, rec, spec.EOriginBuf, proc, in, func() string {
				return fmt.Sprintf("%s uses the origin buffer of %s (row %d) before the operation completes locally", in.Text, rma.Text, rma.Row)
			})
		}
	}
}

func (p *Program) guardHolds(s State, proc int, in *Instr) bool {
	eq := p.Reg(s, proc, int(in.GuardReg)) == p.val(s, proc, in.GuardVal)
	return eq == in.GuardEq
}

func (p *Program) val(s State, proc int, o Operand) int64 {
	if o.Reg < 0 {
		return o.Imm
	}
	return p.Reg(s, proc, int(o.Reg))
}

// exec carries out instruction j (its guard held). For a blocking call it returns
// false when the call cannot complete yet. Errors are raised, and the erroneous call
// then has no effect, so that the execution can go on and its outcome be listed.
func (p *Program) exec(s State, proc, j int, in *Instr, choice int8, rec *Record) bool {
	switch in.Kind {
	case KArith:
		p.setReg(s, proc, int(in.Dst), in.Op.Arith(p.val(s, proc, in.Args[0]), p.val(s, proc, in.Args[1])))
		return true
	case KPlainLoad, KPlainStore:
		return p.plainAccess(s, proc, in, rec)
	case KRemoteLoad:
		return p.remoteLoad(s, proc, in, rec)
	case KRemoteStore, KRMA:
		return p.issue(s, proc, in, rec)
	case KWaitReq:
		return p.waitReq(s, proc, in)
	case KTest:
		return p.test(s, proc, in, rec)
	case KTestReq:
		return p.testReq(s, proc, in, rec)
	case KAttach:
		return p.attach(s, proc, j, in, rec)
	case KDetach:
		return p.detach(s, proc, in, rec)
	case KFence:
		return p.fence(s, proc, j, in, rec)
	case KPost:
		return p.post(s, proc, in, rec)
	case KStart:
		return p.start(s, proc, in, rec)
	case KComplete:
		return p.complete(s, proc, in, rec)
	case KWait:
		return p.wait(s, proc, in, rec)
	case KLock:
		return p.lock(s, proc, in, rec)
	case KUnlock:
		return p.unlock(s, proc, in, rec)
	case KLockAll:
		return p.lockAll(s, proc, in, rec)
	case KUnlockAll:
		return p.unlockAll(s, proc, in, rec)
	case KFlush, KFlushLocal:
		return p.flush(s, proc, in, rec)
	case KSync:
		return p.sync(s, proc, in, rec)
	case KSharedQuery:
		return p.sharedQuery(s, proc, in, choice, rec)
	case KBarrier:
		s[p.Layout.InCall[proc]] = byte(j + 1)
		return true
	case KSend:
		return p.send(s, proc, in)
	case KRecv:
		return p.recv(s, proc, in)
	case KFree:
		return p.free(s, proc, j, in, rec)
	case KUntil:
		return p.until(s, proc, in, rec)
	}
	panic(fmt.Sprintf("model: unknown kind %d", in.Kind))
}
