//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runLimited runs rmacheck ARGS in a child process (this test binary as main, see
// TestMain) whose files may not grow past blocks x 512 bytes (ulimit -f): writes past
// that fail with EFBIG, as on a full disk. (Setting the limit in the test process would
// also stop go test's own log file.)
func runLimited(t *testing.T, blocks int, args ...string) (code int, stderr string) {
	t.Helper()
	return runUlimit(t, fmt.Sprintf("-f %d", blocks), args...)
}

// runUlimit runs rmacheck ARGS in a child process under `ulimit LIMIT`.
func runUlimit(t *testing.T, limit string, args ...string) (code int, stderr string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-c", fmt.Sprintf(`ulimit %s && exec "$0" "$@"`, limit), os.Args[0]}, args...)...)
	cmd.Env = append(os.Environ(), "RMACHECK_AS_MAIN=1")
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}

// TestReportFullDiskKeepsOldReport: when the disk fills while the report is written,
// the old report.md and report.html stay as they were (os.WriteFile left a truncated
// report.md beside the old report.html), and the status is 2.
func TestReportFullDiskKeepsOldReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	if code, _, stderr := runCLI("report", "testdata/sb.lit", "--sem", "A", "--out", out, "--date", "2026-01-01"); code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	md, html := filepath.Join(out, "report.md"), filepath.Join(out, "report.html")
	oldMD, oldHTML := readString(t, md), readString(t, html)
	blocks := (len(oldMD) + 511) / 512 // report.md fits, report.html does not
	if len(oldHTML) < blocks*512+512 {
		t.Fatalf("report.html (%d bytes) is not larger than report.md (%d)", len(oldHTML), len(oldMD))
	}
	code, stderr := runLimited(t, blocks, "report", "testdata/sb.lit", "--sem", "A", "--out", out, "--date", "2026-01-02")
	if code != exitBadInput || !strings.Contains(stderr, html+": cannot write: file too large") {
		t.Errorf("report on a full disk: exit %d, %s", code, stderr)
	}
	if readString(t, md) != oldMD || readString(t, html) != oldHTML {
		t.Error("a report that failed to write changed the old report")
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 2 {
		t.Errorf("files left in %s: %v", out, entries)
	}
}

// TestFmtWriteLinks: fmt -w writes a symbolic link's target and leaves the link a
// link (it replaced the link by a regular file and left the target unformatted), and
// rewrites a file with two hard links as one file.
func TestFmtWriteLinks(t *testing.T) {
	ugly := readString(t, "testdata/ugly.lit")
	_, canonical, _ := runCLI("fmt", "testdata/ugly.lit")
	dir := t.TempDir()
	target := filepath.Join(dir, "target.lit")
	if err := os.WriteFile(target, []byte(ugly), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.lit")
	if err := os.Symlink("target.lit", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("fmt", "-w", link); code != 0 {
		t.Fatalf("fmt -w link: exit %d, %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("fmt -w replaced the symbolic link by a regular file")
	}
	if readString(t, target) != canonical {
		t.Error("fmt -w through a link left its target unformatted")
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode became %v", fi.Mode().Perm())
	}

	a, b := filepath.Join(dir, "a.lit"), filepath.Join(dir, "b.lit")
	if err := os.WriteFile(a, []byte(ugly), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Skip("no hard links:", err)
	}
	if code, _, stderr := runCLI("fmt", "-w", a); code != 0 {
		t.Fatalf("fmt -w a: exit %d, %s", code, stderr)
	}
	if readString(t, b) != canonical {
		t.Error("fmt -w split the hard link: the other name keeps the old text")
	}
}

// TestFmtWriteFailureNamesTheFile: when the new text cannot be written, the message
// names the .lit (it named the temporary file) and the file is unchanged.
func TestFmtWriteFailureNamesTheFile(t *testing.T) {
	ugly := readString(t, "testdata/ugly.lit")
	path := filepath.Join(t.TempDir(), "u.lit")
	if err := os.WriteFile(path, []byte(ugly), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := runLimited(t, 0, "fmt", "-w", path)
	if code != exitBadInput || stderr != path+": cannot write: file too large\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if readString(t, path) != ugly {
		t.Error("a failed fmt -w changed the file")
	}
	if os.Getuid() == 0 {
		return // root writes in read-only directories: the rest needs another user
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "u.lit")
	os.WriteFile(ro, []byte(ugly), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if code, _, stderr := runCLI("fmt", "-w", ro); code != exitBadInput || stderr != ro+": cannot write: permission denied\n" {
		t.Errorf("fmt -w in a read-only directory: exit %d, %q", code, stderr)
	}
}

// TestUnwritableStdoutFails: a command whose output cannot be written (/dev/full: every
// write fails with ENOSPC) says so and exits 2. It exited 0 with no message, so a script
// reading `run --json > full-disk/out.json` took an empty file for a result.
func TestUnwritableStdoutFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"run", "--json", "testdata/sb.lit"},
		{"run", "testdata/sb.lit"},
		{"check", "-v", "testdata/good.lit"},
		{"explain", "E-EPOCH"},
		{"layout", "testdata/align-contig.lit"},
		{"presets"},
		{"--help"},
		{"gen", "--shape", "SB"},
	} {
		var stderr strings.Builder
		code := run(args, full, &stderr)
		if code != exitBadInput || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("rmacheck %s > /dev/full: exit %d, stderr %q; want exit 2 naming the failed write", strings.Join(args, " "), code, stderr.String())
		}
	}
}

// TestAddressSpaceLimitStopsSearch: under an address-space limit (ulimit -v) a search
// that would outgrow it stops with the memory-bound message (status 1), even with a
// --max-memory above what the limit leaves. The runtime's fatal "out of memory" killed
// the process: the budget ignored RLIMIT_AS and the visited set's table growth asked for
// blocks it had not counted.
func TestAddressSpaceLimitStopsSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("grows a search to its memory bound")
	}
	for _, extra := range [][]string{nil, {"--max-memory", "300M"}} {
		// the 16-rank fence ring without the reduction (313 states with it)
		args := append([]string{"run", "-j", "2", "--no-reduce", "--sem", "mpi-4.1", "../../explorer/testdata/fence-ring-16.lit"}, extra...)
		code, stderr := runUlimit(t, "-v 2500000", args...)
		named := extra != nil || strings.Contains(stderr, "the address-space limit (ulimit -v) leaves room for")
		if code != exitFailed || strings.Contains(stderr, "fatal error") || !strings.Contains(stderr, "stopped: its states would pass the memory bound") || !named {
			t.Errorf("rmacheck %s under ulimit -v 2500000: exit %d, stderr:\n%.600s", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestFIFOInDirectoryIsSkipped: a named pipe called z.lit in a checked directory is
// skipped with a message (check and run opened it and waited forever for a writer);
// the directory's other files are still checked.
func TestFIFOInDirectoryIsSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.lit"), []byte(readString(t, "testdata/good.lit")), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "z.lit")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, cmd := range []string{"check", "run"} {
		code, stdout, stderr := runCLI(cmd, dir)
		if code != exitBadInput || !strings.Contains(stderr, fifo+": skipped: not a regular file (a named pipe)") {
			t.Errorf("%s DIR with a FIFO: exit %d, stderr %q", cmd, code, stderr)
		}
		if cmd == "run" && !strings.Contains(stdout, "1 test,") {
			t.Errorf("run DIR with a FIFO did not run the other file:\n%s", stdout)
		}
	}
}

// TestAddressSpaceFloor: at the documented floor (startFloor: 2 GiB for this cgo test
// binary) rmacheck starts and runs, and under it says at start that the limit is too
// small, naming the floor (issue 38 row 21: under 1.2-1.9 GB the process died in the
// Go runtime before main, with nothing said).
func TestAddressSpaceFloor(t *testing.T) {
	for range 3 {
		code, stderr := runUlimit(t, fmt.Sprintf("-v %d", startFloor>>10), "run", "-j", "2", "testdata/sb.lit")
		if code != exitOK || strings.Contains(stderr, "warning") {
			t.Fatalf("under ulimit -v of the floor (%d KiB): exit %d\n%.600s", startFloor>>10, code, stderr)
		}
	}
	var b strings.Builder
	warnAddressSpace(&b, startFloor-1<<20)
	if !strings.Contains(b.String(), "the address-space limit (ulimit -v) is") || !strings.Contains(b.String(), explorer.FormatBytes(startFloor)+" this build needs") {
		t.Errorf("under the floor: %q", b.String())
	}
	b.Reset()
	warnAddressSpace(&b, 0)
	warnAddressSpace(&b, startFloor)
	if b.Len() != 0 {
		t.Errorf("no limit, or the floor: %q", b.String())
	}
}
