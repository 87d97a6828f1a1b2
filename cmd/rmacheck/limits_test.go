package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInputSizeLimit: check refuses /dev/zero and a 200 MB file at once, with one
// FILE: line each (they used to be read whole: /dev/zero forever); --max-file-size
// moves the limit both ways and refuses a size that is not one.
func TestInputSizeLimit(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.lit")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	args := []string{"check", big}
	if _, err := os.Stat("/dev/zero"); err == nil {
		args = append(args, "/dev/zero")
	}
	done := make(chan struct{})
	var code int
	var stderr string
	go func() { code, _, stderr = runCLI(args...); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("check of a 200 MB file and /dev/zero did not return")
	}
	want := big + ": larger than 16MiB, the limit on an input file (rmacheck --max-file-size raises it)\n"
	if len(args) == 3 {
		want += "/dev/zero: larger than 16MiB, the limit on an input file (rmacheck --max-file-size raises it)\n"
	}
	want += "checked " + string(rune('0'+len(args)-1)) + " files, " + string(rune('0'+len(args)-1)) + " bad\n"
	if code != 2 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and\n%s", code, stderr, want)
	}
	if code, _, stderr := runCLI("--max-file-size", "100", "check", "testdata/good.lit"); code != 2 || !strings.Contains(stderr, "larger than 100B") {
		t.Errorf("--max-file-size 100: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI("check", "--max-file-size", "1GiB", "testdata/good.lit"); code != 0 {
		t.Errorf("--max-file-size 1GiB: exit %d, %s", code, stderr)
	}
	for _, bad := range []string{"0", "-3", "12XB", "lots"} {
		if code, _, stderr := runCLI("check", "--max-file-size", bad, "testdata/good.lit"); code != 2 || !strings.Contains(stderr, "expected a positive size") {
			t.Errorf("--max-file-size %s: exit %d, %s", bad, code, stderr)
		}
	}
}
