package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportMatrix: the records of two conform runs of the fake MPI install, one per
// transport, make a matrix whose row is the test a forbidden outcome showed on in one
// of them, a column per transport.
func TestReportMatrix(t *testing.T) {
	dir := t.TempDir()
	for tr, outcomes := range map[string]string{"shm": "0,1", "net": "0,1;2,2"} {
		code, stdout, stderr := runCLI("conform", "--mpi", fakeMPI, "--transport", tr, "--env", "FAKE_OUTCOMES="+outcomes, "--runs", "40", "--json", "testdata/sb.lit")
		if code != 0 && code != exitFailed {
			t.Fatalf("conform over %s: exit %d\n%s", tr, code, stderr)
		}
		os.WriteFile(filepath.Join(dir, tr+".json"), []byte(stdout), 0o644)
	}
	out := filepath.Join(dir, "matrix")
	code, _, stderr := runCLI("report", "--matrix", "--out", out, "--conform", filepath.Join(dir, "shm.json"), "--conform", filepath.Join(dir, "net.json"))
	if code != 0 {
		t.Fatalf("report --matrix: exit %d, %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, want := range []string{"| test | Fake MPI v9.9 over shm | Fake MPI v9.9 over net |", "| `testdata/sb.lit` | ok 40 | **NON-CONFORMING** 1/40 |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the matrix lacks %q:\n%s", want, page)
		}
	}
	if code, _, stderr := runCLI("report", "--matrix", "--out", out, "testdata/sb.lit"); code != exitBadInput || !strings.Contains(stderr, "--matrix takes no files") {
		t.Errorf("--matrix with files: exit %d, %s", code, stderr)
	}
}
