package record

import (
	"bytes"
	"errors"
	"github.com/rmacheck/rmacheck/explorer"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestFailedConform: a run that gave no report is a record whose status and error
// come from the error's type, not from its text.
func TestFailedConform(t *testing.T) {
	lt := &litmus.Test{Name: "SB", File: "sb.lit"}
	sem, _ := spec.Preset(spec.DefaultPreset)
	target := conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: "MPICH 4.0.2", Transport: "shm", Launcher: "mpiexec.mpich"}
	refused := &conform.RunError{Test: "SB", Lib: "MPICH", Reason: "MPICH busy-polls: refusing to run 3 ranks on 2 cores", Hint: "--oversubscribe runs them anyway", Refused: true}
	crashed := &conform.RunError{Test: "SB", Lib: "Open MPI", Reason: "mpiexec.openmpi -n 2 SB: exit status 139", Output: "[vm] Signal code\n"}
	tests := []struct {
		name            string
		err             error
		status          conform.Status
		message, output string
	}{
		{"refused", refused, conform.StatusRefused, "MPICH could not run the test: MPICH busy-polls: refusing to run 3 ranks on 2 cores; --oversubscribe runs them anyway", ""},
		{"crashed", crashed, conform.StatusFailed, "Open MPI could not run the test: mpiexec.openmpi -n 2 SB: exit status 139", "[vm] Signal code"},
		{"wrapped", errors.Join(crashed), conform.StatusFailed, "Open MPI could not run the test: mpiexec.openmpi -n 2 SB: exit status 139", "[vm] Signal code"},
		// a refusal's words in an error of another kind do not make it one
		{"other", errors.New("SB: refusing to run: stopped after 10 states\nmore"), conform.StatusFailed, "refusing to run: stopped after 10 states", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := FailedConform(lt, sem, target, spec.TSO, 7, tt.err)
			if c.Target != target {
				t.Errorf("target %+v: want the target's", c.Target)
			}
			if c.Status != tt.status || c.Error != tt.message || c.Output != tt.output {
				t.Errorf("status %v, error %q, output %q; want %v, %q, %q", c.Status, c.Error, c.Output, tt.status, tt.message, tt.output)
			}
			if c.Test != "SB" || c.File != "sb.lit" || c.Preset != "mpi-4.1" || c.HW != spec.TSO || c.Seed != 7 || c.Format != ConformFormat {
				t.Errorf("record %+v", c)
			}
		})
	}
}

// TestConformRoundTrip: what WriteLine writes, ReadConform reads back the same, every
// status included; a record with an unknown status or hw is refused.
func TestConformRoundTrip(t *testing.T) {
	var recs []Conform
	for _, st := range []conform.Status{conform.StatusOK, conform.StatusNonConforming, conform.StatusSpinLimit,
		conform.StatusSkipped, conform.StatusFailed, conform.StatusRefused} {
		recs = append(recs, Conform{Format: ConformFormat, Test: "SB", Target: conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: "MPICH 4.0.2", Prefix: "/opt/mpich", Transport: "net", Launcher: "mpiexec"}, Preset: "A", HW: spec.SC, Status: st, Runs: 3, Positive: 1, Negative: 2,
			Histogram: []Bin{{Values: map[string]int64{"0:r0": 1}, Count: 3, Allowed: true}}, Unseen: []map[string]int64{}, Error: st.String()})
	}
	var buf bytes.Buffer
	for _, r := range recs {
		if err := WriteLine(&buf, r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "mpich.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadConform(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("read back (-written +read):\n%s", d)
	}
	for _, bad := range []string{`{"status":"fine"}`, `{"hw":"arm"}`} {
		if err := os.WriteFile(path, []byte(bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadConform(path); err == nil {
			t.Errorf("%s was read", bad)
		}
	}
}

// TestProbeRoundTrip: a probe's record reads back as written.
func TestProbeRoundTrip(t *testing.T) {
	pr := &conform.Probe{Target: conform.MPICH, Library: "MPICH Version: 4.0.2", Version: "4.0",
		Results: []conform.ProbeResult{{Topic: "alignment", Item: "MPI_Alloc_mem size=1 rank=0", Value: "address % 64 = 16", Verdict: "ok"}}}
	var buf bytes.Buffer
	if err := WriteProbe(&buf, pr); err != nil {
		t.Fatal(err)
	}
	got, err := ParseProbe("probe.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(pr, got); d != "" {
		t.Errorf("read back (-written +read):\n%s", d)
	}
	if _, err := ParseProbe("probe.json", []byte("[1]")); err == nil {
		t.Error("a JSON array was read as a probe")
	}
}

// TestConformRecordsAreChecked: a record no conform run writes is refused, naming the
// file and line (report accepted format 99, negative runs and counts that do not add
// up, and printed "ok").
func TestConformRecordsAreChecked(t *testing.T) {
	good := `{"format":1,"test":"SB","runs":5,"positive":1,"negative":4,"nonconforming":1,"histogram":[{"values":{"0:r0":1},"count":1,"allowed":false},{"values":{"0:r0":0},"count":4,"allowed":true}]}`
	for _, tc := range []struct{ line, want string }{
		{good, ""},
		{strings.Replace(good, `"format":1`, `"format":99`, 1), "record of format 99"},
		{strings.Replace(good, `"runs":5`, `"runs":-5`, 1), "negative counts"},
		{strings.Replace(good, `"runs":5`, `"runs":4`, 1), "the histogram counts 5 runs of 4"},
		{strings.Replace(good, `"count":4`, `"count":-4`, 1), "an outcome seen -4 times"},
		{strings.Replace(good, `"positive":1`, `"positive":2`, 1), "is not the histogram's 5 runs"},
		{strings.Replace(good, `"nonconforming":1`, `"nonconforming":0`, 1), "forbidden outcomes count 1"},
	} {
		path := filepath.Join(t.TempDir(), "c.json")
		os.WriteFile(path, []byte(tc.line+"\n"), 0o644)
		_, err := ReadConform(path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("a good record refused: %v", err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), path+":1: ") || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error naming the file's line 1 and %q", tc.line, err, tc.want)
		}
	}
}

// TestRecordFilesAreBounded: an endless input stops at MaxFileBytes with an error
// instead of growing until the process dies.
func TestRecordFilesAreBounded(t *testing.T) {
	endless := io.MultiReader(strings.NewReader(""), repeatReader("\n"))
	_, err := decodeLines[Conform]("yes.json", endless, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "yes.json: larger than 1 MiB") {
		t.Errorf("an endless file: %v", err)
	}
}

// repeatReader reads s again and again, forever.
type repeatReader string

func (r repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r)
	}
	return n, nil
}

// TestCommittedRecordsRead: the conformance records the reports are built from pass
// Check (the reports would otherwise fail to build).
func TestCommittedRecordsRead(t *testing.T) {
	var files []string
	for _, name := range []string{"mpich.json", "openmpi.json", "reference.json"} {
		m, _ := filepath.Glob(filepath.Join("..", "reports", "*", name))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no conformance records under reports/")
	}
	for _, f := range files {
		if _, err := ReadConform(f); err != nil {
			t.Error(err)
		}
	}
}

// TestRunRoundTrip: a search's record, its flags, rule ids, trace steps and marks
// included, reads back as written.
func TestRunRoundTrip(t *testing.T) {
	lt, err := litmus.Parse("sb.lit", []byte("MPI SB\n{ win W allocate_shared size=1; x = W@0[0]; y = W@1[0]; }\n"+
		" P0 | P1 ;\n store x 1 | store y 1 ;\n r0 = load y | r0 = load x ;\nexists (0:r0=0 /\\ 1:r0=0)\nexpect A=Erroneous(E-EPOCH)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []Run
	for _, job := range []struct {
		preset spec.PresetName
		hw     spec.HW
	}{{"A", spec.Relaxed}, {"mpi-4.1", spec.TSO}} {
		sem, _ := spec.Preset(job.preset)
		jr := explorer.Job{Test: lt, Sem: sem, HW: job.hw}.Run(explorer.Options{})
		recs = append(recs, NewRun(&jr))
	}
	a := recs[0]
	if len(a.Flags) == 0 || a.Flags[0].Rule != spec.EEpoch || len(a.Flags[0].Steps) == 0 || a.Expect != litmus.ExpectMet || a.HW != spec.Relaxed {
		t.Fatalf("the record of SB under A, tso: %+v", a)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		if err := WriteLine(&buf, r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRun(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("read back (-written +read):\n%s", d)
	}
}
