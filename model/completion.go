package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Completion tests (docs/language.md#completion-tests): r = test W is MPI_Win_test, a
// wait that returns 0 instead of blocking, and r = testreq q is MPI_Test, a
// waitreq that returns 0 instead of blocking. A failed test changes nothing, so
// both may stand in a spin loop's body (loop.go reruns them at the end).

// test is MPI_Win_test (node329): 1 when wait would return now, and then the
// exposure epoch ends as at wait's return (R3, R6); else 0 and the epoch stays
// open. Either way the call is an MB of scope own (compile.go, mbScope).
func (p *Program) test(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	group := s.u32(p.Layout.Win[in.Win].PostOpen + 4*proc)
	if group == 0 {
		p.noEpoch(s, proc, in, rec, func() string { return "test without an open exposure epoch (no post, or a test already returned 1)" })
		return true
	}
	r := int64(0)
	if p.exposureComplete(s, proc, int(in.Win), group) {
		p.endExposure(s, proc, int(in.Win), group, rec)
		r = 1
		if rec.full() {
			rec.Ended = true
		}
	}
	p.setReg(s, proc, int(in.Dst), r)
	if rec.full() {
		rec.Text += fmt.Sprintf("  (returns %d)", r)
	}
	return true
}

// testReq is MPI_Test on a request (node280 for requests; node337 for the RMA
// request-based operations): 1 when waitreq would return now, and the request
// then completes as at waitreq; else 0. A request that already completed tests
// 1 again (MPI: a null request tests true).
func (p *Program) testReq(s State, proc int, in *Instr, rec *Record) bool {
	r := int64(0)
	if p.requestDone(s, in) {
		p.completeRequest(s, proc, in)
		r = 1
	}
	p.setReg(s, proc, int(in.Dst), r)
	if rec.full() {
		rec.Text += fmt.Sprintf("  (returns %d)", r)
	}
	return true
}

// requestDone: the request of a waitreq or testreq is complete at the origin: its
// operation completed locally (StepLocal), or was never issued (an error, a false
// guard: there is nothing to wait for).
func (p *Program) requestDone(s State, in *Instr) bool {
	k := int(in.ReqSlot)
	if k < 0 || s[p.Layout.Slot[k]] == SlotIdle {
		return true
	}
	return p.locallyComplete(s, k)
}

// Local completion of a request-based operation (docs/semantics.md#rma-operations) is a step of its
// own, taken at any time between its issue and its completion at the target: a
// library may copy an rput's origin buffer at once or read it late, and an rget's
// data arrives at the origin some time after the target read it. MPI_RPUT:
// completion of the request means the origin buffer may be reused, and nothing
// obliges an implementation to have copied it by the first MPI_Test (MPICH's
// nb_test). So testreq may find it not complete (0) right after the call; waitreq
// waits for the step; the calls that complete the operation at the origin or at
// the target (flush*, unlock*) wait for it too. An operation to MPI_PROC_NULL, or
// of no element, moves nothing: it completes locally when issued.

// LocalStep is the step in which the request-based operation of slot k completes
// locally at its origin.
func (p *Program) LocalStep(k int) Step {
	return Step{Kind: StepLocal, Proc: int8(p.Slots[k].Proc), Index: int8(k)}
}

// locallyComplete: slot k's request-based operation has completed locally.
func (p *Program) locallyComplete(s State, k int) bool {
	sl := p.Slots[k]
	o := p.Layout.ReqLocal[sl.Proc]
	return o < 0 || s.u64(o)&(1<<uint(sl.Instr)) != 0
}

// LocalPending reports whether the request-based operation of slot k may complete
// locally now: issued and not yet locally complete, and, for a fetch, performed
// (its result is what arrives).
func (p *Program) LocalPending(s State, k int) bool {
	sl := p.Slots[k]
	in := &p.Procs[sl.Proc].Code[sl.Instr]
	if !in.Op.IsRequest() {
		return false
	}
	st := s[p.Layout.Slot[k]]
	return st != SlotIdle && !p.locallyComplete(s, k) && (st != SlotPending || in.Dst < 0)
}

// localSuccessors emits the local completions enabled in s.
func (p *Program) localSuccessors(s, scratch State, rec *Record, emit func(Step, State)) {
	for k := range p.Slots {
		if st := p.LocalStep(k); p.LocalPending(s, k) && p.try(s, scratch, st, rec) {
			emit(st, scratch)
		}
	}
}

// completeLocally is the StepLocal of slot k.
func (p *Program) completeLocally(s State, k int, rec *Record) bool {
	if !p.LocalPending(s, k) {
		return false
	}
	sl := p.Slots[k]
	o := p.Layout.ReqLocal[sl.Proc]
	s.setU64(o, s.u64(o)|1<<uint(sl.Instr))
	if rec.full() {
		in := &p.Procs[sl.Proc].Code[sl.Instr]
		rec.Text = fmt.Sprintf("P%d row %d: %s completes locally (request %s)", sl.Proc, in.Row, in.Text, in.Src.Req)
	}
	return true
}

// issueRequest starts the local completion of a request-based operation just
// issued (slot off): not yet complete, unless it moves nothing (completed at issue).
func (p *Program) issueRequest(s State, proc int, in *Instr, off int) {
	o := p.Layout.ReqLocal[proc]
	if o < 0 || !in.Op.IsRequest() {
		return
	}
	j := p.Slots[in.Slot].Instr
	v := s.u64(o) &^ (1 << uint(j))
	if s[off] == SlotCompleted {
		v |= 1 << uint(j)
	}
	s.setU64(o, v)
}

// awaitsLocal: proc has a request-based operation on win (to target, or to any
// when target < 0) issued and not yet locally complete; the calls that complete it
// at the origin or the target wait for that step (docs/semantics.md#rma-operations).
func (p *Program) awaitsLocal(s State, proc, win, target int) bool {
	if p.Layout.ReqLocal[proc] < 0 {
		return false
	}
	for k, sl := range p.Slots {
		if sl.Proc != proc || !p.Procs[proc].Code[sl.Instr].Op.IsRequest() || s[p.Layout.Slot[k]] == SlotIdle || p.locallyComplete(s, k) {
			continue
		}
		if op := p.slotOp(s, k); int(op.Win) == win && (target < 0 || int(op.Target) == target) {
			return true
		}
	}
	return false
}

// completeRequest completes the request of a waitreq or a successful testreq: a
// read-only fetching operation is complete at its target as well (docs/semantics.md#rma-operations; an updating one, rgacc with an op, waits for R4), and the request is no
// longer held (E-EPOCH-END).
func (p *Program) completeRequest(s State, proc int, in *Instr) {
	k := in.ReqSlot
	if k < 0 {
		return
	}
	sl := p.Slots[k]
	off := p.Layout.Slot[k]
	if readOnlyFetch(p.slotOp(s, int(k))) && s[off] == SlotPerformed {
		s[off] = SlotCompleted
	}
	if o := p.Layout.ReqDone[proc]; o >= 0 {
		s.setU64(o, s.u64(o)|1<<uint(sl.Instr))
	}
}

// rerunTest is what a test or testreq of a blocked loop's body returns when run
// again against s (loop.go, End): it reads the synchronization state.
func (p *Program) rerunTest(s State, proc int, in *Instr) int64 {
	switch in.Kind {
	case KTest:
		if s[p.Layout.Win[in.Win].Freed+proc] != 0 {
			return 0
		}
		group := s.u32(p.Layout.Win[in.Win].PostOpen + 4*proc)
		if group != 0 && p.exposureComplete(s, proc, int(in.Win), group) {
			return 1
		}
	case KTestReq:
		if p.requestDone(s, in) {
			return 1
		}
	}
	return 0
}

// requestsLeftOpen: a finished process holding a request that no waitreq or
// successful testreq completed (E-EPOCH-END: MPI_Finalize needs every request
// completed, and MPI_Win_free the process's RMA on the window).
func (p *Program) requestsLeftOpen(s State, proc int) []Diagnostic {
	o := p.Layout.ReqDone[proc]
	if o < 0 {
		return nil
	}
	var out []Diagnostic
	completed := s.u64(o)
	for k, sl := range p.Slots {
		if sl.Proc != proc {
			continue
		}
		in := &p.Procs[proc].Code[sl.Instr]
		if !in.Op.IsRequest() || s[p.Layout.Slot[k]] == SlotIdle || completed&(1<<uint(sl.Instr)) != 0 {
			continue
		}
		out = append(out, newDiagnostic(spec.EEpochEnd, p.site(proc, in),
			fmt.Sprintf("%s: request %s is still pending when P%d finishes (no waitreq %s, no testreq %s that returned 1): MPI_Finalize and MPI_Win_free need it completed",
				in.Text, in.Src.Req, proc, in.Src.Req, in.Src.Req)))
	}
	return out
}

// hasRequests: proc issues a request-based operation (its ReqDone field is needed).
func (p *Program) hasRequests(proc int) bool {
	for k := range p.Procs[proc].Code {
		if op := p.Procs[proc].Code[k].Op; op >= litmus.OpRput && op <= litmus.OpRgacc {
			return true
		}
	}
	return false
}

// windowTested: some process tests an exposure epoch of win (what the test returns
// depends on when the completes are, so they are not local steps).
func (c *compiler) windowTested(win int) bool {
	for i := range c.p.Procs {
		for k := range c.p.Procs[i].Code {
			if in := &c.p.Procs[i].Code[k]; in.Kind == KTest && int(in.Win) == win {
				return true
			}
		}
	}
	return false
}
