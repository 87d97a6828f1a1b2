package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// RMA operations (docs/semantics.md#rma-operations, node337-339): the epoch an operation is issued
// in, its perform step at the target, and the searches over pending operations
// that completion (R1-R4) waits on.

// epochFor finds the access epoch an RMA call of proc to target opens in (node327):
// a start epoch holding the target, a lock of the target or lock_all, or a fence epoch.
func (p *Program) epochFor(s State, proc int, in *Instr) (kind, index int) {
	wl := &p.Layout.Win[in.Win]
	if in.Op.IsRequest() {
		return p.requestEpoch(s, proc, in)
	}
	if in.Target < 0 {
		return p.nullEpoch(s, proc, in) // MPI_PROC_NULL (target.go)
	}
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

// requestEpoch finds the access epoch a request-based operation (rput, rget, racc,
// rgacc) is issued in: a passive-target one only, a lock of its target (of any
// target, for MPI_PROC_NULL) or lock_all. MPI-4.1 §12.3.5: request-based
// RMA operations are "only valid within a passive target epoch"; in a fence or
// PSCW epoch the call is E-EPOCH (docs/semantics.md#rma-operations).
func (p *Program) requestEpoch(s State, proc int, in *Instr) (kind, index int) {
	wl := &p.Layout.Win[in.Win]
	held := s.u32(wl.LockHeld + 4*proc)
	switch {
	case s[wl.LockAll+proc] != 0, in.Target < 0 && held != 0, in.Target >= 0 && held&(1<<uint(in.Target)) != 0:
		return EpochPassive, 0
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
		p.raise(s, rec, spec.EEpoch, proc, in, func() string { return fmt.Sprintf("%s on window %s after free", in.Text, w.Name) })
		return true
	}
	computed := in.Computed != nil
	if computed {
		r, ok := p.resolveCall(s, proc, in, rec) // E-TARGET (target.go)
		if !ok {
			return true
		}
		in = r
	}
	kind, index := p.epochFor(s, proc, in)
	if kind == 0 && !in.Op.IsRequest() && s[wl.FenceDone+proc] > 0 && s[wl.FenceOpen+proc]&1 == 0 && in.FenceAfter {
		p.assertFalse(s, rec, proc, in, func() string { return "an RMA call after a fence that asserted nosucceed" })
	}
	if kind == 0 {
		what := "RMA call"
		if in.Kind == KRemoteStore {
			what = "remote store (an RMA operation under ls_is_rma)"
		}
		p.raise(s, rec, spec.EEpoch, proc, in, func() string {
			if in.Op.IsRequest() {
				return fmt.Sprintf("%s: a request-based operation outside a passive-target epoch on window %s (MPI-4.1 §12.3.5: \"only valid within a passive target epoch\"; a fence or PSCW epoch does not do)", in.Text, w.Name)
			}
			if in.Target < 0 {
				return fmt.Sprintf("%s: %s to MPI_PROC_NULL outside any access epoch on window %s (it moves no data, and still needs one)", in.Text, what, w.Name)
			}
			return fmt.Sprintf("%s: %s outside an access epoch to rank %d on window %s", in.Text, what, in.Target, w.Name)
		})
		return true
	}
	if in.Target >= 0 { // MPI_PROC_NULL updates nobody
		p.checkNoput(s, rec, proc, in, kind, index)
	}
	if kind == EpochFence {
		p.fenceTargeted(s, proc, in, rec, int(in.Win), int(in.Target), index) // E-EPOCH-MIX (exposure.go)
	}
	off := p.Layout.Slot[in.Slot]
	s[off] = SlotPending
	s[off+1] = byte(kind)
	s[off+2] = byte(index)
	if in.Elems != nil {
		p.issueElems(s, proc, in, off)
	} else {
		s.setI64(off+3, p.val(s, proc, in.Args[0]))
		s.setI64(off+11, p.val(s, proc, in.Args[1]))
	}
	if computed {
		p.setSlotResolved(s, int(in.Slot), in)
		if in.Target < 0 {
			s[off] = SlotCompleted // MPI_PROC_NULL: no data moves, nothing to wait for
		}
	}
	p.issueRequest(s, proc, in, off) // its local completion is a step to come (completion.go)
	if rec.full() {
		switch {
		case computed && in.Target < 0:
			rec.Text += fmt.Sprintf("  (to MPI_PROC_NULL: no effect, in %s)", epochName(kind, index))
		case computed:
			rec.Text += fmt.Sprintf("  (to %s, issued in %s)", p.cellsName(in), epochName(kind, index))
		default:
			rec.Text += fmt.Sprintf("  (issued in %s)", epochName(kind, index))
		}
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
		p.raise(s, rec, spec.EEpoch, proc, in, func() string {
			return fmt.Sprintf("%s: remote load (an RMA operation under ls_is_rma) outside an access epoch to rank %d on window %s", in.Text, in.Target, p.Wins[in.Win].Name)
		})
		return true
	}
	if !p.exposed(s, int(in.Win), proc, int(in.Target), kind, index) {
		return false
	}
	if kind == EpochFence {
		p.fenceTargeted(s, proc, in, rec, int(in.Win), int(in.Target), index) // E-EPOCH-MIX (exposure.go)
	}
	v := p.pub(s, int(in.Cell))
	p.setReg(s, proc, int(in.Dst), v)
	if rec.full() {
		rec.read(Copy{Cell: int(in.Cell)})
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

func (p *Program) perform(s State, k, elem int, rec *Record) bool {
	sl := p.Slots[k]
	if sl.Multi {
		return p.performElem(s, k, elem, rec)
	}
	if elem != 0 {
		return false
	}
	in := p.slotOp(s, k)
	off := p.Layout.Slot[k]
	if !p.exposed(s, int(in.Win), sl.Proc, int(in.Target), int(s[off+1]), int(s[off+2])) || p.awaitsProgress(s, in) {
		return false
	}
	if isAccumulate(in) && p.accHeld(s, k, int(in.Cell), in) {
		return false
	}
	c := int(in.Cell)
	if !p.CellAttached(s, c) {
		return p.performDetached(s, k, in, rec)
	}
	old := p.pub(s, c)
	a, b := s.i64(off+3), s.i64(off+11)
	nv, writes := performedValue(in, old, a, b)
	if in.Kind == KRemoteStore {
		nv = a
	}
	if in.Dst >= 0 && in.Kind == KRMA {
		p.setReg(s, sl.Proc, int(in.Dst), old)
	}
	if writes {
		p.writePublic(s, c, nv)
	}
	s[off] = SlotPerformed
	if rec.full() {
		if in.Dst >= 0 || !writes || in.AccOp != litmus.AccNone && in.AccOp != litmus.AccReplace {
			rec.read(Copy{Cell: c}) // the fetching part, or an update that combines with the old value
		}
		if writes {
			rec.wrote(Copy{Cell: c})
		}
		rec.Text = fmt.Sprintf("perform %s of P%d row %d: ", in.Text, sl.Proc, in.Row)
		if writes {
			rec.Text += fmt.Sprintf("%s:=%d", p.Cells[c].Name, nv)
		} else {
			rec.Text += fmt.Sprintf("reads %s=%d", p.Cells[c].Name, old)
		}
	}
	return true
}

// pending reports whether proc has an unperformed operation on win matching the filter.
func (p *Program) pending(s State, proc, win int, match func(in *Instr, kind int) bool) bool {
	for k, sl := range p.Slots {
		if sl.Proc != proc {
			continue
		}
		off := p.Layout.Slot[k]
		if s[off] != SlotPending {
			continue
		}
		if in := p.slotOp(s, k); int(in.Win) == win && match(in, int(s[off+1])) {
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
		in := p.slotOp(s, k)
		if int(in.Win) == win && match(sl.Proc, in, int(s[off+1]), int(s[off+2])) {
			s[off] = SlotCompleted
		}
	}
}

func (p *Program) waitReq(s State, proc int, in *Instr) bool {
	if !p.requestDone(s, in) {
		return false // a request-based get completes locally once its data arrived
	}
	p.completeRequest(s, proc, in)
	return true
}

// fetches: a get, gacc, fop or cas, whose result register the perform step writes.
func fetches(in *Instr) bool { return in.Kind == KRMA && in.Dst >= 0 }

// readOnlyFetch: a get, rget, or gacc/rgacc/fop with no_op, which only reads its
// target. An updating fetch (gacc, rgacc or fop with another op, cas) is not.
func readOnlyFetch(in *Instr) bool { return fetches(in) && !accWrites(in) }

// completeFetches marks proc's performed read-only fetching operations on win to
// target (any target when target < 0) complete at the target (docs/semantics.md#rma-operations):
// their result is available at the origin, so their read happened when they
// performed; they are not live any more and conflict with nothing later. An
// updating fetch stays live for its update until R2-R4: local completion "does not
// indicate that the operation has been completed at the target window" (MPI-4.1,
// MPI_RGET_ACCUMULATE).
func (p *Program) completeFetches(s State, proc, win, target int) {
	p.completeAtTarget(s, win, func(origin int, op *Instr, _, _ int) bool {
		return origin == proc && readOnlyFetch(op) && (target < 0 || int(op.Target) == target)
	})
}

// performedValue is what an RMA operation leaves in a cell that held old, given
// its origin value a (and, for compare_and_swap, the value b it swaps in), and
// whether it writes the cell at all.
func performedValue(in *Instr, old, a, b int64) (nv int64, writes bool) {
	switch in.Op {
	case litmus.OpPut, litmus.OpRput:
		return a, true
	case litmus.OpGet, litmus.OpRget:
		return old, false
	case litmus.OpCas:
		if old == a {
			return b, true
		}
		return old, true
	}
	return in.AccOp.Apply(old, a), in.AccOp != litmus.AccNoOp
}

// writePublic stores v in the public copy of cell c, marking a separate window's
// copy dirty for the next R6 copy.
func (p *Program) writePublic(s State, c int, v int64) {
	p.setPub(s, c, v)
	if p.Cells[c].Separate {
		s.setU64(p.Layout.DirtyPub, s.u64(p.Layout.DirtyPub)|1<<uint(c))
	}
}
