package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows on a terminal how far a long command is, on one line of standard
// error that it rewrites: "12/740 candidates, 5s elapsed, ETA 27s  NAME". Every long
// command (run, conform, distinguish, report, gen) shows its progress this one way.
// Off a terminal (a CI log) it writes the same line, as a line of its own, once a
// minute and only after the first minute: a long run gives a sign of life, a short
// one stays clean. With --json it prints nothing.
type progress struct {
	w     io.Writer // a terminal; nil: none, or quiet
	log   io.Writer // off a terminal: a line a minute; nil: quiet
	unit  string    // what is counted: "tests", "candidates", "files"
	total int
	start time.Time

	mu    sync.Mutex // report's distinguish searches run two at a time
	shown time.Time  // when the line was last written
}

// progressEvery is how often the line is rewritten at most: often enough to see it
// move, not so often that a terminal spends its time redrawing it.
const progressEvery = 100 * time.Millisecond

func newProgress(w io.Writer, unit string, total int, quiet bool) *progress {
	p := &progress{unit: unit, total: total, start: time.Now()}
	switch {
	case quiet:
	case isTerminal(w):
		p.w = w
	default:
		p.log = w
	}
	return p
}

// isTerminal reports whether w is a character device (a terminal), not a file or pipe.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminalWidth is the width of text output on a terminal: lines that fit beside
// another window, and in a report's code block.
const terminalWidth = 100

// outputWidth is the width text output wraps at on w: the flag's when given, else
// terminalWidth on a terminal and none (0) off one, where a log is read by grep.
func outputWidth(w io.Writer, flag int) int {
	switch {
	case flag > 0:
		return flag
	case isTerminal(w):
		return terminalWidth
	}
	return 0
}

// show writes the line for done units of total (done may be fractional: a test
// half run), naming what is being done now.
func (p *progress) show(done float64, name string) {
	if p.w == nil && p.log == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	every, w, format := progressEvery, p.w, "\r\033[K%d/%d %s, %v elapsed, ETA %s  %.40s"
	if w == nil {
		every, w, format = logEvery, p.log, "rmacheck: %d/%d %s, %v elapsed, ETA %s  %.40s\n"
		if time.Since(p.start) < logEvery {
			return
		}
	}
	if done >= float64(p.total) || time.Since(p.shown) < every {
		return
	}
	p.shown = time.Now()
	elapsed := time.Since(p.start)
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(elapsed) / done * (float64(p.total) - done))).Round(time.Second).String()
	}
	fmt.Fprintf(w, format, int(done), p.total, p.unit, elapsed.Round(time.Second), eta, name)
}

// logEvery is how often the line is written off a terminal: a sign of life in a log
// that a minute's silence would leave in doubt, not a log full of it.
const logEvery = time.Minute

// showOf is show for a callback that knows the total only as it runs (done of
// total units, the name of the one being done).
func (p *progress) showOf(done, total int, name string) {
	p.mu.Lock()
	p.total = total
	p.mu.Unlock()
	p.show(float64(done), name)
}

// clear erases the line, before the command prints its results.
func (p *progress) clear() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
	p.shown = time.Time{}
}
