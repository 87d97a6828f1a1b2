package spec

// Rules is the catalogue (docs/rules.md is generated from it): the rules the model executes (R1-R6, ClassRule),
// the unified/separate window rules of node337 (U1-U5, S1-S3), and the flags an execution
// can raise (C-CONFLICT, E-*, DEADLOCK, RACE). Every error the model reports names one of
// these ids; `rmacheck explain ID` prints the entry. The paragraphs say in rmacheck's words what
// the quoted sentences of the MPI-4.1 report say; where they disagree, the report wins.
var Rules = []Rule{
	// §3: completion of RMA operations (node337; ordering of accumulates node338-339).
	{
		ID:    R1,
		Title: "Origin completion",
		Text: "An RMA operation is complete at its origin once the origin has returned from the next " +
			"complete, fence, flush, flush_all, unlock or unlock_all on that window: each of these calls " +
			"waits until the caller's relevant operations have been performed. flush_local and " +
			"flush_local_all complete only locally: they wait for the results of get, gacc, fop and cas, " +
			"not for puts and accumulates to be performed at the target. Only after local completion may " +
			"the origin reuse the operation's buffer (its source and result registers).",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "An RMA operation is completed at the origin by the ensuing call to MPI_WIN_COMPLETE, MPI_WIN_FENCE, MPI_WIN_FLUSH, MPI_WIN_FLUSH_ALL, MPI_WIN_FLUSH_LOCAL, MPI_WIN_FLUSH_LOCAL_ALL, MPI_WIN_UNLOCK, or MPI_WIN_UNLOCK_ALL that synchronizes this access at the origin."},
		},
	},
	{
		ID:    R2,
		Title: "Target completion by fence",
		Text: "When a fence completes RMA operations, the matching fence at the target does not return " +
			"until all of them have been performed there, so the target sees the epoch's updates once its " +
			"own fence has returned. This is why a fence without noprecede must wait for every member of " +
			"the window's group: a target cannot otherwise know that no more operations are coming.",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "If an RMA operation is completed at the origin by a call to MPI_WIN_FENCE then the operation is completed at the target by the matching call to MPI_WIN_FENCE by the target process."},
		},
	},
	{
		ID:    R3,
		Title: "Target completion by complete and wait",
		Text: "When complete closes a PSCW access epoch, the target's matching wait does not return " +
			"until every RMA operation of that epoch has been performed at the target, so the exposure " +
			"epoch ends only after all of its updates have landed.",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "If an RMA operation is completed at the origin by a call to MPI_WIN_COMPLETE then the operation is completed at the target by the matching call to MPI_WIN_WAIT by the target process."},
		},
	},
	{
		ID:    R4,
		Title: "Target completion by unlock and flush",
		Text: "In a passive-target epoch, unlock, unlock_all, flush and flush_all complete the caller's " +
			"operations at the target as well: each operation to the targets the call covers is performed " +
			"there before the call returns.",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "If an RMA operation is completed at the origin by a call to MPI_WIN_UNLOCK or MPI_WIN_FLUSH (with rank = target), MPI_WIN_UNLOCK_ALL, or MPI_WIN_FLUSH_ALL, then the operation is completed at the target by that same call."},
		},
	},
	{
		ID:    R5,
		Title: "Private copy becomes public",
		Text: "A store by the owner to the private copy of its window reaches the public copy at the " +
			"owner's next post, fence, unlock, unlock_all or sync on that window. In every preset these " +
			"owner calls are memory barriers of scope own. In a separate window only the cells the owner " +
			"stored since its previous R5 point are copied; in a call that also waits (R2, R3) the copy " +
			"happens at its return, after the wait and before R6, and sync does R5 first.",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "An update of a location in a private window copy in MPI process memory becomes visible in the public window copy at the latest when an ensuing call to MPI_WIN_POST, MPI_WIN_FENCE, MPI_WIN_UNLOCK, MPI_WIN_UNLOCK_ALL, or MPI_WIN_SYNC is executed on that window by the window owner."},
		},
	},
	{
		ID:    R6,
		Title: "Public copy becomes private",
		Text: "An update to the public copy of a window (by a performed RMA operation) becomes visible " +
			"in the owner's private copy at the owner's next wait, fence, lock, lock_all or sync on that " +
			"window; in every preset these owner calls are memory barriers of scope own. In a separate " +
			"window only the cells updated by performed operations since the previous R6 point are " +
			"copied; lock and lock_all copy when the lock is acquired, and calls that also wait copy at " +
			"their return, after R5.",
		Nodes: []string{"node337"},
		Class: ClassRule,
		Quotes: []Quote{
			{"node337", "An update by a put or accumulate operation to a public window copy becomes visible in the private copy in MPI process memory at the latest when an ensuing call to MPI_WIN_WAIT, MPI_WIN_FENCE, MPI_WIN_LOCK, MPI_WIN_LOCK_ALL, or MPI_WIN_SYNC is executed on that window by the window owner."},
		},
	},

	// §5: the window rules of node337.
	{
		ID:    U1,
		Title: "Store after a put/acc was performed, before it completed",
		Text: "In a unified window (aliasing windows included), a store to a cell is erroneous when it " +
			"executes after a concurrent put or accumulate to that cell was performed but before that " +
			"update completed at the target; the standard forbids the store until the update has " +
			"completed.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "Conversely, a store access to a location in a window must not be executed once a put or accumulate update to the same location in that target window has started and until the put or accumulate update completes at the target."},
		},
	},
	{
		ID:    U2,
		Title: "Load concurrent with a put/acc (racy)",
		Text: "In a unified window, a load of a cell that is concurrent with a put or accumulate to it " +
			"is valid but racy, as in polling: it returns either the old or the new value. This includes " +
			"a load after the update completed that is not ordered after it by a memory barrier at the " +
			"reader, which MPI-3.1 Example 11.9 calls unsafe even in the unified model. It is reported " +
			"as a race-class flag, not as Erroneous.",
		Nodes: []string{"node337"},
		Class: ClassRace,
		Quotes: []Quote{
			{"node337", "Accessing a location in the window that is also the target of a remote update is valid (not erroneous) but the precise result will depend on the behavior of the implementation."},
			{"node337", "This permits polling on a location for a change from zero to nonzero or for a particular value, but not polling and comparing the relative magnitude of values."},
		},
	},
	{
		ID:    U3,
		Title: "Store concurrent with a get (racy)",
		Text: "In a unified window, a store to a cell that is concurrent with a get of that cell is " +
			"valid but racy: the get returns either the old or the new value. It is reported as a " +
			"race-class flag, not as Erroneous.",
		Nodes: []string{"node337"},
		Class: ClassRace,
		Quotes: []Quote{
			{"node337", "Updating a location in the window with a store access that is also the target of a remote read (but not update) is valid (not erroneous) but the precise result will depend on the behavior of the implementation."},
		},
	},
	{
		ID:    U4,
		Title: "Concurrent conflicting window updates (unified)",
		Text: "In a unified window, concurrent updates of the same cells by RMA operations must not " +
			"conflict. This restates C-CONFLICT for window updates; rmacheck reports such an execution " +
			"under the id C-CONFLICT, not U4.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "A location in a window must not be accessed as a target of an RMA operation once an update to that location has started and until the update completes at the target."},
		},
	},
	{
		ID:    U5,
		Title: "Store before a concurrent put/acc was performed",
		Text: "In a unified window (aliasing windows included), a store to a cell is erroneous when it " +
			"is concurrent with a put or accumulate to that cell and executes before that update is " +
			"performed: the two writes are not ordered, so the final value is undefined.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "A put or accumulate must not access a target window once a store, put, or accumulate update to another (overlapping) target window has started on the same location in the target window and until the update completes at the target window."},
			{"node316", "In addition, the outcome of concurrent load/store accesses and RMA updates to the same memory location is undefined."},
		},
	},
	{
		ID:    S1,
		Title: "Local access while an update is in flight (separate)",
		Text: "In a separate window, a load or store of a cell is erroneous when it happens after an " +
			"RMA update of that cell started and before the update reached the private copy through an " +
			"R6 call of the owner, because until then the private copy may hold either value.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "A location in a window must not be accessed with load/store accesses once an update to that location has started, until the update becomes visible in the private window copy in target process memory."},
		},
	},
	{
		ID:    S2,
		Title: "Concurrent conflicting window updates (separate)",
		Text: "In a separate window, concurrent updates of the same cells of the public copy by RMA " +
			"operations must not conflict. This restates C-CONFLICT for window updates; rmacheck reports " +
			"such an execution under the id C-CONFLICT, not S2.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "A location in a window must not be accessed as a target of an RMA operation once an update to that location has started, until the update becomes visible in the public window copy."},
		},
	},
	{
		ID:    S3,
		Title: "Put/acc concurrent with a store to the window (separate)",
		Text: "In a separate window, a put or accumulate is erroneous when it is concurrent with a " +
			"local store to the same window, even when the two touch disjoint cells: an implementation " +
			"may copy the whole private copy to the public one (R5) and so overwrite the update.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "Conversely, a store to MPI process memory to a location in a window must not start once a put or accumulate update to that target window has started, until the put or accumulate update becomes visible in target process memory. In both cases, the restriction applies to operations even if they access disjoint locations in the window."},
		},
	},

	// §5: the flags an execution can raise.
	{
		ID:    CConflict,
		Title: "Conflicting concurrent RMA operations",
		Text: "Two concurrent RMA operations on overlapping cells conflict when one of them is a put or " +
			"exactly one of them is an accumulate. Concurrent accumulates do not conflict when they use " +
			"the same predefined type; the accumulate_ops info key (default same_op_no_op) lets the " +
			"implementation assume a single op or no_op per cell, so mixing ops is E-INFO instead. The " +
			"standard calls concurrent puts not erroneous but undefined; rmacheck reports them here too. " +
			"U4 and S2 restate this rule for window updates and are reported under this id.",
		Nodes: []string{"node316", "node338", "node315"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node316", "Two concurrent accesses are called conflicting if one of the two is a put operation, exactly one of them is an accumulate operation, or one of them is a get operation and the other is a local store access."},
			{"node338", "The outcome of concurrent accumulate operations to the same location with the same predefined datatype is as if the accumulate operations were done at that location in some serial order."},
		},
	},
	{
		ID:    EEpoch,
		Title: "RMA call outside an access epoch",
		Text: "An RMA call needs an access epoch to its target on that window: a fence epoch, a start " +
			"whose group holds the target, a lock of the target, or lock_all. Issuing one outside such " +
			"an epoch is erroneous, as is any access to a window after it was freed, and, under " +
			"ls_is_rma, a remote load or store outside an access epoch. A call that ends an epoch " +
			"which is not open is erroneous too: unlock or unlock_all without the lock, complete " +
			"without start, wait or test without post (a test after one returned 1 included: it " +
			"ended the exposure epoch). A request-based call (rput, " +
			"rget, racc, rgacc) needs a passive-target epoch, a lock or lock_all: request-based RMA " +
			"operations are \"only valid within a passive target epoch\" (MPI-4.1 §12.3.5).",
		Nodes: []string{"node327"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node327", "RMA communication calls with argument win must occur at an origin process only within an access epoch for win."},
		},
	},
	{
		ID:    EEpochMix,
		Title: "Incompatible epochs",
		Text: "Some epochs cannot be combined: a window locked and exposed at the same time, two lock " +
			"epochs from one origin to one target, a start while another start epoch is open, or a lock " +
			"inside a start epoch. Freeing a window with an epoch open or an operation pending is also " +
			"this error. It is checked when the call is made, before the call would block. A fence " +
			"exposure epoch runs from a fence without nosucceed until the target calls its next fence, " +
			"and exists only when RMA of that fence epoch targets the window: MPI_WIN_FENCE \"starts an " +
			"exposure epoch if it is followed by another fence call and if the local window is the " +
			"target of RMA accesses between these two fence calls\" (node328).",
		Nodes: []string{"node327", "node330", "node328"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node327", "Distinct access epochs for win at the same MPI process must be disjoint."},
			{"node330", "It is erroneous to have a window locked and exposed (in an exposure epoch) concurrently."},
			{"node328", "The call starts an exposure epoch if it is followed by another fence call and if the local window is the target of RMA accesses between these two fence calls."},
		},
	},
	{
		ID:    ESyncEpoch,
		Title: "sync or flush outside a passive-target epoch",
		Text: "MPI_Win_sync and the flush calls (flush, flush_all, flush_local, flush_local_all) are " +
			"only valid inside a passive-target epoch, that is after lock or lock_all and before the " +
			"matching unlock; calling one anywhere else is erroneous. A call that ends an epoch " +
			"which is not open is E-EPOCH.",
		Nodes: []string{"node331"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node331", "All flush and sync functions can be called only within passive target epochs."},
		},
	},
	{
		ID:    EOriginBuf,
		Title: "Origin buffer used before local completion",
		Text: "The registers of an RMA call are its origin buffer. An instruction that reads or writes " +
			"the result register of a get, gacc, fop or cas, or writes the source register of a put, acc " +
			"or gacc, is erroneous when it stands after that call and before the call that completes it " +
			"at the origin (R1) in program order. One that stands after the completing call waits for " +
			"that call to return.",
		Nodes: []string{"node337"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node337", "The update initiated by a call to MPI_GET in the origin process memory is visible when the get operation is complete at the origin (or earlier); the update initiated by a call to MPI_PUT or an accumulate procedure in the public copy of the target window is visible when the put or accumulate operation has completed at the target (or earlier)."},
			{"node316", "The local communication buffer of an RMA operation should not be updated after the operation started and until the operation completes at the origin. The local communication buffer of a get operation should not be accessed after the operation started and until the operation completes at the origin."},
		},
	},
	{
		ID:    EAssert,
		Title: "False assertion",
		Text: "An assertion given to a synchronization call must hold in the execution: nocheck on " +
			"start, post, lock or lock_all; nostore, noput, noprecede and nosucceed; and the requirement " +
			"that noprecede and nosucceed be given by all members of the group or by none. An execution " +
			"in which one is false is erroneous.",
		Nodes: []string{"node332"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node332", "The assert argument does not change program semantics if it provides correct information on the program—it is erroneous to provide incorrect information."},
		},
	},
	{
		ID:    EInfo,
		Title: "Restricting info key broken",
		Text: "An info key that lets the implementation assume a restriction must be respected: a lock " +
			"on a window created with no_locks=true, or accumulates with different ops on one cell of a " +
			"window with accumulate_ops=same_op (a no_op beside other ops included), is erroneous.",
		Nodes: []string{"node315"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node315", "As described in Section The Info Object, an implementation is free to ignore all hints; however, applications must comply with any info hints they provide that are used by the MPI implementation (i.e., are returned by a call to MPI_WIN_GET_INFO) and that place a restriction on the behavior of the application."},
			{"node309", "\"no_locks\" (boolean, default: false): if set to true, then the implementation may assume that passive target synchronization (i.e., MPI_WIN_LOCK, MPI_WIN_LOCK_ALL) will not be used on the given window."},
		},
	},
	{
		ID:    ESQFlavor,
		Title: "shared_query on a window of the wrong flavor",
		Text: "MPI_Win_shared_query is erroneous on a dynamic window, and on a window that is not " +
			"allocate_shared unless the sq_any_flavor switch is on; with it on (MPI-4.1), allocate and " +
			"create windows are allowed and the result is implementation-defined.",
		Nodes: []string{"node311"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node311", "MPI_WIN_SHARED_QUERY may only be called on windows created by a call to MPI_WIN_ALLOCATE_SHARED, MPI_WIN_ALLOCATE, or MPI_WIN_CREATE."},
		},
	},
	{
		ID:    ELSAccess,
		Title: "Remote load/store without load/store access",
		Text: "A process may load or store another rank's segment only when it has load/store access " +
			"to it: the window is allocate_shared, or a shared_query for that segment returned a size " +
			"greater than 0. A remote load or store to any other segment is erroneous.",
		Nodes: []string{"node311"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node311", "Only MPI_WIN_ALLOCATE_SHARED is guaranteed to allocate shared memory."},
			{"node311", "When the remote memory segment corresponding to a particular process cannot be accessed directly, this call returns size = 0 and a baseptr as if MPI_ALLOC_MEM was called with size = 0."},
		},
	},
	{
		ID:    ESeparateSHM,
		Title: "Load/store to another rank's segment of a separate window",
		Text: "MPI does not define the semantics of a load or store instruction to another rank's " +
			"segment of a window in the separate model, so such an access is erroneous whatever the " +
			"switches say.",
		Nodes: []string{"node311"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node311", "MPI does not define the semantics for accessing shared window memory in the separate memory model."},
		},
	},
	{
		ID:    EAlign,
		Title: "Misaligned typed access",
		Text: "A typed access is erroneous when its address is not a multiple of its type's alignment " +
			"under the window's guarantee: with align_guarantee, allocated memory is aligned to the " +
			"largest predefined type (or mpi_minimum_memory_alignment if larger); without it rmacheck " +
			"assumes 8 bytes, what common libraries return.",
		Nodes: []string{"node251"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node251", "By default, the allocated memory shall be aligned to at least the alignment required for load/store accesses of any datatype corresponding to a predefined MPI datatype."},
		},
	},
	{
		ID:    Deadlock,
		Title: "Deadlock",
		Text: "An execution is erroneous when no process can take a step and some process has not " +
			"finished its program, for example a fence, wait or recv that can never be matched.",
		Class: ClassErroneous,
	},
	{
		ID:    Livelock,
		Title: "Spin loop that never exits",
		Text: "An execution ends with spin loops (repeat ... until, await) blocked, and each blocked " +
			"loop's body, run once more against the final memory, would still find its condition false: " +
			"nothing can change what it reads, so it spins forever. (A blocked loop that would now exit " +
			"only means its last iteration ran too early: that execution is dropped, another one runs " +
			"the iteration later.) docs/semantics.md defines it (Spin loops); GenMC's liveness check of await " +
			"loops reads the same way. Under weak_progress=on a loop can also spin forever because the " +
			"operation it waits for needs the spinning process's own progress: that hang comes from the " +
			"implementation, which MPI-4.1 allows (docs/semantics.md, Progress), not from the program.",
		Class: ClassErroneous,
	},
	{
		ID:    EEpochEnd,
		Title: "Epoch still open at the end",
		Text: "A process finishes with an epoch still open on a window it has not freed: a lock, " +
			"lock_all, start or post without its unlock, unlock_all, complete or wait. MPI_Win_free (and " +
			"so MPI_Finalize) may be called only after the process has completed its involvement in RMA " +
			"on the window, so such a program is erroneous; its RMA operations need never complete.",
		Nodes: []string{"node313", "node327"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node313", "MPI_WIN_FREE can be invoked by an MPI process only after it has completed its involvement in RMA communications on window win: e.g., the MPI process has called MPI_WIN_FENCE, or called MPI_WIN_WAIT to match a previous call to MPI_WIN_POST, called MPI_WIN_COMPLETE to match a previous call to MPI_WIN_START, or called MPI_WIN_UNLOCK to match a previous call to MPI_WIN_LOCK."},
		},
	},
	{
		ID:    ETarget,
		Title: "Target rank or displacement outside the window",
		Text: "An RMA call whose target rank, computed at run time, is neither a rank of the window's " +
			"group nor MPI_PROC_NULL, or whose displacement lies outside the target's segment, is " +
			"erroneous; the model finds it when the call is issued. MPI_PROC_NULL is no error there: the " +
			"call moves no data and still needs its epoch. It is one for lock, unlock, flush and " +
			"flush_local, whose rank MPI-4.1 gives as a \"non-negative integer\" (MPI_WIN_LOCK, node330; " +
			"the flushes, node331): those calls then have no effect. A load or store through an address " +
			"register that names no memory of its rank is this error too. A literal rank or displacement " +
			"out of range is refused before any run.",
		// node316 is Communication Calls (MPI_PROC_NULL as a target of every RMA call);
		// node317, its Put subsection with the target_rank and target_disp text, is
		// inferred from the report's numbering.
		Nodes: []string{"node316", "node317"},
		Class: ClassErroneous,
		Quotes: []Quote{
			{"node316", "MPI_PROC_NULL is a valid target rank in all MPI RMA communication calls."},
			{"node317", "Furthermore, the target buffer must fit in the target window or in attached memory in a dynamic window."},
		},
	},
	{
		ID:    Race,
		Title: "Data race between plain accesses",
		Text: "Two plain loads or stores to the same cell, at least one a store, race when no chain of " +
			"memory barrier, process synchronization and memory barrier orders them (docs/semantics.md, " +
			"Concurrency). " +
			"Neither MPI nor the language defines the result, so it is reported as a race-class flag, " +
			"never as erroneous MPI.",
		Class: ClassRace,
		Quotes: []Quote{
			{"node311", "The consistency of load/store accesses from/to the shared memory as observed by the user program depends on the architecture."},
		},
	},
}
