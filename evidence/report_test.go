package evidence

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/record"
	"github.com/rmacheck/rmacheck/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func parseTests(t *testing.T, files ...string) []*litmus.Test {
	t.Helper()
	var tests []*litmus.Test
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, lt)
	}
	return tests
}

func preset(t *testing.T, name string) spec.Semantics {
	t.Helper()
	s, err := spec.ParseSemantics(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// smallReport has everything a report can show: a checked answer, conformance
// records of every status (one NON-CONFORMING), a failed and a refused run, a probe
// with violations, upstream entries and a smallest distinguishing test.
func smallReport(t *testing.T) *Report {
	t.Helper()
	tests := parseTests(t, "testdata/mp-post-start.lit", "testdata/sb.lit")
	a, b := preset(t, "A"), preset(t, "B")
	q, err := ReadQuestion("testdata/question.txt")
	if err != nil {
		t.Fatal(err)
	}
	up, err := ReadUpstream("testdata/status.json")
	if err != nil {
		t.Fatal(err)
	}
	failed, err := record.ReadConform("testdata/openmpi.json") // a time-out and a refusal
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Title: "A vs B", Command: "rmacheck report testdata --out x", Version: "test", Date: "2026-12-01",
		Sems: []spec.Semantics{a, b}, HWs: []spec.HW{spec.Relaxed, spec.TSO}, Question: q, Upstream: up}
	ref := conform.TargetInfo{Kind: conform.KindReference}
	mpich := conform.TargetInfo{Kind: conform.KindMPI, Family: conform.MPICH, Version: "MPICH 4.0.2", Launcher: "mpiexec.mpich"}
	sb := func(target conform.TargetInfo, sem string, forbidden int) record.Conform {
		c := record.Conform{Test: "SB", File: "testdata/sb.lit", Target: target, Preset: sem, HW: spec.TSO, Runs: 10, Positive: 1, Negative: 9, Observation: "Sometimes",
			Histogram: []record.Bin{{Values: map[string]int64{"0:r0": 0, "1:r0": 0}, Count: 1, Allowed: true}, {Values: map[string]int64{"0:r0": 1, "1:r0": 0}, Count: 9 - forbidden, Allowed: true}},
			Unseen:    []map[string]int64{{"0:r0": 0, "1:r0": 1}, {"0:r0": 1, "1:r0": 1}}}
		if forbidden > 0 {
			c.Histogram = append(c.Histogram, record.Bin{Values: map[string]int64{"0:r0": 7, "1:r0": 7}, Count: forbidden})
			c.NonConforming, c.Status = forbidden, conform.StatusNonConforming
		}
		return c
	}
	r.Conform = []record.Conform{sb(ref, "B", 0), sb(mpich, "B", 2),
		{Test: "SB", File: "testdata/sb.lit", Target: mpich, Preset: "A", HW: spec.TSO, Status: conform.StatusSkipped, Skipped: "skipped: the model finds it Erroneous(E-EPOCH) (undefined behaviour); --include-erroneous runs it anyway"},
		{Test: "MP+post-start", File: "testdata/mp-post-start.lit", Target: mpich, Preset: "B", HW: spec.TSO, Status: conform.StatusSpinLimit, SpinLimit: "SPIN-LIMIT P0 row 2: the loop did not exit after 67108864 iterations"}}
	r.Conform = append(r.Conform, failed...)
	r.Probes = []Probe{{Name: "probe-mpich.json", Probe: conform.Probe{Target: conform.MPICH, Library: "MPICH Version: 4.0.2", Version: "4.0", Results: []conform.ProbeResult{
		{Topic: "alignment", Item: "MPI_Win_allocate size=1 rank=1", Value: "address % 64 = 1", Verdict: "VIOLATES MPI-4.0 alignment (16 bytes, the largest predefined type)"},
		{Topic: "alignment", Item: "MPI_Win_allocate size=3 rank=1", Value: "address % 64 = 3", Verdict: "VIOLATES MPI-4.0 alignment (16 bytes, the largest predefined type)"},
		{Topic: "shared_query", Item: "MPI_Win_shared_query on create", Value: "error class 58 (MPI_ERR_RMA_FLAVOR)", Verdict: "ok for MPI-4.0; VIOLATES MPI-4.1 (no error allowed: size 0 or the segment) (the library implements MPI 4.0)"},
		{Topic: "alignment", Item: "MPI_Alloc_mem size=1 rank=0", Value: "address % 64 = 16", Verdict: "ok"},
	}}}}
	// the smallest test that tells A and B apart, as distinguish would find it
	d, err := explorer.CompareSemantics(tests[1], a, b, spec.Relaxed, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Smallest = []*Smallest{{X: a, Y: b, HW: spec.Relaxed, MaxProcs: 2, MaxInstrs: 4, Candidates: 1, Found: 1, Diff: d, Source: litmus.Format(tests[1]), From: "SB", Instrs: 4}}
	if err := build(r, tests); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMarkdownGolden: the Markdown of a small report.
// build runs the searches a report needs, as the report command does, and builds it.
func build(r *Report, tests []*litmus.Test) error {
	jobs, err := r.Jobs(tests)
	if err != nil {
		return err
	}
	return r.Build(tests, explorer.RunAll(jobs, 1, explorer.Options{}))
}

func TestMarkdownGolden(t *testing.T) {
	checkGolden(t, "small.md.golden", string(smallReport(t).Markdown()))
}

// checkGolden compares got with testdata/NAME (go test -update rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, d)
	}
}

// TestReportOpensWithFindings: the question and answer, then Findings, then the
// summary, then the details, in that order, in both pages.
func TestReportOpensWithFindings(t *testing.T) {
	r := smallReport(t)
	md := string(r.Markdown())
	order := []string{"**Question.**", "**Answer.**", "## Findings", "## Summary", "## Smallest distinguishing tests", "## Tests"}
	last := -1
	for _, s := range order {
		i := strings.Index(md, s)
		if i < 0 || i < last {
			t.Errorf("Markdown: %q missing or out of order", s)
		}
		last = i
	}
	page := string(r.HTML())
	last = -1
	for _, s := range []string{"<strong>Question.</strong>", `id="findings"`, `id="summary"`, `id="smallest-distinguishing-tests"`, `id="tests"`} {
		i := strings.Index(page, s)
		if i < 0 || i < last {
			t.Errorf("HTML: %q missing or out of order", s)
		}
		last = i
	}
}

// TestDeterministic: two builds give identical pages.
func TestDeterministic(t *testing.T) {
	a, b := smallReport(t), smallReport(t)
	if string(a.Markdown()) != string(b.Markdown()) || string(a.HTML()) != string(b.HTML()) {
		t.Error("two builds of the same report differ")
	}
}

// findingsSection is the Findings of a report's Markdown.
func findingsSection(md string) string {
	i := strings.Index(md, "\n## Findings\n")
	if i < 0 {
		return ""
	}
	rest := md[i+1:]
	if j := strings.Index(rest, "\n## Summary\n"); j >= 0 {
		return rest[:j]
	}
	return rest
}

// checkFindingsName: the Findings name every NON-CONFORMING test of the data, under
// the name of its target.
func checkFindingsName(t *testing.T, page string, md string, recs []record.Conform) {
	t.Helper()
	f := findingsSection(md)
	if f == "" {
		t.Errorf("%s: no Findings section", page)
		return
	}
	for target, tests := range NonConformingTests(recs) {
		for _, test := range tests {
			found := false
			for _, line := range strings.Split(f, "\n") {
				if strings.Contains(line, "NON-CONFORMING") && strings.Contains(line, "`"+test+"`") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: the Findings do not name the NON-CONFORMING test %s (target %s)", page, test, target)
			}
		}
	}
}

func TestFindingsNameEveryNonConformingTest(t *testing.T) {
	r := smallReport(t)
	md := string(r.Markdown())
	checkFindingsName(t, "small report", md, r.Conform)
	if !strings.Contains(findingsSection(md), "`SB`") {
		t.Fatal("the small report's data has a NON-CONFORMING run of SB")
	}
}

// TestHTMLSelfContained: no script, no external resource, tables and diagrams.
func TestHTMLSelfContained(t *testing.T) {
	page := string(smallReport(t).HTML())
	checkSelfContained(t, "small report", page)
	if !strings.Contains(page, "<svg") || !strings.Contains(page, "<table>") {
		t.Error("the page lacks tables or a diagram")
	}
	checkUniqueIDs(t, "small report", page)
	pages, _ := filepath.Glob("../reports/*/report.html")
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkSelfContained(t, p, string(data))
	}
}

// checkUniqueIDs: an id defined twice in a page makes every reference to it find
// the first; the diagrams' markers are defined once, by the page's one key.
func checkUniqueIDs(t *testing.T, name, page string) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("%s: id %q defined twice", name, m[1])
		}
		seen[m[1]] = true
	}
	if strings.Contains(page, `<svg class="diagram"`) && (strings.Count(page, `<svg class="key"`) != 1 || !seen["arrow-rf"]) {
		t.Errorf("%s: the diagrams' markers are not defined once, by the page's key", name)
	}
}

// externalRef: a script, or anything that loads a resource (url(#id), a reference
// inside the page, is fine).
var externalRef = regexp.MustCompile(`(?i)(<script|<link|<img|<iframe|<object|<embed|@import|url\(\s*['"]?[^#'"\s)]|\b(src|xlink:href)\s*=)`)

func checkSelfContained(t *testing.T, name, page string) {
	t.Helper()
	if m := externalRef.FindString(page); m != "" {
		t.Errorf("%s: the page contains %q (a script or an external resource)", name, m)
	}
}

// fontSizes are the font sizes a page sets, in px: CSS font-size and SVG
// font-size attributes (rem and em count 16 px).
var fontSizeRE = regexp.MustCompile(`font-size(?:\s*:\s*|=")([0-9.]+)(px|rem|em|pt)?`)

func fontSizes(page string) []float64 {
	var out []float64
	for _, m := range fontSizeRE.FindAllStringSubmatch(page, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		switch m[2] {
		case "rem", "em":
			v *= 16
		case "pt":
			v *= 4.0 / 3
		}
		out = append(out, v)
	}
	return out
}

// TestLegibleFontSizes: no text of the page, CSS or SVG, below 12 px.
func TestLegibleFontSizes(t *testing.T) {
	page := string(smallReport(t).HTML())
	sizes := fontSizes(page)
	if len(sizes) < 5 {
		t.Fatalf("found only %d font sizes; the check reads nothing", len(sizes))
	}
	for _, s := range sizes {
		if s < 12 {
			t.Errorf("font size %.1f px is below 12 px", s)
		}
	}
	if !strings.Contains(page, `svg.diagram,svg.key{`) || !strings.Contains(page, `monospace;font-size:13px}`) {
		t.Error("the diagrams' step labels are not 13 px")
	}
}

// TestDiagram: a witness with a read from another process's store, steps out of
// program order and a race marked shows a reads-from edge, the early mark with the
// rows it passes, the rule on both accesses and the legend; a put's diagram shows
// the issue -> perform and perform -> completion edges and the fence's process
// synchronization.
func TestDiagram(t *testing.T) {
	mp := parseTests(t, "testdata/mp-fence.lit")[0]
	jr := explorer.Job{Test: mp, Sem: preset(t, "mpi-3.0"), HW: spec.Relaxed}.Run(explorer.Options{})
	if jr.Err != nil {
		t.Fatal(jr.Err)
	}
	var race *explorer.Flag
	for i := range jr.Result.Flags {
		if jr.Result.Flags[i].Rule == spec.Race {
			race = &jr.Result.Flags[i]
		}
	}
	if race == nil {
		t.Fatal("MP+fence raises no RACE under mpi-3.0")
	}
	raceTrace := race.Witness.Replay()
	svg := Diagram(&raceTrace, race.Rule)
	for _, want := range []string{`class="edge rf"`, `class="node early"`, "early: runs before row", "◀ RACE"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the race witness lacks %q:\n%s", want, svg)
		}
	}
	for _, want := range []string{`class="legend"`, "reads-from: write → read", `<marker id="arrow-rf"`} {
		if key := DiagramKeySVG(); !strings.Contains(key, want) {
			t.Errorf("the diagrams' key lacks %q:\n%s", want, key)
		}
	}
	if n := strings.Count(svg, "◀ RACE"); n != 2 {
		t.Errorf("%d steps marked RACE, want the two accesses", n)
	}

	put := parseTests(t, "testdata/mp-put-fence.lit")[0]
	jp := explorer.Job{Test: put, Sem: preset(t, "mpi-3.0"), HW: spec.Relaxed}.Run(explorer.Options{})
	if jp.Err != nil {
		t.Fatal(jp.Err)
	}
	o := jp.Result.Outcomes[0]
	putTrace := o.Witness.Replay()
	svg = Diagram(&putTrace, spec.NoRule)
	for _, want := range []string{`class="edge issue"`, `class="edge complete"`, `class="edge sync"`, `class="edge rf"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the put witness lacks %q:\n%s", want, svg)
		}
	}
}

// TestWitnessesDrawnOnce: a witness shared by several pairs is drawn once and
// referred to from each.
func TestWitnessesDrawnOnce(t *testing.T) {
	mp := parseTests(t, "testdata/mp-fence.lit")
	r := &Report{Title: "x", Sems: []spec.Semantics{preset(t, "mpi-3.0"), preset(t, "A"), preset(t, "B")}, HWs: []spec.HW{spec.Relaxed}}
	if err := build(r, mp); err != nil {
		t.Fatal(err)
	}
	tr := r.Tests[0]
	seen := map[string]bool{}
	for _, w := range tr.Witnesses {
		key := w.What + strings.Join(w.Lines, "\n")
		if seen[key] {
			t.Errorf("witness %s drawn twice", w.Label())
		}
		seen[key] = true
	}
	shared := false
	for _, row := range tr.Rows() {
		if len(row.Pairs) > 1 {
			shared = true
		}
	}
	if !shared {
		t.Error("no difference is shared by two pairs: mpi-3.0 allows 1:r0=0 against both A and B")
	}
	page := string(r.HTML())
	if got, want := strings.Count(page, `<svg class="diagram"`), len(tr.Witnesses); got != want {
		t.Errorf("%d diagrams on the page, want one per distinct witness (%d)", got, want)
	}
}

// TestAnswerChecked: an answer whose check does not hold fails the report.
func TestAnswerChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.txt")
	os.WriteFile(path, []byte("question: q?\nanswer: a.\ncheck: SB hw=relaxed A = Never\n"), 0o644)
	q, err := ReadQuestion(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Title: "x", Sems: []spec.Semantics{preset(t, "A")}, HWs: []spec.HW{spec.Relaxed}, Question: q}
	err = build(r, parseTests(t, "testdata/sb.lit"))
	if err == nil || !strings.Contains(err.Error(), "does not hold") || !strings.Contains(err.Error(), "q.txt:3") {
		t.Errorf("got %v, want the failed check with its line", err)
	}
	for _, bad := range []string{"question: q?\n", "question: q?\nanswer: a\n", "question: q\nanswer: a\ncheck: SB target=mpich = fine\n", "bogus: x\n"} {
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := ReadQuestion(path); err == nil {
			t.Errorf("ReadQuestion accepted %q", bad)
		}
	}
}

// TestIndex: reports/README.md lists every report with its question and answer.
func TestIndex(t *testing.T) {
	dir := t.TempDir()
	r := smallReport(t)
	os.MkdirAll(filepath.Join(dir, "small"), 0o755)
	os.WriteFile(filepath.Join(dir, "small", "report.md"), r.Markdown(), 0o644)
	os.MkdirAll(filepath.Join(dir, "upstream"), 0o755)
	os.WriteFile(filepath.Join(dir, "upstream", "lib-bug.md"), []byte("# A bug\n\ntext\n"), 0o644)
	page, err := Index(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[small](small/report.md)", r.Question.Question.Markdown(), r.Question.Answer.Markdown(), "[lib-bug.md](upstream/lib-bug.md): A bug"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the index lacks %q:\n%s", want, page)
		}
	}
}

// TestHTMLInChromium opens the small report and every committed report in headless
// Chromium at 1400 px width and takes a screenshot of each (skipped when Chromium is
// not installed: apt-get install chromium). The screenshots are kept in
// $RMACHECK_SCREENSHOTS (default: the test's temporary folder) as NAME.png.
func TestHTMLInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium); skipping the browser check")
	}
	dir := t.TempDir()
	out := os.Getenv("RMACHECK_SCREENSHOTS")
	if out == "" {
		out = dir
	}
	pages := map[string]string{"small": filepath.Join(dir, "small.html")}
	if err := os.WriteFile(pages["small"], smallReport(t).HTML(), 0o644); err != nil {
		t.Fatal(err)
	}
	committed, _ := filepath.Glob("../reports/*/report.html")
	for _, p := range committed {
		abs, _ := filepath.Abs(p)
		pages[filepath.Base(filepath.Dir(p))] = abs
	}
	for name, page := range pages {
		shot := filepath.Join(out, name+".png")
		cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--virtual-time-budget=10000",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1400,2400", "--screenshot="+shot, "file://"+page)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("chromium on %s: %v\n%s", name, err, b)
		}
		fi, err := os.Stat(shot)
		if err != nil || fi.Size() < 20_000 {
			t.Errorf("%s: no screenshot (or an empty one): %v", name, err)
		}
	}
}

// TestConformPlacementShown: the placement of a real-MPI run (from conform --json) is
// shown beside its target in the conformance table.
func TestConformPlacementShown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mpich.json")
	line := `{"format":1,"test":"SB","target":"mpich","library":"MPICH 4.0.2","preset":"B","runs":10,"observation":"Never","histogram":[],` +
		`"placement":{"launcher":"srun -N 2 --ntasks-per-node 1 -n 2","nodes":2,"hosts":["a","b"]}}`
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := record.ReadConform(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "mpich (MPICH 4.0.2; 2 ranks on 2 node(s) via srun -N 2 --ntasks-per-node 1 -n 2)"
	if got := targetCell(runs[0]); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
