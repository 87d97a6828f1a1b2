package cgen

import (
	"testing"

	"github.com/rmacheck/rmacheck/reference"
)

// TestSpinLimitsAreTheReferenceRuntimes: a loop stops at the same count of passes in
// the C program as on the reference runtime, so that a spin limit means the same on
// every target (issue 25 row 10).
func TestSpinLimitsAreTheReferenceRuntimes(t *testing.T) {
	if spinLimitPlain != reference.SpinLimitPlain || spinLimitMPI != reference.SpinLimitMPI {
		t.Errorf("C program's spin bounds %d and %d, the reference runtime's %d and %d",
			spinLimitPlain, spinLimitMPI, reference.SpinLimitPlain, reference.SpinLimitMPI)
	}
}
