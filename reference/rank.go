package reference

// A rank: one process's registers, and its program executed on the machine.

import (
	"math/bits"
	"math/rand"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
)

// rank is one process's thread state. It is padded to whole cache lines: the
// allocator may put two ranks side by side, and what one writes would then slow
// the other's reads.
type rank struct {
	_ [64]byte
	// steps counts the steps of this rank (machine.stepCount).
	steps atomic.Int64
	_     [56]byte
	id    int
	code  []model.Instr
	// regs are the registers of the copy the rank runs: a window on allRegs, where
	// copy c's are at c*len(init) (copyRegs).
	regs, allRegs []int64
	init          []int64
	own           []int    // the memory words of the rank's windows (resetOwn)
	dirty         uint64   // registers written since the last MPI call
	dirties       []uint64 // dirty as each copy ended, for the engine's drain
	wrote         []bool   // words stored in this iteration (only with Options.BreakStaleLoads)
	rnd           uint64   // xorshift state for the jitter of each start
	rng           *rand.Rand
	// late is how long after the batch's start this rank saw it begin, in
	// cycles() (rank 0 reads it to set its lead); cost is the mean time an
	// iteration of the last batch took this rank (rank 0 reads it to set the
	// period); behind counts the iterations of the last batch it began after
	// their start plus spread.
	late, cost, behind atomic.Int64
	// looks counts this rank's unsuccessful looks, in the slow phases of spinUntil,
	// at what it waits for: the evidence that it is waiting, not off its CPU.
	looks atomic.Int64
	// finished is the last iteration this rank has executed to its end.
	finished atomic.Int64
	// a spin loop's state (spinAgain): its failed exit tests in a row, those that
	// read what the previous one read, those registers, and how many of the same
	// tests ran a body that began after every other rank had finished (quiet).
	spins, same, quiet int
	loopRegs           []int64
	// bodyAfterOthers: the body being run began after every other rank had
	// finished the iteration, so nothing but this rank could change what it read.
	bodyAfterOthers bool
	stall           stallWatch
	wait            stallWatch // spinUntil's
	// looping is 1 + the row index of the until whose loop the rank is spinning in
	// (0: none), for the report of a blocked run.
	looping atomic.Int32
	_       [64]byte
}

// newRank makes rank i of a run of p with batch copies, its registers in state init.
func newRank(p *model.Program, i int, init model.State, seed int64, batch int) *rank {
	n := len(p.Procs[i].Regs)
	r := &rank{id: i, code: p.Procs[i].Code, init: make([]int64, n), dirties: make([]uint64, batch)}
	for k := range r.init {
		r.init[k] = p.Reg(init, i, k)
	}
	// a cache line of padding after the registers: another rank's may follow
	r.allRegs = make([]int64, batch*n+lineWords)
	for c := 0; c < batch; c++ {
		copy(r.copyRegs(c), r.init)
	}
	r.regs = r.copyRegs(0)
	r.rnd = uint64(seed)*2654435761 + uint64(i)*40503 + 1
	r.rng = rand.New(rand.NewSource(seed + int64(i)*7919))
	r.stall.base = make([]int64, 0, p.NProcs)
	r.wait.base = make([]int64, 0, p.NProcs)
	if n := p.MemWords(); n > 0 {
		r.wrote = make([]bool, n)
	}
	return r
}

// copyRegs is the registers of copy c.
func (r *rank) copyRegs(c int) []int64 {
	n := len(r.init)
	return r.allRegs[c*n : (c+1)*n : (c+1)*n]
}

// execute runs one rank's program once (iteration it, on copy c), in program order:
// plain accesses on the machine, MPI calls through the copy's engine, and a spin
// loop's body again while its exit test is false.
func (m *machine) execute(r *rank, it int64, c int) {
	p := m.p
	if m.breakStale {
		clear(r.wrote)
	}
	r.spins = 0
	if r.looping.Load() != 0 { // a store would be a locked instruction on every iteration
		r.looping.Store(0)
	}
	for j := 0; j < len(r.code); j++ {
		in := &r.code[j]
		if in.IsMPI {
			m.engs[c].call(r, j)
			continue
		}
		if in.GuardReg >= 0 && !guard(r, in) {
			continue
		}
		switch in.Kind {
		case model.KPlainLoad:
			cell, ok := p.AccessCell(in, r.regs) // an address register names its cell now
			if !ok {
				continue // E-TARGET in the model: no effect
			}
			word := p.LocalWord(cell)
			if m.breakStale && !r.wrote[word] {
				r.set(int(in.Dst), m.initMem[word]) // broken on purpose: see Options.BreakStaleLoads
				continue
			}
			r.set(int(in.Dst), load(m.word(c, word)))
		case model.KPlainStore:
			cell, ok := p.AccessCell(in, r.regs)
			if !ok {
				continue
			}
			word := p.LocalWord(cell)
			if m.breakStale {
				r.wrote[word] = true
			}
			store(m.word(c, word), r.val(in.Args[0]))
		case model.KArith:
			v := r.val(in.Args[0])
			switch in.Op {
			case litmus.OpAdd:
				v += r.val(in.Args[1])
			case litmus.OpSub:
				v -= r.val(in.Args[1])
			}
			r.set(int(in.Dst), v)
		case model.KUntil:
			if p.UntilHolds(r.id, in, r.regs) {
				r.spins = 0
				r.looping.Store(0)
				continue
			}
			r.looping.Store(int32(j + 1))
			if !m.spinAgain(r, it, j) {
				return // stuck: the run is over
			}
			if m.engs != nil {
				m.engs[c].restartLoop(r, j)
			}
			j = bits.TrailingZeros64(in.LoopBody) - 1 // the body again
		}
	}
}

func guard(r *rank, in *model.Instr) bool {
	return (r.regs[in.GuardReg] == r.val(in.GuardVal)) == in.GuardEq
}

func (r *rank) val(o model.Operand) int64 {
	if o.Reg < 0 {
		return o.Imm
	}
	return r.regs[o.Reg]
}

func (r *rank) set(reg int, v int64) {
	r.regs[reg] = v
	r.dirty |= 1 << uint(reg)
}
