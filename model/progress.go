package model

import (
	"fmt"
	"math/bits"

	"github.com/rmacheck/rmacheck/spec"
)

// Weak progress (docs/semantics.md#progress, the weak_progress switch; MPI-4.1 Progress,
// node340): an implementation without an asynchronous progress agent performs an
// RMA operation at its target, and grants a lock on it, only while the target is
// in MPI. Off in every preset; a program compiled under it blocks those steps while
// the target is elsewhere, so a process spinning on plain loads for a flag another
// process puts can spin forever (LIVELOCK, loop.go).

// compileWeakProgress reads the switch when the program has something it governs:
// an RMA operation (a remote store under ls_is_rma needs no progress at its
// target) or a lock on another process. It marks where each process is in MPI.
func (c *compiler) compileWeakProgress() {
	p := c.p
	governed := false
	for _, sl := range p.Slots {
		governed = governed || p.Procs[sl.Proc].Code[sl.Instr].Kind == KRMA
	}
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			in := &p.Procs[i].Code[k]
			governed = governed || in.Kind == KLockAll || (in.Kind == KLock && in.mayTargets()&^(1<<uint(i)) != 0)
		}
	}
	if !governed || !p.switchOn(spec.WeakProgress) {
		return
	}
	p.weakProgress = true
	for i := range p.Procs {
		c.progressPoints(i)
	}
}

// progressPoints marks the instructions at which the process counts as in MPI when
// it is the first one not executed: an MPI call (entered, or blocked in it), and
// every instruction of a spin loop whose body holds an MPI call, which makes
// progress at each iteration. A loop of plain loads makes none.
func (c *compiler) progressPoints(proc int) {
	code := c.p.Procs[proc].Code
	for j := range code {
		code[j].Progress = code[j].Src != nil && code[j].Src.Op.IsMPI() // a remote load/store under ls_is_rma is no call
	}
	for j := range code {
		u := &code[j]
		if u.Kind != KUntil || !c.bodyCallsMPI(proc, u.LoopBody) {
			continue
		}
		u.Progress = true
		for m := u.LoopBody; m != 0; m &= m - 1 {
			code[bits.TrailingZeros64(m)].Progress = true
		}
	}
}

func (c *compiler) bodyCallsMPI(proc int, body uint64) bool {
	for m := body; m != 0; m &= m - 1 {
		if c.p.Procs[proc].Code[bits.TrailingZeros64(m)].Progress {
			return true
		}
	}
	return false
}

// inMPI reports whether process t makes progress in s (weak_progress): it finished
// (MPI_Finalize progresses everything), or its first instruction not executed, in
// program order, is a progress point.
func (p *Program) inMPI(s State, t int) bool {
	done := p.done(s, t)
	if done == p.Procs[t].AllMask {
		return true
	}
	return p.Procs[t].Code[bits.TrailingZeros64(^done)].Progress
}

// awaitsProgress: under weak_progress, the perform of in waits for its target to be
// in MPI.
func (p *Program) awaitsProgress(s State, in *Instr) bool {
	return p.weakProgress && in.Kind == KRMA && !p.inMPI(s, int(in.Target))
}

// lockAwaitsProgress: under weak_progress, a lock on t (another process) is granted
// only while t is in MPI.
func (p *Program) lockAwaitsProgress(s State, proc, t int) bool {
	return p.weakProgress && t != proc && !p.inMPI(s, t)
}

// progressTargets are the processes whose progress weak_progress makes a step
// wait for: targets of RMA operations and of other processes' locks. Their steps
// change whether those steps are enabled, so the reduction takes none of them alone.
func (c *compiler) progressTargets() uint32 {
	p := c.p
	var m uint32
	for _, sl := range p.Slots {
		if in := &p.Procs[sl.Proc].Code[sl.Instr]; in.Kind == KRMA {
			m |= in.mayTargets()
		}
	}
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			switch in := &p.Procs[i].Code[k]; in.Kind {
			case KLock:
				m |= in.mayTargets()
			case KLockAll:
				m |= p.Wins[in.Win].Group
			}
		}
	}
	return m
}

// progressStarved describes, for a LIVELOCK witness under weak_progress, each
// operation that could not perform and each lock that could not be granted for want
// of progress, and the process whose progress it waited for.
func (p *Program) progressStarved(s State) (parts []string, sites []Site) {
	if !p.weakProgress {
		return nil, nil
	}
	for k, sl := range p.Slots {
		off := p.Layout.Slot[k]
		if s[off] != SlotPending {
			continue
		}
		in := p.slotOp(s, k)
		if !p.awaitsProgress(s, in) || !p.exposed(s, int(in.Win), sl.Proc, int(in.Target), int(s[off+1]), int(s[off+2])) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s of P%d (row %d) could not perform: it waited for the progress of P%d, %s",
			in.Text, sl.Proc, in.Row, in.Target, p.outsideMPI(s, int(in.Target))))
		sites = append(sites, p.site(sl.Proc, in))
	}
	for proc := range p.Procs {
		j, ok := p.NextInstr(s, proc)
		if !ok {
			continue
		}
		in := p.peekResolved(s, proc, &p.Procs[proc].Code[j])
		if in == nil {
			continue
		}
		for _, t := range p.lockTargets(proc, in) {
			if p.lockAwaitsProgress(s, proc, t) {
				parts = append(parts, fmt.Sprintf("%s of P%d (row %d) could not be granted: it waited for the progress of P%d, %s",
					in.Text, proc, in.Row, t, p.outsideMPI(s, t)))
				sites = append(sites, p.site(proc, in))
				break
			}
		}
	}
	return parts, sites
}

// lockTargets are the processes a lock or lock_all at in asks a lock of.
func (p *Program) lockTargets(proc int, in *Instr) []int {
	var out []int
	switch in.Kind {
	case KLock:
		if in.Target >= 0 { // not MPI_PROC_NULL
			out = append(out, int(in.Target))
		}
	case KLockAll:
		for t := 0; t < p.NProcs; t++ {
			if p.Wins[in.Win].Group&(1<<uint(t)) != 0 && t != proc {
				out = append(out, t)
			}
		}
	}
	return out
}

// outsideMPI says where process t is, out of MPI.
func (p *Program) outsideMPI(s State, t int) string {
	j := bits.TrailingZeros64(^p.done(s, t))
	in := &p.Procs[t].Code[j]
	if u, ok := p.loopOf(t, j); ok {
		return fmt.Sprintf("which spins in the loop of row %d (%s) without an MPI call in its body", u.Row, u.Text)
	}
	return fmt.Sprintf("which is at row %d (%s), outside MPI", in.Row, in.Text)
}

// loopOf finds the until of the spin loop that instruction j belongs to (its body or the until itself).
func (p *Program) loopOf(proc, j int) (*Instr, bool) {
	for k := range p.Procs[proc].Code {
		u := &p.Procs[proc].Code[k]
		if u.Kind == KUntil && (k == j || u.LoopBody&(1<<uint(j)) != 0) {
			return u, true
		}
	}
	return nil, false
}
