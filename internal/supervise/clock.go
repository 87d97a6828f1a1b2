package supervise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// A library's timeout counts the time its processes could run, not wall time (issue
// 25, "CI on a starved machine": the smoke test of a CI host at load 30 on 2 cores
// failed because a neighbour was busy). The run clock charges each interval of wall
// time less the share its processes spent ready to run but without a CPU (their
// run-queue wait, /proc/PID/task/TID/schedstat), and nothing while one of them is
// stopped (SIGSTOP, a debugger); a run that sleeps, as a hung one does, is charged in
// full. Wall time is bounded too, at wallCapFactor times the timeout, so that a run
// starved without end still ends.

// wallCapFactor bounds a run's wall time, in timeouts.
const wallCapFactor = 10

// runSample is what the processes of a run had done by one moment: per task (thread
// id), the time it ran and the time it waited for a CPU; stopped when one of them is
// stopped. ok is false where nothing can be read (not Linux): then wall time counts.
type runSample struct {
	tasks   map[int]taskTimes
	stopped bool
	ok      bool
}

type taskTimes struct{ run, wait time.Duration }

// heldBack is the share of the interval from prev to cur that the run was held back,
// 0 to 1: 1 while a process is stopped, otherwise the run-queue wait of its tasks over
// their run time and wait together (0 when none of them wanted a CPU: a sleeping run
// is charged in full).
func heldBack(prev, cur runSample) float64 {
	if !cur.ok {
		return 0
	}
	if cur.stopped {
		return 1
	}
	var run, wait time.Duration
	for tid, t := range cur.tasks {
		p := prev.tasks[tid] // a task born in the interval: all of its times are
		run += max(0, t.run-p.run)
		wait += max(0, t.wait-p.wait)
	}
	if wait <= 0 {
		return 0
	}
	return min(1, float64(wait)/float64(run+wait))
}

// Account is a run's account: the time charged against its timeout, and the wall
// time that passed.
type Account struct {
	timeout time.Duration
	charged time.Duration
	wall    time.Duration
}

// advance charges dt of wall time, held back by the share h.
func (c *Account) advance(dt time.Duration, h float64) {
	c.wall += dt
	c.charged += time.Duration(float64(dt) * (1 - h))
}

// expired reports whether the run has used its timeout, or its wall time is up.
func (c *Account) expired() bool {
	return c.charged >= c.timeout || c.wall >= wallCap(c.timeout)
}

// wallCap is the most wall time a run of that timeout may take, saturating.
func wallCap(timeout time.Duration) time.Duration {
	if timeout >= math.MaxInt64/wallCapFactor {
		return math.MaxInt64
	}
	return wallCapFactor * timeout
}

// errTimeout is the cause of a run's context when its clock has expired.
var errTimeout = errors.New("the run's timeout expired")

// WithClock is a context that ends when parent does, or when the run clock of
// timeout expires (sampling this process's descendants, other than exclude's pids, at
// a tick of a twentieth of the timeout within 50 ms to 1 s), and a function that
// stops the clock and returns its account.
func WithClock(parent context.Context, timeout time.Duration) (context.Context, func() Account) {
	ctx, cancel := context.WithCancelCause(parent)
	tick := min(max(timeout/20, 50*time.Millisecond), time.Second)
	done := make(chan struct{})
	result := make(chan Account, 1)
	go func() {
		c := Account{timeout: timeout}
		defer func() { result <- c }()
		t := time.NewTicker(tick)
		defer t.Stop()
		prev, last := sampleRun(), time.Now()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				cur := sampleRun()
				c.advance(now.Sub(last), heldBack(prev, cur))
				prev, last = cur, now
				if c.expired() {
					cancel(errTimeout)
					return
				}
			}
		}
	}()
	var account Account
	stopped := false
	return ctx, func() Account {
		if !stopped {
			stopped = true
			close(done)
			account = <-result
			cancel(nil)
		}
		return account
	}
}

// describe says how the clock ran out, for a RunError's reason: the timeout, and the
// wall time when it differs from it much.
func (c Account) Describe(what string) string {
	s := fmt.Sprintf("%s did not finish within %v", what, c.timeout)
	if c.wall >= wallCap(c.timeout) {
		return s + fmt.Sprintf(" (%v of wall time, %d times the timeout, of which %v counted: its processes waited for a CPU or were stopped the rest)",
			c.wall.Round(time.Second), wallCapFactor, c.charged.Round(time.Second))
	}
	if c.wall > c.timeout+c.timeout/4 {
		return s + fmt.Sprintf(" of the time its processes could run (%v of wall time: the time they waited for a CPU or were stopped is not counted)", c.wall.Round(time.Second))
	}
	return s
}
