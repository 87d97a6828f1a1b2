package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKnownFindingsRead: the status file embedded in the binary reads, so conform
// can name known findings (knownFindings gives none when it does not).
func TestKnownFindingsRead(t *testing.T) {
	u := knownFindings()
	if u == nil || len(u.Findings) == 0 {
		t.Fatal("the embedded reports/upstream/status.json does not read")
	}
}

// TestConformSaysKnown: a NON-CONFORMING result of a recorded finding's test on its
// family, on a release before the fix, says which finding on its result lines (on
// standard error with --json, whose standard output is records); on the release
// with the fix, or for another test, it says nothing.
func TestConformSaysKnown(t *testing.T) {
	dir := t.TempDir()
	sb, err := os.ReadFile("testdata/sb.lit")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(sb), "\n")
	tests := []struct {
		library, test, want string
	}{
		{"MPICH Version:\t4.0.2", "MP+put+fence", "known: pmodels/mpich#6140, fixed in MPICH 4.0.3"},
		{"MPICH Version:\t4.0.3", "MP+put+fence", ""},
		{"MPICH Version:\t5.0.2", "SB+sync", "known: mpich-win-sync (draft reports/upstream/mpich-win-sync.md), no fix released"},
		{"MPICH Version:\t4.0.2", "SB", ""},
	}
	for i, tt := range tests {
		prefix := filepath.Join(dir, strings.Fields(tt.library)[2]+"-"+tt.test)
		fakeInstall(t, prefix, tt.library)
		file := filepath.Join(dir, tt.test+".lit")
		os.WriteFile(file, []byte("MPI "+tt.test+"\n"+body), 0o644)
		args := []string{"conform", "--mpi", prefix, "--env", "FAKE_OUTCOMES=0,1;2,2", "--runs", "20", file}
		code, stdout, stderr := runCLI(args...)
		if code != exitFailed {
			t.Fatalf("%d: conform: exit %d\n%s%s", i, code, stdout, stderr)
		}
		line, _, _ := strings.Cut(stdout, "\n")
		if tt.want == "" && strings.Contains(stdout+stderr, "known:") || tt.want != "" && !strings.HasSuffix(line, "(NON-CONFORMING) ("+tt.want+")") {
			t.Errorf("%d: %s on %s: the result's line is %q, want the note %q", i, tt.test, tt.library, line, tt.want)
		}
		_, _, stderr = runCLI(append(args, "--json")...)
		if got := strings.Contains(stderr, "NON-CONFORMING, "+tt.want); tt.want != "" && !got {
			t.Errorf("%d: with --json, standard error lacks the note %q:\n%s", i, tt.want, stderr)
		}
	}
}
