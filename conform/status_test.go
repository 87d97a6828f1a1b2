package conform

import (
	"fmt"
	"testing"
)

// TestStatus: each status prints and parses back; a report's status follows what the
// run gave; an error's status is refused only for a RunError that says so.
func TestStatus(t *testing.T) {
	words := map[Status]string{StatusOK: "ok", StatusNonConforming: "NON-CONFORMING", StatusSpinLimit: "SPIN-LIMIT",
		StatusSkipped: "skipped", StatusFailed: "failed", StatusRefused: "not run"}
	for st := StatusOK; st < numStatuses; st++ {
		if st.String() != words[st] {
			t.Errorf("%d.String() = %q, want %q", uint8(st), st, words[st])
		}
		if got, err := ParseStatus(words[st]); err != nil || got != st {
			t.Errorf("ParseStatus(%q) = %v, %v", words[st], got, err)
		}
	}
	if _, err := ParseStatus("OK"); err == nil {
		t.Error("ParseStatus accepted OK")
	}
	reports := []struct {
		rep  Report
		want Status
	}{
		{Report{}, StatusOK},
		{Report{NonConforming: 2}, StatusNonConforming},
		{Report{SpinLimit: "SPIN-LIMIT P1 row 2", NonConforming: 1}, StatusSpinLimit},
		{Report{Skipped: "skipped: erroneous"}, StatusSkipped},
	}
	for _, tt := range reports {
		if got := tt.rep.Status(); got != tt.want {
			t.Errorf("%+v: status %v, want %v", tt.rep, got, tt.want)
		}
	}
	errs := []struct {
		err  error
		want Status
	}{
		{&RunError{Lib: "MPICH", Reason: "busy-polls", Refused: true}, StatusRefused},
		{fmt.Errorf("run: %w", &RunError{Lib: "MPICH", Reason: "busy-polls", Refused: true}), StatusRefused},
		{&RunError{Lib: "MPICH", Reason: "refusing to run, said the text"}, StatusFailed},
		{fmt.Errorf("stopped after 10 states"), StatusFailed},
	}
	for _, tt := range errs {
		if got := ErrorStatus(tt.err); got != tt.want {
			t.Errorf("ErrorStatus(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
