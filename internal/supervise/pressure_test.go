package supervise

import "testing"

// TestCPUPressure: on Linux the machine's CPU pressure is known, between 0 and 1.
func TestCPUPressure(t *testing.T) {
	p, ok := CPUPressure()
	if !ok || p < 0 || p > 1 {
		t.Errorf("CPUPressure() = %v, %v", p, ok)
	}
	t.Logf("CPU pressure %.2f, loaded %v", p, Loaded())
}
