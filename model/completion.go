package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Completion tests (LITMUS.md, "Completion tests"): r = test W is MPI_Win_test, a
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
		p.syncEpoch(s, proc, in, rec, func() string { return "test without an open exposure epoch (no post, or a test already returned 1)" })
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

// requestDone: the request of a waitreq or testreq is complete at the origin: a
// request-based get's data arrived (it performed); a put or accumulate without
// a result completes locally at once (its origin buffer is copied at issue).
func (p *Program) requestDone(s State, in *Instr) bool {
	k := in.ReqSlot
	if k < 0 {
		return true
	}
	rma := &p.Procs[p.Slots[k].Proc].Code[p.Slots[k].Instr]
	return rma.Dst < 0 || s[p.Layout.Slot[k]] != SlotPending
}

// completeRequest completes the request of a waitreq or a successful testreq: a
// read-only fetching operation is complete at its target as well (SEMANTICS.md
// §3; an updating one, rgacc with an op, waits for R4), and the request is no
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
