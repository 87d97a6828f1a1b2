//go:build linux

package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestWriteFileKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.lit")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "new" {
		t.Errorf("content %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	fresh := filepath.Join(dir, "b.lit")
	if err := WriteFile(fresh, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Errorf("a new file has mode %v, want 0600", fi.Mode().Perm())
	}
	noTemps(t, dir)
}

// TestWriteFileThroughSymlink: a symbolic link stays a link, and its target is written.
func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "sub", "real.lit")
	os.MkdirAll(filepath.Dir(real), 0o755)
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.lit")
	if err := os.Symlink("sub/real.lit", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a regular file")
	}
	if got := read(t, real); got != "new" {
		t.Errorf("the link's target holds %q", got)
	}
	noTemps(t, dir)
	noTemps(t, filepath.Dir(real))
}

// TestWriteFileKeepsHardLinks: two names of one file stay one file.
func TestWriteFileKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.lit"), filepath.Join(dir, "b.lit")
	if err := os.WriteFile(a, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := WriteFile(a, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(t, b); got != "new" {
		t.Errorf("the other name holds %q: the hard link was split", got)
	}
	noTemps(t, dir)
}

// TestWriteFileKeepsOwner: as root, a file owned by someone else keeps its owner.
func TestWriteFileKeepsOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a file another owner")
	}
	path := filepath.Join(t.TempDir(), "a.lit")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 4242 || st.Gid != 4343 {
		t.Errorf("owner %d:%d, want 4242:4343", st.Uid, st.Gid)
	}
}

// TestBatchAllOrNothing: when one file of a batch cannot be written (the file size
// limit makes the second write fail, as a full disk would), no file changes and no
// temporary file is left; nor when the second file's directory is missing.
func TestBatchAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	md, html := filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html")
	for _, p := range []string{md, html} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := childBatch(dir)
	if !strings.HasPrefix(string(out), html+": cannot write: file too large") || strings.Contains(string(out), ".tmp") {
		t.Errorf("the batch under a 1 KiB file size limit: %v: %s; want an error naming %s and not the temporary file", err, out, html)
	}
	if read(t, md) != "old" || read(t, html) != "old" {
		t.Errorf("a failed batch changed the files: md %.10q, html %.10q", read(t, md), read(t, html))
	}
	noTemps(t, dir)

	var b Batch
	b.Add(md, []byte("new"), 0o644)
	b.Add(filepath.Join(dir, "missing", "x"), []byte("new"), 0o644)
	if err := b.Commit(); err == nil || read(t, md) != "old" {
		t.Errorf("a batch whose second file has no directory: %v, md %q", err, read(t, md))
	}
	noTemps(t, dir)
}

// childBatch runs TestMain's batch of report.md and report.html in dir, in a child
// process whose files may not grow past 1 KiB (RLIMIT_FSIZE would also stop go test's
// own log file here).
func childBatch(dir string) ([]byte, error) {
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 2 && exec "$0" -test.run='^$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD="+dir)
	return cmd.CombinedOutput()
}

// TestMain runs the child of TestBatchAllOrNothing when ATOMICFILE_CHILD names a
// directory: a batch of a small report.md and a large report.html.
func TestMain(m *testing.M) {
	if dir := os.Getenv("ATOMICFILE_CHILD"); dir != "" {
		var b Batch
		b.Add(filepath.Join(dir, "report.md"), []byte(strings.Repeat("m", 500)), 0o644)
		b.Add(filepath.Join(dir, "report.html"), []byte(strings.Repeat("h", 5000)), 0o644)
		if err := b.Commit(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestErrorNamesTheFile: a directory that refuses the temporary file gives an error
// naming the file asked for.
func TestErrorNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "plain")
	os.WriteFile(notDir, nil, 0o644)
	path := filepath.Join(notDir, "x.lit")
	err := WriteFile(path, []byte("x"), 0o644)
	if err == nil || err.Error() != path+": cannot write: not a directory" {
		t.Errorf("got %v", err)
	}
}

// TestBatchAllOrNothingHardLinked: when a file of the batch has another hard link (so it
// is rewritten in place) and the disk is full, no file changes. Its in-place write came
// after the other file's rename: a new report.md stood beside the old report.html.
func TestBatchAllOrNothingHardLinked(t *testing.T) {
	dir := t.TempDir()
	md, html := filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html")
	for _, p := range []string{md, html} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(html, filepath.Join(dir, "published.html")); err != nil {
		t.Fatal(err)
	}
	out, err := childBatch(dir)
	if err == nil || !strings.HasPrefix(string(out), html+": cannot write: file too large") {
		t.Errorf("the batch under a 1 KiB file size limit: %v: %s", err, out)
	}
	if read(t, md) != "old" || read(t, html) != "old" {
		t.Errorf("a failed batch changed the files: md %.10q, html %.10q", read(t, md), read(t, html))
	}
	noTemps(t, dir)
}

// TestOutputReplacesSymlink: an output batch replaces a symbolic link planted at an
// output path instead of writing through it (gen --out, --keep-c, report --out ...
// overwrote the link's target, any file the user could write).
func TestOutputReplacesSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	planted := filepath.Join(out, "SB.lit")
	if err := os.Symlink(victim, planted); err != nil {
		t.Fatal(err)
	}
	b := Batch{Outputs: true}
	b.Add(planted, []byte("generated"), 0o644)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if read(t, victim) != "precious" {
		t.Errorf("the link's target was overwritten: %q", read(t, victim))
	}
	if fi, err := os.Lstat(planted); err != nil || !fi.Mode().IsRegular() || read(t, planted) != "generated" {
		t.Errorf("the output is not a regular file with the new contents: %v %v", fi, err)
	}
	noTemps(t, out)
}

// TestOutputRemovesStaleTemps: the temporary files a killed run left beside an output
// path are removed by the next run that writes it, once they are old enough not to be
// another run's work in progress.
func TestOutputRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SB.lit")
	stale, fresh := filepath.Join(dir, ".SB.lit.tmp0123456789ab"), filepath.Join(dir, ".SB.lit.tmpba9876543210")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if err := WriteOutput(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary file was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary file (another run's) was removed")
	}
}

// TestDeadWritersTempsAreRemoved: the temporary files of a writer that was killed
// (SIGTERM or SIGKILL to gen --out) are removed by the next write into their
// directory, whatever their age and name, and those of a writer still running are
// not (issue 25 row 15: only files over ten minutes old beside the same name were).
func TestDeadWritersTempsAreRemoved(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Skip("no true to get the PID of a finished process")
	}
	dead := child.Process.Pid
	deadTemp := filepath.Join(dir, tempName("MP+fence.lit", dead, "0123abcd"))
	otherName := filepath.Join(dir, tempName("SB.lit", dead, "89abcdef"))
	liveTemp := filepath.Join(dir, tempName("SB.lit", os.Getppid(), "01234567"))
	for _, p := range []string{deadTemp, otherName, liveTemp} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteOutput(filepath.Join(dir, "SB.lit"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{deadTemp, otherName} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s: a killed writer's temporary file was left", filepath.Base(p))
		}
	}
	if _, err := os.Stat(liveTemp); err != nil {
		t.Error("the temporary file of a running writer (this test's parent) was removed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left in the directory: %v; want SB.lit and the running writer's file", entries)
	}
}
