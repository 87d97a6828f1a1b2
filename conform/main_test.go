package conform

import (
	"github.com/rmacheck/rmacheck/internal/supervise"
	"os"
	"testing"
)

// TestMain lets MPI runs of the tests start their guard, which is this test binary
// again (GuardMain).
func TestMain(m *testing.M) {
	supervise.GuardMain()
	os.Exit(m.Run())
}
