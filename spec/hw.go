package spec

// HardwareModel is one of the hardware models of plain loads and stores (SEMANTICS.md
// §2, --hw): what it allows, in a few sentences, and what it stands for.
type HardwareModel struct {
	Name  string
	About string // one line
	Text  string // what it allows
}

// HardwareModels are the --hw models, strongest first. The model's steps implement
// them (model/deps.go, model/speculate.go, model/plain.go); this is their description.
var HardwareModels = []HardwareModel{
	{
		Name:  "sc",
		About: "sequential consistency: one memory, program order",
		Text: "Each load and store acts on memory at once, in program order: the executions " +
			"are the interleavings of the processes' programs. No real multicore machine is this " +
			"strong; sc shows what a program means when the hardware reorders nothing.",
	},
	{
		Name:  "tso",
		About: "total store order (x86-64): store buffers",
		Text: "Program order, but each process's stores enter a FIFO store buffer that drains to " +
			"memory at any later step; a load reads its own newest buffered store to the cell, " +
			"else memory. So a store can be seen after a later load of another cell (store " +
			"buffering, SB), as on x86-64. Every MPI call, barriers included, first drains the " +
			"caller's buffer, as shared-memory MPI libraries do with their atomic instructions. " +
			"The reference runtime is compared with tso on amd64.",
	},
	{
		Name:  "relaxed",
		About: "the weakest model (ARM, POWER and beyond): the default, since MPI promises no more",
		Text: "A process may execute an instruction before earlier ones, unless one of them " +
			"blocks it: an access to the same cell, a register it reads or writes, an MB whose " +
			"scope holds the cell, or, for a store, RMA or MPI call, the instruction its guard " +
			"or a loop above it depends on (no store is speculative: no value out of thin air). " +
			"Loads speculate: a guarded load, or a load after a spin loop, may read before the " +
			"guard or the loop's exit is known, and its register and flags take effect only when " +
			"the guard holds (ARM and POWER speculate past branches; herd7 allows " +
			"MP+dmb.sy+ctrl). MPI calls never pass each other. Stores are multi-copy atomic, and " +
			"a load may read its own process's earlier store before it executes (store " +
			"forwarding), so relaxed allows everything tso allows. Races and conflicts are " +
			"always judged on relaxed, whatever --hw says (SEMANTICS.md §7).",
	},
}

// LookupHardwareModel finds a hardware model by name.
func LookupHardwareModel(name string) (HardwareModel, bool) {
	for _, h := range HardwareModels {
		if h.Name == name {
			return h, true
		}
	}
	return HardwareModel{}, false
}
