// Package spec holds the semantics of MPI RMA as data: the switches that
// distinguish one reading of the standard from another, the named presets
// (docs/semantics.md, Presets and switches) and the catalogue of rules every error names.
//
// Nothing here executes the semantics; model/ consults these values by name.
package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Switch is one yes/no choice of the semantics (docs/semantics.md, Presets and switches).
type Switch int

const (
	LsIsRMA        Switch = iota // ls_is_rma: remote load/store on a shared window is an RMA operation (#435 option A)
	FenceLS                      // fence_ls: fence is an MB of scope all
	PostStartLS                  // post_start_ls: start waits for posts; post and start are MBs of scope all
	CompleteWaitLS               // complete_wait_ls: complete and wait are MBs of scope all
	LockLS                       // lock_ls: lock/unlock/lock_all/unlock_all are MBs of scope all
	FlushLS                      // flush_ls: flush/flush_all are MBs of scope all
	SqAnyFlavor                  // sq_any_flavor: MPI-4.1 shared_query on allocate and create windows
	AlignGuarantee               // align_guarantee: MPI-4.0 alignment of allocated memory
	WeakProgress                 // weak_progress: RMA performs and lock grants at a target only while it is in MPI (off in every preset)
	CasReplace                   // cas_replace: compare_and_swap counts as MPI_REPLACE for accumulate_ops (off in every preset)
	NumSwitches
)

// SwitchInfo describes a switch for tables, help text and reports.
type SwitchInfo struct {
	Switch  Switch
	Name    string // as spelled on the command line
	Meaning string // one line: what "on" means
	Basis   string // the sentence of the standard the switch rests on, with its node
}

// Switches lists every switch in column order of the presets table (docs/semantics.md).
var Switches = [NumSwitches]SwitchInfo{
	{LsIsRMA, "ls_is_rma", "a remote load/store on a shared window is an RMA operation (ticket #435 option A)",
		"ticket #435 option A: remote load/store in a shared window are RMA operations and need an access epoch"},
	{FenceLS, "fence_ls", "fence is a memory barrier of scope all",
		`node328: "Store accesses to shared-memory of win will become visible before the fence call returns at the target"`},
	{PostStartLS, "post_start_ls", "start waits for the matching posts; post and start are memory barriers of scope all",
		"ticket #435 option B: post/start synchronize load/store; node329 says start only delays RMA accesses"},
	{CompleteWaitLS, "complete_wait_ls", "complete and wait are memory barriers of scope all",
		`node329: "All updates to shared memory in win through load/store accesses executed during this epoch will be visible at the target when the call returns" (the next sentence says "not at the target")`},
	{LockLS, "lock_ls", "lock, unlock, lock_all and unlock_all are memory barriers of scope all",
		`node330: locks "protect load/store accesses to a locked local or shared memory window executed between the lock and unlock calls"`},
	{FlushLS, "flush_ls", "flush and flush_all are memory barriers of scope all (flush_local never is)",
		`node311: "explicitly completing outstanding store accesses (e.g., by calling MPI_WIN_FLUSH)"`},
	{SqAnyFlavor, "sq_any_flavor", "shared_query is allowed on allocate and create windows, with an implementation-defined result",
		"node311 (MPI-4.1): MPI_WIN_SHARED_QUERY may be called on windows of any flavor but dynamic; mpi-issues #23"},
	{AlignGuarantee, "align_guarantee", "allocated window memory has the MPI-4.0 alignment guarantee and honours mpi_minimum_memory_alignment",
		"node251 (MPI-4.0): allocated memory is aligned to the largest predefined type; mpi-issues #121"},
	{WeakProgress, "weak_progress", "an RMA operation performs, and a lock on a process is granted, only while that process is in MPI (an implementation without asynchronous progress); off in every preset",
		`node340 (Progress): "fuzziness" in when communication is enabled leaves open whether an RMA operation completes while its target makes no MPI call; mpi-issues #635, pmodels/mpich#5565`},
	{CasReplace, "cas_replace", "compare_and_swap counts as MPI_REPLACE for accumulate_ops=same_op_no_op, so it may meet fetch_and_op(MPI_REPLACE) on one cell (a permissive reading the standard does not state; off in every preset)",
		`node309: with accumulate_ops=same_op_no_op "the implementation will assume that all concurrent accumulate calls to the same target address will use the same operator or MPI_NO_OP"; MPI_COMPARE_AND_SWAP takes no operator (node320); reports/accumulate-ops`},
}

func (s Switch) String() string {
	if s < 0 || s >= NumSwitches {
		return fmt.Sprintf("Switch(%d)", int(s))
	}
	return Switches[s].Name
}

// Setting spells the switch set to on or off, as --sem does: "ls_is_rma=on".
func (s Switch) Setting(on bool) string {
	if on {
		return s.String() + "=on"
	}
	return s.String() + "=off"
}

// SwitchByName finds a switch by its command-line spelling.
func SwitchByName(name string) (Switch, bool) {
	for _, si := range Switches {
		if si.Name == name {
			return si.Switch, true
		}
	}
	return 0, false
}

// Set is a set of switches that are on.
type Set uint16

func (s Set) Has(sw Switch) bool { return s&(1<<sw) != 0 }

// With returns s with sw turned on or off.
func (s Set) With(sw Switch, on bool) Set {
	if on {
		return s | 1<<sw
	}
	return s &^ (1 << sw)
}

// String lists the switches that are on, comma-separated, in table order ("" for none).
func (s Set) String() string {
	var on []string
	for sw := Switch(0); sw < NumSwitches; sw++ {
		if s.Has(sw) {
			on = append(on, sw.String())
		}
	}
	return strings.Join(on, ",")
}

// Semantics is a named choice of switches: a preset, possibly with changes.
type Semantics struct {
	Name     string     // the preset's name, or with the switches changed: mpi-3.0,lock_ls=on
	Preset   PresetName // the preset it started from
	Switches Set
}

func (s Semantics) Has(sw Switch) bool { return s.Switches.Has(sw) }

// With is s with switch sw set to on, named as --sem names it
// ("mpi-4.1,weak_progress=on"); s itself when the switch is already so.
func (s Semantics) With(sw Switch, on bool) Semantics {
	if s.Has(sw) == on {
		return s
	}
	w := s
	w.Switches = s.Switches.With(sw, on)
	w.Name = s.Name + "," + sw.Setting(on)
	return w
}

// Changes spells the switches s sets otherwise than its preset, in table order and
// space-separated: "weak_progress=on" ("" for none).
func (s Semantics) Changes() string {
	base, _ := LookupPreset(s.Preset)
	var out []string
	for sw := Switch(0); sw < NumSwitches; sw++ {
		if s.Has(sw) != base.Switches.Has(sw) {
			out = append(out, sw.Setting(s.Has(sw)))
		}
	}
	return strings.Join(out, " ")
}

// PresetName names a preset of docs/semantics.md#presets-and-switches: the word --sem and an expect line's
// items start with. Its words are written once, here (Presets), and read by
// LookupPreset.
type PresetName string

// The presets, in the order of docs/semantics.md#presets-and-switches's table.
const (
	MPI30   PresetName = "mpi-3.0"
	OptionA PresetName = "A"
	OptionB PresetName = "B"
	MPI41   PresetName = "mpi-4.1"
	// DefaultPreset is the semantics of a command given none (--sem): the current
	// text of the standard.
	DefaultPreset = MPI41
)

// PresetInfo describes one preset.
type PresetInfo struct {
	Name     PresetName
	About    string
	Switches Set
}

func set(sws ...Switch) Set {
	var s Set
	for _, sw := range sws {
		s = s.With(sw, true)
	}
	return s
}

// Presets lists the presets in the order of the presets table (docs/semantics.md) (and of run's columns).
var Presets = []PresetInfo{
	{MPI30, "the reading ticket #435 started from (2014): sync calls order RMA operations only", set()},
	{OptionA, "ticket #435 option A: remote load/store on shared windows are RMA operations", set(LsIsRMA)},
	{OptionB, "ticket #435 option B: only fence and PSCW synchronize load/store", set(FenceLS, PostStartLS, CompleteWaitLS)},
	{MPI41, "the current text of the MPI-4.1 report", set(FenceLS, CompleteWaitLS, LockLS, FlushLS, SqAnyFlavor, AlignGuarantee)},
}

// PresetNames returns the preset names in table order.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = string(p.Name)
	}
	return names
}

// LookupPreset finds a preset by name.
func LookupPreset(name PresetName) (PresetInfo, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return PresetInfo{}, false
}

// Preset returns the semantics of a named preset with no changes.
func Preset(name PresetName) (Semantics, bool) {
	p, ok := LookupPreset(name)
	if !ok {
		return Semantics{}, false
	}
	return Semantics{Name: string(p.Name), Preset: p.Name, Switches: p.Switches}, true
}

// AllPresets returns the semantics of every preset, in table order.
func AllPresets() []Semantics {
	out := make([]Semantics, len(Presets))
	for i, p := range Presets {
		out[i], _ = Preset(p.Name)
	}
	return out
}

// ParseSemantics reads PRESET[,switch=on|off...], the argument of --sem.
func ParseSemantics(arg string) (Semantics, error) {
	parts := strings.Split(strings.TrimSpace(arg), ",")
	sem, ok := Preset(PresetName(strings.TrimSpace(parts[0])))
	if !ok {
		return Semantics{}, fmt.Errorf("unknown preset %q in --sem %q (presets: %s)", parts[0], arg, strings.Join(PresetNames(), ", "))
	}
	given := map[string]bool{}
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		name, val, hasEq := strings.Cut(p, "=")
		sw, ok := SwitchByName(name)
		if !ok {
			return Semantics{}, fmt.Errorf("unknown switch %q in --sem %q (switches: %s)", name, arg, strings.Join(switchNames(), ", "))
		}
		if given[name] { // as in an expect line: one value a switch (issue 38)
			return Semantics{}, fmt.Errorf("switch %s given twice in --sem %q", name, arg)
		}
		given[name] = true
		var on bool
		switch {
		case !hasEq:
			return Semantics{}, fmt.Errorf("switch %q in --sem %q needs a value: %s=on or %s=off", name, arg, name, name)
		case val == "on" || val == "true":
			on = true
		case val == "off" || val == "false":
			on = false
		default:
			return Semantics{}, fmt.Errorf("switch %s in --sem %q: expected on or off, found %q", name, arg, val)
		}
		sem.Switches = sem.Switches.With(sw, on)
	}
	if len(parts) > 1 {
		sem.Name = strings.ReplaceAll(strings.TrimSpace(arg), " ", "")
	}
	return sem, nil
}

func switchNames() []string {
	names := make([]string, 0, NumSwitches)
	for _, si := range Switches {
		names = append(names, si.Name)
	}
	sort.Strings(names)
	return names
}
