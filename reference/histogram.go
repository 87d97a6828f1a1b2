package reference

// The histogram of outcomes.

import (
	"encoding/binary"
)

// histogram counts outcomes; only rank 0 touches it.
type histogram struct {
	index  map[string]int
	values [][]int64
	counts []int
	buf    []byte
	vals   []int64
}

func (h *histogram) add(vals []int64) {
	h.buf = encode(h.buf[:0], vals)
	i, ok := h.index[string(h.buf)]
	if !ok {
		i = len(h.counts)
		h.index[string(h.buf)] = i
		h.values = append(h.values, append([]int64(nil), vals...))
		h.counts = append(h.counts, 0)
	}
	h.counts[i]++
}

func encode(buf []byte, vals []int64) []byte {
	for _, v := range vals {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	return buf
}
