package model

import (
	"encoding/binary"

	"github.com/rmacheck/rmacheck/spec"
)

// State is a fixed-width encoding of one state of the program: every field at
// an offset fixed by the program's Layout. Equal states are equal byte strings,
// so states hash and compare as strings and hold no pointers.
type State []byte

// Clone returns a copy of s.
func (s State) Clone() State { return append(State(nil), s...) }

// Layout gives the offset of each field of a state.
type Layout struct {
	Size  int
	Flags int // uint32: the rules raised so far (bit i = FlagRules[i])

	// per process
	Done   []int // uint64: instructions executed (returned)
	InCall []int // uint8: 1 + index of the two-phase call the process has arrived at, 0 none
	Regs   []int // int64 each
	TSOLen []int // uint8: entries in the store buffer
	TSOBuf []int // entries of 9 bytes: cell uint8, value int64
	Barrs  []int // uint8: barriers returned
	// StoredOwn: uint64 per process, its own cells stored since its last
	// synchronization call on their window (for nostore).
	StoredOwn []int
	// ReqDone: uint64 per process (-1 when it issues no request-based operation),
	// its request-based operations (by instruction) that a waitreq or a successful
	// testreq completed (E-EPOCH-END, completion.go).
	ReqDone []int
	// ReqLocal: uint64 per process (-1 as ReqDone), its request-based operations
	// (by instruction) that completed locally, a step of their own (StepLocal,
	// docs/semantics.md#rma-operations): what waitreq waits for and testreq tests.
	ReqLocal []int
	// SpecRead: uint64 per process, its speculative instructions that have read and
	// not yet committed; Spec: per process, one entry per speculative instruction
	// (Proc.Specs): status uint8 (specNone, specRead, or the rule the read raises),
	// the value read int64, the candidate pairs concurrent at the read uint64.
	SpecRead []int
	Spec     []int

	// memory
	Pub, Priv int // int64 per cell: public (or only) copy, private copy
	DirtyPriv int // uint64: cells stored by their owner since its last R5 point
	DirtyPub  int // uint64: cells updated by RMA since the owner's last R6 point
	// Attached: uint64, the regions (Program.Regions) attached now (dynamic.go).
	Attached int

	// per window
	Win []WinLayout

	// per RMA slot: status uint8, epoch kind uint8, epoch index uint8, two int64 values,
	// resolved cell+1 uint8 and target+1 uint8 (computed targets, target.go); for a
	// multi-element operation, the values of its elements past the first two and a
	// uint8 of the elements performed (range.go)
	Slot []int

	// per channel: sent uint8, received uint8, values int64 * Cap
	Chan []int

	// zeroOff and zeroLen are the block every field the program never changes
	// points into (buildLayout; zeroOff -1 when there is none): StateParts leaves
	// it out.
	zeroOff, zeroLen int
}

// WinLayout holds the offsets of one window's synchronization state.
type WinLayout struct {
	FenceDone int // uint8 per rank: fences returned
	FenceOpen int // uint8 per rank: bit 0, the last fence returned opened an epoch (no nosucceed); bit 1, it asserted noput
	Freed     int // uint8 per rank
	LockHeld  int // uint32 per rank: targets the rank holds a lock on
	LockAll   int // uint8 per rank
	StartOpen int // uint32 per rank: group of the open start epoch (0 none)
	PostOpen  int // uint32 per rank: group of the open exposure epoch (0 none)
	Holders   int // uint32 per target: ranks holding a lock on it
	Excl      int // uint8 per target: the lock is exclusive
	PostCnt   int // uint8 [target][origin]: posts of target that include origin
	StartCnt  int // uint8 [origin][target]
	DoneCnt   int // uint8 [origin][target]: completes of origin to target
	SQ        int // uint8 [caller][target]: shared_query answer, 0 unknown, 1 segment, 2 none
	// FenceLocked / FenceTargeted: uint64 per target, its fence intervals (bit k:
	// the one after its k-th fence) that a lock on it overlapped / that RMA of
	// fence epoch k targeted it in (exposure.go); only when Window.FenceLock.
	FenceLocked, FenceTargeted int
}

// Slot status values.
const (
	SlotIdle      = 0 // not issued
	SlotPending   = 1 // issued, not yet performed
	SlotPerformed = 2 // performed at the target, not yet completed there
	SlotCompleted = 3 // completed at the target (R2-R4): no longer concurrent with anything
)

// Epoch kinds of an issued RMA operation.
const (
	EpochFence   = 1
	EpochPSCW    = 2
	EpochPassive = 3
)

// buildLayout gives every field of the state its offset. A field the program can
// never change (a lock table of a window nobody locks, a private copy of a unified
// cell) takes no room: it points into one shared block of zero bytes, which reads
// as the field's initial value and is never written, since the steps that would
// write it do not occur in the program.
func (p *Program) buildLayout() {
	n := p.NProcs
	l := &p.Layout
	off := 0
	zeroPad := max(8*n, n*n, 8)
	zero := -1
	take := func(size int, needed bool) int {
		if !needed {
			if zero < 0 {
				zero = off
				off += zeroPad
			}
			return zero
		}
		o := off
		off += size
		return o
	}
	uses := p.uses()
	defer func() { l.zeroOff, l.zeroLen = zero, zeroPad }()
	l.Flags = take(4, true)
	for i := 0; i < n; i++ {
		pr := &p.Procs[i]
		l.Done = append(l.Done, take(8, true))
		l.InCall = append(l.InCall, take(1, uses.twoPhase[i]))
		l.Regs = append(l.Regs, take(8*len(pr.Regs), len(pr.Regs) > 0))
		l.TSOLen = append(l.TSOLen, take(1, p.HW == spec.TSO))
		bufCap := 0
		if p.HW == spec.TSO {
			bufCap = pr.Stores
		}
		l.TSOBuf = append(l.TSOBuf, take(9*bufCap, bufCap > 0))
		l.Barrs = append(l.Barrs, take(1, uses.barrier))
		l.StoredOwn = append(l.StoredOwn, take(8, p.usesNostore))
		l.ReqDone = append(l.ReqDone, -1)
		l.ReqLocal = append(l.ReqLocal, -1)
		if p.hasRequests(i) {
			l.ReqDone[i] = take(8, true)
			l.ReqLocal[i] = take(8, true)
		}
		l.SpecRead = append(l.SpecRead, take(8, len(pr.Specs) > 0))
		l.Spec = append(l.Spec, take(specEntry*len(pr.Specs), len(pr.Specs) > 0))
	}
	nc := len(p.Cells)
	l.Pub = take(8*nc, nc > 0)
	l.Priv = take(8*nc, uses.separate)
	l.DirtyPriv = take(8, uses.separate)
	l.DirtyPub = take(8, uses.separate)
	l.Attached = take(8, len(p.Regions) > 0)
	for wi := range p.Wins {
		u := uses.win[wi]
		var w WinLayout
		w.FenceDone = take(n, u.fence)
		w.FenceOpen = take(n, u.fence)
		w.Freed = take(n, u.free)
		w.LockHeld = take(4*n, u.lock)
		w.LockAll = take(n, u.lock)
		w.StartOpen = take(4*n, u.start)
		w.PostOpen = take(4*n, u.post)
		w.Holders = take(4*n, u.lock)
		w.Excl = take(n, u.lock)
		w.PostCnt = take(n*n, u.post)
		w.StartCnt = take(n*n, u.start)
		w.DoneCnt = take(n*n, u.start)
		w.SQ = take(n*n, u.query)
		w.FenceLocked = take(8*n, p.Wins[wi].FenceLock)
		w.FenceTargeted = take(8*n, p.Wins[wi].FenceLock)
		l.Win = append(l.Win, w)
	}
	for k := range p.Slots {
		l.Slot = append(l.Slot, take(p.slotLayoutBytes(k), true)) // target.go: the resolved cell and target follow; range.go: more elements
	}
	for _, c := range p.Chans {
		l.Chan = append(l.Chan, take(2+8*c.Cap, true))
	}
	l.Size = off
}

// programUses says which kinds of state a program can change.
type programUses struct {
	twoPhase []bool
	barrier  bool
	separate bool
	win      []winUses
}

type winUses struct{ fence, free, lock, start, post, query bool }

func (p *Program) uses() programUses {
	u := programUses{twoPhase: make([]bool, p.NProcs), win: make([]winUses, len(p.Wins))}
	for _, c := range p.Cells {
		u.separate = u.separate || c.Separate
	}
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			in := &p.Procs[i].Code[k]
			u.twoPhase[i] = u.twoPhase[i] || in.TwoPhase
			u.barrier = u.barrier || in.Kind == KBarrier
			if in.Win < 0 {
				continue
			}
			w := &u.win[in.Win]
			switch in.Kind {
			case KFence:
				w.fence = true
			case KFree:
				w.free = true
			case KLock, KLockAll:
				w.lock = true
			case KStart:
				w.start = true
			case KPost:
				w.post = true
			case KSharedQuery:
				w.query = true
			}
		}
	}
	return u
}

func (s State) u8(off int) int           { return int(s[off]) }
func (s State) setU8(off, v int)         { s[off] = byte(v) }
func (s State) u32(off int) uint32       { return binary.LittleEndian.Uint32(s[off:]) }
func (s State) setU32(off int, v uint32) { binary.LittleEndian.PutUint32(s[off:], v) }
func (s State) u64(off int) uint64       { return binary.LittleEndian.Uint64(s[off:]) }
func (s State) setU64(off int, v uint64) { binary.LittleEndian.PutUint64(s[off:], v) }
func (s State) i64(off int) int64        { return int64(binary.LittleEndian.Uint64(s[off:])) }
func (s State) setI64(off int, v int64)  { binary.LittleEndian.PutUint64(s[off:], uint64(v)) }

// Flags returns the set of rules raised in the execution that led to s (bit i is FlagRules[i]).
func (p *Program) Flags(s State) uint32 { return s.u32(p.Layout.Flags) }

// Reg returns the value of register r of process proc.
func (p *Program) Reg(s State, proc, r int) int64 { return s.i64(p.Layout.Regs[proc] + 8*r) }

func (p *Program) setReg(s State, proc, r int, v int64) { s.setI64(p.Layout.Regs[proc]+8*r, v) }

// CellValue returns the value of a cell as its owner sees it: the private copy
// of a separate window, the only copy of a unified one.
func (p *Program) CellValue(s State, c int) int64 {
	if p.Cells[c].Separate {
		return s.i64(p.Layout.Priv + 8*c)
	}
	return s.i64(p.Layout.Pub + 8*c)
}

func (p *Program) pub(s State, c int) int64       { return s.i64(p.Layout.Pub + 8*c) }
func (p *Program) setPub(s State, c int, v int64) { s.setI64(p.Layout.Pub+8*c, v) }

// localOff is the offset of the copy of cell c that a plain access of its owner reads
// and writes: the private copy of a separate window, the only copy of a unified one.
func (p *Program) localOff(c int) int {
	if p.Cells[c].Separate {
		return p.Layout.Priv + 8*c
	}
	return p.Layout.Pub + 8*c
}

func (p *Program) done(s State, proc int) uint64 { return s.u64(p.Layout.Done[proc]) }

func (p *Program) setDone(s State, proc, i int) {
	off := p.Layout.Done[proc]
	s.setU64(off, s.u64(off)|1<<uint(i))
}

// Finished reports whether every process has executed every instruction.
func (p *Program) Finished(s State) bool {
	for i := range p.Procs {
		if p.done(s, i) != p.Procs[i].AllMask {
			return false
		}
	}
	return true
}
