package explorer

import (
	"hash/maphash"
	"math/bits"
)

// visited is the set of states seen, stored exactly: each state's bytes, followed
// by the index of the state it was first reached from and the step that reached
// it, live in fixed-size chunks that are never moved; an open-addressing table of
// indices finds them. No state is ever confused with another (no fingerprints), and
// the cost per state is its width + 8 bytes of links + 16-32 bytes of table (a
// 32-bit hash tag in each entry spares most comparisons).
type visited struct {
	width  int // state width
	rec    int // record width: state + parent + step
	chunks [][]byte
	table  []uint64 // 0 empty, else hash tag << 32 | index+1
	count  int
	seed   maphash.Seed
}

// Chunk k holds firstChunk << k records: small searches (most litmus tests) allocate
// little, large ones allocate as much again each time, and nothing is ever copied.
const firstChunk = 256

func newVisited(width int) *visited {
	return &visited{width: width, rec: width + 8, table: make([]uint64, 1<<10), seed: maphash.MakeSeed()}
}

func (v *visited) record(i int) []byte {
	k := bits.Len(uint(i/firstChunk+1)) - 1
	off := (i - firstChunk*(1<<k-1)) * v.rec
	return v.chunks[k][off : off+v.rec]
}

func (v *visited) state(i int) []byte { return v.record(i)[:v.width] }

func (v *visited) parent(i int) int {
	r := v.record(i)[v.width:]
	return int(int32(uint32(r[0]) | uint32(r[1])<<8 | uint32(r[2])<<16 | uint32(r[3])<<24))
}

func (v *visited) step(i int) uint32 {
	r := v.record(i)[v.width+4:]
	return uint32(r[0]) | uint32(r[1])<<8 | uint32(r[2])<<16 | uint32(r[3])<<24
}

// insert adds s (copying it) and returns its index and whether it was new.
func (v *visited) insert(s []byte, parent int, step uint32) (int, bool) {
	if 2*(v.count+1) > len(v.table) {
		v.grow()
	}
	mask := len(v.table) - 1
	hash := maphash.Bytes(v.seed, s)
	tag := hash >> 32 << 32
	h := int(hash>>32) & mask // the position comes from the tag, so grow need not rehash
	for {
		e := v.table[h]
		if e == 0 {
			break
		}
		if e&^0xffffffff == tag && string(v.state(int(uint32(e)-1))) == string(s) {
			return int(uint32(e) - 1), false
		}
		h = (h + 1) & mask
	}
	idx := v.count
	if idx == firstChunk*(1<<len(v.chunks)-1) {
		v.chunks = append(v.chunks, make([]byte, (firstChunk<<len(v.chunks))*v.rec))
	}
	v.count++
	r := v.record(idx)
	copy(r, s)
	p, st := uint32(int32(parent)), step
	r[v.width], r[v.width+1], r[v.width+2], r[v.width+3] = byte(p), byte(p>>8), byte(p>>16), byte(p>>24)
	r[v.width+4], r[v.width+5], r[v.width+6], r[v.width+7] = byte(st), byte(st>>8), byte(st>>16), byte(st>>24)
	v.table[h] = tag | uint64(idx+1)
	return idx, true
}

func (v *visited) grow() {
	old := v.table
	v.table = make([]uint64, 2*len(old))
	mask := len(v.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		h := int(e>>32) & mask
		for v.table[h] != 0 {
			h = (h + 1) & mask
		}
		v.table[h] = e
	}
}

// bytes is the memory the set holds.
func (v *visited) bytes() int {
	n := 0
	for _, c := range v.chunks {
		n += len(c)
	}
	return n + 8*len(v.table)
}
