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

// TestLibraryNamesEscaped: a library's name (its MPI_Get_library_version, any text)
// goes into the matrix and the report as text: a "|" does not split a table cell and
// HTML in it is not markup (issue 38 row 17).
func TestLibraryNamesEscaped(t *testing.T) {
	const evil = "Evil | MPI <script>alert(1)</script>"
	col := MatrixColumn{{File: "a.lit", Target: conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: evil},
		Status: conform.StatusNonConforming, Runs: 10, NonConforming: 1}}
	matrix := string(Matrix("M", []MatrixColumn{col}))
	if strings.Contains(matrix, "<script>") || !strings.Contains(matrix, `| test | Evil \| MPI \<script\>alert(1)\</script\> |`) {
		t.Errorf("the library's name is markup in the matrix:\n%s", matrix)
	}
	r := smallReport(t)
	for i := range r.Conform {
		if r.Conform[i].Target.Family == conform.MPICH {
			r.Conform[i].Target.Version = evil
		}
	}
	r.Probes[0].Probe.Library = evil
	if err := build(r, parseTests(t, "testdata/mp-post-start.lit", "testdata/sb.lit")); err != nil {
		t.Fatal(err)
	}
	md, page := string(r.Markdown()), string(r.HTML())
	for name, text := range map[string]string{"report.md": md, "report.html": page} {
		if strings.Contains(text, "<script>alert") {
			t.Errorf("%s: the library's name is markup", name)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, "Evil") && strings.Contains(strings.ReplaceAll(line, `\|`, ""), "Evil | MPI") {
			t.Errorf("report.md: a | in the library's name splits a cell: %s", line)
		}
	}
}
