package cat

import "math/bits"

// Set is a set of events (by index), a bit per event.
type Set []uint64

// Rel is a binary relation over n events: row i is the set of events i relates to.
type Rel struct {
	N    int
	W    int // words per row
	Bits []uint64
}

func words(n int) int { return (n + 63) / 64 }

// NewSet is the empty set over n events.
func NewSet(n int) Set { return make(Set, words(n)) }

// NewRel is the empty relation over n events.
func NewRel(n int) Rel {
	w := words(n)
	return Rel{N: n, W: w, Bits: make([]uint64, n*w)}
}

// Has reports whether event i is in s.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }

// Add puts event i in s.
func (s Set) Add(i int) { s[i>>6] |= 1 << uint(i&63) }

// Empty reports whether s has no event.
func (s Set) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Len is the number of events in s.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Each calls f for each event of s, in increasing order.
func (s Set) Each(f func(i int)) {
	for k, w := range s {
		for ; w != 0; w &= w - 1 {
			f(k<<6 | bits.TrailingZeros64(w))
		}
	}
}

// Clone copies s.
func (s Set) Clone() Set { return append(Set(nil), s...) }

// Row is the set of events i relates to (shared with r).
func (r Rel) Row(i int) Set { return Set(r.Bits[i*r.W : (i+1)*r.W]) }

// Has reports whether i relates to j.
func (r Rel) Has(i, j int) bool { return r.Row(i).Has(j) }

// Add relates i to j.
func (r Rel) Add(i, j int) { r.Row(i).Add(j) }

// Clone copies r.
func (r Rel) Clone() Rel {
	c := r
	c.Bits = append([]uint64(nil), r.Bits...)
	return c
}

// Empty reports whether r relates nothing.
func (r Rel) Empty() bool { return Set(r.Bits).Empty() }

// Each calls f for each pair of r.
func (r Rel) Each(f func(i, j int)) {
	for i := 0; i < r.N; i++ {
		r.Row(i).Each(func(j int) { f(i, j) })
	}
}

func orInto(dst, src []uint64) {
	for k := range dst {
		dst[k] |= src[k]
	}
}

func andInto(dst, src []uint64) {
	for k := range dst {
		dst[k] &= src[k]
	}
}

func andNotInto(dst, src []uint64) {
	for k := range dst {
		dst[k] &^= src[k]
	}
}

// Seq is r;s: i relates to k when some j has i r j and j s k.
func Seq(r, s Rel) Rel {
	out := NewRel(r.N)
	for i := 0; i < r.N; i++ {
		row := out.Row(i)
		r.Row(i).Each(func(j int) { orInto(row, s.Row(j)) })
	}
	return out
}

// Inverse is r^-1.
func Inverse(r Rel) Rel {
	out := NewRel(r.N)
	r.Each(func(i, j int) { out.Add(j, i) })
	return out
}

// Plus is the transitive closure r+ (Warshall's algorithm on rows).
func Plus(r Rel) Rel {
	out := r.Clone()
	for k := 0; k < out.N; k++ {
		rk := out.Row(k)
		for i := 0; i < out.N; i++ {
			if out.Has(i, k) {
				orInto(out.Row(i), rk)
			}
		}
	}
	return out
}

// Identity is [s], the identity on the events of s.
func Identity(n int, s Set) Rel {
	out := NewRel(n)
	s.Each(func(i int) { out.Add(i, i) })
	return out
}

// Product is s*t, every event of s related to every event of t.
func Product(n int, s, t Set) Rel {
	out := NewRel(n)
	s.Each(func(i int) { copy(out.Row(i), t) })
	return out
}

// Domain is the set of events r relates from.
func Domain(r Rel) Set {
	out := NewSet(r.N)
	for i := 0; i < r.N; i++ {
		if !r.Row(i).Empty() {
			out.Add(i)
		}
	}
	return out
}

// Range is the set of events r relates to.
func Range(r Rel) Set {
	out := NewSet(r.N)
	for i := 0; i < r.N; i++ {
		orInto(out, r.Row(i))
	}
	return out
}

// Reflexive reports whether some event relates to itself.
func Reflexive(r Rel) (int, bool) {
	for i := 0; i < r.N; i++ {
		if r.Has(i, i) {
			return i, true
		}
	}
	return 0, false
}

// Cycle finds a cycle of r, as the events on it in order, or nil when r is acyclic.
func Cycle(r Rel) []int {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, r.N)
	parent := make([]int, r.N)
	var found []int
	var visit func(i int) bool
	visit = func(i int) bool {
		color[i] = grey
		stop := false
		r.Row(i).Each(func(j int) {
			if stop {
				return
			}
			switch color[j] {
			case grey:
				found = []int{j}
				for k := i; k != j; k = parent[k] {
					found = append(found, k)
				}
				for a, b := 1, len(found)-1; a < b; a, b = a+1, b-1 {
					found[a], found[b] = found[b], found[a]
				}
				stop = true
			case white:
				parent[j] = i
				stop = visit(j)
			}
		})
		color[i] = black
		return stop
	}
	for i := 0; i < r.N; i++ {
		if color[i] == white && visit(i) {
			return found
		}
	}
	return nil
}

// Acyclic reports whether r has no cycle (a cheaper test than Cycle when none is
// wanted: repeatedly drop the events with no predecessor).
func Acyclic(r Rel) bool {
	indeg := make([]int, r.N)
	r.Each(func(_, j int) { indeg[j]++ })
	queue := make([]int, 0, r.N)
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	seen := 0
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		seen++
		r.Row(i).Each(func(j int) {
			if indeg[j]--; indeg[j] == 0 {
				queue = append(queue, j)
			}
		})
	}
	return seen == r.N
}

// TopoOrder lists the events in an order that extends r (nil when r has a cycle),
// the lowest-numbered event first among those free to go.
func TopoOrder(r Rel) []int {
	indeg := make([]int, r.N)
	r.Each(func(_, j int) { indeg[j]++ })
	var order []int
	done := make([]bool, r.N)
	for len(order) < r.N {
		next := -1
		for i := 0; i < r.N; i++ {
			if !done[i] && indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return nil
		}
		done[next] = true
		order = append(order, next)
		r.Row(next).Each(func(j int) { indeg[j]-- })
	}
	return order
}
