package litmus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadFileRefusesLargeInputs: a file over the limit is refused with one
// "FILE: larger than ..." error, without reading it whole; /dev/zero (no size, no end)
// is refused after limit bytes instead of growing without bound.
func TestReadFileRefusesLargeInputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.lit")
	if err := os.WriteFile(path, bytes.Repeat([]byte("# x\n"), 300), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path, 1200); err != nil {
		t.Errorf("1200 bytes with a limit of 1200: %v", err)
	}
	_, err := ReadFile(path, 1024)
	if want := path + ": larger than 1KiB, the limit on an input file (rmacheck --max-file-size raises it)"; err == nil || err.Error() != want {
		t.Errorf("1200 bytes with a limit of 1 KiB: %v; want %q", err, want)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		done := make(chan error, 1)
		go func() { _, err := ReadFile("/dev/zero", 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 1MiB") {
				t.Errorf("/dev/zero: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("reading /dev/zero did not stop at the limit")
		}
	}
	if _, err := ReadAll("<stdin>", strings.NewReader(strings.Repeat("x", 11)), 10); err == nil || !strings.HasPrefix(err.Error(), "<stdin>: larger than 10B") {
		t.Errorf("11 bytes of a reader, limit 10: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.lit"), 0); err == nil || !strings.HasSuffix(err.Error(), ": cannot read: no such file or directory") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestLongTokenEchoIsCapped: a 1 MB garbage token is echoed as its first bytes and its
// length, not whole.
func TestLongTokenEchoIsCapped(t *testing.T) {
	src := "MPI t\n{ " + strings.Repeat("Z", 1<<20) + " }\n"
	_, err := Parse("g.lit", []byte(src))
	if err == nil {
		t.Fatal("garbage parsed")
	}
	msg := err.Error()
	if len(msg) > 1000 || !strings.Contains(msg, "ZZZZ...") || !strings.Contains(msg, " bytes)") {
		t.Errorf("the error is %d bytes long: %.300s", len(msg), msg)
	}
	if got := SizeString(16 << 20); got != "16MiB" {
		t.Errorf("SizeString(16 MiB) = %q", got)
	}
}

// TestNegativeSizeOneError: a negative window size is one error, not one more for
// every location in the window.
func TestNegativeSizeOneError(t *testing.T) {
	_, err := Parse("n.lit", []byte("MPI t\n{ win W allocate size=-1; x = W@0[0]; y = W@1[0]; }\n P0 | P1 ;\n r0 = load x | r0 = load y ;\nexists (0:r0=0)\n"))
	want := "n.lit:2:18: window W: negative size -1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v; want only %q", err, want)
	}
}
