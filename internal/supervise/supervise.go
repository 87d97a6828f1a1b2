// Package supervise runs the programs of real-MPI runs (compiler wrappers, launchers
// and their ranks) so that nothing outlives them: each in a process group of its own,
// its output kept within a cap, stopped when its context ends (Run); its files in a
// directory that goes with it (MakeDir, RemoveDir), even when rmacheck is killed (the
// guard, GuardMain); its timeout counted in the time its processes could run
// (WithClock). conform says what to run and what the output means; this package
// only keeps the processes in hand.
package supervise

import "time"

// LongestRun is the most wall time Run can take for a context of WithClock(timeout)
// before it returns: the clock's wall-time bound, then the grace a launcher has to
// stop its ranks.
func LongestRun(timeout time.Duration) time.Duration {
	return wallCap(timeout) + stopGrace
}

// stopGrace is how long a launcher has, after SIGTERM, to stop its ranks (mpiexec
// forwards the signal to them and cleans up) before its process group gets SIGKILL.
const stopGrace = 3 * time.Second
