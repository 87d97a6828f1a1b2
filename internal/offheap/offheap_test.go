package offheap

import (
	"errors"
	"runtime"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// fakeSystem stands for the kernel: it hands out heap blocks and records which are
// mapped, so that a test sees every map and unmap.
type fakeSystem struct {
	mapped map[uintptr]int // base -> size
	refuse bool
}

func newFakeStore() (*Store, *fakeSystem) {
	sys := &fakeSystem{mapped: map[uintptr]int{}}
	s := &Store{
		mapBlock: func(n int) ([]byte, error) {
			if sys.refuse {
				return nil, errors.ErrUnsupported
			}
			b := make([]byte, n)
			sys.mapped[base(b)] = n
			return b, nil
		},
		unmapBlock: func(b []byte) {
			if sys.mapped[base(b)] != cap(b) {
				panic("unmap of a block not mapped whole")
			}
			delete(sys.mapped, base(b))
		},
	}
	return s, sys
}

func TestRoundUp(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, MinSize}, {MinSize, MinSize}, {MinSize + 1, 2 * MinSize}, {3 * MinSize, 4 * MinSize}, {1 << 30, 1 << 30},
	} {
		if got := roundUp(c.n); got != c.want {
			t.Errorf("roundUp(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestReuse: a freed block is the next request's that fits, the smallest such;
// a request that none fits unmaps the smaller free blocks first.
func TestReuse(t *testing.T) {
	s, sys := newFakeStore()
	small, zeroed := s.Get(MinSize)
	if !zeroed || len(small) != MinSize {
		t.Fatalf("first Get: len %d zeroed %v", len(small), zeroed)
	}
	big, _ := s.Get(3 * MinSize)
	if cap(big) != 4*MinSize || len(big) != 3*MinSize {
		t.Fatalf("Get(3 MinSize): len %d cap %d", len(big), cap(big))
	}
	s.Put(small)
	s.Put(big)
	again, zeroed := s.Get(MinSize + 1) // the 2 MinSize class: only big fits
	if zeroed || base(again) != base(big) {
		t.Fatalf("Get(MinSize+1) did not reuse the free block that fits (zeroed %v)", zeroed)
	}
	if got, want := s.Mapped(), int64(5*MinSize); got != want {
		t.Errorf("Mapped = %d, want %d", got, want)
	}
	huge, zeroed := s.Get(8 * MinSize) // fits none: small is unmapped first
	if !zeroed {
		t.Error("a block mapped fresh should say so")
	}
	if _, ok := sys.mapped[base(small)]; ok {
		t.Error("a free block smaller than the request stayed mapped")
	}
	if got, want := s.Mapped(), int64(12*MinSize); got != want {
		t.Errorf("Mapped = %d, want %d (again's 4 + huge's 8)", got, want)
	}
	s.Put(again)
	s.Put(huge)
}

// TestKeepFree: free blocks beyond KeepFree are unmapped, the largest first.
func TestKeepFree(t *testing.T) {
	s, sys := newFakeStore()
	small, _ := s.Get(MinSize)
	half, _ := s.Get(KeepFree / 2)
	whole, _ := s.Get(KeepFree)
	s.Put(small)
	s.Put(half)
	if got, want := s.Mapped(), int64(MinSize+KeepFree/2+KeepFree); got != want {
		t.Fatalf("Mapped = %d, want %d: free blocks within KeepFree stay", got, want)
	}
	s.Put(whole) // the free blocks would hold more than KeepFree: whole goes
	if _, ok := sys.mapped[base(whole)]; ok {
		t.Error("the largest free block stayed mapped beyond KeepFree")
	}
	if got, want := s.Mapped(), int64(MinSize+KeepFree/2); got != want {
		t.Errorf("Mapped = %d, want %d", got, want)
	}
}

// TestHeapFallback: a refused mapping gives a heap block, which is dropped, not
// unmapped, when it is outgrown.
func TestHeapFallback(t *testing.T) {
	s, sys := newFakeStore()
	sys.refuse = true
	b, zeroed := s.Get(MinSize)
	if !zeroed || len(b) != MinSize {
		t.Fatalf("fallback Get: len %d zeroed %v", len(b), zeroed)
	}
	b[0] = 1
	s.Put(b)
	sys.refuse = false
	c, _ := s.Get(2 * MinSize) // unmaps nothing: b was the heap's
	if got, want := s.Mapped(), int64(2*MinSize); got != want {
		t.Errorf("Mapped = %d, want %d", got, want)
	}
	s.Put(c)
}

// TestPutForeign: a block the store did not hand out is refused, not kept to be
// unmapped later.
func TestPutForeign(t *testing.T) {
	s, _ := newFakeStore()
	defer func() {
		if recover() == nil {
			t.Error("Put of a heap buffer was taken")
		}
	}()
	s.Put(make([]byte, MinSize))
}

// TestPutTwice: a block given back twice is refused, not handed out twice.
func TestPutTwice(t *testing.T) {
	s, _ := newFakeStore()
	b, _ := s.Get(MinSize)
	s.Put(b)
	defer func() {
		if recover() == nil {
			t.Error("a second Put of one block was taken")
		}
	}()
	s.Put(b)
}

// TestStoreProperty: under any sequence of Gets and Puts, the blocks handed out
// never overlap, keep what was written to them, are at least as long as asked;
// Mapped is the sum of the blocks held, and every block the store holds is mapped.
func TestStoreProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, sys := newFakeStore()
		type held struct {
			b    []byte
			mark byte
		}
		var out []held
		for step := range rapid.IntRange(1, 60).Draw(t, "steps") {
			if len(out) > 0 && rapid.Bool().Draw(t, "put") {
				k := rapid.IntRange(0, len(out)-1).Draw(t, "which")
				h := out[k]
				if h.b[0] != h.mark || h.b[len(h.b)-1] != h.mark {
					t.Fatalf("step %d: a block lost what was written to it", step)
				}
				s.Put(h.b)
				out = slices.Delete(out, k, k+1)
				continue
			}
			n := rapid.IntRange(1, 9*MinSize).Draw(t, "size")
			b, zeroed := s.Get(n)
			if len(b) != n || cap(b) < roundUp(n) || cap(b)&(cap(b)-1) != 0 || zeroed && cap(b) != roundUp(n) {
				t.Fatalf("step %d: Get(%d) gave len %d cap %d (zeroed %v)", step, n, len(b), cap(b), zeroed)
			}
			if zeroed && (b[0] != 0 || b[n-1] != 0) {
				t.Fatalf("step %d: a block said zeroed is not", step)
			}
			for _, h := range out {
				if base(b) < base(h.b)+uintptr(cap(h.b)) && base(h.b) < base(b)+uintptr(cap(b)) {
					t.Fatalf("step %d: two blocks handed out overlap", step)
				}
			}
			mark := byte(step + 1)
			b[0], b[n-1] = mark, mark
			out = append(out, held{b, mark})
		}
		var total int64
		for _, h := range out {
			total += int64(cap(h.b))
			if sys.mapped[base(h.b)] != cap(h.b) {
				t.Fatalf("a block handed out is not mapped")
			}
		}
		for _, f := range s.free {
			total += int64(cap(f))
			if sys.mapped[base(f)] != cap(f) {
				t.Fatalf("a free block is not mapped")
			}
		}
		var free int64
		for _, f := range s.free {
			free += int64(cap(f))
		}
		if free != s.freeBytes || free > KeepFree {
			t.Fatalf("the free blocks hold %d bytes, freeBytes says %d (KeepFree %d)", free, s.freeBytes, KeepFree)
		}
		if total != s.Mapped() || len(sys.mapped) != len(out)+len(s.free) {
			t.Fatalf("Mapped %d, blocks held sum to %d; %d mapped, %d held", s.Mapped(), total, len(sys.mapped), len(out)+len(s.free))
		}
	})
}

// TestMapHuge maps, writes and unmaps real blocks: aligned to a huge page, as
// long as asked, zero.
func TestMapHuge(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("blocks are mapped on Linux only")
	}
	var s Store
	for _, n := range []int{MinSize, 5 * MinSize} {
		b, zeroed := s.Get(n)
		if !zeroed {
			t.Fatalf("Get(%d) on an empty store: not fresh", n)
		}
		if base(b)%MinSize != 0 {
			t.Errorf("block of %d bytes at %#x: not aligned to a huge page", n, base(b))
		}
		for i := 0; i < len(b); i += 4096 {
			if b[i] != 0 {
				t.Fatalf("fresh block not zero at %d", i)
			}
			b[i] = 7
		}
		s.Put(b)
	}
	// The second Get unmapped the first block, outgrown.
	if got, want := s.Mapped(), int64(8*MinSize); got != want {
		t.Errorf("Mapped = %d, want %d", got, want)
	}
	big, _ := s.Get(16 * MinSize) // unmaps the free block, really
	if got, want := s.Mapped(), int64(16*MinSize); got != want {
		t.Errorf("Mapped = %d, want %d", got, want)
	}
	s.Put(big)
}

// TestTrim: Trim unmaps every free block and leaves the blocks handed out.
func TestTrim(t *testing.T) {
	var s Store
	a, _ := s.Get(MinSize)
	b, _ := s.Get(2 * MinSize)
	s.Put(b)
	if s.Mapped() != 3*MinSize {
		t.Fatalf("mapped %d, want %d", s.Mapped(), 3*MinSize)
	}
	s.Trim()
	if s.Mapped() != MinSize || !s.Holds(a) || s.Holds(b) {
		t.Fatalf("after Trim: mapped %d, want %d, the block handed out alone", s.Mapped(), MinSize)
	}
	s.Put(a)
}
