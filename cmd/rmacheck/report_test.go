package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestReportCLI: report writes both pages, opening with the question, the checked
// answer and the Findings (with the smallest distinguishing test of each pair), and
// --index lists the report.
func TestReportCLI(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "question.txt")
	os.WriteFile(q, []byte("question: Does A order store buffering?\nanswer: No: A makes SB erroneous.\ncheck: SB hw=relaxed A = Erroneous(E-EPOCH)\n"), 0o644)
	out := filepath.Join(dir, "sb")
	code, stdout, stderr := runCLI("report", "testdata/sb.lit", "--out", out, "--sem", "A", "--sem", "B",
		"--question", q, "--distinguish", "--distinguish-instrs", "2", "--date", "2026-12-01")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Question.** Does A order store buffering?", "**Answer.** No: A makes SB erroneous.",
		"## Findings", "**A vs B**: 1 of the 1 tests tells them apart", "Smallest generated test that does", "on 2026-12-01"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
		t.Error(err)
	}
	code, stdout, stderr = runCLI("report", "--index", dir)
	if code != 0 {
		t.Fatalf("--index: exit %d\n%s%s", code, stdout, stderr)
	}
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !strings.Contains(string(index), "| [sb](sb/report.md) ([html](sb/report.html)): ") || !strings.Contains(string(index), "No: A makes SB erroneous.") {
		t.Errorf("the index lacks the report: %v\n%s", err, index)
	}
}

// TestReportCLIAnswerNotBacked: an answer whose check does not hold fails the
// report with exit 1 and the file and line of the check; bad inputs are exit 2.
func TestReportCLIAnswerNotBacked(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "question.txt")
	os.WriteFile(q, []byte("question: q?\nanswer: a.\ncheck: SB hw=relaxed B = Never\n"), 0o644)
	code, _, stderr := runCLI("report", "testdata/sb.lit", "--out", filepath.Join(dir, "x"), "--sem", "A", "--sem", "B", "--question", q)
	if code != 1 || !strings.Contains(stderr, "question.txt:3: the answer does not hold: SB under B (hw relaxed) is Sometimes+RACE, not Never") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"report", "testdata/sb.lit", "--out", dir, "--question", filepath.Join(dir, "missing.txt")},
		{"report", "testdata/sb.lit", "--out", dir, "--upstream", "testdata/sb.lit"},
		{"report", "testdata/sb.lit", "--out", dir, "--probe", "testdata/sb.lit"},
		{"report", "testdata/sb.lit"},
		{"report", "--index", dir, "testdata/sb.lit"},
	} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestReportTitleAndDateAreText: --title is text in report.md, not Markdown or HTML, and
// --date must be a date (both went into report.md as given).
func TestReportTitleAndDateAreText(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI("report", "testdata/sb.lit", "--sem", "A", "--out", out, "--date", "<b>today</b>"); code != exitBadInput || !strings.Contains(stderr, "expected a date") {
		t.Errorf("--date <b>today</b>: exit %d, %s", code, stderr)
	}
	code, _, stderr := runCLI("report", "testdata/sb.lit", "--sem", "A", "--out", out, "--date", "2026-01-01", "--title", "SB <script>x</script> [a](b) `c`")
	if code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# SB \\<script\\>x\\</script\\> \\[a\\](b) \\`c\\`\n"; !strings.Contains(string(md), want) {
		t.Errorf("report.md's title: want %q in\n%.300s", want, md)
	}
}

// TestConcurrentReportsReplaceAsASet: two report runs on one --out leave one run's
// report.md and report.html, never one's beside the other's (issue 38 row 2: 1 round
// in 5).
func TestConcurrentReportsReplaceAsASet(t *testing.T) {
	dir := t.TempDir()
	md, page := filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html")
	big := strings.Repeat("x", 1<<20) // a write that takes long enough to interleave
	for round := range 40 {
		var wg sync.WaitGroup
		for _, run := range []string{"A", "B"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := commitReport(md, page, []byte(run+big), []byte(run+big)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		a, _ := os.ReadFile(md)
		b, _ := os.ReadFile(page)
		if len(a) == 0 || len(b) == 0 || a[0] != b[0] {
			t.Fatalf("round %d: report.md from run %.1s beside report.html from run %.1s", round, a, b)
		}
	}
}
