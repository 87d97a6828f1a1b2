package conform

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestEndlessOutputIsStopped: a launcher that prints without end (and a compiler
// wrapper that does) is stopped once its output passes OutputCap, and the run is a
// RunError that says so, with the start and the end of the output; the process never
// holds more than the cap (it ran out of memory before).
func TestEndlessOutputIsStopped(t *testing.T) {
	lib, err := LibraryAt(fakePrefix(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	endless := filepath.Join(dir, "endless")
	if err := os.WriteFile(endless, []byte("#!/bin/sh\necho first line\nexec yes 'OUTCOME 1 0 0 and on and on'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := acceptance(t, "01-SB.lit")
	check := func(what string, err error) {
		t.Helper()
		var re *RunError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, "printed more than 16 MiB") || re.Test != "SB" ||
			!strings.Contains(re.Output, "first line") || !strings.Contains(re.Output, "and on and on") {
			t.Errorf("%s: %v; want a RunError of SB naming the cap, with the output's head and tail", what, err)
		}
		if re != nil && len(re.Output) > 16<<10 {
			t.Errorf("%s: the error holds %d bytes of output", what, len(re.Output))
		}
	}
	_, err = MPI{Lib: lib, Launch: LaunchOptions{Launcher: []string{endless}}}.Run(sb, mpi41(t), Options{Runs: 10, Seed: 1})
	check("an endless launcher", err)
	lib.CC = endless
	_, err = MPI{Lib: lib}.Run(sb, mpi41(t), Options{Runs: 10, Seed: 1})
	check("an endless compiler wrapper", err)
}
