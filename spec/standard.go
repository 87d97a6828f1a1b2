package spec

// The sentences of the MPI-4.1 report that the readings rest on and that reports
// quote beside them: a switch's basis is in Switches (semantics.go); here are the
// sentences that pull two ways.

// Contradiction is two sentences of the standard that pull two ways: the node, each
// sentence as quoted, and which switch reads which.
type Contradiction struct {
	Node, First, Second, Note string
}

// Contradictions are sentences of the standard that pull two ways, with the switch
// whose reading each supports.
var Contradictions = []Contradiction{
	{"node329", `MPI_WIN_COMPLETE: "All updates to shared memory in win through load/store accesses executed during this epoch will be visible at the target when the call returns."`,
		`the next sentence: "MPI_WIN_COMPLETE enforces completion of preceding RMA operations and visibility of load/store accesses at the origin, but not at the target"`,
		"complete_wait_ls reads the first sentence; without it (mpi-3.0, A) complete orders nothing at the target."},
	{"node328 / node329", `MPI_WIN_FENCE: "Store accesses to shared-memory of win will become visible before the fence call returns at the target."`,
		`MPI_WIN_START: start only delays RMA accesses "until the target process executed the matching call to MPI_WIN_POST"`,
		"fence_ls on and post_start_ls off (mpi-4.1) give fence a guarantee for load/store that start does not get."},
}
