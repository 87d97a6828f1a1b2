package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/internal/corpus"
)

// The examples of the documentation are checked against the real output, so that a
// change of output that does not update them fails here: every fenced block that
// shows "$ rmacheck ARGS" is run (in-process, from the module root) and its output
// (stdout, then stderr) compared with the lines under it, and every "$ cat FILE" with the file. In the
// expected text a line "..." stands for any number of lines; the numbers of
// "Time" and "Rate" lines, and conform's note that the machine was loaded, are not
// compared. `go test ./cmd/rmacheck -update` rewrites the
// outputs of blocks without "..." from the real output.

// docExample is one "$ ..." line of a fenced block and the output shown under it.
type docExample struct {
	line    int      // of the "$" line in the file, 1-based
	command []string // the words after "$", shell-split
	want    []string // the output lines shown
}

// commandsPageRun are the commands whose examples docs/commands.md shows literally
// and that run in a moment; the others (real MPI, long searches, files written,
// counts that vary from run to run, a file that stands for the reader's own) are
// shown abridged there. Every command of the tutorial runs.
var commandsPageRun = map[string]bool{"explain": true, "run": true, "replay": true, "layout": true, "diff": true, "fmt": true}

// firstLink finds a Markdown link's target.
var firstLink = regexp.MustCompile(`\]\(([^)]+)\)`)

func TestTutorialExamples(t *testing.T) {
	t.Chdir(corpus.Root())
	checkDocExamples(t, "docs/tutorial.md", func([]string) bool { return true })
}

// TestReadmeLeadsToTheTutorial: a new user's first link is the tutorial.
func TestReadmeLeadsToTheTutorial(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(corpus.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if first := firstLink.FindSubmatch(readme); first == nil || string(first[1]) != "docs/tutorial.md" {
		t.Errorf("the README's first link is %q, want the tutorial (docs/tutorial.md)", first)
	}
}

func TestCommandsPageExamples(t *testing.T) {
	t.Chdir(corpus.Root())
	checkDocExamples(t, "docs/commands.md", func(args []string) bool { return commandsPageRun[args[0]] })
}

// TestTutorialFilesMeetTheirExpectations: every example file of the tutorial states
// what it must give under each preset, and gives it.
func TestTutorialFilesMeetTheirExpectations(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Root(), "docs", "tutorial", "*.lit"))
	if len(files) < 6 {
		t.Fatalf("docs/tutorial holds %d .lit files, want the tutorial's six idioms at least", len(files))
	}
	for _, f := range files {
		code, stdout, stderr := runCLI("run", f)
		if code != 0 || !strings.Contains(stdout, ", 0 failed") {
			t.Errorf("run %s: exit %d\n%s%s", f, code, stdout, stderr)
		}
		if code, _, _ := runCLI("fmt", "-l", f); code != 0 {
			t.Errorf("%s is not in canonical form (rmacheck fmt -w)", f)
		}
	}
}

// checkDocExamples runs the examples of a Markdown file whose command wants (run
// decides by the words after "rmacheck") and compares their output.
func checkDocExamples(t *testing.T, path string, run func(args []string) bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	examples := docExamples(lines)
	ran := 0
	var rewrites []rewrite
	for _, ex := range examples {
		got, ok := exampleOutput(t, path, ex, run)
		if !ok {
			continue
		}
		ran++
		if matchLines(maskLines(ex.want), maskLines(got)) {
			continue
		}
		if *update && !contains(ex.want, "...") {
			rewrites = append(rewrites, rewrite{ex.line, len(ex.want), got})
			continue
		}
		t.Errorf("%s:%d: $ %s: the output shown differs from the real one (-shown +real):\n%s",
			path, ex.line, strings.Join(ex.command, " "), cmp.Diff(strings.Join(ex.want, "\n"), strings.Join(got, "\n")))
	}
	if ran == 0 {
		t.Fatalf("%s: no example ran", path)
	}
	if len(rewrites) > 0 {
		writeRewrites(t, path, lines, rewrites)
	}
}

// exampleOutput runs one example: the output lines of "rmacheck ARGS" or the lines
// of "cat FILE"; ok is false for an example not to run.
func exampleOutput(t *testing.T, path string, ex docExample, run func([]string) bool) (out []string, ok bool) {
	switch {
	case len(ex.command) >= 2 && ex.command[0] == "rmacheck" && run(ex.command[1:]):
		_, stdout, stderr := runCLI(ex.command[1:]...)
		return outputLines(stdout + stderr), true
	case len(ex.command) == 2 && ex.command[0] == "cat":
		data, err := os.ReadFile(ex.command[1])
		if err != nil {
			t.Errorf("%s:%d: %v", path, ex.line, err)
			return nil, false
		}
		return outputLines(string(data)), true
	}
	return nil, false
}

func outputLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// docExamples finds the "$ ..." lines of the fenced blocks and the lines under each,
// up to the next "$" line or the end of the block.
func docExamples(lines []string) []docExample {
	var out []docExample
	inBlock := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "```"):
			inBlock = !inBlock
		case inBlock && strings.HasPrefix(l, "$ "):
			out = append(out, docExample{line: i + 1, command: shellWords(l[2:])})
		case inBlock && len(out) > 0 && out[len(out)-1].line+len(out[len(out)-1].want) == i:
			out[len(out)-1].want = append(out[len(out)-1].want, l)
		}
	}
	return out
}

// shellWords splits a command line as a POSIX shell does for the quoting the
// examples use ('...', "...", and a # comment after a space).
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				end = len(s) - i - 1
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// loadNote is conform's note on stderr that the machine was loaded during the runs.
var loadNote = regexp.MustCompile(`: the ranks waited for a CPU \d+% of the time`)

// maskLines hides in each line what varies from run to run (maskTimes), and drops
// the notes that depend on the machine's load.
func maskLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !loadNote.MatchString(l) {
			out = append(out, maskTimes(l))
		}
	}
	return out
}

// matchLines reports whether got is want with each "..." line standing for any
// number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchLines(want[1:], got[1:])
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// rewrite replaces the n lines after line (1-based, the "$" line) with lines.
type rewrite struct {
	line, n int
	lines   []string
}

// writeRewrites puts the real outputs in place of the shown ones (go test -update).
func writeRewrites(t *testing.T, path string, lines []string, rs []rewrite) {
	var out []string
	next := 0
	for _, r := range rs {
		out = append(out, lines[next:r.line]...)
		out = append(out, r.lines...)
		next = r.line + r.n
	}
	out = append(out, lines[next:]...)
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d examples rewritten from the real output\n", path, len(rs))
}
