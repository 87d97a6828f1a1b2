//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// TestConformCannotRunIsThree: a library that cannot run a test is status 3, with what
// to do: MPICH refusing more ranks than cores (--oversubscribe=false) names --oversubscribe, a test that hangs
// names --timeout, and no message carries a Go context error.
func TestConformCannotRunIsThree(t *testing.T) {
	needMPICH(t)
	// One rank more than cores (this is refused before anything runs).
	var cols, row []string
	for i := 0; i <= runtime.NumCPU(); i++ {
		cols = append(cols, "P"+string(rune('0'+i)))
		row = append(row, "fence W")
	}
	src := "MPI many\n{ win W allocate size=1; x = W@0[0]; }\n " + strings.Join(cols, " | ") + " ;\n " + strings.Join(row, " | ") + " ;\nexists (x=0)\n"
	many := filepath.Join(t.TempDir(), "many.lit")
	os.WriteFile(many, []byte(src), 0o644)
	code, _, stderr := runCLI("conform", "--target", "mpich", "--oversubscribe=false", many)
	if code != exitCannotRun || !strings.Contains(stderr, "busy-polls") || !strings.Contains(stderr, "--oversubscribe") {
		t.Errorf("more MPICH ranks than cores, --oversubscribe=false: exit %d, %s", code, stderr)
	}
	// by default they run, with a note (issue 39 item 7)
	code, _, stderr = runCLI("conform", "--target", "mpich", "--runs", "3", many)
	if code != exitOK || !strings.Contains(stderr, "note: many runs") || !strings.Contains(stderr, "share cores") {
		t.Errorf("more MPICH ranks than cores: exit %d, %s; want 0 and the note", code, stderr)
	}
	blocked := filepath.Join(t.TempDir(), "blocked.lit")
	os.WriteFile(blocked, []byte(blockedLit), 0o644)
	code, _, stderr = runCLI("conform", "--target", "mpich", "--include-erroneous", "--runs", "10", "--timeout", "3s", blocked, "testdata/sb.lit")
	if code != exitCannotRun || !strings.Contains(stderr, "did not finish within 3s") || !strings.Contains(stderr, "--timeout") || strings.Contains(stderr, "context") {
		t.Errorf("a hanging test: exit %d, %s", code, stderr)
	}
}

// TestConformKeepCUpFront: --keep-c DIR is created when missing; when it cannot be,
// conform fails once, before running anything (it failed once per test).
func TestConformKeepCUpFront(t *testing.T) {
	needMPICH(t)
	dir := filepath.Join(t.TempDir(), "new", "c")
	if code, _, stderr := runCLI("conform", "--target", "mpich", "--runs", "100", "--keep-c", dir, "testdata/sb.lit"); code != 0 {
		skipIfStarved(t, code, stderr)
		t.Fatalf("--keep-c into a missing directory: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "SB.c")); err != nil {
		t.Errorf("the C was not kept: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	code, stdout, stderr := runCLI("conform", "--target", "mpich", "--runs", "100", "--keep-c", filepath.Join(file, "c"), "testdata/sb.lit", "testdata/sb.lit")
	if code != exitBadInput || strings.Count(stderr, "rmacheck:") != 1 || !strings.Contains(stderr, "--keep-c") || stdout != "" {
		t.Errorf("--keep-c under a regular file: exit %d, stdout %q, stderr %q; want one message up front and 2", code, stdout, stderr)
	}
}

// writeMPLit writes MP+put+fence16, put/fence on an allocate window: a test that needs
// no shared memory, so it runs across nodes.
func writeMPLit(t *testing.T) string {
	t.Helper()
	mp := filepath.Join(t.TempDir(), "mp.lit")
	os.WriteFile(mp, []byte("MPI MP+put+fence16\n{ win W allocate size=2; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\n | r0 = load x ;\nexists (1:r0=0)\n"), 0o644)
	return mp
}

// TestConformLauncherAndHostfile: --hostfile (naming localhost twice) and --launcher
// (a wrapper script) start the ranks; the placement is in the text and the JSON. With
// every rank on a node of its own (the wrapper sets RMACHECK_ONE_RANK_PER_NODE=1), a
// test that needs shared memory is skipped with the reason, and one that does not runs
// with MPI_Barrier between iterations.
func TestConformLauncherAndHostfile(t *testing.T) {
	needMPICH(t)
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts")
	os.WriteFile(hosts, []byte("localhost\nlocalhost\n"), 0o644)
	for target, flag := range map[string]string{"mpich": "mpiexec.mpich -f ", "openmpi": "--mca osc ^rdma --hostfile "} {
		if _, err := exec.LookPath("mpiexec." + target); err != nil {
			continue
		}
		code, stdout, stderr := runCLI("conform", "--target", target, "--runs", "2000", "--hostfile", hosts, "testdata/sb.lit")
		skipIfStarved(t, code, stderr)
		if code != 0 || !strings.Contains(stdout, "Placement 2 ranks on 1 node (") || !strings.Contains(stdout, flag+hosts+" -n 2\n") {
			t.Errorf("%s --hostfile: exit %d\n%s%s", target, code, stdout, stderr)
		}
	}

	log := filepath.Join(dir, "launched")
	wrapper := filepath.Join(dir, "launch.sh")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\nRMACHECK_ONE_RANK_PER_NODE=1 exec mpiexec.mpich \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	mp := writeMPLit(t)
	code, stdout, stderr := runCLI("conform", "--target", "mpich", "--runs", "500", "--json", "--launcher", wrapper+" -envall", "testdata/sb.lit", mp)
	if code != 0 {
		skipIfStarved(t, code, stderr)
		t.Fatalf("--launcher: exit %d\n%s%s", code, stdout, stderr)
	}
	recs := conformRecords(t, stdout)
	if len(recs) != 2 {
		t.Fatalf("%d records:\n%s", len(recs), stdout)
	}
	sb, mpr := recs[0], recs[1]
	if !strings.Contains(sb.Skipped, "needs memory shared by all ranks (window W is allocate_shared)") || sb.Placement == nil || sb.Placement.Nodes != 2 {
		t.Errorf("SB across 2 nodes: skipped %q, placement %+v", sb.Skipped, sb.Placement)
	}
	if mpr.Skipped != "" || mpr.Runs != 500 || mpr.NonConforming != 0 || mpr.Placement == nil || mpr.Placement.Nodes != 2 ||
		len(mpr.Placement.Hosts) != 2 || mpr.Placement.Launcher != wrapper+" -envall -n 2" {
		t.Errorf("MP across 2 nodes: %+v, placement %+v", mpr, mpr.Placement)
	}
	if b, _ := os.ReadFile(log); strings.Count(string(b), "-envall -n 2 ") != 2 {
		t.Errorf("the wrapper was called with:\n%s", b)
	}
	if code, _, stderr := runCLI("conform", "--target", "mpich", "--launcher", wrapper, "--hostfile", hosts, "testdata/sb.lit"); code != exitBadInput {
		t.Errorf("--launcher with --hostfile: exit %d, %s", code, stderr)
	}
}

// TestConformExitMeansOneThingOnEveryTarget: one meaning per exit status, whatever the
// target (issue 25 rows 11, 12, 18). A reference run that deadlocks is 3, as an MPI
// library's timeout is (it was 1); a temporary directory or --keep-c file that cannot be
// written is an I/O error, 2 (it was 1, as if NON-CONFORMING); a window too large for
// the C program is refused, 2 (it allocated 8 GB a rank on every run).
func TestConformExitMeansOneThingOnEveryTarget(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deadlock := write("dl.lit", "MPI dl\n{ win W allocate size=1; }\n P0 | P1 ;\n r0 = recv 1 | r0 = recv 0 ;\nexists (0:r0=0)\n")
	big := write("big.lit", "MPI big\n{ win W allocate size=1000000000; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\n put x 1 | ;\n fence W | fence W ;\nexists (x=1)\n")
	sb := "testdata/sb.lit"
	keep := filepath.Join(dir, "keep")
	if err := os.MkdirAll(filepath.Join(keep, "SB.c"), 0o755); err != nil { // a directory where SB.c goes
		t.Fatal(err)
	}
	code, _, stderr := runCLI("conform", "--target", "reference", "--include-erroneous", "--runs", "10", deadlock)
	if code != exitCannotRun || !strings.Contains(stderr, "deadlock") {
		t.Errorf("reference, deadlocking test: exit %d, %s", code, stderr)
	}
	needMPICH(t)
	code, _, stderr = runCLI("conform", "--target", "mpich", "--runs", "10", big)
	if code != exitBadInput || !strings.Contains(stderr, "--max-window-bytes") {
		t.Errorf("mpich, an 8 GB window: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCLI("conform", "--target", "mpich", "--runs", "10", "--keep-c", keep, sb)
	if code != exitBadInput || !strings.Contains(stderr, "cannot write") {
		t.Errorf("mpich, --keep-c over a directory: exit %d, %s", code, stderr)
	}
	dupA := write("a.lit", "MPI dup\n{ win W allocate size=1; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\n fence W | fence W ;\nexists (x=0)\n")
	dupB := write("b.lit", "MPI dup\n{ win W allocate size=1; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\nexists (x=0)\n")
	code, _, stderr = runCLI("conform", "--target", "mpich", "--runs", "10", "--keep-c", keep, dupA, dupB)
	if code != exitBadInput || !strings.Contains(stderr, "would overwrite each other") {
		t.Errorf("mpich, --keep-c with two tests named dup: exit %d, %s", code, stderr)
	}
	t.Setenv("TMPDIR", filepath.Join(dir, "nonexistent"))
	code, _, stderr = runCLI("conform", "--target", "mpich", "--runs", "10", sb)
	if code != exitBadInput || !strings.Contains(stderr, "nonexistent") {
		t.Errorf("mpich, TMPDIR missing: exit %d, %s", code, stderr)
	}
}

// TestConformRecordsEveryRun: with --json every run is a record, one that failed or
// was refused too, with its status and error from the error's type (reports read the
// records, not conform's standard error).
func TestConformRecordsEveryRun(t *testing.T) {
	dir := t.TempDir()
	deadlock := filepath.Join(dir, "dl.lit")
	os.WriteFile(deadlock, []byte("MPI dl\n{ win W allocate size=1; }\n P0 | P1 ;\n r0 = recv 1 | r0 = recv 0 ;\nexists (0:r0=0)\n"), 0o644)
	many := filepath.Join(dir, "many.lit") // one MPICH rank more than cores: refused under --oversubscribe=false
	var cols, row []string
	for i := 0; i <= runtime.NumCPU(); i++ {
		cols = append(cols, "P"+string(rune('0'+i)))
		row = append(row, "fence W")
	}
	os.WriteFile(many, []byte("MPI many\n{ win W allocate size=1; x = W@0[0]; }\n "+strings.Join(cols, " | ")+" ;\n "+strings.Join(row, " | ")+" ;\nexists (x=0)\n"), 0o644)
	tests := []struct {
		name, target string
		files        []string // after the flags: --oversubscribe=false refuses many
		want         []conform.Status
		error        string // in the first record's error
	}{
		{"reference deadlock", "reference", []string{deadlock, "testdata/sb.lit"}, []conform.Status{conform.StatusFailed, conform.StatusOK}, "deadlock"},
		{"mpich refusal", "mpich", []string{"--oversubscribe=false", many}, []conform.Status{conform.StatusRefused}, "busy-polls: refusing to run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.target == "mpich" {
				needMPICH(t)
			}
			_, stdout, stderr := runCLI(append([]string{"conform", "--target", tt.target, "--json", "--include-erroneous", "--runs", "100"}, tt.files...)...)
			var got []conform.Status
			var first record.Conform
			for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var r record.Conform
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("%v: %q\n%s", err, line, stderr)
				}
				if i == 0 {
					first = r
				}
				got = append(got, r.Status)
			}
			if len(got) != len(tt.want) || got[0] != tt.want[0] || !strings.Contains(first.Error, tt.error) || first.Preset != "mpi-4.1" {
				t.Fatalf("statuses %v (want %v), first record %+v\n%s", got, tt.want, first, stderr)
			}
			if len(got) > 1 && (got[1] == conform.StatusFailed || got[1] == conform.StatusRefused) {
				t.Errorf("SB on the reference runtime: %v\n%s", got[1], stderr)
			}
		})
	}
}
