package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/output"
)

// TestMatrix: a test with a finding in one column is a row with every column's cell;
// a test that is ok everywhere is only counted; a failed run from the log is a finding.
func TestMatrix(t *testing.T) {
	log := filepath.Join(t.TempDir(), "mpich-net.log")
	os.WriteFile(log, []byte("rmacheck: c.lit (mpi-4.1): c: MPICH could not run the test: the run did not finish within 30s; --timeout raises the bound\n"), 0o644)
	errs, err := ReadConformLog(log)
	if err != nil {
		t.Fatal(err)
	}
	shm := MatrixColumn{Records: []output.ConformRecord{
		{File: "a.lit", Target: "mpich", Library: "MPICH 4.0.2", Transport: "shm", Runs: 1000, NonConforming: 3},
		{File: "b.lit", Target: "mpich", Library: "MPICH 4.0.2", Transport: "shm", Runs: 1000},
		{File: "c.lit", Target: "mpich", Library: "MPICH 4.0.2", Transport: "shm", Runs: 1000},
	}}
	net := MatrixColumn{Records: []output.ConformRecord{
		{File: "a.lit", Target: "mpich", Library: "MPICH 4.0.2", Transport: "net", Runs: 200},
		{File: "b.lit", Target: "mpich", Library: "MPICH 4.0.2", Transport: "net", Skipped: "skipped: needs shared memory"},
	}, Errors: errs}
	got := string(Matrix("M", []MatrixColumn{shm, net}))
	for _, want := range []string{
		"| test | MPICH 4.0.2 over shm | MPICH 4.0.2 over net |",
		"| `a.lit` | **NON-CONFORMING** 3/1000 | ok 200 |",
		"| `c.lit` | ok 1000 | **failed**: c: MPICH could not run the test: the run did not finish within 30s |",
		"2 of 3 test files have a finding in some column; the other 1 are ok",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the matrix lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "`b.lit`") {
		t.Errorf("a test with no finding is a row:\n%s", got)
	}
}
