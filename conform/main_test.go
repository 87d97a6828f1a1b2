package conform

import (
	"os"
	"testing"
)

// TestMain lets MPI runs of the tests start their guard, which is this test binary
// again (GuardMain).
func TestMain(m *testing.M) {
	GuardMain()
	os.Exit(m.Run())
}
