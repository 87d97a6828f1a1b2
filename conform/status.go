package conform

import (
	"errors"
	"fmt"
	"slices"
)

// Status is how one conformance run went, as records, reports and the answers'
// checks spell it: the words are printed by String and read by ParseStatus only.
type Status uint8

const (
	StatusOK            Status = iota // a histogram, every outcome allowed
	StatusNonConforming               // a histogram with an outcome the model forbids
	StatusSpinLimit                   // the program stopped at its spin limit: no histogram
	StatusSkipped                     // not run: the model finds the test erroneous
	StatusFailed                      // the target could not run the test
	StatusRefused                     // not attempted (a busy-polling library: more ranks than cores)
	numStatuses
)

var statusWords = [numStatuses]string{StatusOK: "ok", StatusNonConforming: "NON-CONFORMING",
	StatusSpinLimit: "SPIN-LIMIT", StatusSkipped: "skipped", StatusFailed: "failed", StatusRefused: "not run"}

func (s Status) String() string {
	if s < numStatuses {
		return statusWords[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// ParseStatus reads a status word.
func ParseStatus(word string) (Status, error) {
	if i := slices.Index(statusWords[:], word); i >= 0 {
		return Status(i), nil
	}
	return 0, fmt.Errorf("unknown status %q", word)
}

// MarshalText prints the status in records.
func (s Status) MarshalText() ([]byte, error) {
	if s >= numStatuses {
		return nil, fmt.Errorf("conform: no status %d", uint8(s))
	}
	return []byte(statusWords[s]), nil
}

// UnmarshalText reads the status of a record.
func (s *Status) UnmarshalText(b []byte) error {
	st, err := ParseStatus(string(b))
	if err == nil {
		*s = st
	}
	return err
}

// Status is how the run that gave the report went.
func (rep *Report) Status() Status {
	switch {
	case rep.SpinLimit != "":
		return StatusSpinLimit
	case rep.Skipped != "":
		return StatusSkipped
	case rep.NonConforming > 0:
		return StatusNonConforming
	}
	return StatusOK
}

// ErrorStatus is the status of a run that gave an error instead of a report: refused
// when the target declined to start it, failed otherwise.
func ErrorStatus(err error) Status {
	var re *RunError
	if errors.As(err, &re) && re.Refused {
		return StatusRefused
	}
	return StatusFailed
}
