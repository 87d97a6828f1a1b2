package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMatrixRecords writes DIR/shm.json and DIR/net.json: conform --json records of
// the fake MPI install over each transport, SB forbidden-outcome-free over shm and with
// a forbidden outcome (2,2) over net.
func fakeMatrixRecords(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	for tr, outcomes := range map[string]string{"shm": "0,1", "net": "0,1;2,2"} {
		code, stdout, stderr := runCLI("conform", "--mpi", fakeMPI, "--transport", tr, "--env", "FAKE_OUTCOMES="+outcomes, "--runs", "40", "--json", "testdata/sb.lit")
		if code != 0 && code != exitFailed {
			t.Fatalf("conform over %s: exit %d\n%s", tr, code, stderr)
		}
		os.WriteFile(filepath.Join(dir, tr+".json"), []byte(stdout), 0o644)
	}
	return dir
}

// TestReportMatrix: the records of two conform runs of the fake MPI install, one per
// transport, make a matrix whose row is the test a forbidden outcome showed on in one
// of them, a column per transport, each naming the install.
func TestReportMatrix(t *testing.T) {
	dir := fakeMatrixRecords(t)
	out := filepath.Join(dir, "matrix")
	code, _, stderr := runCLI("report", "--matrix", "--out", out, "--conform", filepath.Join(dir, "shm.json"), "--conform", filepath.Join(dir, "net.json"))
	if code != 0 {
		t.Fatalf("report --matrix: exit %d, %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(out, "README.md"))
	prefix, _ := filepath.Abs(fakeMPI)
	for _, want := range []string{"| test | Fake MPI v9.9 over shm | Fake MPI v9.9 over net |",
		"| Fake MPI v9.9 over shm | MPICH | Fake MPI v9.9 | shm | `" + prefix + "` |",
		"| `testdata/sb.lit` | ok 40 | **NON-CONFORMING** 1/40 |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the matrix lacks %q:\n%s", want, page)
		}
	}
	if code, _, stderr := runCLI("report", "--matrix", "--out", out, "testdata/sb.lit"); code != exitBadInput || !strings.Contains(stderr, "--matrix takes no files") {
		t.Errorf("--matrix with files: exit %d, %s", code, stderr)
	}
}

// TestReportMatrixVersions: with --upstream, report --matrix fills the Versions block of
// each draft beside the status file from the records (the finding reproduces over net
// only, on the one release), keeps the draft's own text, and refuses a block that names
// no finding.
func TestReportMatrixVersions(t *testing.T) {
	dir := fakeMatrixRecords(t)
	status := filepath.Join(dir, "upstream", "status.json")
	os.MkdirAll(filepath.Dir(status), 0o755)
	os.WriteFile(status, []byte(`{"read": "2026-12-06", "findings": [{"id": "sb-net", "target": "mpich", "kind": "nonconforming",
		"tests": ["SB"], "breaks": "R1", "status": "not reported"}]}`), 0o644)
	draft := filepath.Join(dir, "upstream", "sb-net.md")
	os.WriteFile(draft, []byte("# SB\n\n## Versions\n\n<!-- versions of sb-net -->\n<!-- end of versions -->\n\nSource: read.\n"), 0o644)
	args := []string{"report", "--matrix", "--out", filepath.Join(dir, "matrix"), "--upstream", status,
		"--conform", filepath.Join(dir, "shm.json"), "--conform", filepath.Join(dir, "net.json")}
	if code, stdout, stderr := runCLI(args...); code != 0 || !strings.Contains(stdout, "wrote "+draft) {
		t.Fatalf("report --matrix --upstream: exit %d, %s%s", code, stdout, stderr)
	}
	page, _ := os.ReadFile(draft)
	for _, want := range []string{"| Fake MPI v9.9 | shm | no | SB: ok 40/40 |\n| Fake MPI v9.9 | net | **yes** | SB: NON-CONFORMING 1/40 |",
		"**Reproduces on Fake MPI v9.9, the newest release in the matrix with a verdict on it.**", "Source: read.\n"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the draft lacks %q:\n%s", want, page)
		}
	}
	os.WriteFile(draft, []byte("<!-- versions of other -->\n<!-- end of versions -->\n"), 0o644)
	if code, _, stderr := runCLI(args...); code != exitBadInput || !strings.Contains(stderr, "versions of other") {
		t.Errorf("a block naming no finding: exit %d, %s", code, stderr)
	}
}

// fakeInstall copies the fake MPI install (conform/testdata/fakempi) to a prefix of
// its own whose library says it is `library` (its MPI_Get_library_version line).
func fakeInstall(t *testing.T, prefix, library string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"mpicc", "mpiexec"} {
		src, err := os.ReadFile(filepath.Join(fakeMPI, "bin", tool))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(src), "Fake MPI v9.9, a test double", library)
		if err := os.WriteFile(filepath.Join(prefix, "bin", tool), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoInstallsOfOneFamily: two installs of one family (two fake MPICH prefixes
// whose libraries say different versions) are two targets: in conform's records, two
// columns of the matrix (even from one file), and two rows of a report's Findings,
// each with its own version, prefix and launcher, and two columns of its summary.
func TestTwoInstallsOfOneFamily(t *testing.T) {
	dir := t.TempDir()
	installs := []struct{ prefix, version string }{{filepath.Join(dir, "mpich-a"), "Fake MPI v1.0"}, {filepath.Join(dir, "mpich-b"), "Fake MPI v2.0"}}
	var all []byte
	for i, in := range installs {
		fakeInstall(t, in.prefix, in.version+", a build of its own")
		outcomes := []string{"0,1", "0,1;2,2"}[i]
		code, stdout, stderr := runCLI("conform", "--mpi", in.prefix, "--env", "FAKE_OUTCOMES="+outcomes, "--runs", "40", "--json", "testdata/sb.lit")
		if code != 0 && code != exitFailed {
			t.Fatalf("conform --mpi %s: exit %d\n%s", in.prefix, code, stderr)
		}
		recs := conformRecords(t, stdout)
		if len(recs) != 1 || recs[0].Target.Version != in.version || recs[0].Target.Prefix != in.prefix ||
			recs[0].Target.Launcher != filepath.Join(in.prefix, "bin", "mpiexec") || recs[0].Target.Name() != "mpich" {
			t.Errorf("conform --mpi %s: records %+v", in.prefix, recs)
		}
		all = append(all, stdout...)
		os.WriteFile(filepath.Join(dir, filepath.Base(in.prefix)+".json"), []byte(stdout), 0o644)
	}
	both := filepath.Join(dir, "both.json")
	os.WriteFile(both, all, 0o644)

	out := filepath.Join(dir, "matrix")
	if code, _, stderr := runCLI("report", "--matrix", "--out", out, "--conform", both); code != 0 {
		t.Fatalf("report --matrix: exit %d, %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, want := range []string{"| test | Fake MPI v1.0 over shm | Fake MPI v2.0 over shm |",
		"| Fake MPI v1.0 over shm | MPICH | Fake MPI v1.0 | shm | `" + installs[0].prefix + "` |",
		"| Fake MPI v2.0 over shm | MPICH | Fake MPI v2.0 | shm | `" + installs[1].prefix + "` |",
		"| `testdata/sb.lit` | ok 40 | **NON-CONFORMING** 1/40 |",
		// the second version's forbidden outcome, where the first conformed
		"| **regression** in Fake MPI v2.0 over shm | `testdata/sb.lit` | Fake MPI v1.0 over shm: ok 40 | Fake MPI v2.0 over shm: **NON-CONFORMING** 1/40 |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the matrix of one file of two installs lacks %q:\n%s", want, page)
		}
	}

	rep := filepath.Join(dir, "report")
	code, _, stderr := runCLI("report", "testdata/sb.lit", "--out", rep, "--sem", "mpi-4.1", "--hw", "tso", "--date", "2026-12-01",
		"--conform", filepath.Join(dir, "mpich-a.json"), "--conform", filepath.Join(dir, "mpich-b.json"))
	if code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(rep, "report.md"))
	for _, in := range installs {
		row := "- **" + in.version + " at " + in.prefix + "**, run with `" + filepath.Join(in.prefix, "bin", "mpiexec") + " -n N`: of 1 runs"
		column := "mpich (" + in.version + ", at " + in.prefix + ")"
		if !strings.Contains(string(md), row) || !strings.Contains(string(md), column) {
			t.Errorf("report.md lacks the Findings row %q or the summary column %q:\n%s", row, column, md)
		}
	}
}
