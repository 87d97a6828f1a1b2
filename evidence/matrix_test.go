package evidence

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

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

// matrixRecord is a synthetic record of a test on one library version over one
// transport.
func matrixRecord(fam conform.Family, version, transport, file string, st conform.Status, runs, bad int, msg string) record.Conform {
	return record.Conform{Test: strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".lit"), File: file,
		Target: conform.TargetInfo{Kind: conform.KindMPI, Family: fam, Version: version, Transport: transport,
			Prefix: "/opt/" + strings.ReplaceAll(strings.ToLower(version), " ", "-"), Launcher: "mpiexec"},
		Status: st, Runs: runs, NonConforming: bad, Error: msg, TimeS: float64(runs) / 100}
}

// versionsMatrix: three MPICH versions (4.0.10 sorts after 4.0.3, though it comes
// first) over shm and one over net, and two Open MPI versions, with a fix, a
// regression, and verdicts that must not be compared (another family, another
// transport, a skipped run, a run that failed on a loaded machine).
func versionsMatrix() []MatrixColumn {
	const nc, ok, skip, failed = conform.StatusNonConforming, conform.StatusOK, conform.StatusSkipped, conform.StatusFailed
	m, o := conform.MPICH, conform.OpenMPI
	return MatrixColumns([]record.Conform{
		matrixRecord(m, "MPICH 4.0.10", "shm", "fixed.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.10", "shm", "regressed.lit", nc, 100, 7, ""),
		matrixRecord(m, "MPICH 4.0.10", "shm", "skipped-between.lit", nc, 100, 3, ""),
		matrixRecord(m, "MPICH 4.0.10", "shm", "loaded.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "fixed.lit", nc, 100, 100, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "regressed.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "skipped-between.lit", nc, 100, 5, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "loaded.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "bench/generated/MP+fence+alloc+local.lit", nc, 50, 2, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "bench/generated/MP+fence+shared+remote.lit", nc, 50, 1, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "bench/generated/SB+lock+alloc+local.lit", ok, 50, 0, ""),
		matrixRecord(m, "MPICH 4.0.3", "shm", "fixed.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.3", "shm", "regressed.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.2", "shm", "hung.lit", ok, 100, 0, ""),
		matrixRecord(m, "MPICH 4.0.3", "shm", "hung.lit", failed, 0, 0, "MPICH could not run the test: the run did not finish within 30s; --timeout raises the bound"),
		matrixRecord(m, "MPICH 4.0.3", "shm", "skipped-between.lit", skip, 0, 0, ""),
		matrixRecord(m, "MPICH 4.0.3", "shm", "loaded.lit", failed, 0, 0, "MPICH could not run the test: the run did not finish within 30s on a loaded machine (tasks waited for a CPU 90% of the last 10 s); --timeout raises the bound"),
		matrixRecord(m, "MPICH 4.0.3", "net", "fixed.lit", nc, 50, 1, ""),
		matrixRecord(o, "Open MPI 4.1.4", "shm", "fixed.lit", ok, 100, 0, ""),
		matrixRecord(o, "Open MPI 4.1.4", "shm", "pscw.lit", failed, 0, 0, "Open MPI could not run the test: the run did not finish within 30s; --timeout raises the bound"),
		matrixRecord(o, "Open MPI 5.0.11", "shm", "fixed.lit", ok, 100, 0, ""),
		matrixRecord(o, "Open MPI 5.0.11", "shm", "pscw.lit", failed, 0, 0, "Open MPI could not run the test: the run did not finish within 30s; --timeout raises the bound"),
	})
}

// TestMatrixChanges: a test that conforms on a later version of a family where it
// did not on the version before is a fix there; the other way round a regression;
// a skipped run is passed over (the versions either side are compared), and a run
// that failed on a loaded machine, another transport or another family never count.
func TestMatrixChanges(t *testing.T) {
	cols := versionsMatrix()
	var names []string
	for _, c := range cols {
		names = append(names, c.name())
	}
	wantNames := []string{"MPICH 4.0.2 over shm", "MPICH 4.0.3 over shm", "MPICH 4.0.3 over net", "MPICH 4.0.10 over shm",
		"Open MPI 4.1.4 over shm", "Open MPI 5.0.11 over shm"}
	if d := gocmp.Diff(wantNames, names); d != "" {
		t.Fatalf("columns (-want +got):\n%s", d)
	}
	type change struct{ Kind, File, From, To string }
	var got []change
	for _, ch := range MatrixChanges(cols) {
		got = append(got, change{ch.Kind(), ch.File, cols[ch.From].name(), cols[ch.To].name()})
	}
	want := []change{
		{"fix", "fixed.lit", "MPICH 4.0.2 over shm", "MPICH 4.0.3 over shm"},
		{"regression (a hang)", "hung.lit", "MPICH 4.0.2 over shm", "MPICH 4.0.3 over shm"},
		{"regression", "regressed.lit", "MPICH 4.0.3 over shm", "MPICH 4.0.10 over shm"},
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
}

// TestMatrixGolden: the page of versionsMatrix, with its Columns, Changes, rows
// (NON-CONFORMING first) and the generated family's table (go test -update rewrites it).
func TestMatrixGolden(t *testing.T) {
	checkGolden(t, "matrix.md.golden", string(Matrix("Versions", versionsMatrix())))
}

// TestLibraryNamesEscaped: a library's name (its MPI_Get_library_version, any text)
// goes into the matrix and the report as text: a "|" does not split a table cell and
// HTML in it is not markup (issue 38 row 17).
func TestLibraryNamesEscaped(t *testing.T) {
	const evil = "Evil | MPI <script>alert(1)</script>"
	col := MatrixColumn{{File: "a.lit", Target: conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: evil},
		Status: conform.StatusNonConforming, Runs: 10, NonConforming: 1}}
	matrix := string(Matrix("M", []MatrixColumn{col}))
	if strings.Contains(matrix, "<script>") || !strings.Contains(matrix, `Evil \| MPI \<script\>alert(1)\</script\>`) {
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
