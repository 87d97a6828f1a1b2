package explorer

import "hash/maphash"

// visited is the set of states seen, stored exactly: each state's bytes live in
// one arena, and an open-addressing table of arena indices finds them. No state is
// ever confused with another (no fingerprints), and the cost per state is its
// width plus 4 bytes of table (at most half full) plus 8 bytes of parent link.
type visited struct {
	width  int
	arena  []byte
	table  []uint32 // 0 empty, else index+1
	count  int
	seed   maphash.Seed
	parent []uint32 // index of the state it was first reached from
	step   []uint32 // the step that reached it (model.Step.Encode)
}

func newVisited(width int) *visited {
	return &visited{width: width, table: make([]uint32, 1<<10), seed: maphash.MakeSeed()}
}

func (v *visited) state(i int) []byte { return v.arena[i*v.width : (i+1)*v.width] }

// insert adds s (copying it) and returns its index and whether it was new.
func (v *visited) insert(s []byte, parent int, step uint32) (int, bool) {
	if 2*(v.count+1) > len(v.table) {
		v.grow()
	}
	mask := len(v.table) - 1
	h := int(maphash.Bytes(v.seed, s)) & mask
	for {
		e := v.table[h]
		if e == 0 {
			break
		}
		if string(v.state(int(e-1))) == string(s) {
			return int(e - 1), false
		}
		h = (h + 1) & mask
	}
	idx := v.count
	v.count++
	v.arena = append(v.arena, s...)
	v.parent = append(v.parent, uint32(parent))
	v.step = append(v.step, step)
	v.table[h] = uint32(idx + 1)
	return idx, true
}

func (v *visited) grow() {
	old := v.table
	v.table = make([]uint32, 2*len(old))
	mask := len(v.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		h := int(maphash.Bytes(v.seed, v.state(int(e-1)))) & mask
		for v.table[h] != 0 {
			h = (h + 1) & mask
		}
		v.table[h] = e
	}
}

// bytes is the memory the set holds.
func (v *visited) bytes() int {
	return cap(v.arena) + 4*len(v.table) + 4*cap(v.parent) + 4*cap(v.step)
}
