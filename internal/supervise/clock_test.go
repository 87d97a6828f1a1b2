package supervise

import (
	"strings"
	"testing"
	"time"
)

// TestRunClockCharges: an interval is charged in full while the run's processes
// sleep (a hung run) or run without waiting, less the share of their time they waited
// for a CPU, and not at all while one of them is stopped; and wall time is bounded at
// wallCapFactor timeouts however starved the run.
func TestRunClockCharges(t *testing.T) {
	ms := time.Millisecond
	sample := func(stopped bool, times ...time.Duration) runSample { // tid 1, 2, ...: run, wait pairs
		s := runSample{tasks: map[int]taskTimes{}, stopped: stopped, ok: true}
		for i := 0; i+1 < len(times); i += 2 {
			s.tasks[i/2+1] = taskTimes{run: times[i], wait: times[i+1]}
		}
		return s
	}
	for _, c := range []struct {
		name      string
		prev, cur runSample
		want      float64
	}{
		{"asleep", sample(false, 5*ms, 1*ms), sample(false, 5*ms, 1*ms), 0},
		{"running alone", sample(false, 0, 0, 0, 0), sample(false, 100*ms, 0, 100*ms, 0), 0},
		{"one of two ranks starved", sample(false, 0, 0, 0, 0), sample(false, 100*ms, 0, 0, 100*ms), 0.5},
		{"starved three quarters", sample(false, 10*ms, 10*ms), sample(false, 35*ms, 85*ms), 0.75},
		{"a task born in the interval", sample(false), sample(false, 20*ms, 60*ms), 0.75},
		{"stopped", sample(false, 0, 0), sample(true, 0, 0), 1},
		{"stopped, its rank busy", sample(false, 0, 0), sample(true, 100*ms, 0), 1},
		{"nothing read (not Linux)", runSample{}, runSample{}, 0},
	} {
		if got := heldBack(c.prev, c.cur); got != c.want {
			t.Errorf("%s: held back %v; want %v", c.name, got, c.want)
		}
	}
	c := Account{timeout: 10 * time.Second}
	for i := 0; i < 5; i++ {
		c.advance(time.Second, 0.5)
	}
	if c.expired() || c.charged != 2500*ms {
		t.Errorf("5 s half starved: charged %v, expired %v; want 2.5s, no", c.charged, c.expired())
	}
	for i := 0; i < 8; i++ {
		c.advance(time.Second, 0)
	}
	if !c.expired() || !strings.Contains(c.Describe("the run"), "within 10s of the time its processes could run (13s of wall time") {
		t.Errorf("after 7.5 s more charged: expired %v, %q", c.expired(), c.Describe("the run"))
	}
	c = Account{timeout: 10 * time.Second}
	for !c.expired() {
		c.advance(time.Second, 1)
	}
	if c.wall != wallCapFactor*10*time.Second || c.charged != 0 || !strings.Contains(c.Describe("the run"), "10 times the timeout") {
		t.Errorf("a run stopped for good ended after %v of wall time (%q)", c.wall, c.Describe("the run"))
	}
}
