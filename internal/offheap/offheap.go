// Package offheap keeps the large blocks of the searches' visited sets outside the
// Go heap: mapped from the kernel with transparent huge pages, reused from search
// to search, and never scanned or counted by the collector.
//
// Why: a large search's visited set is most of the process's live memory, and it
// holds no pointers. In the heap it still counted toward the collector's goal
// (twice the live heap), so while one worker ran a large search the other
// worker's small searches spread their garbage over that headroom: every page of
// it fresh memory, and a fresh page costs a fault that zeroes it (10-22% of the
// CPU of run -j 2 over the 1,000-test plain family went to clear_page; in this
// virtual machine first-touching 256 MiB takes 0.55-0.87 s). Out of the heap, the
// heap's goal follows the small live heap, and a block freed by one search is the
// next one's without a fault: over the plain family peak memory at -j 1 went from
// 166 to 88 MiB and at -j 2 from 221 to 132 MiB, and -j 2 from 1.63 to 1.76 times
// as fast as -j 1 (reports/performance/parallel.md).
//
// Small blocks stay in the heap (the callers' sync.Pools): a run of many small
// searches reuses them there at no cost, and mapping each would cost a system call.
//
// The collector never scans a block: a Go pointer stored in one would not keep its
// object alive. The visited sets store bytes and integers only (records, table
// entries).
package offheap

import (
	"slices"
	"sync"
	"unsafe"
)

// MinSize is the smallest block: one huge page. Callers keep buffers of less than
// half of it in the heap.
const MinSize = 2 << 20

// KeepFree is the most the free blocks may hold. A block given back beyond it is
// unmapped, the largest first, so that a run does not keep a large search's memory
// to its end (in the heap the runtime returned it to the system over time), while
// the searches of a test, one preset after the other, still reuse theirs.
const KeepFree = 512 << 20

// Store is a set of blocks: those handed out and those free for reuse. The zero
// Store is ready; Blocks is the process's.
type Store struct {
	mu        sync.Mutex
	free      [][]byte // by ascending capacity
	freeBytes int64    // what free holds
	mapped    int64    // bytes held: handed out and free
	// blocks are the blocks held, handed out or free, by their first byte's
	// address. Put refuses a block that is not in it or not handed out: unmapping
	// a heap buffer would take memory from under the runtime, and a block given
	// back twice would be handed out twice.
	blocks map[uintptr]block
	// mapBlock and unmapBlock are the system's (map_linux.go; elsewhere they
	// refuse, and the heap makes the blocks); tests replace them.
	mapBlock   func(n int) ([]byte, error)
	unmapBlock func(b []byte)
}

// Blocks is the process's store.
var Blocks Store

// block is what the store knows of one of its blocks.
type block struct {
	fromHeap  bool // made by the heap because mapping failed: dropped, not unmapped
	handedOut bool
}

// Get returns a block of n bytes whose capacity is a power of two, at least
// MinSize (n rounded up, when it is mapped fresh), and whether it is zeroed (a
// fresh mapping) or holds what its last user left. The smallest free block that
// fits is reused. When none fits, the free blocks, all smaller than n, are
// unmapped first: the searches' blocks grow geometrically, so a block smaller than
// today's request is one the searches have outgrown, and keeping it would let the
// mapped memory creep up from search to search.
func (s *Store) Get(n int) (b []byte, zeroed bool) {
	size := roundUp(n)
	s.mu.Lock()
	defer s.mu.Unlock()
	i, _ := slices.BinarySearchFunc(s.free, size, func(b []byte, size int) int { return cap(b) - size })
	if i < len(s.free) {
		b = s.free[i]
		s.free = slices.Delete(s.free, i, i+1)
		s.freeBytes -= int64(cap(b))
		s.blocks[base(b)] = block{fromHeap: s.blocks[base(b)].fromHeap, handedOut: true}
		return b[:n], false
	}
	for _, old := range s.free {
		s.unmap(old)
	}
	s.free, s.freeBytes = s.free[:0], 0
	b = s.mapOrMake(size)
	return b[:n], true
}

// Put gives a block Get returned back for reuse. Nothing may touch it after.
func (s *Store) Put(b []byte) {
	b = b[:cap(b)]
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.blocks[base(b)]
	if !ok || !k.handedOut {
		panic("offheap: Put of a block that Get did not return, or returned twice")
	}
	s.blocks[base(b)] = block{fromHeap: k.fromHeap}
	i, _ := slices.BinarySearchFunc(s.free, cap(b), func(f []byte, size int) int { return cap(f) - size })
	s.free = slices.Insert(s.free, i, b)
	s.freeBytes += int64(cap(b))
	for s.freeBytes > KeepFree {
		largest := s.free[len(s.free)-1]
		s.free = s.free[:len(s.free)-1]
		s.freeBytes -= int64(cap(largest))
		s.unmap(largest)
	}
}

// Trim unmaps every free block: for a run whose searches are all over (issue 37:
// IRIW of 12 processes kept 512 MiB of a finished search's blocks resident while
// its result was printed).
func (s *Store) Trim() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.free {
		s.unmap(b)
	}
	s.free, s.freeBytes = s.free[:0], 0
}

// Holds reports whether b starts at a block the store holds, handed out or free.
func (s *Store) Holds(b []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.blocks[base(b)]
	return ok
}

// Mapped is the memory the store holds: the blocks handed out and the free ones.
func (s *Store) Mapped() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mapped
}

func (s *Store) mapOrMake(size int) []byte {
	mapBlock := s.mapBlock
	if mapBlock == nil {
		mapBlock = mapHuge
	}
	b, err := mapBlock(size)
	if err != nil {
		// Refused (an address-space limit, or no mapping on this system): the
		// heap's block works the same, and the budget of the searches bounds it.
		b = make([]byte, size)
	}
	if s.blocks == nil {
		s.blocks = map[uintptr]block{}
	}
	s.blocks[base(b)] = block{fromHeap: err != nil, handedOut: true}
	s.mapped += int64(size)
	return b
}

func (s *Store) unmap(b []byte) {
	s.mapped -= int64(cap(b))
	k := s.blocks[base(b)]
	delete(s.blocks, base(b))
	if k.fromHeap {
		return
	}
	unmapBlock := s.unmapBlock
	if unmapBlock == nil {
		unmapBlock = unmapHuge
	}
	unmapBlock(b)
}

// roundUp is n rounded up to a power of two, at least MinSize.
func roundUp(n int) int {
	size := MinSize
	for size < n {
		size <<= 1
	}
	return size
}

func base(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
