package explorer

import (
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rmacheck/rmacheck/internal/offheap"
)

// visited is the set of states seen, stored exactly: each state's bytes, followed
// by the index of the state it was first reached from and the step that reached
// it, live in chunks that are never moved; an open-addressing table of indices
// finds them. No state is ever confused with another (no fingerprints), and the
// cost per state is its width + 8 bytes of links + 11-21 bytes of table, at most 3/4 full (a 32-bit
// hash tag in each entry spares most comparisons).
//
// One goroutine inserts (the search, or the merge of a parallel level) while
// others may look states up (contains, the workers of a parallel level) without a
// lock: a record is written before its index is published in the table with an
// atomic store, and a table that grows is built aside and published whole, so a
// reader sees either a record in full or nothing. A reader on a table that was
// just replaced may miss a state; contains is only a filter (the merge inserts, and
// finds it then), so nothing is lost. Replaced tables are kept until no reader can
// hold them (quiesce, at the end of a level). With a lock per shard instead, the
// locks took 20% of a parallel search's time. Chunks and tables come from pools,
// so the many small searches of a corpus run allocate little.
type visited struct {
	width  int                       // state width
	rec    int                       // record width: state + parent + step
	chunks atomic.Pointer[[]*[]byte] // chunk k holds firstChunk << k records
	shards [nShards]shard
	// retired are tables replaced by grow that a reader may still probe; they are
	// held (in the budget) until quiesce.
	retired []*[]uint64
	count   atomic.Int64
	seed    maphash.Seed
	budget  *Budget // memory the set may take, shared with the run's other searches
	// held is what the set holds of the budget: its chunks and tables.
	held atomic.Int64
}

const (
	// Chunk k holds firstChunk << k records: small searches (most litmus tests)
	// allocate little, large ones as much again each time, and nothing is copied.
	firstChunk = 256
	nShards    = 64     // a power of two; the low bits of a hash's tag pick the shard
	firstTable = 1 << 6 // a shard holds 32 states before it grows: most small searches never grow
)

type shard struct {
	table atomic.Pointer[[]uint64] // entries: 0 empty, else hash tag << 32 | index+1
	n     int                      // entries in use (the inserting goroutine's)
	// first is the shard's own first table (firstTable entries): the set lives on
	// in visitedPool with it, so a run of many small searches (bench/generated:
	// the median search stores 222 states, the 90th percentile 2,000, 31 a shard)
	// takes no table from the pools and seldom grows one. Only first tables have
	// firstTable entries.
	first    [firstTable]uint64
	firstHdr []uint64 // first[:], the header table points to
	used     bool     // first has entries to clear
}

var seed = maphash.MakeSeed()

// visitedPool holds released sets, for their shards' first tables (cleared).
var visitedPool = sync.Pool{New: func() any {
	v := &visited{}
	for i := range v.shards {
		v.shards[i].firstHdr = v.shards[i].first[:]
	}
	empty := []*[]byte{}
	v.chunks.Store(&empty)
	return v
}}

func newVisited(width int, budget *Budget) *visited {
	v := visitedPool.Get().(*visited)
	v.width, v.rec, v.seed, v.budget = width, width+8, seed, budget
	return v
}

// release gives the set's memory back to the pools and the budget, and the set
// itself to visitedPool: no reader may probe it any more.
func (v *visited) release() {
	chunks := *v.chunks.Load()
	for _, c := range chunks {
		putBuf(c)
	}
	clear(chunks)
	chunks = chunks[:0]
	v.chunks.Store(&chunks)
	for i := range v.shards {
		sh := &v.shards[i]
		if t := sh.table.Swap(nil); t != nil {
			putTable(t)
		}
		if sh.used {
			clear(sh.first[:])
			sh.used = false
		}
		sh.n = 0
	}
	v.quiesce()
	v.count.Store(0)
	v.budget.free(v.held.Swap(0))
	v.budget = nil
	visitedPool.Put(v)
}

// quiesce gives the tables grow replaced back to the pool: the caller knows that
// no reader probes them any more (no contains runs).
func (v *visited) quiesce() {
	for _, t := range v.retired {
		v.unreserve(int64(8 * cap(*t)))
		putTable(t)
	}
	clear(v.retired)
	v.retired = v.retired[:0]
}

// chunkOf is the chunk and the offset within it of record i.
func chunkOf(i int) (k, off int) {
	k = bits.Len(uint(i/firstChunk+1)) - 1
	return k, i - firstChunk*(1<<k-1)
}

func (v *visited) record(i int) []byte {
	k, off := chunkOf(i)
	c := *(*v.chunks.Load())[k]
	return c[off*v.rec : off*v.rec+v.rec]
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

// size is the number of states stored.
func (v *visited) size() int { return int(v.count.Load()) }

// hash is the hash insert and contains take.
func (v *visited) hash(s []byte) uint64 { return maphash.Bytes(v.seed, s) }

// insert adds s (copying it) and returns its index and whether it was new. It fails
// (index -1) when the memory budget cannot cover the set's growth.
func (v *visited) insert(s []byte, parent int, step uint32) (int, bool, error) {
	return v.insertHashed(s, v.hash(s), parent, step)
}

// insertHashed is insert with s's hash already known. Only one goroutine inserts.
func (v *visited) insertHashed(s []byte, hash uint64, parent int, step uint32) (int, bool, error) {
	sh := v.shardOf(hash)
	if t := sh.table.Load(); t == nil || 4*(sh.n+1) > 3*len(*t) { // at most 3/4 full
		if err := v.grow(sh); err != nil {
			return -1, false, err
		}
	}
	table := *sh.table.Load()
	h, idx := v.find(table, s, hash)
	if idx >= 0 {
		return idx, false, nil
	}
	idx = int(v.count.Load())
	if err := v.ensureChunk(idx); err != nil {
		return -1, false, err
	}
	r := v.record(idx)
	copy(r, s)
	p, st := uint32(int32(parent)), step
	r[v.width], r[v.width+1], r[v.width+2], r[v.width+3] = byte(p), byte(p>>8), byte(p>>16), byte(p>>24)
	r[v.width+4], r[v.width+5], r[v.width+6], r[v.width+7] = byte(st), byte(st>>8), byte(st>>16), byte(st>>24)
	v.count.Store(int64(idx + 1))
	atomic.StoreUint64(&table[h], hash>>32<<32|uint64(idx+1)) // publishes the record
	sh.n++
	return idx, true, nil
}

// contains reports whether s (of that hash) is stored; it may run beside insert,
// and then miss a state stored meanwhile.
func (v *visited) contains(s []byte, hash uint64) bool { return v.index(s, hash) >= 0 }

// index is the index of s (of that hash), or -1 when it is not stored; as
// contains, it may run beside insert.
func (v *visited) index(s []byte, hash uint64) int {
	t := v.shardOf(hash).table.Load()
	if t == nil {
		return -1
	}
	_, idx := v.find(*t, s, hash)
	return idx
}

// shardOf picks a hash's shard by the low bits of its tag (the upper half).
func (v *visited) shardOf(hash uint64) *shard { return &v.shards[(hash>>32)&(nShards-1)] }

// find looks s up in a shard's table (not empty): its index, or -1 and the empty
// position where it would go.
func (v *visited) find(table []uint64, s []byte, hash uint64) (pos, idx int) {
	tag := hash >> 32 << 32
	mask := len(table) - 1
	h := int(hash>>38) & mask // the position comes from the tag (above the shard bits), so grow need not rehash
	for {
		e := atomic.LoadUint64(&table[h])
		if e == 0 {
			return h, -1
		}
		if e&^0xffffffff == tag && string(v.state(int(uint32(e)-1))) == string(s) {
			return h, int(uint32(e) - 1)
		}
		h = (h + 1) & mask
	}
}

// ensureChunk makes sure the chunk of record idx exists.
func (v *visited) ensureChunk(idx int) error {
	k, _ := chunkOf(idx)
	if k < len(*v.chunks.Load()) {
		return nil
	}
	for cur := *v.chunks.Load(); k >= len(cur); cur = *v.chunks.Load() {
		n := (firstChunk << len(cur)) * v.rec
		if err := v.reserve(int64(1) << sizeClass(n)); err != nil { // what getBuf allocates
			return err
		}
		next := append(append([]*[]byte(nil), cur...), getBuf(n))
		v.chunks.Store(&next)
	}
	return nil
}

// grow doubles a shard's table: the new one is filled aside and published whole;
// the old one is retired (a reader may still probe it).
func (v *visited) grow(sh *shard) error {
	var old []uint64
	if t := sh.table.Load(); t != nil {
		old = *t
	}
	n := max(2*len(old), firstTable)
	// The whole new table: the old one stays (retired) until the level ends.
	if err := v.reserve(int64(8) << sizeClass(n)); err != nil {
		return err
	}
	var tp *[]uint64
	if n == firstTable {
		tp, sh.used = &sh.firstHdr, true // zero: cleared by release
	} else {
		tp = getTable(n)
	}
	table := *tp
	mask := n - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		h := int(e>>38) & mask
		for table[h] != 0 {
			h = (h + 1) & mask
		}
		table[h] = e
	}
	if prev := sh.table.Swap(tp); prev != nil {
		v.retired = append(v.retired, prev)
	}
	return nil
}

func (v *visited) reserve(n int64) error {
	if err := v.budget.take(n); err != nil {
		return err
	}
	v.held.Add(n)
	return nil
}

func (v *visited) unreserve(n int64) {
	v.held.Add(-n)
	v.budget.free(n)
}

// bytes is the memory the set holds.
func (v *visited) bytes() int { return int(v.held.Load()) }

// Pools of chunk buffers and tables, by power-of-two size class: the searches of a
// run hand them back, the next ones take them, and the garbage collector has
// little to do. Those of a huge page or more live outside the Go heap, in
// offheap.Blocks (why: package offheap): mapped with transparent huge pages, which
// a large set, probed at random, needs (with 4 KiB pages nearly every probe missed
// the TLB, and faulting hundreds of MiB in 4 KiB at a time took a third of a large
// search's time in the kernel).
var (
	bufPools   [48]sync.Pool
	tablePools [48]sync.Pool
)

func sizeClass(n int) int { return bits.Len(uint(n - 1)) }

// offHeap says whether a buffer of n bytes lives outside the heap: whether its
// size class, what it holds once allocated, is a huge page or more. One test for
// taking and giving back: a heap buffer given to offheap would be unmapped.
func offHeap(n int) bool { return 1<<sizeClass(n) >= offheap.MinSize }

// takeBlock and giveBlock are offheap.Blocks' Get and Put for the visited sets:
// either may map or unmap memory, which the Go heap's limit must leave room for
// (setHeapLimit).
func takeBlock(n int) ([]byte, bool) {
	b, zeroed := offheap.Blocks.Get(n)
	setHeapLimit()
	return b, zeroed
}

func giveBlock(b []byte) {
	offheap.Blocks.Put(b)
	setHeapLimit()
}

// trimBlocks unmaps the free blocks (offheap.Store.Trim), when no search is left
// to reuse them.
func trimBlocks() {
	offheap.Blocks.Trim()
	setHeapLimit()
}

func getBuf(n int) *[]byte {
	if offHeap(n) {
		b, _ := takeBlock(n)
		return &b
	}
	c := sizeClass(n)
	if b, ok := bufPools[c].Get().(*[]byte); ok {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n, 1<<c)
	return &b
}

func putBuf(b *[]byte) {
	if offHeap(cap(*b)) {
		giveBlock(*b)
		return
	}
	bufPools[sizeClass(cap(*b))].Put(b)
}

// getTable returns a cleared table of n entries (a power of two, more than
// firstTable). The pointer is the pool's own: the shard publishes it as it is and
// putTable gives it back, so a table costs no allocation once the pools hold it.
func getTable(n int) *[]uint64 {
	if offHeap(8 * n) {
		b, zeroed := takeBlock(8 * n)
		t := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), cap(b)/8)[:n]
		if !zeroed {
			clear(t)
		}
		return &t
	}
	c := sizeClass(n)
	if t, ok := tablePools[c].Get().(*[]uint64); ok && cap(*t) >= n {
		*t = (*t)[:n]
		clear(*t)
		return t
	}
	t := make([]uint64, n, 1<<c)
	return &t
}

// putTable gives a table back to the pools; a shard's first table stays its own.
func putTable(t *[]uint64) {
	switch {
	case len(*t) <= firstTable:
	case offHeap(8 * cap(*t)):
		giveBlock(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(*t))), 8*cap(*t)))
	default:
		tablePools[sizeClass(cap(*t))].Put(t)
	}
}
