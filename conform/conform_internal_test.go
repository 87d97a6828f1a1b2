package conform

import (
	"strings"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
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

// TestCFileNameIsSafeAndOneToOne: a test's C file name never leaves its directory and
// different names give different files (".." compiled over the temporary directory;
// X+Y and X_Y were both X_Y.c).
func TestCFileNameIsSafeAndOneToOne(t *testing.T) {
	seen := map[string]string{}
	for _, name := range []string{"..", ".", ".x", "_.x", "X+Y", "X_Y", "X.Y", "SB", "_SB", "a/b", "a%2Fb", "MP+fence+rstore"} {
		got := cFileName(&litmus.Test{Name: name})
		if got == "." || got == ".." || strings.HasPrefix(got, ".") || strings.Contains(got, "/") {
			t.Errorf("cFileName(%q) = %q: not a plain file name", name, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("cFileName(%q) = cFileName(%q) = %q", name, other, got)
		}
		seen[got] = name
	}
	// Names over NAME_MAX are cut, and still one to one (issue 38 row 9).
	long := strings.Repeat("x", 300)
	for _, name := range []string{long, long + "y", strings.Repeat("/", 300), strings.Repeat("%", 100), long[:200], long[:201]} {
		got := cFileName(&litmus.Test{Name: name})
		if len(got)+len(".c") > 255 || len(got) > maxCFileName {
			t.Errorf("cFileName of a %d-byte name is %d bytes, over NAME_MAX", len(name), len(got))
		}
		if other, ok := seen[got]; ok {
			t.Errorf("cFileName(%.20q...) = cFileName(%.20q...) = %.20q...", name, other, got)
		}
		seen[got] = name
	}
	if got := cFileName(&litmus.Test{Name: "MP+fence"}); got != "MP+fence" {
		t.Errorf("cFileName(MP+fence) = %q, want the name itself", got)
	}
}
