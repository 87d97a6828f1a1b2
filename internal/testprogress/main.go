// Command testprogress runs `go test -json` with its arguments and prints what `go
// test` prints without -v (each package's "ok", "FAIL" or "?" line as it finishes,
// and the output of every failing test), so CI reads make test's closing lines as
// before, while showing which packages are still running: on a terminal a line of
// standard error rewritten in place (k/n packages, elapsed, the running ones), and
// off a terminal a "still running" line every minute, so a loaded machine's long
// packages (conform/cgen: many minutes) are never a silent wait.
//
//	go run ./internal/testprogress -timeout 30m ./...
//
// Its exit status is go test's.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	goTool := os.Getenv("GO")
	if goTool == "" {
		goTool = "go"
	}
	cmd := exec.Command(goTool, args...)
	cmd.Stderr = os.Stderr
	events, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
	s := newSummary(os.Stdout, os.Stderr, countPackages(goTool, os.Args[1:]), isTerminal(os.Stderr))
	stop := s.tick(time.Second)
	failed := s.read(events)
	stop()
	err = cmd.Wait()
	switch {
	case err != nil:
		if exit, ok := err.(*exec.ExitError); ok {
			os.Exit(exit.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	case failed:
		os.Exit(1)
	}
}

// countPackages is how many packages the patterns among args (those starting with
// "./") name, 0 when unknown.
func countPackages(goTool string, args []string) int {
	var patterns []string
	for _, a := range args {
		if strings.HasPrefix(a, "./") {
			patterns = append(patterns, a)
		}
	}
	if len(patterns) == 0 {
		return 0
	}
	out, err := exec.Command(goTool, append([]string{"list"}, patterns...)...).Output()
	if err != nil {
		return 0
	}
	return strings.Count(string(out), "\n")
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// event is a line of go test -json: a test event, or a build event (ImportPath).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// summary follows the packages of one go test -json stream.
type summary struct {
	out, status io.Writer
	total       int  // packages expected, 0 when unknown
	terminal    bool // status is a terminal: rewrite one line

	mu       sync.Mutex
	start    time.Time
	running  map[string]time.Time // package -> when it started
	done     int
	testOut  map[testKey][]string // each running test's output so far
	failed   bool
	lastNote time.Time // off a terminal, when "still running" was last printed
}

func newSummary(out, status io.Writer, total int, terminal bool) *summary {
	return &summary{out: out, status: status, total: total, terminal: terminal, start: time.Now(),
		running: map[string]time.Time{}, testOut: map[testKey][]string{}, lastNote: time.Now()}
}

// read handles every event of the stream and reports whether something failed.
func (s *summary) read(r io.Reader) bool {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			s.print(sc.Text() + "\n") // not an event: pass it on
			continue
		}
		s.handle(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearStatus()
	return s.failed
}

func (s *summary) handle(e event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := testKey{e.Package, e.Test}
	switch {
	case e.Action == "build-output":
		s.printLocked(e.Output)
	case e.Action == "build-fail":
		s.failed = true
	case e.Action == "start":
		s.running[e.Package] = time.Now()
	case e.Action == "output" && e.Test != "":
		if !strings.HasPrefix(e.Output, "=== ") { // RUN, PAUSE, CONT: -v's lines
			s.testOut[key] = append(s.testOut[key], e.Output)
		}
	case e.Action == "output":
		// the package's own lines: "ok  pkg 1.2s", "FAIL", "--- FAIL", panics
		if !strings.HasPrefix(e.Output, "=== ") && e.Output != "PASS\n" {
			s.printLocked(e.Output)
		}
	case e.Action == "fail" && e.Test != "":
		s.failed = true
		s.printLocked(strings.Join(s.testOut[key], ""))
		delete(s.testOut, key)
	case (e.Action == "pass" || e.Action == "skip") && e.Test != "":
		delete(s.testOut, key)
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		if e.Action == "fail" {
			s.failed = true
			s.printUnfinished(e.Package)
		}
		delete(s.running, e.Package)
		s.done++
		s.showStatus()
	}
}

// testKey names a test of a package.
type testKey struct{ pkg, test string }

// printUnfinished prints the output of the package's tests that never ended: a
// test binary that panicked, hit -timeout or was sent SIGQUIT prints its stack
// dump as the output of the test that was running, and no "fail" event of that
// test follows.
func (s *summary) printUnfinished(pkg string) {
	var keys []testKey
	for k := range s.testOut {
		if k.pkg == pkg {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].test < keys[j].test })
	for _, k := range keys {
		s.printLocked(fmt.Sprintf("--- UNFINISHED: %s (%s)\n", k.test, k.pkg) + strings.Join(s.testOut[k], ""))
		delete(s.testOut, k)
	}
}

// print passes a line on, the status line erased first and redrawn after.
func (s *summary) print(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.printLocked(text)
}

func (s *summary) printLocked(text string) {
	if text == "" {
		return
	}
	s.clearStatus()
	io.WriteString(s.out, text)
	s.showStatus()
}

// tick redraws the status every period until the returned stop is called.
func (s *summary) tick(period time.Duration) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				s.mu.Lock()
				s.showStatus()
				s.mu.Unlock()
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// statusLine is "12/25 packages, 2m10s elapsed; running: conform/cgen (1m50s), ...".
func (s *summary) statusLine() string {
	total := "?"
	if s.total > 0 {
		total = fmt.Sprint(s.total)
	}
	var names []string
	for p := range s.running {
		names = append(names, p)
	}
	sort.Slice(names, func(i, j int) bool { return s.running[names[i]].Before(s.running[names[j]]) })
	var run []string
	for _, p := range names {
		run = append(run, fmt.Sprintf("%s (%v)", shortName(p), time.Since(s.running[p]).Round(time.Second)))
	}
	line := fmt.Sprintf("%d/%s packages, %v elapsed", s.done, total, time.Since(s.start).Round(time.Second))
	if len(run) > 0 {
		line += "; running: " + strings.Join(run, ", ")
	}
	return line
}

// shortName drops the module path: github.com/rmacheck/rmacheck/conform/cgen is conform/cgen.
func shortName(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/rmacheck/rmacheck/")
}

// showStatus writes the status: on a terminal always (one line, rewritten), off a
// terminal once a minute while packages run.
func (s *summary) showStatus() {
	switch {
	case s.terminal:
		fmt.Fprintf(s.status, "\r\033[K%.160s", s.statusLine())
	case len(s.running) > 0 && time.Since(s.lastNote) >= time.Minute:
		s.lastNote = time.Now()
		fmt.Fprintf(s.status, "still running: %s\n", s.statusLine())
	}
}

func (s *summary) clearStatus() {
	if s.terminal {
		fmt.Fprint(s.status, "\r\033[K")
	}
}
