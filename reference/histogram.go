package reference

// The histogram of outcomes.

import (
	"encoding/binary"
	"slices"
)

// histogram counts outcomes; only rank 0 touches it.
type histogram struct {
	index  map[string]int
	values [][]int64
	counts []int
	buf    []byte
	vals   []int64
}

// scanBins is how many bins add compares before it hashes: a test has a few outcomes,
// and comparing with each costs less than encoding and hashing the values (rank 0
// counts a whole batch while the other ranks wait).
const scanBins = 8

func (h *histogram) add(vals []int64) {
	for i := range min(scanBins, len(h.values)) {
		if slices.Equal(h.values[i], vals) {
			h.counts[i]++
			return
		}
	}
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
