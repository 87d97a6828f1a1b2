package evidence

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/rmacheck/rmacheck/output"
)

// The status of one conformance run, as the tables and the answer's checks spell it.
const (
	statusOK            = "ok"
	statusNonConforming = "NON-CONFORMING"
	statusSpinLimit     = "SPIN-LIMIT"
	statusSkipped       = "skipped"
	statusFailed        = "failed"
	statusRefused       = "not run"
)

// recordStatus is the status of a conformance record.
func recordStatus(c output.ConformRecord) string {
	switch {
	case c.SpinLimit != "":
		return statusSpinLimit
	case c.Skipped != "":
		return statusSkipped
	case c.NonConforming > 0:
		return statusNonConforming
	}
	return statusOK
}

// ConformError is a conformance run that gave no record: `rmacheck conform` printed
// "rmacheck: FILE (SEM): message" on its standard error instead (a time-out, a
// crash, a refusal), which the report reads back from the .log beside the .json.
type ConformError struct {
	Target  string // from the log's name: mpich.log -> mpich
	File    string
	Preset  string
	Message string // the first line
	Detail  []string
}

// Refused: the run was not attempted (MPICH busy-polls: more ranks than cores).
func (e ConformError) Refused() bool { return strings.Contains(e.Message, "refusing to run") }

// Status is statusRefused or statusFailed.
func (e ConformError) Status() string {
	if e.Refused() {
		return statusRefused
	}
	return statusFailed
}

// ReadConformLog reads the errors `rmacheck conform` wrote to a log.
func ReadConformLog(path string) ([]ConformError, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	target := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var out []ConformError
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "rmacheck: ")
		if ok {
			if file, tail, ok := strings.Cut(rest, " ("); ok {
				if sem, msg, ok := strings.Cut(tail, "): "); ok {
					out = append(out, ConformError{Target: target, File: file, Preset: sem, Message: strings.TrimSpace(msg)})
					continue
				}
			}
		}
		if n := len(out); n > 0 && strings.TrimSpace(line) != "" {
			out[n-1].Detail = append(out[n-1].Detail, line)
		}
	}
	return out, sc.Err()
}

// shortError is the message without the test's name that conform puts first, and
// without the launcher's path.
func shortError(e ConformError, test string) string {
	msg := strings.TrimPrefix(e.Message, test+": ")
	return msg
}
