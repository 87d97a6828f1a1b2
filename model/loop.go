package model

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/rmacheck/rmacheck/spec"
)

// Spin loops (docs/semantics.md#spin-loops). A loop body changes no memory, so the executions of
// a program with a loop are those of the program with one iteration followed by
// "assume COND" (spin-assume): the body runs once, and the until is a step that is
// enabled only when its condition holds. Once every body instruction writing a
// register of the condition has executed, the condition can no longer change: if it
// is false, the process is blocked there for the rest of the execution. How an
// execution that ends with blocked loops is judged is End's business.

// until is the exit test of a loop: it executes, letting the process go on, only
// when its condition holds.
func (p *Program) until(s State, proc int, in *Instr, rec *Record) bool {
	if !p.untilHolds(s, proc, in, nil) {
		return false
	}
	if rec.full() {
		rec.Text += "  (holds: the loop exits)"
	}
	return true
}

// untilHolds evaluates an until's condition on the registers of s, or on regs when
// not nil (a rerun of the body).
func (p *Program) untilHolds(s State, proc int, in *Instr, regs []int64) bool {
	val := func(o Operand) int64 {
		switch {
		case o.Reg < 0:
			return o.Imm
		case regs != nil:
			return regs[o.Reg]
		}
		return p.Reg(s, proc, int(o.Reg))
	}
	for _, term := range in.Until {
		all := true
		for _, a := range term {
			if (val(Operand{Reg: a.Reg}) == val(a.Val)) != a.Eq {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// HasLoops reports whether some process has a spin loop.
func (p *Program) HasLoops() bool {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			if p.Procs[i].Code[k].Kind == KUntil {
				return true
			}
		}
	}
	return false
}

// Ending says how an execution that can take no more step ended (docs/semantics.md#spin-loops,
// docs/semantics.md#verdicts).
type Ending uint8

const (
	Finished  Ending = iota // every process ran its whole program
	Deadlock                // some process is stuck, and no spin loop is blocked
	Livelock                // spin loops are blocked, and each would fail again on the final memory
	Redundant               // a blocked loop would exit on the final memory: dropped, no outcome
)

// End judges a state in which no step is enabled. Blocked loops are run once more
// against the memory as it is: if some loop would now exit, its last iteration only
// ran too early, and the execution that runs it later is another one, so this one
// is Redundant (no outcome; the flags raised on the way stand). If every blocked
// loop would still fail, nothing can change what it reads: Livelock.
func (p *Program) End(s State) Ending {
	if p.Finished(s) {
		return Finished
	}
	blocked, exits := false, false
	for proc := range p.Procs {
		if j, ok := p.blockedLoop(s, proc); ok {
			blocked = true
			exits = exits || p.rerunExits(s, proc, &p.Procs[proc].Code[j])
		}
	}
	switch {
	case !blocked:
		return Deadlock
	case exits:
		return Redundant
	}
	return Livelock
}

// blockedLoop finds the until process proc is blocked at: not executed, nothing
// left that it waits for, and its condition false.
func (p *Program) blockedLoop(s State, proc int) (int, bool) {
	done := p.done(s, proc)
	for j := range p.Procs[proc].Code {
		in := &p.Procs[proc].Code[j]
		if in.Kind == KUntil && done&(1<<uint(j)) == 0 && p.ready(s, proc, j, done) && !p.untilHolds(s, proc, in, nil) {
			return j, true
		}
	}
	return 0, false
}

// rerunExits runs a blocked loop's body once more against the memory of s, on a copy
// of the registers, and reports whether its condition would then hold.
func (p *Program) rerunExits(s State, proc int, until *Instr) bool {
	var regs [MaxRegs]int64
	for r := range p.Procs[proc].Regs {
		regs[r] = p.Reg(s, proc, r)
	}
	p.rerun(s, proc, until, regs[:])
	return p.untilHolds(s, proc, until, regs[:])
}

// rerun evaluates the body's register writes on regs: loads read the copy the
// process sees, RMA reads the target's public copy, arithmetic computes.
func (p *Program) rerun(s State, proc int, until *Instr, regs []int64) {
	val := func(o Operand) int64 {
		if o.Reg < 0 {
			return o.Imm
		}
		return regs[o.Reg]
	}
	for m := until.LoopBody; m != 0; m &= m - 1 {
		in := &p.Procs[proc].Code[bits.TrailingZeros64(m)]
		if in.GuardReg >= 0 && (regs[in.GuardReg] == val(in.GuardVal)) != in.GuardEq {
			continue
		}
		switch in.Kind {
		case KPlainLoad:
			if cell, ok := p.rerunCell(in, regs); ok { // an address register names it anew
				regs[in.Dst] = s.i64(p.localOff(cell))
			}
		case KRemoteLoad, KRMA: // get, gacc and fop no_op, cas: the old value
			r, ok := p.rerunVariant(in, regs) // a computed location names its cells anew
			if !ok {
				continue
			}
			for _, el := range r.Elems {
				if el.Dst >= 0 {
					regs[el.Dst] = p.pub(s, int(el.Cell))
				}
			}
			if in.Dst >= 0 && r.Elems == nil {
				regs[in.Dst] = p.pub(s, int(r.Cell))
			}
		case KArith:
			regs[in.Dst] = in.Op.Arith(val(in.Args[0]), val(in.Args[1]))
		case KTest, KTestReq:
			regs[in.Dst] = p.rerunTest(s, proc, in)
		}
	}
}

// EndDiagnostics describes how an ended execution breaks a rule: DEADLOCK (at the
// first stuck process), LIVELOCK (at the first blocked loop, naming what a rerun of
// each body reads) and E-EPOCH-END (at each epoch a finished process left open on a
// window it did not free).
func (p *Program) EndDiagnostics(s State, end Ending) []Diagnostic {
	var out []Diagnostic
	switch end {
	case Deadlock:
		out = append(out, p.deadlock(s))
	case Livelock:
		out = append(out, p.livelock(s))
	}
	if end != Redundant {
		out = append(out, p.epochsLeftOpen(s)...)
	}
	return out
}

// deadlock describes a final state where some process is stuck: at the first stuck
// process, related to the others.
func (p *Program) deadlock(s State) Diagnostic {
	var stuck []string
	var sites []Site
	for i := range p.Procs {
		if j, ok := p.NextInstr(s, i); ok {
			in := &p.Procs[i].Code[j]
			stuck = append(stuck, fmt.Sprintf("P%d at row %d (%s)", i, in.Row, in.Text))
			sites = append(sites, p.site(i, in))
		}
	}
	d := newDiagnostic(spec.Deadlock, Site{}, "no process can move and some have not finished: "+strings.Join(stuck, ", "))
	if len(sites) > 0 {
		d.At, d.Related = sites[0], sites[1:]
	}
	return d
}

func (p *Program) livelock(s State) Diagnostic {
	var d Diagnostic
	var parts []string
	for proc := range p.Procs {
		j, ok := p.blockedLoop(s, proc)
		if !ok {
			continue
		}
		in := &p.Procs[proc].Code[j]
		var regs [MaxRegs]int64
		for r := range p.Procs[proc].Regs {
			regs[r] = p.Reg(s, proc, r)
		}
		p.rerun(s, proc, in, regs[:])
		var read []string
		for r := range p.Procs[proc].Regs {
			if untilRegs(in)&(1<<uint(r)) != 0 {
				read = append(read, fmt.Sprintf("%s=%d", p.Procs[proc].Regs[r], regs[r]))
			}
		}
		part := fmt.Sprintf("%s of P%d (row %d) never holds: run again on the final memory, the body gives %s",
			in.Text, proc, in.Row, strings.Join(read, ", "))
		if len(parts) == 0 {
			d = newDiagnostic(spec.Livelock, p.site(proc, in), "")
		} else {
			d.Related = append(d.Related, p.site(proc, in))
		}
		parts = append(parts, part)
	}
	starved, sites := p.progressStarved(s)
	d.Related = append(d.Related, sites...)
	d.Message = strings.Join(parts, "; ") + ": the loop spins forever"
	if len(starved) > 0 {
		d.Message += " (weak_progress: " + strings.Join(starved, "; ") + ")"
	}
	return d
}

// epochsLeftOpen lists the epochs still open at the end on windows not freed, for
// each process that finished (E-EPOCH-END; MPI_Win_free needs the process to have
// completed its involvement in RMA on the window, node313).
func (p *Program) epochsLeftOpen(s State) []Diagnostic {
	var out []Diagnostic
	for proc := range p.Procs {
		if p.done(s, proc) != p.Procs[proc].AllMask {
			continue
		}
		out = append(out, p.requestsLeftOpen(s, proc)...)
		for w := range p.Wins {
			wl := &p.Layout.Win[w]
			if s[wl.Freed+proc] != 0 {
				continue
			}
			open := func(kind Kind, target int, what, closer string) {
				opener := p.lastCall(proc, w, kind, target)
				if opener < 0 {
					return
				}
				in := &p.Procs[proc].Code[opener]
				out = append(out, newDiagnostic(spec.EEpochEnd, p.site(proc, in),
					fmt.Sprintf("%s: the %s epoch is still open when P%d finishes (no %s): MPI_Win_free and MPI_Finalize need the process to have completed its RMA on window %s",
						in.Text, what, proc, closer, p.Wins[w].Name)))
			}
			held := s.u32(wl.LockHeld + 4*proc)
			for t := 0; t < p.NProcs; t++ {
				if held&(1<<uint(t)) != 0 {
					open(KLock, t, "lock", fmt.Sprintf("unlock %s %d", p.Wins[w].Name, t))
				}
			}
			if s[wl.LockAll+proc] != 0 {
				open(KLockAll, -1, "lock_all", "unlock_all")
			}
			if s.u32(wl.StartOpen+4*proc) != 0 {
				open(KStart, -1, "access (start)", "complete")
			}
			if s.u32(wl.PostOpen+4*proc) != 0 {
				open(KPost, -1, "exposure (post)", "wait")
			}
		}
	}
	return out
}

// lastCall is the last call of kind by proc on window w (of target t, for locks; t < 0: any).
func (p *Program) lastCall(proc, w int, kind Kind, t int) int {
	for j := len(p.Procs[proc].Code) - 1; j >= 0; j-- {
		in := &p.Procs[proc].Code[j]
		if in.Kind == kind && int(in.Win) == w && (t < 0 || int(in.Target) == t || in.Computed != nil) {
			return j
		}
	}
	return -1
}

// RestartLoop makes a driver that runs loops for real (the reference runtime) run
// the body of the until at (proc, j) again: its instructions become not executed,
// and the RMA operations its body issued free to be issued again.
func (p *Program) RestartLoop(s State, proc, j int) {
	in := &p.Procs[proc].Code[j]
	off := p.Layout.Done[proc]
	s.setU64(off, s.u64(off)&^in.LoopBody)
	for m := in.LoopBody; m != 0; m &= m - 1 {
		if b := &p.Procs[proc].Code[bits.TrailingZeros64(m)]; b.Slot >= 0 {
			s[p.Layout.Slot[b.Slot]] = SlotIdle // (its local completion restarts at its issue)
		}
	}
}
