package supervise

import (
	"errors"
	"fmt"
	"sync"
)

// OutputCap bounds what rmacheck keeps of a launcher's standard output, and of its
// standard error, in a compile or a run (issue 25 row 5: a launcher or a rank that
// printed without end was held in memory until the timeout, and the process ran out
// of memory). A real program prints a header and a histogram line per outcome seen,
// far less. A run whose output passes the cap is stopped, with its head and tail.
const OutputCap = 16 << 20

// ErrOutputCap is the error of a run that printed more than OutputCap bytes.
var ErrOutputCap = errors.New("output over the cap")

// capture is an io.Writer that keeps the first and the last limit/2 bytes written to
// it and counts the rest; over is closed once more than limit bytes were written. It
// never fails a write: the writer (a child process) is stopped by whoever watches over.
type capture struct {
	mu      sync.Mutex
	limit   int
	head    []byte
	ring    []byte // the tail, a ring of limit - limit/2 bytes once head is full
	ringPos int    // next write position in ring, once it is full
	total   int64
	over    chan struct{}
}

func newCapture(limit int) *capture {
	return &capture{limit: limit, over: make(chan struct{})}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	before := c.total
	c.total += int64(n)
	if room := c.limit/2 - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	tailSize := c.limit - c.limit/2
	for len(p) > 0 {
		if len(c.ring) < tailSize {
			k := min(tailSize-len(c.ring), len(p))
			c.ring = append(c.ring, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= tailSize { // only the last tailSize bytes of p survive
			p = p[len(p)-tailSize:]
			copy(c.ring, p)
			c.ringPos, p = 0, nil
			continue
		}
		k := copy(c.ring[c.ringPos:], p)
		c.ringPos = (c.ringPos + k) % tailSize
		p = p[k:]
	}
	if before <= int64(c.limit) && c.total > int64(c.limit) {
		close(c.over)
	}
	return n, nil
}

// Bytes is everything written when it was within the limit; otherwise the head, a line
// that says how many bytes were left out, and the tail.
func (c *capture) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.head...)
	kept := int64(len(c.head) + len(c.ring))
	if kept < c.total {
		out = fmt.Appendf(out, "\n[... %d bytes left out ...]\n", c.total-kept)
	}
	out = append(out, c.ring[c.ringPos:]...)
	return append(out, c.ring[:c.ringPos]...)
}

// Overflowed reports whether more than limit bytes were written.
func (c *capture) Overflowed() bool {
	select {
	case <-c.over:
		return true
	default:
		return false
	}
}
