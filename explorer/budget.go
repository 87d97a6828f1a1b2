package explorer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
)

// Budget is memory shared by the searches of one command (--max-memory): each
// search's visited set takes what it grows by and gives it all back when the
// search ends, so a run of many small tests and one huge one fails on the huge
// one, by name, instead of being killed by the system. A nil *Budget is unlimited.
type Budget struct {
	limit int64
	used  atomic.Int64
	// lowered says why the limit is below what the user asked (SystemMemory), for the
	// message of ErrMemoryLimit; "" when it is not.
	lowered string
}

// NewBudget is a budget of limit bytes (limit <= 0: unlimited, nil).
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		return nil
	}
	return &Budget{limit: limit}
}

// Lowered makes b at most max bytes, for the reason why (a system limit), and
// returns it.
func (b *Budget) Lowered(max int64, why string) *Budget {
	if max <= 0 || why == "" {
		return b
	}
	if b == nil || b.limit >= max {
		return &Budget{limit: max, lowered: why}
	}
	return b
}

// Limit is the budget's size in bytes (0: unlimited).
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// Used is what the searches hold now.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

func (b *Budget) take(n int64) error {
	if b == nil {
		return nil
	}
	if b.used.Add(n) > b.limit {
		b.used.Add(-n)
		return &ErrMemoryLimit{Limit: b.limit, Lowered: b.lowered}
	}
	return nil
}

func (b *Budget) free(n int64) {
	if b != nil {
		b.used.Add(-n)
	}
}

// ErrMemoryLimit is returned when a search would grow past its Budget.
type ErrMemoryLimit struct {
	Test    string
	Limit   int64
	Lowered string // why the bound is below --max-memory (a system limit), or ""
}

func (e *ErrMemoryLimit) Error() string {
	if e.Lowered != "" {
		return fmt.Sprintf("%s: stopped: its states would pass the memory bound (%s); the result would be incomplete, so none is given; raise that limit, run fewer tests at once (-j), or shrink the test",
			e.Test, e.Lowered)
	}
	return fmt.Sprintf("%s: stopped: its states would pass the memory bound (--max-memory %s); the result would be incomplete, so none is given; raise --max-memory, run fewer tests at once (-j), or shrink the test",
		e.Test, FormatBytes(e.Limit))
}

// FormatBytes writes n bytes as the unit --max-memory reads (ParseBytes).
func FormatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.suffix)
		}
	}
	return fmt.Sprintf("%d", n)
}

// ParseBytes reads a size: a number of bytes with an optional unit K, M, G or T
// (powers of 1024; a trailing B or iB is allowed: 8G, 512MiB, 1.5G).
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "B"), "i"), "b")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch unicode.ToUpper(rune(t[n-1])) {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f*float64(mult) > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size: write bytes with an optional unit, like 8G, 512M or 65536", s)
	}
	return int64(f * float64(mult)), nil
}
