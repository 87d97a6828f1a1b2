package model

import "encoding/binary"

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

	// memory
	Pub, Priv int // int64 per cell: public (or only) copy, private copy
	DirtyPriv int // uint64: cells stored by their owner since its last R5 point
	DirtyPub  int // uint64: cells updated by RMA since the owner's last R6 point

	// per window
	Win []WinLayout

	// per RMA slot: status uint8, epoch kind uint8, epoch index uint8, two int64 values
	Slot []int

	// per channel: sent uint8, received uint8, values int64 * Cap
	Chan []int
}

// WinLayout holds the offsets of one window's synchronization state.
type WinLayout struct {
	FenceDone int // uint8 per rank: fences returned
	FenceOpen int // uint8 per rank: the last fence returned opened an epoch (no nosucceed)
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
}

// Slot status values.
const (
	SlotIdle      = 0
	SlotPending   = 1
	SlotPerformed = 2
)

// Epoch kinds of an issued RMA operation.
const (
	EpochFence   = 1
	EpochPSCW    = 2
	EpochPassive = 3
)

func (p *Program) buildLayout() {
	n := p.NProcs
	l := &p.Layout
	off := 0
	take := func(size int) int { o := off; off += size; return o }
	l.Flags = take(4)
	for i := 0; i < n; i++ {
		pr := &p.Procs[i]
		l.Done = append(l.Done, take(8))
		l.InCall = append(l.InCall, take(1))
		l.Regs = append(l.Regs, take(8*len(pr.Regs)))
		l.TSOLen = append(l.TSOLen, take(1))
		bufCap := 0
		if p.HW == TSO {
			bufCap = pr.Stores
		}
		l.TSOBuf = append(l.TSOBuf, take(9*bufCap))
		l.Barrs = append(l.Barrs, take(1))
	}
	nc := len(p.Cells)
	l.Pub = take(8 * nc)
	l.Priv = take(8 * nc)
	l.DirtyPriv = take(8)
	l.DirtyPub = take(8)
	for range p.Wins {
		var w WinLayout
		w.FenceDone = take(n)
		w.FenceOpen = take(n)
		w.Freed = take(n)
		w.LockHeld = take(4 * n)
		w.LockAll = take(n)
		w.StartOpen = take(4 * n)
		w.PostOpen = take(4 * n)
		w.Holders = take(4 * n)
		w.Excl = take(n)
		w.PostCnt = take(n * n)
		w.StartCnt = take(n * n)
		w.DoneCnt = take(n * n)
		w.SQ = take(n * n)
		l.Win = append(l.Win, w)
	}
	for range p.Slots {
		l.Slot = append(l.Slot, take(3+16))
	}
	for _, c := range p.Chans {
		l.Chan = append(l.Chan, take(2+8*c.Cap))
	}
	l.Size = off
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

// local is the copy a plain access of the owner reads and writes.
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
