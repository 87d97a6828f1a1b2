package explorer

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/internal/offheap"
)

// TestVisitedReused: a set taken from visitedPool after other searches released
// theirs (other widths, other sizes) stores, finds and numbers states as a new set
// does, holds the same bytes of the budget at every point (--max-memory must not
// depend on which searches ran before), and gives all of it back.
func TestVisitedReused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		budget := NewBudget(1 << 30)
		for round := range rapid.IntRange(1, 4).Draw(t, "rounds") {
			width := rapid.IntRange(1, 24).Draw(t, "width")
			// From few distinct states (many found again) to more than a first table
			// per shard holds.
			distinct := rapid.SampledFrom([]int{3, 40, 700, 3000}).Draw(t, "distinct")
			n := rapid.IntRange(0, 4000).Draw(t, "inserts")
			seedState := rapid.Uint64().Draw(t, "seed")

			pooled := newVisited(width, budget)
			fresh := visitedPool.New().(*visited) // never used: as a new set
			fresh.width, fresh.rec, fresh.seed, fresh.budget = width, width+8, seed, NewBudget(1<<30)
			want := map[string]int{}
			for i := range n {
				s := stateOf(width, (seedState+uint64(i)*0x9e3779b97f4a7c15)%uint64(distinct))
				idx, isNew, err := pooled.insert(s, i-1, uint32(i))
				if err != nil {
					t.Fatal(err)
				}
				fidx, fnew, _ := fresh.insert(s, i-1, uint32(i))
				old, seen := want[string(s)]
				switch {
				case isNew == seen, isNew != fnew, idx != fidx:
					t.Fatalf("round %d insert %d: got (%d, new %v), fresh set (%d, new %v), stored before: %v", round, i, idx, isNew, fidx, fnew, seen)
				case seen && idx != old:
					t.Fatalf("round %d: state stored as %d found as %d", round, old, idx)
				case !seen:
					want[string(s)] = idx
				}
				if !pooled.contains(s, pooled.hash(s)) {
					t.Fatalf("round %d: a stored state is not found", round)
				}
				if pooled.bytes() != fresh.bytes() {
					t.Fatalf("round %d insert %d: the set holds %d bytes, a new one %d", round, i, pooled.bytes(), fresh.bytes())
				}
			}
			for s, idx := range want {
				if string(pooled.state(idx)) != s || pooled.parent(idx) != fresh.parent(idx) || pooled.step(idx) != fresh.step(idx) {
					t.Fatalf("round %d: record %d differs from a new set's", round, idx)
				}
			}
			if pooled.size() != len(want) {
				t.Fatalf("round %d: size %d, want %d", round, pooled.size(), len(want))
			}
			pooled.quiesce()
			pooled.release()
			fresh.release()
			if budget.Used() != 0 {
				t.Fatalf("round %d: %d bytes left taken after release", round, budget.Used())
			}
		}
	})
}

// stateOf is a state of width bytes that encodes k.
func stateOf(width int, k uint64) []byte {
	s := make([]byte, width)
	for i := range s {
		s[i] = byte(k >> (8 * (i % 8)))
		if i >= 8 {
			s[i] ^= byte(i)
		}
	}
	return s
}

// TestVisitedOffHeap: a set large enough for chunks of a huge page takes them
// from offheap.Blocks, keeps its states exact in them, and gives them back; the
// next large set reuses them, dirty as they are, without mapping more.
func TestVisitedOffHeap(t *testing.T) {
	const n = 40_000 // with 72-byte records, chunk 7 holds 32,768 of them: 2.4 MB
	fill := func(width int, salt uint64) {
		v := newVisited(width, NewBudget(1<<30))
		defer v.release()
		for i := range n {
			if _, isNew, err := v.insert(stateOf(width, uint64(i)^salt), i-1, uint32(i)); err != nil || !isNew {
				t.Fatalf("insert %d: new %v, error %v", i, isNew, err)
			}
		}
		for i := range n {
			s := stateOf(width, uint64(i)^salt)
			if string(v.state(i)) != string(s) || v.parent(i) != i-1 || v.step(i) != uint32(i) {
				t.Fatalf("record %d differs from what was inserted", i)
			}
			if !v.contains(s, v.hash(s)) {
				t.Fatalf("state %d is not found", i)
			}
		}
		chunks := *v.chunks.Load()
		if last := *chunks[len(chunks)-1]; !offheap.Blocks.Holds(last) {
			t.Fatalf("the set's chunk of %d bytes is not an offheap block", cap(last))
		}
		if small := *chunks[0]; offheap.Blocks.Holds(small) {
			t.Fatalf("the set's first chunk, %d bytes, is an offheap block", cap(small))
		}
	}
	fill(64, 0)
	mapped := offheap.Blocks.Mapped()
	fill(60, 0x5555)
	if again := offheap.Blocks.Mapped(); again != mapped {
		t.Errorf("a second large set mapped %d bytes more: the first one's blocks were not reused", again-mapped)
	}
}
