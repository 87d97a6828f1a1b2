package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Off a terminal the progress line is a line of its own, once a minute after the
// first: a long run's log shows it is alive, a short run's stays clean.
func TestProgressLogOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "tests", 4, false)
	p.start = time.Now().Add(-61 * time.Second)
	p.show(1, "SB")
	p.show(2, "MP") // within a minute of the last line: none
	if want := regexp.MustCompile(`^rmacheck: 1/4 tests, 1m1s elapsed, ETA 3m3s  SB\n$`); !want.MatchString(b.String()) {
		t.Errorf("off a terminal after a minute: %q, want one line for 1/4", b.String())
	}
	if q := newProgress(&b, "tests", 4, true); q.log != nil || q.w != nil {
		t.Errorf("quiet (--json) progress writes")
	}
}

// Off a terminal the progress line is not written in the first minute.
func TestProgressSilentOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "tests", 4, false)
	p.show(1, "SB")
	p.showOf(2, 4, "MP")
	p.clear()
	if b.Len() != 0 {
		t.Errorf("progress wrote %q to a buffer", b.String())
	}
}

// On a terminal the line says k/n, the elapsed time and the time left, names what
// is being done, rewrites itself in place, and is erased by clear.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, unit: "candidates", total: 10, start: time.Now().Add(-4 * time.Second)}
	p.show(4, "MP+sync")
	want := regexp.MustCompile(`^\r\033\[K4/10 candidates, 4s elapsed, ETA 6s  MP\+sync$`)
	if !want.MatchString(b.String()) {
		t.Errorf("progress line %q, want 4/10, 4s elapsed, ETA 6s and the name", b.String())
	}
	b.Reset()
	p.show(5, "SB") // within progressEvery of the last line: not redrawn
	if b.Len() != 0 {
		t.Errorf("progress redrawn at once: %q", b.String())
	}
	p.clear()
	if b.String() != "\r\033[K" {
		t.Errorf("clear wrote %q", b.String())
	}
	b.Reset()
	p.show(10, "last") // all done: the results follow, no line
	if strings.Contains(b.String(), "10/10") {
		t.Errorf("progress shown when done: %q", b.String())
	}
}
