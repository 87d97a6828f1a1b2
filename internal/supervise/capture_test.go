package supervise

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestOutputStreamKeepsHeadAndTail: within the limit a capture keeps every byte in
// order; past it, the first and the last half of the limit, with a line that counts
// what was left out between, however the bytes were split into writes.
func TestOutputStreamKeepsHeadAndTail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(2, 64).Draw(t, "limit")
		data := rapid.SliceOfN(rapid.Byte(), 0, 200).Draw(t, "data")
		c := newCapture(limit)
		for rest := data; len(rest) > 0; {
			k := rapid.IntRange(1, len(rest)).Draw(t, "write")
			if n, err := c.Write(rest[:k]); n != k || err != nil {
				t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
			}
			rest = rest[k:]
		}
		got := c.Bytes()
		if len(data) <= limit {
			if !bytes.Equal(got, data) || c.Overflowed() {
				t.Fatalf("within the limit: kept %q of %q (overflowed %v)", got, data, c.Overflowed())
			}
			return
		}
		head, tail := data[:limit/2], data[len(data)-(limit-limit/2):]
		if !c.Overflowed() || !bytes.HasPrefix(got, head) || !bytes.HasSuffix(got, tail) ||
			!bytes.Contains(got, []byte("bytes left out")) {
			t.Fatalf("past the limit %d: kept %q of %q (overflowed %v)", limit, got, data, c.Overflowed())
		}
	})
}
