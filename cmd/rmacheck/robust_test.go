package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyConformFileForMatrix (issue 38 row 11): report --matrix on a --conform file
// with no records is bad input, not a matrix with a "?" column.
func TestEmptyConformFileForMatrix(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "matrix")
	code, _, stderr := runCLI("report", "--matrix", "--conform", empty, "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, "no conform records") {
		t.Errorf("exit %d, %s; want %d and no conform records", code, stderr, exitBadInput)
	}
	if _, err := os.Stat(filepath.Join(out, "README.md")); err == nil {
		t.Error("a matrix was written")
	}
}

// TestLongFlagValuesAreCut (issue 38 row 19): a bad flag value is quoted cut to a
// readable length, however long it was (a 100 KB --sem was echoed whole, twice).
func TestLongFlagValuesAreCut(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for _, args := range [][]string{
		{"run", "--sem", long, "testdata/sb.lit"},
		{"run", "--hw", long, "testdata/sb.lit"},
		{"run", "-j", long, "testdata/sb.lit"},
	} {
		code, _, stderr := runCLI(args...)
		if code != exitBadInput {
			t.Errorf("%s: exit %d; want %d", args[1], code, exitBadInput)
		}
		if len(stderr) > 1000 || !strings.Contains(stderr, "(100000 bytes)") {
			t.Errorf("%s: %d bytes of error: %.300s", args[1], len(stderr), stderr)
		}
	}
}

// TestReportRefusesEditedRecord (issue 38 row 14): a conform record with an outcome the
// model forbids marked allowed is bad input (exit 2), not a finding (exit 1, which
// report keeps for a search stopped at --max-states).
func TestReportRefusesEditedRecord(t *testing.T) {
	code, stdout, stderr := runCLI("conform", "--runs", "50", "--json", "testdata/sb.lit")
	if code != exitOK {
		t.Fatalf("conform: exit %d\n%s", code, stderr)
	}
	edited := strings.Replace(stdout, `"values":{"0:r0":0,"1:r0":1}`, `"values":{"0:r0":7,"1:r0":7}`, 1)
	if edited == stdout {
		edited = strings.Replace(stdout, `"values":{"0:r0":1,"1:r0":0}`, `"values":{"0:r0":7,"1:r0":7}`, 1)
	}
	path := filepath.Join(t.TempDir(), "edited.json")
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI("report", "--conform", path, "--out", t.TempDir(), "testdata/sb.lit")
	if code != exitBadInput || !strings.Contains(stderr, "marked allowed, but the model finds it forbidden") {
		t.Errorf("exit %d, %s; want %d and the record refused", code, stderr, exitBadInput)
	}
}

// TestReportOnDevZero (issue 25 row 3): report given /dev/zero as a test file refuses
// it at once with its name, whatever flags report has.
func TestReportOnDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	code, _, stderr := runCLI("report", "--out", t.TempDir(), "/dev/zero")
	if code != exitBadInput || !strings.Contains(stderr, "/dev/zero") {
		t.Errorf("exit %d, %s; want %d naming /dev/zero", code, stderr, exitBadInput)
	}
}
