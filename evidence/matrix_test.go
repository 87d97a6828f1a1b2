package evidence

import (
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// TestMatrix: a test with a finding in one column is a row with every column's cell;
// a test that is ok everywhere is only counted; a failed run is a finding.
func TestMatrix(t *testing.T) {
	rec := func(file, transport string, st conform.Status, runs, bad int, msg string) record.Conform {
		return record.Conform{File: file, Target: conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: "MPICH 4.0.2", Transport: transport},
			Status: st, Runs: runs, NonConforming: bad, Error: msg}
	}
	shm := MatrixColumn{rec("a.lit", "shm", conform.StatusNonConforming, 1000, 3, ""), rec("b.lit", "shm", conform.StatusOK, 1000, 0, ""),
		rec("c.lit", "shm", conform.StatusOK, 1000, 0, "")}
	net := MatrixColumn{rec("a.lit", "net", conform.StatusOK, 200, 0, ""), rec("b.lit", "net", conform.StatusSkipped, 0, 0, ""),
		rec("c.lit", "net", conform.StatusFailed, 0, 0, "MPICH could not run the test: the run did not finish within 30s; --timeout raises the bound")}
	got := string(Matrix("M", []MatrixColumn{shm, net}))
	for _, want := range []string{
		"| test | MPICH 4.0.2 over shm | MPICH 4.0.2 over net |",
		"| `a.lit` | **NON-CONFORMING** 3/1000 | ok 200 |",
		"| `c.lit` | ok 1000 | **failed**: MPICH could not run the test: the run did not finish within 30s |",
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
