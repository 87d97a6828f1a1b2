package model

import (
	"fmt"
	"math/bits"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// StepKind says what a step does.
type StepKind uint8

const (
	StepExec    StepKind = iota // a process executes an instruction (or arrives at a two-phase call)
	StepReturn                  // a process returns from the two-phase call it arrived at
	StepPerform                 // a pending RMA operation is performed at its target
	StepDrain                   // tso: the oldest entry of a store buffer reaches memory
)

// Step is one transition. It is a small value: a trace is a list of steps.
type Step struct {
	Kind   StepKind
	Proc   int8 // the process (StepExec, StepReturn, StepDrain)
	Index  int8 // the instruction (StepExec, StepReturn) or the slot (StepPerform)
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

// Record collects what a step did, for traces. The search passes nil.
type Record struct {
	Text   string
	Raised []Raised
}

// Raised is a rule broken by a step: the data of a flag (SEMANTICS.md §5).
type Raised struct {
	Rule    string
	Message string
	Proc    int
	Row     int
}

// FlagRules are the rules a state's flag word can hold, bit i = FlagRules[i].
var FlagRules = []string{
	"E-EPOCH", "E-EPOCH-MIX", "E-SYNC-EPOCH", "E-ORIGIN-BUF", "E-SQ-FLAVOR", "E-LS-ACCESS",
	"E-SEPARATE-SHM", "E-INFO", "E-ALIGN", "DEADLOCK", "E-ASSERT",
}

func flagBit(rule string) uint32 {
	for i, r := range FlagRules {
		if r == rule {
			return 1 << uint(i)
		}
	}
	panic("model: no flag bit for rule " + rule)
}

// FlagList turns a flag word into rule ids.
func FlagList(flags uint32) []string {
	var out []string
	for i, r := range FlagRules {
		if flags&(1<<uint(i)) != 0 {
			out = append(out, r)
		}
	}
	return out
}

// Successors calls emit for every step enabled in s with the state it leads to.
// The state passed to emit lives in scratch (len StateSize) and is overwritten by
// the next call: emit must copy what it keeps.
//
// With reduce, when some process has a local step enabled (Instr.Local), only the
// first such step is emitted: the reduced search reaches the same terminal states.
func (p *Program) Successors(s, scratch State, reduce bool, emit func(Step, State)) {
	if reduce && p.localSuccessor(s, scratch, emit) {
		return
	}
	for proc := range p.Procs {
		p.procSuccessors(s, scratch, proc, emit)
	}
	for k := range p.Slots {
		st := Step{Kind: StepPerform, Index: int8(k)}
		if s[p.Layout.Slot[k]] == SlotPending {
			copy(scratch, s)
			if p.Apply(scratch, st, nil) {
				emit(st, scratch)
			}
		}
	}
}

func (p *Program) procSuccessors(s, scratch State, proc int, emit func(Step, State)) {
	l := &p.Layout
	if p.HW == TSO && s[l.TSOLen[proc]] > 0 {
		st := Step{Kind: StepDrain, Proc: int8(proc)}
		copy(scratch, s)
		p.Apply(scratch, st, nil)
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
			copy(scratch, s)
			if p.Apply(scratch, st, nil) {
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
				copy(scratch, s)
				if p.Apply(scratch, st, nil) {
					emit(st, scratch)
				}
			}
			continue
		}
		copy(scratch, s)
		if p.Apply(scratch, st, nil) {
			emit(st, scratch)
		}
	}
}

// localSuccessor emits the first enabled local step, if there is one.
func (p *Program) localSuccessor(s, scratch State, emit func(Step, State)) bool {
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
			case j == inCall:
				if !in.LocalReturn {
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
			copy(scratch, s)
			if p.Apply(scratch, st, nil) {
				emit(st, scratch)
				return true
			}
		}
	}
	return false
}

// ready reports whether instruction j is not held back by an earlier one (SEMANTICS.md §2).
func (p *Program) ready(s State, proc, j int, done uint64) bool {
	in := &p.Procs[proc].Code[j]
	if in.Blockers&^done == 0 {
		return !in.IsMPI || p.HW != TSO || s[p.Layout.TSOLen[proc]] == 0
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
		return p.perform(s, int(st.Index), rec)
	case StepReturn:
		return p.returnFrom(s, int(st.Proc), int(st.Index), rec)
	}
	proc, j := int(st.Proc), int(st.Index)
	in := &p.Procs[proc].Code[j]
	if rec != nil {
		rec.Text = fmt.Sprintf("P%d row %d: %s", proc, in.Row, in.Text)
	}
	for _, i := range in.OriginBuf {
		if s[p.Layout.Slot[p.Procs[proc].Code[i].Slot]] != SlotIdle {
			rma := &p.Procs[proc].Code[i]
			p.raise(s, rec, "E-ORIGIN-BUF", proc, in.Row,
				"P%d row %d: %s uses the origin buffer of %s (row %d) before the operation completes locally", proc, in.Row, in.Text, rma.Text, rma.Row)
		}
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, proc, in) {
		p.setDone(s, proc, j)
		if rec != nil {
			rec.Text += "  (guard false: skipped)"
		}
		return true
	}
	if !p.exec(s, proc, j, in, st.Choice, rec) {
		return false
	}
	if in.AlignErr != "" {
		p.raise(s, rec, "E-ALIGN", proc, in.Row, "%s", in.AlignErr)
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

func (p *Program) raise(s State, rec *Record, rule string, proc, row int, format string, args ...any) {
	off := p.Layout.Flags
	s.setU32(off, s.u32(off)|flagBit(rule))
	if rec != nil {
		r, _ := spec.LookupRule(rule)
		msg := fmt.Sprintf(format, args...)
		if r.ID != "" && len(r.Nodes) > 0 {
			msg += fmt.Sprintf(" [%s, %s]", rule, r.Cite())
		} else {
			msg += " [" + rule + "]"
		}
		rec.Raised = append(rec.Raised, Raised{Rule: rule, Message: msg, Proc: proc, Row: row})
	}
}

// exec carries out instruction j (its guard held). For a blocking call it returns
// false when the call cannot complete yet. Errors are raised, and the erroneous call
// then has no effect, so that the execution can go on and its outcome be listed.
func (p *Program) exec(s State, proc, j int, in *Instr, choice int8, rec *Record) bool {
	switch in.Kind {
	case KArith:
		v := p.val(s, proc, in.Args[0])
		switch in.Op {
		case litmus.OpAdd:
			v += p.val(s, proc, in.Args[1])
		case litmus.OpSub:
			v -= p.val(s, proc, in.Args[1])
		}
		p.setReg(s, proc, int(in.Dst), v)
		return true
	case KPlainLoad, KPlainStore:
		return p.plainAccess(s, proc, in, rec)
	case KRemoteLoad:
		return p.remoteLoad(s, proc, in, rec)
	case KRemoteStore, KRMA:
		return p.issue(s, proc, in, rec)
	case KWaitReq:
		return p.waitReq(s, in)
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
	}
	panic(fmt.Sprintf("model: unknown kind %d", in.Kind))
}

// ----- plain load/store (SEMANTICS.md §2) -----

// lsAccessOK checks that a load/store may touch its cell: the window is not freed,
// and a remote segment is one the process has load/store access to (node311).
func (p *Program) lsAccessOK(s State, proc int, in *Instr, rec *Record) bool {
	w := &p.Wins[in.Win]
	wl := &p.Layout.Win[in.Win]
	if s[wl.Freed+proc] != 0 {
		p.raise(s, rec, "E-EPOCH", proc, in.Row, "P%d row %d: %s accesses window %s after free", proc, in.Row, in.Text, w.Name)
		return false
	}
	if !in.Remote {
		return true
	}
	if w.Model == litmus.Separate || p.Cells[in.Cell].Separate {
		p.raise(s, rec, "E-SEPARATE-SHM", proc, in.Row,
			"P%d row %d: %s loads or stores another rank's segment of the separate window %s: MPI does not define it", proc, in.Row, in.Text, w.Name)
		return false
	}
	if w.Flavor == litmus.FlavorAllocateShared || s[wl.SQ+proc*p.NProcs+int(in.Target)] == 1 {
		return true
	}
	p.raise(s, rec, "E-LS-ACCESS", proc, in.Row,
		"P%d row %d: %s reaches rank %d's segment of %s window %s without load/store access (no shared_query returned a size > 0)",
		proc, in.Row, in.Text, in.Target, w.Flavor, w.Name)
	return false
}

func (p *Program) plainAccess(s State, proc int, in *Instr, rec *Record) bool {
	if !p.lsAccessOK(s, proc, in, rec) {
		return true
	}
	c := int(in.Cell)
	if in.Kind == KPlainLoad {
		v := p.loadValue(s, proc, in)
		p.setReg(s, proc, int(in.Dst), v)
		if rec != nil {
			rec.Text += fmt.Sprintf("  (reads %s=%d)", p.Cells[c].Name, v)
		}
		return true
	}
	v := p.val(s, proc, in.Args[0])
	if p.HW == TSO {
		l := &p.Layout
		n := int(s[l.TSOLen[proc]])
		off := l.TSOBuf[proc] + 9*n
		s[off] = byte(c)
		s.setI64(off+1, v)
		s[l.TSOLen[proc]] = byte(n + 1)
		p.noteStore(s, proc, c)
		if rec != nil {
			rec.Text += fmt.Sprintf("  (buffers %s:=%d)", p.Cells[c].Name, v)
		}
		return true
	}
	p.writeLocal(s, c, v)
	p.noteStore(s, proc, c)
	if rec != nil {
		rec.Text += fmt.Sprintf("  (%s:=%d)", p.Cells[c].Name, v)
	}
	return true
}

// loadValue: store forwarding from an unexecuted store, else the newest buffered
// store of the process (tso), else the memory copy the process sees.
func (p *Program) loadValue(s State, proc int, in *Instr) int64 {
	c := int(in.Cell)
	if in.FwdStore >= 0 && p.done(s, proc)&(1<<uint(in.FwdStore)) == 0 {
		return p.val(s, proc, p.Procs[proc].Code[in.FwdStore].Args[0])
	}
	if p.HW == TSO {
		l := &p.Layout
		for k := int(s[l.TSOLen[proc]]) - 1; k >= 0; k-- {
			off := l.TSOBuf[proc] + 9*k
			if int(s[off]) == c {
				return s.i64(off + 1)
			}
		}
	}
	return s.i64(p.localOff(c))
}

func (p *Program) writeLocal(s State, c int, v int64) {
	s.setI64(p.localOff(c), v)
	if p.Cells[c].Separate {
		s.setU64(p.Layout.DirtyPriv, s.u64(p.Layout.DirtyPriv)|1<<uint(c))
	}
}

func (p *Program) drain(s State, proc int, rec *Record) {
	l := &p.Layout
	n := int(s[l.TSOLen[proc]])
	base := l.TSOBuf[proc]
	c := int(s[base])
	v := s.i64(base + 1)
	copy(s[base:base+9*(n-1)], s[base+9:base+9*n])
	for k := base + 9*(n-1); k < base+9*n; k++ {
		s[k] = 0
	}
	s[l.TSOLen[proc]] = byte(n - 1)
	p.writeLocal(s, c, v)
	if rec != nil {
		rec.Text = fmt.Sprintf("P%d store buffer drains %s:=%d", proc, p.Cells[c].Name, v)
	}
}

// ----- RMA operations (SEMANTICS.md §3) -----

// epochFor finds the access epoch an RMA call of proc to target opens in (node327):
// a start epoch holding the target, a lock of the target or lock_all, or a fence epoch.
func (p *Program) epochFor(s State, proc int, in *Instr) (kind, index int) {
	wl := &p.Layout.Win[in.Win]
	t := uint(in.Target)
	n := p.NProcs
	if s.u32(wl.StartOpen+4*proc)&(1<<t) != 0 {
		return EpochPSCW, int(s[wl.StartCnt+proc*n+int(t)])
	}
	if s.u32(wl.LockHeld+4*proc)&(1<<t) != 0 || s[wl.LockAll+proc] != 0 {
		return EpochPassive, 0
	}
	if k := int(s[wl.FenceDone+proc]); k > 0 && s[wl.FenceOpen+proc]&1 != 0 && in.FenceAfter {
		return EpochFence, k
	}
	return 0, 0
}

// exposed reports whether the target is exposed to an operation of that epoch, so
// that it may be performed: the target returned from the fence opening the epoch,
// or posted the matching exposure; a passive-target lock is held until completion.
func (p *Program) exposed(s State, win, origin, target, kind, index int) bool {
	wl := &p.Layout.Win[win]
	switch kind {
	case EpochFence:
		return int(s[wl.FenceDone+target]) >= index
	case EpochPSCW:
		return int(s[wl.PostCnt+target*p.NProcs+origin]) >= index
	}
	return true
}

func (p *Program) issue(s State, proc int, in *Instr, rec *Record) bool {
	w := &p.Wins[in.Win]
	wl := &p.Layout.Win[in.Win]
	if in.Kind == KRemoteStore && !p.lsAccessOK(s, proc, in, rec) {
		return true
	}
	if s[wl.Freed+proc] != 0 {
		p.raise(s, rec, "E-EPOCH", proc, in.Row, "P%d row %d: %s on window %s after free", proc, in.Row, in.Text, w.Name)
		return true
	}
	kind, index := p.epochFor(s, proc, in)
	if kind == 0 && s[wl.FenceDone+proc] > 0 && s[wl.FenceOpen+proc]&1 == 0 && in.FenceAfter {
		p.assertFalse(s, rec, proc, in, "an RMA call after a fence that asserted nosucceed")
	}
	if kind == 0 {
		what := "RMA call"
		if in.Kind == KRemoteStore {
			what = "remote store (an RMA operation under ls_is_rma)"
		}
		p.raise(s, rec, "E-EPOCH", proc, in.Row, "P%d row %d: %s: %s outside an access epoch to rank %d on window %s",
			proc, in.Row, in.Text, what, in.Target, w.Name)
		return true
	}
	p.checkNoput(s, rec, proc, in, kind, index)
	off := p.Layout.Slot[in.Slot]
	s[off] = SlotPending
	s[off+1] = byte(kind)
	s[off+2] = byte(index)
	s.setI64(off+3, p.val(s, proc, in.Args[0]))
	s.setI64(off+11, p.val(s, proc, in.Args[1]))
	if rec != nil {
		rec.Text += fmt.Sprintf("  (issued in %s)", epochName(kind, index))
	}
	return true
}

func epochName(kind, index int) string {
	switch kind {
	case EpochFence:
		return fmt.Sprintf("the fence epoch opened by fence #%d", index)
	case EpochPSCW:
		return fmt.Sprintf("start epoch #%d", index)
	}
	return "a passive-target epoch"
}

// remoteLoad is a remote load under ls_is_rma: a get that blocks until it may be
// performed and completes at once.
func (p *Program) remoteLoad(s State, proc int, in *Instr, rec *Record) bool {
	if !p.lsAccessOK(s, proc, in, rec) {
		return true
	}
	kind, index := p.epochFor(s, proc, in)
	if kind == 0 {
		p.raise(s, rec, "E-EPOCH", proc, in.Row,
			"P%d row %d: %s: remote load (an RMA operation under ls_is_rma) outside an access epoch to rank %d on window %s",
			proc, in.Row, in.Text, in.Target, p.Wins[in.Win].Name)
		return true
	}
	if !p.exposed(s, int(in.Win), proc, int(in.Target), kind, index) {
		return false
	}
	v := p.pub(s, int(in.Cell))
	p.setReg(s, proc, int(in.Dst), v)
	if rec != nil {
		rec.Text += fmt.Sprintf("  (reads %s=%d)", p.Cells[in.Cell].Name, v)
	}
	return true
}

// accReads / accWrites: the fetching and the updating part of an accumulate.
func accReads(in *Instr) bool {
	switch in.Op {
	case litmus.OpGacc, litmus.OpRgacc, litmus.OpFop, litmus.OpCas:
		return true
	}
	return false
}

func accWrites(in *Instr) bool {
	switch in.Op {
	case litmus.OpAcc, litmus.OpRacc, litmus.OpCas:
		return true
	case litmus.OpGacc, litmus.OpRgacc, litmus.OpFop:
		return in.AccOp != litmus.AccNoOp
	}
	return false
}

func isAccumulate(in *Instr) bool { return accReads(in) || accWrites(in) }

// accOrdered: accumulates from one origin to one cell keep issue order for the
// pairs accumulate_ordering lists (node338).
func accOrdered(order uint8, a, b *Instr) bool {
	return (accWrites(a) && accWrites(b) && order&OrdWAW != 0) ||
		(accWrites(a) && accReads(b) && order&OrdRAW != 0) ||
		(accReads(a) && accWrites(b) && order&OrdWAR != 0) ||
		(accReads(a) && accReads(b) && order&OrdRAR != 0)
}

func (p *Program) perform(s State, k int, rec *Record) bool {
	sl := p.Slots[k]
	in := &p.Procs[sl.Proc].Code[sl.Instr]
	off := p.Layout.Slot[k]
	if !p.exposed(s, int(in.Win), sl.Proc, int(in.Target), int(s[off+1]), int(s[off+2])) {
		return false
	}
	if isAccumulate(in) {
		order := p.Wins[in.Win].AccOrder
		for e := k - 1; e >= 0 && p.Slots[e].Proc == sl.Proc; e-- {
			prev := &p.Procs[sl.Proc].Code[p.Slots[e].Instr]
			if s[p.Layout.Slot[e]] == SlotPending && prev.Cell == in.Cell && isAccumulate(prev) && accOrdered(order, prev, in) {
				return false
			}
		}
	}
	c := int(in.Cell)
	old := p.pub(s, c)
	a, b := s.i64(off+3), s.i64(off+11)
	nv, writes := old, true
	switch in.Op {
	case litmus.OpPut, litmus.OpRput:
		nv = a
	case litmus.OpGet, litmus.OpRget:
		writes = false
	case litmus.OpCas:
		if old == a {
			nv = b
		}
	default:
		nv = reduce(in.AccOp, old, a)
		writes = in.AccOp != litmus.AccNoOp
	}
	if in.Kind == KRemoteStore {
		nv = a
	}
	if in.Dst >= 0 && in.Kind == KRMA {
		p.setReg(s, sl.Proc, int(in.Dst), old)
	}
	if writes {
		p.setPub(s, c, nv)
		if p.Cells[c].Separate {
			s.setU64(p.Layout.DirtyPub, s.u64(p.Layout.DirtyPub)|1<<uint(c))
		}
	}
	s[off] = SlotPerformed
	if rec != nil {
		rec.Text = fmt.Sprintf("perform %s of P%d row %d: ", in.Text, sl.Proc, in.Row)
		if writes {
			rec.Text += fmt.Sprintf("%s:=%d", p.Cells[c].Name, nv)
		} else {
			rec.Text += fmt.Sprintf("reads %s=%d", p.Cells[c].Name, old)
		}
	}
	return true
}

func reduce(op litmus.AccOp, old, v int64) int64 {
	switch op {
	case litmus.AccSum:
		return old + v
	case litmus.AccProd:
		return old * v
	case litmus.AccMax:
		return max(old, v)
	case litmus.AccMin:
		return min(old, v)
	case litmus.AccBand:
		return old & v
	case litmus.AccBor:
		return old | v
	case litmus.AccBxor:
		return old ^ v
	case litmus.AccReplace:
		return v
	}
	return old // no_op
}

// pending reports whether proc has an unperformed operation on win matching the filter.
func (p *Program) pending(s State, proc, win int, match func(in *Instr, kind int) bool) bool {
	for k, sl := range p.Slots {
		if sl.Proc != proc {
			continue
		}
		off := p.Layout.Slot[k]
		in := &p.Procs[proc].Code[sl.Instr]
		if s[off] == SlotPending && int(in.Win) == win && match(in, int(s[off+1])) {
			return true
		}
	}
	return false
}

func anyOp(*Instr, int) bool { return true }

// completeAtTarget marks performed operations on win as completed at their target
// (R2-R4), when match accepts their (origin, instruction, epoch kind, index).
func (p *Program) completeAtTarget(s State, win int, match func(origin int, in *Instr, kind, index int) bool) {
	for k, sl := range p.Slots {
		off := p.Layout.Slot[k]
		if s[off] != SlotPerformed {
			continue
		}
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		if int(in.Win) == win && match(sl.Proc, in, int(s[off+1]), int(s[off+2])) {
			s[off] = SlotCompleted
		}
	}
}

func (p *Program) waitReq(s State, in *Instr) bool {
	k := in.ReqSlot
	if k < 0 {
		return true
	}
	rma := &p.Procs[p.Slots[k].Proc].Code[p.Slots[k].Instr]
	if rma.Dst >= 0 && s[p.Layout.Slot[k]] == SlotPending {
		return false // a request-based get completes locally once its data arrived
	}
	return true
}

// ----- synchronization (SEMANTICS.md §4) -----

func (p *Program) winUsable(s State, proc int, in *Instr, rec *Record) bool {
	wl := &p.Layout.Win[in.Win]
	if s[wl.Freed+proc] != 0 {
		p.raise(s, rec, "E-EPOCH", proc, in.Row, "P%d row %d: %s on window %s after free", proc, in.Row, in.Text, p.Wins[in.Win].Name)
		return false
	}
	return true
}

// copyR5 makes the owner's stores public (separate windows): cells stored since its last R5 point.
func (p *Program) copyR5(s State, proc, win int) {
	if !p.hasSeparate {
		return
	}
	l := &p.Layout
	m := s.u64(l.DirtyPriv) & p.Wins[win].OwnCells[proc]
	for c := m; c != 0; c &= c - 1 {
		i := bits.TrailingZeros64(c)
		p.setPub(s, i, s.i64(l.Priv+8*i))
	}
	s.setU64(l.DirtyPriv, s.u64(l.DirtyPriv)&^m)
}

// copyR6 makes public updates private: cells updated by RMA since its last R6 point.
func (p *Program) copyR6(s State, proc, win int) {
	if !p.hasSeparate {
		return
	}
	l := &p.Layout
	m := s.u64(l.DirtyPub) & p.Wins[win].OwnCells[proc]
	for c := m; c != 0; c &= c - 1 {
		i := bits.TrailingZeros64(c)
		s.setI64(l.Priv+8*i, p.pub(s, i))
	}
	s.setU64(l.DirtyPub, s.u64(l.DirtyPub)&^m)
}

func (p *Program) epochMix(s State, proc int, in *Instr, rec *Record, why string) {
	p.raise(s, rec, "E-EPOCH-MIX", proc, in.Row, "P%d row %d: %s: %s", proc, in.Row, in.Text, why)
}

func (p *Program) syncEpoch(s State, proc int, in *Instr, rec *Record, why string) {
	p.raise(s, rec, "E-SYNC-EPOCH", proc, in.Row, "P%d row %d: %s: %s", proc, in.Row, in.Text, why)
}

func (p *Program) fence(s State, proc, j int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 || s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0 {
		// Flagged, and the fence still runs: the other members wait for it.
		p.epochMix(s, proc, in, rec, "fence while a start or lock epoch is open on "+p.Wins[in.Win].Name)
	}
	if !in.TwoPhase && !p.Exploit && !p.noprecedeMayReturn(s, proc, in) {
		return false
	}
	p.checkNostore(s, rec, proc, in)
	p.checkNoprecede(s, rec, proc, in)
	if in.TwoPhase {
		s[p.Layout.InCall[proc]] = byte(j + 1)
		if rec != nil {
			rec.Text += "  (arrives)"
		}
		return true
	}
	p.fenceReturn(s, proc, in)
	return true
}

// noprecedeMayReturn: a fence with noprecede does not synchronize (node328), but
// without exploit it still completes what it closes (R1, R2), in case the
// assertion is false.
func (p *Program) noprecedeMayReturn(s State, proc int, in *Instr) bool {
	if p.pending(s, proc, int(in.Win), anyOp) {
		return false
	}
	k := int(s[p.Layout.Win[in.Win].FenceDone+proc]) + 1
	return !p.pendingFence(s, int(in.Win), k, proc)
}

// fenceReturn ends a fence: R5 then R6 copies, the next epoch opens unless nosucceed.
func (p *Program) fenceReturn(s State, proc int, in *Instr) {
	wl := &p.Layout.Win[in.Win]
	k := int(s[wl.FenceDone+proc]) + 1
	p.completeAtTarget(s, int(in.Win), func(_ int, _ *Instr, kind, index int) bool { // R2, at the join
		return kind == EpochFence && index < k
	})
	s[wl.FenceDone+proc]++
	noputBefore := s[wl.FenceOpen+proc]&2 != 0
	open := byte(1)
	if in.Asserts&AssertNosucceed != 0 {
		open = 0
	}
	if in.Asserts&AssertNoput != 0 {
		open |= 2
	}
	s[wl.FenceOpen+proc] = open
	p.syncPoint(s, proc, in)
	if !p.Exploit || in.Asserts&AssertNostore == 0 {
		p.copyR5(s, proc, int(in.Win)) // exploit: nostore declares the copy unnecessary
	}
	if !p.Exploit || !noputBefore {
		p.copyR6(s, proc, int(in.Win)) // exploit: the previous fence's noput declared it unnecessary
	}
}

// returnFrom completes a two-phase call once every member has arrived (fence, barrier, free).
func (p *Program) returnFrom(s State, proc, j int, rec *Record) bool {
	in := &p.Procs[proc].Code[j]
	switch in.Kind {
	case KFence:
		if !p.fenceCanReturn(s, proc, in) {
			return false
		}
		p.fenceReturn(s, proc, in)
	case KBarrier:
		if !p.allArrived(s, proc, KBarrier, -1, p.Layout.Barrs, p.allProcs()) {
			return false
		}
		s[p.Layout.Barrs[proc]]++
	case KFree:
		wl := &p.Layout.Win[in.Win]
		if !p.allArrived(s, proc, KFree, int(in.Win), nil, p.Wins[in.Win].Group) {
			return false
		}
		_ = wl
		s[wl.Freed+proc] = 1
	}
	s[p.Layout.InCall[proc]] = 0
	p.setDone(s, proc, j)
	if rec != nil {
		rec.Text = fmt.Sprintf("P%d row %d: %s  (returns)", proc, in.Row, in.Text)
	}
	return true
}

func (p *Program) allProcs() uint32 { return 1<<uint(p.NProcs) - 1 }

// fenceCanReturn: every member arrived at this fence (node328), the caller's
// operations are performed (R1), and those of the closing epoch at it too (R2).
func (p *Program) fenceCanReturn(s State, proc int, in *Instr) bool {
	wl := &p.Layout.Win[in.Win]
	k := int(s[wl.FenceDone+proc]) + 1
	for m := 0; m < p.NProcs; m++ {
		if p.Wins[in.Win].Group&(1<<uint(m)) == 0 {
			continue
		}
		done := int(s[wl.FenceDone+m])
		if done >= k {
			continue
		}
		if done == k-1 && p.arrivedAt(s, m, KFence, int(in.Win)) {
			continue
		}
		return false
	}
	if p.pending(s, proc, int(in.Win), anyOp) {
		return false // R1
	}
	// R2, and §7: the operations of the closing epoch complete at the join of the
	// arrivals, before any member returns, not only before their target does. With
	// exploit, a previous noput lets the caller skip waiting for incoming updates
	// (puts and accumulates, which noput says do not come); gets still complete.
	noput := p.Exploit && s[wl.FenceOpen+proc]&2 != 0
	for i, sl := range p.Slots {
		off := p.Layout.Slot[i]
		op := &p.Procs[sl.Proc].Code[sl.Instr]
		if s[off] != SlotPending || op.Win != in.Win || s[off+1] != EpochFence || int(s[off+2]) >= k {
			continue
		}
		if noput && int(op.Target) == proc && updates(op) {
			continue
		}
		return false
	}
	return true
}

// updates: the operation changes its target's memory (put, a writing accumulate,
// a remote store under ls_is_rma), what noput promises will not come.
func updates(in *Instr) bool {
	return accWrites(in) || in.Op == litmus.OpPut || in.Op == litmus.OpRput || in.Kind == KRemoteStore
}

// pendingFence reports whether an operation of a fence epoch before k on win is
// still unperformed (only those targeting target, when target >= 0).
func (p *Program) pendingFence(s State, win, k, target int) bool {
	for i, sl := range p.Slots {
		off := p.Layout.Slot[i]
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		if s[off] == SlotPending && int(in.Win) == win && s[off+1] == EpochFence && int(s[off+2]) < k && (target < 0 || int(in.Target) == target) {
			return true
		}
	}
	return false
}

func (p *Program) arrivedAt(s State, m int, kind Kind, win int) bool {
	ic := int(s[p.Layout.InCall[m]]) - 1
	if ic < 0 {
		return false
	}
	in := &p.Procs[m].Code[ic]
	return in.Kind == kind && (win < 0 || int(in.Win) == win)
}

// allArrived: every process of group has arrived at the same generation of a
// collective (counted by counts, or at most once per window for free).
func (p *Program) allArrived(s State, proc int, kind Kind, win int, counts []int, group uint32) bool {
	for m := 0; m < p.NProcs; m++ {
		if group&(1<<uint(m)) == 0 {
			continue
		}
		if counts == nil {
			if s[p.Layout.Win[win].Freed+m] != 0 || p.arrivedAt(s, m, kind, win) {
				continue
			}
			return false
		}
		k := int(s[counts[proc]]) + 1
		done := int(s[counts[m]])
		if done >= k || (done == k-1 && p.arrivedAt(s, m, kind, win)) {
			continue
		}
		return false
	}
	return true
}

func (p *Program) post(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.PostOpen+4*proc) != 0 {
		p.epochMix(s, proc, in, rec, "post while an exposure epoch is already open")
		return true
	}
	if s.u32(wl.Holders+4*proc) != 0 {
		// and the post proceeds, so the rest of the execution can be listed
		p.epochMix(s, proc, in, rec, "post while a lock of this window is held on the caller: locked and exposed at once (node330)")
	}
	p.checkNostore(s, rec, proc, in)
	for o := 0; o < p.NProcs; o++ {
		if in.Group&(1<<uint(o)) != 0 {
			s[wl.PostCnt+proc*p.NProcs+o]++
		}
	}
	s.setU32(wl.PostOpen+4*proc, in.Group)
	if !p.Exploit || in.Asserts&AssertNostore == 0 {
		p.copyR5(s, proc, int(in.Win))
	}
	return true
}

func (p *Program) start(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	n := p.NProcs
	switch {
	case s.u32(wl.StartOpen+4*proc) != 0:
		p.epochMix(s, proc, in, rec, "start while a start epoch is open (nested start)")
		return true
	case s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, "start while a lock epoch is open") // and the start proceeds
	}
	if p.Sem.Has(spec.PostStartLS) && !(p.Exploit && in.Asserts&AssertNocheck != 0) {
		for t := 0; t < n; t++ {
			if in.Group&(1<<uint(t)) != 0 && s[wl.PostCnt+t*n+proc] <= s[wl.StartCnt+proc*n+t] {
				return false // post_start_ls: start waits for the matching posts
			}
		}
	}
	for t := 0; t < n; t++ {
		if in.Group&(1<<uint(t)) != 0 {
			s[wl.StartCnt+proc*n+t]++
		}
	}
	s.setU32(wl.StartOpen+4*proc, in.Group)
	return true
}

func (p *Program) complete(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	group := s.u32(wl.StartOpen + 4*proc)
	if group == 0 {
		p.syncEpoch(s, proc, in, rec, "complete without an open start epoch")
		return true
	}
	if p.pending(s, proc, int(in.Win), func(_ *Instr, kind int) bool { return kind == EpochPSCW }) {
		return false // R1
	}
	for t := 0; t < p.NProcs; t++ {
		if group&(1<<uint(t)) != 0 {
			s[wl.DoneCnt+proc*p.NProcs+t]++
		}
	}
	s.setU32(wl.StartOpen+4*proc, 0)
	return true
}

func (p *Program) wait(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	n := p.NProcs
	group := s.u32(wl.PostOpen + 4*proc)
	if group == 0 {
		p.syncEpoch(s, proc, in, rec, "wait without an open exposure epoch (no post)")
		return true
	}
	for o := 0; o < n; o++ {
		if group&(1<<uint(o)) != 0 && s[wl.DoneCnt+o*n+proc] < s[wl.PostCnt+proc*n+o] {
			return false // wait waits for the matching completes
		}
	}
	// R3 needs no wait of its own: each matching complete waited until its
	// operations were performed (R1); they complete at the target here.
	p.completeAtTarget(s, int(in.Win), func(origin int, op *Instr, kind, index int) bool {
		return int(op.Target) == proc && kind == EpochPSCW && group&(1<<uint(origin)) != 0 &&
			index <= int(s[wl.DoneCnt+origin*n+proc])
	})
	s.setU32(wl.PostOpen+4*proc, 0)
	p.copyR6(s, proc, int(in.Win))
	return true
}

func (p *Program) noLocks(s State, proc int, in *Instr, rec *Record) {
	if p.Wins[in.Win].NoLocks {
		p.raise(s, rec, "E-INFO", proc, in.Row, "P%d row %d: %s locks window %s, created with no_locks=true", proc, in.Row, in.Text, p.Wins[in.Win].Name)
	}
}

func (p *Program) lock(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	t := int(in.Target)
	switch {
	case s.u32(wl.LockHeld+4*proc)&(1<<uint(t)) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, fmt.Sprintf("a second lock epoch from P%d to rank %d", proc, t))
		return true
	}
	takesLock := !(p.Exploit && in.Asserts&AssertNocheck != 0) // exploit: nocheck takes no lock
	holders := s.u32(wl.Holders + 4*t)
	if takesLock && holders != 0 && (in.LockType == litmus.LockExclusive || s[wl.Excl+t] != 0) {
		return false // blocks until acquired
	}
	p.noLocks(s, proc, in, rec)
	p.lockMix(s, proc, in, rec, 1<<uint(t))
	if takesLock {
		s.setU32(wl.Holders+4*t, holders|1<<uint(proc))
		if in.LockType == litmus.LockExclusive {
			s[wl.Excl+t] = 1
		}
	}
	s.setU32(wl.LockHeld+4*proc, s.u32(wl.LockHeld+4*proc)|1<<uint(t))
	if t == proc {
		p.copyR6(s, proc, int(in.Win))
	}
	return true
}

// lockMix flags a lock epoch mixed with an active-target one (node330): a lock
// inside the caller's start epoch, or of a target that has posted and not yet
// waited. The lock still proceeds, so the rest of the execution can be listed.
func (p *Program) lockMix(s State, proc int, in *Instr, rec *Record, targets uint32) {
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 {
		p.epochMix(s, proc, in, rec, "a lock inside a start epoch")
	}
	for t := 0; t < p.NProcs; t++ {
		if targets&(1<<uint(t)) != 0 && s.u32(wl.PostOpen+4*t) != 0 {
			p.epochMix(s, proc, in, rec, fmt.Sprintf("a lock of rank %d, which has called post and not yet wait", t))
			return
		}
	}
}

func (p *Program) release(s State, wl *WinLayout, proc, t int) {
	h := s.u32(wl.Holders+4*t) &^ (1 << uint(proc))
	s.setU32(wl.Holders+4*t, h)
	if h == 0 {
		s[wl.Excl+t] = 0
	}
}

func (p *Program) unlock(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	t := int(in.Target)
	held := s.u32(wl.LockHeld + 4*proc)
	if held&(1<<uint(t)) == 0 {
		p.syncEpoch(s, proc, in, rec, fmt.Sprintf("unlock of rank %d, which P%d has not locked", t, proc))
		return true
	}
	if p.pending(s, proc, int(in.Win), func(op *Instr, _ int) bool { return int(op.Target) == t }) {
		return false // R4: performed at the target within the call
	}
	p.completeAtTarget(s, int(in.Win), func(origin int, op *Instr, _, _ int) bool { // R4
		return origin == proc && int(op.Target) == t
	})
	p.release(s, wl, proc, t)
	s.setU32(wl.LockHeld+4*proc, held&^(1<<uint(t)))
	if t == proc {
		p.copyR5(s, proc, int(in.Win))
	}
	return true
}

func (p *Program) lockAll(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	switch {
	case s.u32(wl.LockHeld+4*proc) != 0 || s[wl.LockAll+proc] != 0:
		p.epochMix(s, proc, in, rec, "lock_all while a lock epoch is open")
		return true
	}
	group := p.Wins[in.Win].Group
	takesLock := !(p.Exploit && in.Asserts&AssertNocheck != 0) // exploit: nocheck takes no lock
	for t := 0; t < p.NProcs; t++ {
		if takesLock && group&(1<<uint(t)) != 0 && s[wl.Excl+t] != 0 {
			return false
		}
	}
	p.noLocks(s, proc, in, rec)
	p.lockMix(s, proc, in, rec, group)
	for t := 0; t < p.NProcs; t++ {
		if takesLock && group&(1<<uint(t)) != 0 {
			s.setU32(wl.Holders+4*t, s.u32(wl.Holders+4*t)|1<<uint(proc))
		}
	}
	s[wl.LockAll+proc] = 1
	p.copyR6(s, proc, int(in.Win))
	return true
}

func (p *Program) unlockAll(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s[wl.LockAll+proc] == 0 {
		p.syncEpoch(s, proc, in, rec, "unlock_all without lock_all")
		return true
	}
	if p.pending(s, proc, int(in.Win), anyOp) {
		return false // R4
	}
	p.completeAtTarget(s, int(in.Win), func(origin int, _ *Instr, _, _ int) bool { return origin == proc })
	for t := 0; t < p.NProcs; t++ {
		if p.Wins[in.Win].Group&(1<<uint(t)) != 0 {
			p.release(s, wl, proc, t)
		}
	}
	s[wl.LockAll+proc] = 0
	p.copyR5(s, proc, int(in.Win))
	return true
}

func (p *Program) passiveEpoch(s State, proc int, in *Instr, all bool) bool {
	wl := &p.Layout.Win[in.Win]
	held := s.u32(wl.LockHeld + 4*proc)
	if s[wl.LockAll+proc] != 0 {
		return true
	}
	if all {
		return held != 0
	}
	return held&(1<<uint(in.Target)) != 0
}

func (p *Program) flush(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	all := in.Op == litmus.OpFlushAll || in.Op == litmus.OpFlushLocalAll
	if !p.passiveEpoch(s, proc, in, all) {
		p.syncEpoch(s, proc, in, rec, "flush outside a passive-target epoch")
		return true
	}
	local := in.Kind == KFlushLocal
	busy := p.pending(s, proc, int(in.Win), func(op *Instr, _ int) bool {
		if !all && op.Target != in.Target {
			return false
		}
		return !local || op.Dst >= 0 // flush_local waits only for results to arrive
	})
	if busy {
		return false
	}
	if !local { // R4: flush completes the operations at the target
		p.completeAtTarget(s, int(in.Win), func(origin int, op *Instr, _, _ int) bool {
			return origin == proc && (all || op.Target == in.Target)
		})
	}
	return true
}

func (p *Program) sync(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	if !p.passiveEpoch(s, proc, in, true) {
		p.syncEpoch(s, proc, in, rec, "MPI_Win_sync outside a passive-target epoch")
		return true
	}
	p.copyR5(s, proc, int(in.Win))
	p.copyR6(s, proc, int(in.Win))
	return true
}

// sqOpen reports whether a shared_query still has two possible answers.
func (p *Program) sqOpen(s State, proc int, in *Instr) bool {
	w := &p.Wins[in.Win]
	if w.Flavor == litmus.FlavorAllocateShared || w.Flavor == litmus.FlavorDynamic || !p.Sem.Has(spec.SqAnyFlavor) {
		return false
	}
	if in.GuardReg >= 0 && !p.guardHolds(s, proc, in) {
		return false
	}
	return s[p.Layout.Win[in.Win].SQ+proc*p.NProcs+int(in.Target)] == 0 && w.SegSize[in.Target] > 0
}

func (p *Program) sharedQuery(s State, proc int, in *Instr, choice int8, rec *Record) bool {
	w := &p.Wins[in.Win]
	t := int(in.Target)
	sq := p.Layout.Win[in.Win].SQ + proc*p.NProcs + t
	switch {
	case w.Flavor == litmus.FlavorDynamic:
		p.raise(s, rec, "E-SQ-FLAVOR", proc, in.Row, "P%d row %d: %s: shared_query on the dynamic window %s", proc, in.Row, in.Text, w.Name)
		return true
	case w.Flavor != litmus.FlavorAllocateShared && !p.Sem.Has(spec.SqAnyFlavor):
		p.raise(s, rec, "E-SQ-FLAVOR", proc, in.Row, "P%d row %d: %s: shared_query on the %s window %s (allowed from MPI-4.1: sq_any_flavor)",
			proc, in.Row, in.Text, w.Flavor, w.Name)
		return true
	}
	size := int64(w.SegSize[t])
	if w.Flavor != litmus.FlavorAllocateShared {
		if choice == 0 {
			choice = int8(s[sq]) // answered before in this execution
		}
		if choice == 2 || size == 0 {
			size = 0
		}
		if choice != 0 {
			s[sq] = byte(choice)
		}
	}
	if size > 0 {
		s[sq] = 1
	}
	p.setReg(s, proc, int(in.Dst), size)
	if rec != nil {
		rec.Text += fmt.Sprintf("  (returns %d)", size)
	}
	return true
}

func (p *Program) chanIndex(from, to int) int {
	for i, c := range p.Chans {
		if c.From == from && c.To == to {
			return i
		}
	}
	return -1
}

func (p *Program) send(s State, proc int, in *Instr) bool {
	ci := p.chanIndex(proc, int(in.Target))
	off := p.Layout.Chan[ci]
	n := int(s[off])
	var v int64
	if in.NArgs > 0 {
		v = p.val(s, proc, in.Args[0])
	}
	s.setI64(off+2+8*n, v)
	s[off] = byte(n + 1)
	return true
}

func (p *Program) recv(s State, proc int, in *Instr) bool {
	ci := p.chanIndex(int(in.Target), proc)
	if ci < 0 {
		return false // nobody ever sends: blocks forever
	}
	off := p.Layout.Chan[ci]
	got := int(s[off+1])
	if got >= int(s[off]) {
		return false
	}
	if in.Dst >= 0 {
		p.setReg(s, proc, int(in.Dst), s.i64(off+2+8*got))
	}
	s[off+1] = byte(got + 1)
	return true
}

func (p *Program) free(s State, proc, j int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	wl := &p.Layout.Win[in.Win]
	if s.u32(wl.StartOpen+4*proc) != 0 || s.u32(wl.PostOpen+4*proc) != 0 || s.u32(wl.LockHeld+4*proc) != 0 ||
		s[wl.LockAll+proc] != 0 || p.pending(s, proc, int(in.Win), anyOp) {
		p.epochMix(s, proc, in, rec, "free with an epoch open or an operation pending")
	}
	if in.TwoPhase {
		s[p.Layout.InCall[proc]] = byte(j + 1)
		return true
	}
	s[wl.Freed+proc] = 1
	return true
}
