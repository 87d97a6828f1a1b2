package evidence

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func smallReport(t *testing.T) *Report {
	t.Helper()
	var tests []*litmus.Test
	for _, f := range []string{"testdata/mp-post-start.lit", "testdata/sb.lit"} {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, lt)
	}
	a, _ := spec.Preset("A")
	b, _ := spec.Preset("B")
	r := &Report{Title: "A vs B", Command: "rmacheck report testdata --out x", Version: "test", Date: "2026-12-01",
		Sems: []spec.Semantics{a, b}, HWs: []model.HW{model.Relaxed, model.TSO}}
	r.Conform = []output.ConformRecord{{Test: "SB", Target: "reference", Preset: "B", Runs: 10, Positive: 1, Negative: 9, Observation: "Sometimes",
		Histogram: []output.BinRecord{{Values: map[string]int64{"0:r0": 0, "1:r0": 0}, Count: 1, Allowed: true}, {Values: map[string]int64{"0:r0": 1, "1:r0": 0}, Count: 9, Allowed: true}}}}
	if err := r.Build(tests, explorer.Options{}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMarkdownGolden: the Markdown of a small report.
func TestMarkdownGolden(t *testing.T) {
	got := string(smallReport(t).Markdown())
	path := filepath.Join("testdata", "small.md.golden")
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("Markdown differs (-want +got):\n%s", d)
	}
}

// TestDeterministic: two builds give identical pages.
func TestDeterministic(t *testing.T) {
	a, b := smallReport(t), smallReport(t)
	if string(a.Markdown()) != string(b.Markdown()) || string(a.HTML()) != string(b.HTML()) {
		t.Error("two builds of the same report differ")
	}
}

// TestHTMLSelfContained: no script, no external resource, a diagram per distinction.
func TestHTMLSelfContained(t *testing.T) {
	page := string(smallReport(t).HTML())
	for _, bad := range []string{"<script", "src=\"http", "<link", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if !strings.Contains(page, "<svg") || !strings.Contains(page, "<table>") {
		t.Error("the page lacks tables or a diagram")
	}
}

// TestHTMLInChromium opens the page in headless Chromium and takes a screenshot
// (skipped when Chromium is not installed: apt-get install chromium).
func TestHTMLInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium); skipping the browser check")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, smallReport(t).HTML(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1200,2400", "--screenshot="+shot, "file://"+page)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	fi, err := os.Stat(shot)
	if err != nil || fi.Size() < 10_000 {
		t.Fatalf("no screenshot (or an empty one): %v\n%s", err, out)
	}
	if keep := os.Getenv("RMACHECK_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(keep, data, 0o644)
	}
}

// TestConformPlacementShown: the placement of a real-MPI run (from conform --json) is
// shown beside its target in the conformance table.
func TestConformPlacementShown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mpich.json")
	line := `{"test":"SB","target":"mpich","library":"MPICH 4.0.2","preset":"B","runs":10,"observation":"Never","histogram":[],` +
		`"placement":{"launcher":"srun -N 2 --ntasks-per-node 1 -n 2","nodes":2,"hosts":["a","b"]}}`
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := output.ReadConformRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "mpich (MPICH 4.0.2; 2 ranks on 2 node(s) via srun -N 2 --ntasks-per-node 1 -n 2)"
	if got := runs[0].Target + libSuffix(runs[0]); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
