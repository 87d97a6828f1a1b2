package reference

// A rank: one process's registers, and its program executed on the machine.

import (
	"math/bits"
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
	regs  []int64
	init  []int64
	dirty uint64 // registers written since the last MPI call
	wrote []bool // words stored in this iteration (only with Options.BreakStaleLoads)
	rnd   uint64 // xorshift state for startTogether's jitter
	// late is how long after the iteration's start this rank saw it begin, in
	// cycles() (rank 0 reads it to set its lead).
	late atomic.Int64
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
	// looping is 1 + the row index of the until whose loop the rank is spinning in
	// (0: none), for the report of a blocked run.
	looping atomic.Int32
	_       [64]byte
}

// execute runs one rank's program once (iteration it), in program order: plain
// accesses on the machine, MPI calls through the engine, and a spin loop's body again
// while its exit test is false.
func (m *machine) execute(r *rank, it int64) {
	p := m.p
	if m.breakStale {
		r.wrote = make([]bool, len(m.initMem))
	}
	r.spins = 0
	r.looping.Store(0)
	for j := 0; j < len(r.code); j++ {
		in := &r.code[j]
		if in.IsMPI {
			m.eng.call(r, j)
			continue
		}
		if in.GuardReg >= 0 && !guard(r, in) {
			continue
		}
		switch in.Kind {
		case model.KPlainLoad:
			word := p.LocalWord(int(in.Cell))
			if m.breakStale && !r.wrote[word] {
				r.set(int(in.Dst), m.initMem[word]) // broken on purpose: see Options.BreakStaleLoads
				continue
			}
			r.set(int(in.Dst), load(m.word(word)))
		case model.KPlainStore:
			word := p.LocalWord(int(in.Cell))
			if m.breakStale {
				r.wrote[word] = true
			}
			store(m.word(word), r.val(in.Args[0]))
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
			if m.eng != nil {
				m.eng.restartLoop(r, j)
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
