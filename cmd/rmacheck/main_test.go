package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// runCLI runs one command line in-process and returns its exit status and outputs.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), progressLogLine.ReplaceAllString(errb.String(), "")
}

// progressLogLine is the line a minute of a long command off a terminal (progress):
// on a loaded machine any command may run that long, and no test's output shows it.
var progressLogLine = regexp.MustCompile(`(?m)^rmacheck: \d+/\d+ .*, .* elapsed, ETA .*\n`)

// goldenCases are compared with testdata/NAME.golden. Run `go test ./cmd/rmacheck -update`
// after an intended change of output and review the diff.
var goldenCases = []struct {
	name string
	args []string
	code int
}{
	{"check_good_v", []string{"check", "-v", "testdata/good.lit"}, 0},
	{"check_good_quiet", []string{"check", "testdata/good.lit", "testdata/good2.lit"}, 0},
	{"check_mixed", []string{"check", "-v", "testdata/good.lit", "testdata/bad.lit", "testdata/good2.lit"}, 2},
	{"check_bad", []string{"check", "testdata/bad.lit"}, 2},
	{"check_missing", []string{"check", "testdata/missing.lit", "testdata/good.lit"}, 2},
	{"check_dir", []string{"check", "-v", "testdata"}, 2},
	{"check_noargs", []string{"check"}, 2},
	{"fmt_good", []string{"fmt", "testdata/good.lit"}, 0},
	{"fmt_ugly", []string{"fmt", "testdata/ugly.lit"}, 0},
	{"fmt_list", []string{"fmt", "-l", "testdata/good.lit", "testdata/good2.lit", "testdata/ugly.lit"}, 1},
	{"fmt_list_canonical", []string{"fmt", "-l", "testdata/good.lit", "testdata/good2.lit"}, 0},
	{"fmt_bad", []string{"fmt", "testdata/bad.lit", "testdata/good.lit"}, 2},
	{"explain_r1", []string{"explain", "R1"}, 0},
	{"explain_conflict", []string{"explain", "c-conflict"}, 0},
	{"explain_race", []string{"explain", "RACE"}, 0},
	{"explain_switch", []string{"explain", "fence_ls"}, 0},
	{"explain_preset", []string{"explain", "mpi-4.1"}, 0},
	{"explain_all", []string{"explain", "--all"}, 0},
	{"explain_unknown", []string{"explain", "E-NOPE"}, 2},
	{"explain_hw", []string{"explain", "hw"}, 0},
	{"explain_livelock", []string{"explain", "LIVELOCK"}, 0},
	{"explain_noarg", []string{"explain"}, 2},
	{"explain_weak_progress", []string{"explain", "weak_progress"}, 0},
	{"run_progress_note", []string{"run", "--sem", "mpi-3.0;mpi-4.1", "testdata/mp-flush-poll.lit"}, 0},
	{"presets", []string{"presets"}, 0},
	{"presets_json", []string{"presets", "--json"}, 0},
	{"version", []string{"--version"}, 0},
	{"help", []string{"--help"}, 0},
	{"bad_flag", []string{"check", "--nope", "testdata/good.lit"}, 2},
	{"unknown_command", []string{"frobnicate"}, 2},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) { checkGolden(t, c.name, c.args, c.code, nil) })
	}
}

// checkGolden runs one command line and compares its exit status and output with
// testdata/NAME.golden (mask, when not nil, first hides what varies from run to run).
func checkGolden(t *testing.T, name string, args []string, wantCode int, mask func(string) string) {
	t.Helper()
	code, stdout, stderr := runCLI(args...)
	if code != wantCode {
		t.Errorf("rmacheck %s: exit %d, want %d\nstderr:\n%s", strings.Join(args, " "), code, wantCode, stderr)
	}
	got := fmt.Sprintf("$ rmacheck %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(args, " "), code, stdout, stderr)
	if mask != nil {
		got = mask(got)
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", path, diff)
	}
}

// A broken file among good ones: exit 2, every error of the broken file printed with its
// position, the good files before and after it still checked, and the summary line.
func TestCheckBrokenAmongGood(t *testing.T) {
	code, stdout, stderr := runCLI("check", "-v", "testdata/good.lit", "testdata/bad.lit", "testdata/good2.lit")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if want := "ok testdata/good.lit\nok testdata/good2.lit\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("stderr has %d lines, want the 2 errors of bad.lit and a summary:\n%s", len(lines), stderr)
	}
	// bad.lit has two independent mistakes: W@1[5] on line 8 (W has 1 cell per rank)
	// and the unknown window V on line 9, column 8.
	posRE := regexp.MustCompile(`^testdata/bad\.lit:(\d+):(\d+): \S`)
	for _, l := range lines[:len(lines)-1] {
		if !posRE.MatchString(l) {
			t.Errorf("error line %q is not FILE:LINE:COL: msg", l)
		}
	}
	if !strings.HasPrefix(lines[0], "testdata/bad.lit:8:") {
		t.Errorf("first error %q is not on line 8 (the displacement outside W's segment)", lines[0])
	}
	if want := `testdata/bad.lit:9:8: unknown window "V"`; !strings.HasPrefix(lines[len(lines)-2], want) {
		t.Errorf("last error %q, want it to start with %q", lines[len(lines)-2], want)
	}
	if want := "checked 3 files, 1 bad"; lines[len(lines)-1] != want {
		t.Errorf("summary %q, want %q", lines[len(lines)-1], want)
	}
	// The precise messages, in position order.
	want := `testdata/bad.lit:8:6: W@1[5]: displacement 5 outside rank 1's segment of window W (size 1 cell)
testdata/bad.lit:9:8: unknown window "V" (declared: W)
checked 3 files, 1 bad
`
	if diff := cmp.Diff(want, stderr); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}

func TestCheckMissingFile(t *testing.T) {
	code, stdout, stderr := runCLI("check", "-v", "testdata/missing.lit", "testdata/good.lit")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if stdout != "ok testdata/good.lit\n" {
		t.Errorf("stdout = %q: the good file was not checked", stdout)
	}
	want := "testdata/missing.lit: cannot read: no such file or directory\nchecked 2 files, 1 bad\n"
	if stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

// TestCheckSummary: check says how many files it checked, even for one good file.
func TestCheckSummary(t *testing.T) {
	code, stdout, stderr := runCLI("check", "testdata/good.lit")
	if code != 0 || stdout != "" || stderr != "checked 1 file, 0 bad\n" {
		t.Errorf("check good.lit: exit %d, stdout %q, stderr %q; want 0 and the summary", code, stdout, stderr)
	}
}

func TestFmtWriteAndList(t *testing.T) {
	dir := t.TempDir()
	ugly, err := os.ReadFile("testdata/ugly.lit")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ugly.lit")
	if err := os.WriteFile(path, ugly, 0o640); err != nil {
		t.Fatal(err)
	}
	_, canonical, _ := runCLI("fmt", path)

	if code, stdout, stderr := runCLI("fmt", "-l", path); code != 1 || stdout != path+"\n" {
		t.Fatalf("fmt -l: exit %d, stdout %q, stderr %q; want the file listed and exit 1", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI("fmt", "-w", path); code != 0 || stdout != "" {
		t.Fatalf("fmt -w: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, _ := os.ReadFile(path)
	if string(got) != canonical {
		t.Errorf("fmt -w wrote\n%s\nwant what fmt prints:\n%s", got, canonical)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("fmt -w changed the mode to %v", fi.Mode().Perm())
	}
	// The canonical form is a fixed point: nothing more to list or rewrite.
	if code, stdout, _ := runCLI("fmt", "-l", "-w", path); code != 0 || stdout != "" {
		t.Errorf("fmt -l -w after -w: exit %d, listed %q", code, stdout)
	}
	if _, again, _ := runCLI("fmt", path); again != canonical {
		t.Errorf("fmt of the canonical form differs:\n%s\nwant\n%s", again, canonical)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("fmt -w left files behind: %v", entries)
	}
}

// The golden good files are written in canonical form, so fmt -l lists none of them.
func TestGoodFilesCanonical(t *testing.T) {
	code, stdout, stderr := runCLI("fmt", "-l", "testdata/good.lit", "testdata/good2.lit")
	if code != 0 || stdout != "" {
		t.Errorf("fmt -l: exit %d, listed %q, stderr %q", code, stdout, stderr)
	}
}

func TestFmtStdin(t *testing.T) {
	src, _ := os.ReadFile("testdata/ugly.lit")
	_, want, _ := runCLI("fmt", "testdata/ugly.lit")
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetIn(bytes.NewReader(src))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs([]string{"fmt"})
	if err := root.Execute(); err != nil {
		t.Fatalf("fmt < ugly.lit: %v\n%s", err, errb.String())
	}
	if out.String() != want {
		t.Errorf("fmt from stdin:\n%s\nwant\n%s", out.String(), want)
	}
	if code, _, stderr := runCLI("fmt", "-w"); code != 2 || !strings.Contains(stderr, "cannot use -w with standard input") {
		t.Errorf("fmt -w without files: exit %d, stderr %q", code, stderr)
	}
}

func TestExplainEveryRule(t *testing.T) {
	for _, r := range spec.Rules {
		for _, id := range []string{r.ID.String(), strings.ToLower(r.ID.String())} {
			code, stdout, stderr := runCLI("explain", id)
			if code != 0 {
				t.Errorf("explain %s: exit %d, stderr %q", id, code, stderr)
				continue
			}
			if first := strings.SplitN(stdout, "\n", 2)[0]; first != r.ID.String()+": "+r.Title {
				t.Errorf("explain %s: first line %q", id, first)
			}
			if !strings.Contains(stdout, "class: "+r.Class.String()) {
				t.Errorf("explain %s: no class line", id)
			}
			for _, u := range r.URLs() {
				if !strings.Contains(stdout, "  "+u+"\n") {
					t.Errorf("explain %s: citation %s missing", id, u)
				}
			}
			for _, l := range strings.Split(stdout, "\n") {
				if len(l) > 80 {
					t.Errorf("explain %s: line longer than 80 columns: %q", id, l)
				}
			}
			if strings.Join(strings.Fields(stdout), " ") == "" ||
				!strings.Contains(strings.Join(strings.Fields(stdout), " "), r.Text) {
				t.Errorf("explain %s: the paragraph is not printed whole", id)
			}
		}
	}
}

func TestExplainSwitchesAndPresets(t *testing.T) {
	for _, si := range spec.Switches {
		code, stdout, _ := runCLI("explain", si.Name)
		flat := strings.Join(strings.Fields(stdout), " ")
		if code != 0 || !strings.Contains(flat, si.Meaning) || !strings.Contains(flat, si.Basis) {
			t.Errorf("explain %s: exit %d, output lacks the meaning or the basis:\n%s", si.Name, code, stdout)
		}
	}
	for _, p := range spec.Presets {
		code, stdout, _ := runCLI("explain", string(p.Name))
		if code != 0 || !strings.HasPrefix(stdout, string(p.Name)+": a preset of --sem\n") {
			t.Errorf("explain %s: exit %d:\n%s", p.Name, code, stdout)
		}
	}
}

func TestExplainUnknownListsIDs(t *testing.T) {
	code, _, stderr := runCLI("explain", "R7")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.HasPrefix(stderr, `rmacheck: unknown rule, switch or preset "R7"`) {
		t.Errorf("stderr = %q", stderr)
	}
	flat := strings.Join(strings.Fields(stderr), " ")
	for _, r := range spec.Rules {
		if !strings.Contains(flat, " "+r.ID.String()+" ") {
			t.Errorf("known id %s not listed", r.ID)
		}
	}
}

func TestVersion(t *testing.T) {
	old := version
	defer func() { version = old }()
	version = "1.2.3-test"
	if code, stdout, _ := runCLI("--version"); code != 0 || stdout != "rmacheck version 1.2.3-test\n" {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
}

func TestPresetsTableMatchesSpec(t *testing.T) {
	_, stdout, _ := runCLI("presets")
	lines := strings.Split(stdout, "\n")
	header := strings.Fields(lines[0])
	if header[0] != "preset" || len(header) != 1+len(spec.Switches) {
		t.Fatalf("header %q", lines[0])
	}
	for i, p := range spec.Presets {
		row := strings.Fields(lines[1+i])
		if row[0] != string(p.Name) {
			t.Errorf("row %d is %q, want %s", i, row[0], p.Name)
			continue
		}
		for j, si := range spec.Switches {
			want := "-"
			if p.Switches.Has(si.Switch) {
				want = "on"
			}
			if row[1+j] != want {
				t.Errorf("%s/%s = %q, want %q", p.Name, si.Name, row[1+j], want)
			}
		}
	}
}

func TestCollectFiles(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	b := mk("corpus/b.lit")
	a := mk("corpus/a.lit")
	sub := mk("corpus/sub/c.lit")
	mk("corpus/notes.txt")
	mk("corpus/testdata/broken.lit")
	mk("corpus/.hidden/x.lit")
	mk("corpus/_skip/y.lit")
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.lit")
	testdataDir := filepath.Join(dir, "corpus", "testdata")

	files, err := collectFiles([]string{b, filepath.Join(dir, "corpus"), missing, testdataDir})
	if err != nil {
		t.Errorf("collectFiles: %v", err)
	}
	want := []string{b, a, sub, missing, filepath.Join(testdataDir, "broken.lit")}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("collectFiles (-want +got):\n%s", diff)
	}

	files, err = collectFiles([]string{filepath.Join(dir, "empty"), a})
	if diff := cmp.Diff([]string{a}, files); diff != "" {
		t.Errorf("with an empty dir (-want +got):\n%s", diff)
	}
	if err == nil || err.Error() != filepath.Join(dir, "empty")+": no .lit files in this directory" {
		t.Errorf("empty dir error = %v", err)
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err   error
		code  int
		usage bool
	}{
		{nil, 0, false},
		{errors.New("unknown flag: --x"), 2, true},
		{usageErrorf("bad"), 2, true},
		{exitWith(1), 1, false},
		{exitError{2, errors.New("x")}, 2, false},
		{&exitError{code: 1}, 1, false},
		{fmt.Errorf("wrapped: %w", exitError{code: 1}), 1, false},
		{exitError{2, usageErrorf("bad")}, 2, true},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.code {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.code)
		}
		if tt.err != nil {
			if got := isUsage(tt.err); got != tt.usage {
				t.Errorf("isUsage(%v) = %v, want %v", tt.err, got, tt.usage)
			}
		}
	}
}

func TestWrap(t *testing.T) {
	for _, r := range spec.Rules {
		got := wrapText(r.Text, 80)
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if len(l) > 80 {
				t.Errorf("%s: line of %d columns: %q", r.ID, len(l), l)
			}
		}
		if strings.Join(strings.Fields(got), " ") != r.Text {
			t.Errorf("%s: wrapping changed the words", r.ID)
		}
	}
	if got := wrapIndent("aaa bbb ccc", 7, "  "); got != "aaa bbb\n  ccc\n" {
		t.Errorf("wrapIndent = %q", got)
	}
	if got := wrapText("", 80); got != "" {
		t.Errorf("wrapText(\"\") = %q", got)
	}
}

// fmt -w rewrites a file with comments and keeps them (the printer used to drop them, and
// fmt -w refused such files).
func TestFmtWriteKeepsComments(t *testing.T) {
	src := []byte("MPI c\n# the window\n{ win W allocate size=1; }\n P0 | P1 ;\n fence W | fence W ;\nexists (0:r0=0) # why\n")
	path := filepath.Join(t.TempDir(), "c.lit")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("fmt", "-w", path); code != 0 || stderr != "" {
		t.Fatalf("fmt -w: exit %d, stderr %q", code, stderr)
	}
	want := "MPI c\n# the window\n{\n  win W allocate size=1;\n}\n P0      | P1      ;\n fence W | fence W ;\nexists (0:r0=0) # why\n"
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("fmt -w wrote\n%s\nwant\n%s", got, want)
	}
}

// TestCollectFilesFollowsDirSymlink: a symbolic link to a directory, given as an
// argument, is searched and its files named under the link (check said "no .lit
// files in this directory"); links below an argument are not followed.
func TestCollectFilesFollowsDirSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.MkdirAll(filepath.Join(real, "sub"), 0o755)
	for _, f := range []string{"a.lit", "sub/b.lit"} {
		if err := os.WriteFile(filepath.Join(real, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	acc := filepath.Join(dir, "acc")
	if err := os.Symlink("real", acc); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(real, "loop")); err != nil {
		t.Fatal(err)
	}
	files, err := collectFiles([]string{acc})
	if err != nil {
		t.Errorf("collectFiles(link to a directory): %v", err)
	}
	if diff := cmp.Diff([]string{filepath.Join(acc, "a.lit"), filepath.Join(acc, "sub", "b.lit")}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	good, _ := os.ReadFile("testdata/good.lit")
	os.WriteFile(filepath.Join(real, "a.lit"), good, 0o644)
	os.WriteFile(filepath.Join(real, "sub", "b.lit"), good, 0o644)
	if code, _, stderr := runCLI("check", acc); code != 0 {
		t.Errorf("check LINK-TO-DIR: exit %d, %s", code, stderr)
	}
}
