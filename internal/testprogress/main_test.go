package main

import (
	"bytes"
	"strings"
	"testing"
)

// A stream of two packages, one passing and one failing, prints what go test prints
// without -v: the passing package's ok line alone, the failing test's output and
// the failing package's FAIL lines, and reports the failure.
func TestSummaryPrintsWhatGoTestPrints(t *testing.T) {
	stream := `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestX"}
{"Action":"output","Package":"m/a","Test":"TestX","Output":"=== RUN   TestX\n"}
{"Action":"output","Package":"m/a","Test":"TestX","Output":"    a_test.go:3: a log of a passing test\n"}
{"Action":"output","Package":"m/a","Test":"TestX","Output":"--- PASS: TestX (0.00s)\n"}
{"Action":"pass","Package":"m/a","Test":"TestX"}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.1s\n"}
{"Action":"pass","Package":"m/a"}
{"Action":"start","Package":"m/b"}
{"Action":"run","Package":"m/b","Test":"TestY"}
{"Action":"output","Package":"m/b","Test":"TestY","Output":"=== RUN   TestY\n"}
{"Action":"output","Package":"m/b","Test":"TestY","Output":"    b_test.go:5: boom\n"}
{"Action":"output","Package":"m/b","Test":"TestY","Output":"--- FAIL: TestY (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestY"}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b\t0.2s\n"}
{"Action":"fail","Package":"m/b"}
{"ImportPath":"m/c","Action":"build-output","Output":"c.go:1:1: syntax error\n"}
{"ImportPath":"m/c","Action":"build-fail"}
`
	var out, status bytes.Buffer
	s := newSummary(&out, &status, 3, false)
	failed := s.read(strings.NewReader(stream))
	want := "ok  \tm/a\t0.1s\n" +
		"    b_test.go:5: boom\n--- FAIL: TestY (0.00s)\nFAIL\nFAIL\tm/b\t0.2s\n" +
		"c.go:1:1: syntax error\n"
	if out.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", out.String(), want)
	}
	if !failed {
		t.Error("a failing package was not reported")
	}
	if s.done != 2 {
		t.Errorf("%d packages counted done, want 2", s.done)
	}
}

// On a terminal the status line counts the packages done and names those running.
func TestSummaryStatusLine(t *testing.T) {
	var out, status bytes.Buffer
	s := newSummary(&out, &status, 25, true)
	s.read(strings.NewReader(`{"Action":"start","Package":"github.com/rmacheck/rmacheck/conform/cgen"}
{"Action":"start","Package":"m/a"}
{"Action":"pass","Package":"m/a"}
`))
	if got := status.String(); !strings.Contains(got, "1/25 packages, 0s elapsed; running: conform/cgen (0s)") {
		t.Errorf("status %q lacks the count and the running package", got)
	}
	if !strings.HasSuffix(status.String(), "\r\033[K") {
		t.Errorf("status line not erased at the end: %q", status.String())
	}
}

// A test binary that dies inside a test (a panic, -timeout, SIGQUIT) prints its
// stack dump as that test's output, and no "fail" event of the test follows: the
// dump is printed when the package fails, under the test's name (it was dropped,
// so a package hung in CI said only "FAIL").
func TestSummaryPrintsUnfinishedTests(t *testing.T) {
	stream := `{"Action":"start","Package":"m/d"}
{"Action":"run","Package":"m/d","Test":"TestHang"}
{"Action":"output","Package":"m/d","Test":"TestHang","Output":"=== RUN   TestHang\n"}
{"Action":"output","Package":"m/d","Test":"TestHang","Output":"SIGQUIT: quit\n"}
{"Action":"output","Package":"m/d","Test":"TestHang","Output":"goroutine 7 [chan receive]:\n"}
{"Action":"output","Package":"m/d","Output":"FAIL\tm/d\t834.0s\n"}
{"Action":"fail","Package":"m/d"}
`
	var out, status bytes.Buffer
	s := newSummary(&out, &status, 1, false)
	if !s.read(strings.NewReader(stream)) {
		t.Error("a failing package was not reported")
	}
	want := "FAIL\tm/d\t834.0s\n--- UNFINISHED: TestHang (m/d)\nSIGQUIT: quit\ngoroutine 7 [chan receive]:\n"
	if out.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", out.String(), want)
	}
}
