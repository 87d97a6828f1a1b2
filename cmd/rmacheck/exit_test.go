package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestPlainErrorsGetNoUsageHint: a command's own failure is not a command-line mistake.
// diff with a search stopped at --max-states exits 1, as run does, without a hint at
// --help (it exited 2 with one); a plain error of a command is an I/O error, 2, with no
// hint; cobra's own errors keep theirs.
func TestPlainErrorsGetNoUsageHint(t *testing.T) {
	for _, c := range [][]string{
		{"diff", "--sem", "A", "--sem", "B", "--max-states", "5", "testdata/sb.lit"},
		{"diff", "--sem", "A", "--sem", "B", "--switches", "--max-states", "13", "testdata/sb.lit"}, // the first search needs 14 states
		{"run", "--max-states", "5", "testdata/sb.lit"},
	} {
		code, _, stderr := runCLI(c...)
		if code != exitFailed || strings.Contains(stderr, "--help") || !strings.Contains(stderr, "stopped after") {
			t.Errorf("rmacheck %s: exit %d, stderr:\n%s\nwant 1, the search's message and no hint", strings.Join(c, " "), code, stderr)
		}
	}
	root := &cobra.Command{Use: "x", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(&cobra.Command{Use: "fail", RunE: func(*cobra.Command, []string) error { return errors.New("disk full") }})
	classify(root)
	root.SetArgs([]string{"fail"})
	_, err := root.ExecuteC()
	if exitCode(err) != exitBadInput || isUsage(err) {
		t.Errorf("a plain error of a command: exit %d, usage %v; want 2 and no hint", exitCode(err), isUsage(err))
	}
	if code, _, stderr := runCLI("check", "--nope"); code != 2 || !strings.Contains(stderr, "Run 'rmacheck check --help'") {
		t.Errorf("an unknown flag: exit %d, %q; want 2 and the hint", code, stderr)
	}
}

// TestReplayUnknownRule: --flag with a name that is no rule is bad input (2, as the README
// says); a known rule the test does not raise is a finding (1).
func TestReplayUnknownRule(t *testing.T) {
	if code, _, stderr := runCLI("replay", "testdata/sb.lit", "--flag", "E-FOO"); code != exitBadInput || !strings.Contains(stderr, `--flag "E-FOO": not a rule`) {
		t.Errorf("--flag E-FOO: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI("replay", "testdata/sb.lit", "--flag", "E-ALIGN"); code != exitFailed || !strings.Contains(stderr, "raises E-ALIGN") {
		t.Errorf("--flag E-ALIGN (not raised by SB): exit %d, %s", code, stderr)
	}
}

// TestReportCommandLine: report records the command line it was given, not os.Args
// (it read os.Args[2:] before checking its length, and panicked on a short os.Args).
func TestReportCommandLine(t *testing.T) {
	defer func(old []string) { os.Args = old }(os.Args)
	os.Args = []string{"rmacheck"}
	out := filepath.Join(t.TempDir(), "r")
	args := []string{"report", "testdata/sb.lit", "--out", out, "--sem", "A", "--date", "2026-01-02"}
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Produced by `rmacheck " + strings.Join(args, " ") + "`"; !strings.Contains(string(md), want) {
		t.Errorf("report.md does not say %q:\n%.400s", want, md)
	}
}

// TestIOErrorsOneCode: an output that cannot be written is status 2 for every command
// (report said 1, gen and fmt 2).
func TestIOErrorsOneCode(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(file, "sub") // under a regular file: cannot be created
	for _, c := range [][]string{
		{"report", "testdata/sb.lit", "--sem", "A", "--out", blocked},
		{"gen", "--shape", "SB", "--sync", "fence", "--flavor", "allocate", "--locality", "local", "--out", blocked},
		{"distinguish", "--sem", "A", "--sem", "B", "--max-procs", "2", "--limit", "1", "--out", blocked},
	} {
		if code, _, stderr := runCLI(c...); code != exitBadInput || strings.Contains(stderr, "--help") {
			t.Errorf("rmacheck %s: exit %d, %s; want 2 without a hint", strings.Join(c, " "), code, stderr)
		}
	}
}

// TestNonsenseFlagsRefused: negative counts, bounds and durations are usage errors
// (status 2, naming the flag). They were taken: conform --runs -1 printed a negative
// rate and exited 0, --max-states -1 meant no bound, fuzz --time -1s ran nothing and
// exited 0.
func TestNonsenseFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"conform", "--runs", "-1", "testdata/sb.lit"}, "--runs -1"},
		{[]string{"conform", "--target", "mpich", "--timeout", "-5s", "testdata/sb.lit"}, "--timeout -5s"},
		{[]string{"run", "--max-states", "-1", "testdata/sb.lit"}, "--max-states -1"},
		{[]string{"run", "-j", "-5", "testdata/sb.lit"}, "--jobs -5"},
		{[]string{"diff", "--sem", "A", "--sem", "B", "--max-states", "-1", "testdata/sb.lit"}, "--max-states -1"},
		{[]string{"replay", "testdata/sb.lit", "--outcome", "0:r0=0", "--max-states", "-2"}, "--max-states -2"},
		{[]string{"report", "testdata/sb.lit", "--out", t.TempDir(), "--max-states", "-1"}, "--max-states -1"},
		{[]string{"gen", "--max", "-1"}, "--max -1"},
		{[]string{"distinguish", "--sem", "A", "--sem", "B", "--limit", "-1"}, "--limit -1"},
		{[]string{"fuzz", "--time", "-1s"}, "--time -1s"},
		{[]string{"fuzz", "--programs", "-3"}, "--programs -3"},
		{[]string{"cgen", "--runs", "-1", "testdata/sb.lit"}, "--runs -1"},
		{[]string{"cgen", "--jitter", "-2", "testdata/sb.lit"}, "--jitter -2"},
		{[]string{"probe", "--target", "mpich", "--timeout", "0s"}, "--timeout 0s"},
	} {
		code, stdout, stderr := runCLI(c.args...)
		if code != exitBadInput || !strings.Contains(stderr, "rmacheck: "+c.flag+": must be at least") || stdout != "" {
			t.Errorf("rmacheck %s: exit %d, stdout %q, stderr %q; want 2 and a message on %s", strings.Join(c.args, " "), code, stdout, stderr, c.flag)
		}
	}
	// Both of fuzz's bounds 0: it would run forever.
	if code, _, stderr := runCLI("fuzz", "--time", "0", "--programs", "0"); code != exitBadInput || !strings.Contains(stderr, "give one bound") {
		t.Errorf("fuzz --time 0 --programs 0: exit %d, %s", code, stderr)
	}
	// 0 keeps its documented meaning.
	if code, _, stderr := runCLI("run", "-j", "0", "--max-states", "0", "testdata/sb.lit"); code != 0 {
		t.Errorf("run -j 0 --max-states 0: exit %d, %s", code, stderr)
	}
}

// TestCompletion: cobra's completion command prints a script for each shell it knows,
// calling rmacheck's completion entry point, which completes subcommands.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, stdout, stderr := runCLI("completion", sh)
		if code != exitOK || !strings.Contains(stdout, "rmacheck") || !strings.Contains(stdout, "__complete") {
			t.Errorf("rmacheck completion %s: exit %d, stderr %q, %d bytes of script", sh, code, stderr, len(stdout))
		}
	}
	if code, stdout, _ := runCLI("__complete", "ru"); code != exitOK || !strings.Contains(stdout, "run") {
		t.Errorf("completing \"ru\": exit %d, %q; want run among the candidates", code, stdout)
	}
}
