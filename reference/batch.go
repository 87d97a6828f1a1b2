package reference

// Batches, as litmus7's -s (size_of_test) runs them: the machine holds batch copies
// of the test (memory, registers, engine state), and each rank runs the batch's
// iterations one after the other, each on its own copy, so that the ranks meet once
// a batch, not once an iteration. The iterations of a batch keep a common start:
// iteration c begins at the batch's start plus c periods, each rank at its own
// random point of the spread after that (as litmus7's timebase mode does), so the
// ranks' first instructions still meet in every relative timing without a barrier
// between them. Rank 0 then records every copy's outcome and resets it.

import (
	"github.com/rmacheck/rmacheck/model"
)

// DefaultBatch is Options.Batch when it is 0: iterations a batch. Measured with
// `conform --target reference --runs 2000000` on SB, on the idle machine (2 cores,
// load average 1.5, nothing else running; 3 rounds each, medians): batches 16, 32,
// 64, 128 and 256 ran 1.63 M, 1.80 M, 1.85 M, 1.38 M and 1.1-1.4 M runs/s; 1024 and
// 4096 about 1.0 M. MP+put+fence differed by less than its noise between 64 and 256.
// Under heavy load (average 15) the order differed (64: 165 k, 256: 173 k), so a
// batch's size matters less there than who gets the CPUs. 64 copies (two cache lines
// each for SB) stay in a core's L1 cache with room for the engine's state, and rank 0
// counts a batch in a few microseconds, short enough that the others still spin.
const DefaultBatch = 64

const (
	// batchBytes bounds the memory of a batch's copies (a word a cache line, the
	// registers and the engine's states), so that a batch of a test with many
	// cells still fits a core's cache: a smaller batch then.
	batchBytes = 256 << 10
	// maxCost bounds the time of one iteration counted in a rank's cost: an
	// iteration that took longer waited for a CPU (a loaded machine), and its time
	// is not the test's.
	maxCost = 1 << 16
	// maxPace bounds the period, whatever the costs measured.
	maxPace = 1 << 16
	// skew: every skew iterations a rank waits until every other rank has
	// finished the iteration skew before (so a batch of 16 has one such wait).
	skew = 8
	// maxWait bounds a rank's wait for its iteration's time, after another rank
	// slipped the schedule: a rank a whole batch ahead waits batch periods.
	maxWait = 1 << 24
	// paceMargin is added to the period beyond spread and cost.
	paceMargin = 64
)

// batchSize is the number of copies of a run of p with opt: Options.Batch (0:
// DefaultBatch), no more than the runs, and within batchBytes.
func batchSize(p *model.Program, opt Options) int {
	k := opt.Batch
	if k <= 0 {
		k = DefaultBatch
	}
	k = min(k, max(1, opt.Runs))
	perCopy := p.MemWords() * lineWords * 8
	for i := range p.Procs {
		perCopy += 8 * len(p.Procs[i].Regs)
	}
	if hasMPI(p) {
		perCopy += 3*len(p.Initial()) + 8*p.MemWords() + 320 // s, tmp, init's share, snap, the engine
	}
	return max(1, min(k, batchBytes/max(1, perCopy)))
}

// loop runs every batch on one rank. Rank 0 also releases each batch, records the
// outcomes and resets the copies; the ranks meet at a spin barrier in shared memory,
// not through the Go scheduler, so that they start each batch together.
func (m *machine) loop(r *rank, opt Options, h *histogram, st *batchStats) {
	n := int64(len(m.procs))
	var gen int64
	for done := 0; done < opt.Runs && !m.stuck.Load(); {
		k := min(m.batch, opt.Runs-done)
		gen++
		r.steps.Add(1)
		if r.id == 0 {
			m.finished.Store(0)
			m.arrived.Store(0)
			spread := minSpread + m.lead
			m.spread.Store(spread)
			if m.pace == 0 {
				m.pace = spread + minSpread
			}
			m.period.Store(m.pace)
			m.gen.Store(gen)
			m.resetOwn(r, k)
			// The batch starts once every rank is there: a rank that was off its CPU
			// while rank 0 recorded the last batch would begin behind, and run its first
			// iterations after rank 0's every time.
			m.spinUntilFor(r, m.busy(), func() bool { return m.arrived.Load() == n-1 })
			m.start.Store(cycles() + m.lead)
			m.ready.Store(gen)
		} else {
			m.spinUntilFor(r, m.busy(), func() bool { return m.gen.Load() >= gen })
			m.resetOwn(r, k)
			m.arrived.Add(1)
			m.spinUntilFor(r, m.busy(), func() bool { return m.ready.Load() >= gen })
		}
		m.runBatch(r, int64(done), k)
		m.finished.Add(1)
		r.steps.Add(1)
		prev := done
		done += k
		if r.id != 0 {
			continue
		}
		m.spinUntilFor(r, m.busy(), func() bool { return m.finished.Load() == n })
		if m.stuck.Load() {
			return // a blocked run: the other ranks may still be running; no outcome
		}
		m.learnLead()
		m.learnPace()
		m.record(k, h, st)
		if opt.Progress != nil && done/65536 != prev/65536 {
			opt.Progress(done)
		}
	}
}

// busy is how long a rank spins for the others at a batch's end before it first
// yields its CPU: spinUntil's, and more for a longer batch, whose record is longer.
func (m *machine) busy() int { return spinsBeforeYield * (1 + m.batch/64) }

// resetOwn puts the memory words rank r owns back to their initial values in copies
// 0..k-1. Each rank resets its own, as each MPI process initializes its own window:
// a word then sits in its owner's cache when the batch begins. When rank 0 reset
// them all, its accesses hit its cache while every other rank's missed: of 200,000
// runs of SB, 99% had P0 first.
func (m *machine) resetOwn(r *rank, k int) {
	for c := 0; c < k; c++ {
		for _, i := range r.own {
			*m.word(c, i) = m.initMem[i]
		}
	}
}

// runBatch runs iterations base+1..base+k of rank r, on copies 0..k-1: iteration c at
// the batch's start plus c periods plus the rank's jitter within the spread. A rank
// that is behind its iteration's window (it was off its CPU, or the period is too
// short) slips the schedule: it moves the start so that the window begins now, and
// a rank ahead of it then waits, as a barrier would make it, until the two meet
// again (without it, a rank off its CPU for a moment began every later iteration of
// the batch after the other: of 200,000 runs of SB on a loaded machine, 97% had P0
// first). Ranks that share CPUs (oversubscribed) never wait for a time: waiting
// would keep the others off.
func (m *machine) runBatch(r *rank, base int64, k int) {
	spread, period := m.spread.Load(), m.period.Load()
	now := cycles()
	if r.id != 0 {
		r.late.Store(now - m.start.Load())
	}
	var cost, timed, behind int64
	for c := 0; c < k && !m.stuck.Load(); c++ {
		if c >= skew && c%skew == 0 {
			// no rank more than 2 skew iterations ahead of another: when two ranks
			// share a CPU (a loaded machine), the one on it ran the whole batch
			// before the other began
			far := base + int64(c-skew) + 1 // copy c-skew
			m.spinUntil(r, func() bool { return m.othersFinished(r, far) })
		}
		off := int64(c) * period
		jit := r.jitter(spread)
		now = cycles()
		if !m.oversubscribed {
			if now > m.start.Load()+off+spread {
				behind++
				m.slip(now - off - jit)
			}
			for at := m.start.Load() + off + jit; now < at && at-now <= maxWait; at = m.start.Load() + off + jit {
				now = cycles()
			}
		}
		r.regs = r.copyRegs(c)
		copy(r.regs, r.init)
		r.dirty = 0
		if m.first != nil {
			m.first[c].CompareAndSwap(0, int32(r.id+1))
		}
		it := base + int64(c) + 1
		m.execute(r, it, c)
		r.dirties[c] = r.dirty
		if d := cycles() - now; d < maxCost {
			cost += d
			timed++
		}
		r.finished.Store(it)
	}
	if timed > 0 {
		r.cost.Store(cost / timed)
	}
	r.behind.Store(behind)
}

// slip moves the batch's start to at least start (never back: two ranks that slip at
// once keep the later start).
func (m *machine) slip(start int64) {
	for old := m.start.Load(); start > old && !m.start.CompareAndSwap(old, start); old = m.start.Load() {
	}
}

// jitter is a random time within spread (xorshift; its high half scaled to spread,
// which a division per iteration would cost more than).
func (r *rank) jitter(spread int64) int64 {
	r.rnd ^= r.rnd << 13
	r.rnd ^= r.rnd >> 7
	r.rnd ^= r.rnd << 17
	return int64((r.rnd >> 32) * uint64(spread) >> 32)
}

// learnPace sets rank 0's period for the next batch: the spread plus the longest
// mean iteration of a rank, so that a rank that began an iteration at the end of
// the spread has finished it when the next one begins.
func (m *machine) learnPace() {
	var cost int64
	for _, o := range m.procs {
		cost = max(cost, o.cost.Load())
	}
	target := min(maxPace, m.spread.Load()+cost+paceMargin)
	m.pace += (target - m.pace) / 2
}

// batchStats is what rank 0 counts over the batches besides the histogram: the
// iterations begun behind their time, and (Options.countFirst) the iterations each
// rank began first.
type batchStats struct {
	behind int
	first  []int
}

// record counts the outcome of each of the batch's k copies and resets the copy's
// engine (the ranks reset the memory, resetOwn):
// what is still pending is performed first (drain), with the registers each rank
// left in the copy.
func (m *machine) record(k int, h *histogram, st *batchStats) {
	for _, o := range m.procs {
		st.behind += int(o.behind.Load())
	}
	for c := 0; c < k; c++ {
		if m.engs != nil {
			for _, o := range m.procs {
				o.regs, o.dirty = o.copyRegs(c), o.dirties[c]
			}
			m.engs[c].drain(m.procs[0].rng)
		}
		h.vals = m.outcome(c, h.vals)
		h.add(h.vals)
		if m.first != nil {
			if f := m.first[c].Swap(0); f > 0 {
				st.first[f-1]++
			}
		}
		m.reset(c)
	}
}
