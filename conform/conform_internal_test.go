package conform

import (
	"testing"
	"time"
)

// TestDefaultTimeoutSaturates: the default timeout of a huge --runs is the longest
// duration, not a negative one (30 s + 9.3e12 ms overflowed: "did not finish within
// -2540762h14m3.7s").
func TestDefaultTimeoutSaturates(t *testing.T) {
	for _, tc := range []struct {
		runs int
		want time.Duration
	}{
		{0, 30 * time.Second},
		{10_000, 40 * time.Second},
		{9_300_000_000_000, 1<<63 - 1},
		{1<<63 - 1, 1<<63 - 1},
	} {
		if got := defaultTimeout(tc.runs); got != tc.want {
			t.Errorf("defaultTimeout(%d) = %v, want %v", tc.runs, got, tc.want)
		}
	}
}
