package spec

import (
	"fmt"
	"strings"
)

// HW is a hardware model of plain loads and stores (docs/semantics.md, Hardware models; --hw, hw= in
// expect lines). Its name is a string only where it is parsed (ParseHW) or printed
// (String); the model's steps implement each (model/deps.go, model/speculate.go,
// model/plain.go), and HardwareModels describes them.
type HW uint8

const (
	SC HW = iota
	TSO
	Relaxed
	numHW
)

// HWModels lists the hardware models, strongest first (weakest last).
var HWModels = []HW{SC, TSO, Relaxed}

// String is the model's name: sc, tso or relaxed.
func (h HW) String() string {
	if h < numHW {
		return HardwareModels[h].Name
	}
	return fmt.Sprintf("HW(%d)", uint8(h))
}

// ParseHW reads a hardware model's name.
func ParseHW(s string) (HW, error) {
	for _, h := range HWModels {
		if h.String() == s {
			return h, nil
		}
	}
	return 0, fmt.Errorf("unknown hardware model %q (expected %s)", s, hwList(" or "))
}

// MarshalText prints the model in JSON records.
func (h HW) MarshalText() ([]byte, error) {
	if h >= numHW {
		return nil, fmt.Errorf("spec: no hardware model %d", uint8(h))
	}
	return []byte(h.String()), nil
}

// UnmarshalText reads the model of a JSON record.
func (h *HW) UnmarshalText(b []byte) error {
	hw, err := ParseHW(string(b))
	if err == nil {
		*h = hw
	}
	return err
}

// HWNames lists the models' names, strongest first, joined by sep.
func HWNames(sep string) string {
	names := make([]string, len(HWModels))
	for i, h := range HWModels {
		names[i] = h.String()
	}
	return strings.Join(names, sep)
}

// hwList is "sc, tso" + last + "relaxed".
func hwList(last string) string {
	names := strings.Split(HWNames(","), ",")
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}

// Info is the model's description.
func (h HW) Info() HardwareModel { return HardwareModels[h] }

// HardwareModel is the description of a hardware model: what it allows, in a few
// sentences, and what it stands for.
type HardwareModel struct {
	Name  string
	About string // one line
	Text  string // what it allows
}

// HardwareModels are the descriptions of the --hw models, indexed by HW.
var HardwareModels = [numHW]HardwareModel{
	SC: {
		Name:  "sc",
		About: "sequential consistency: one memory, program order",
		Text: "Each load and store acts on memory at once, in program order: the executions " +
			"are the interleavings of the processes' programs. No real multicore machine is this " +
			"strong; sc shows what a program means when the hardware reorders nothing.",
	},
	TSO: {
		Name:  "tso",
		About: "total store order (x86-64): store buffers",
		Text: "Program order, but each process's stores enter a FIFO store buffer that drains to " +
			"memory at any later step; a load reads its own newest buffered store to the cell, " +
			"else memory. So a store can be seen after a later load of another cell (store " +
			"buffering, SB), as on x86-64. Every MPI call, barriers included, first drains the " +
			"caller's buffer, as shared-memory MPI libraries do with their atomic instructions. " +
			"The reference runtime is compared with tso on amd64.",
	},
	Relaxed: {
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
			"always judged on relaxed, whatever --hw says (docs/semantics.md, Concurrency).",
	},
}
