// Package model is the operational semantics of MPI RMA (docs/semantics.md):
// a litmus test compiled with a semantics and a hardware model into a Program, a
// compact State (a fixed-width byte string), and the steps that lead from one
// state to the next.
//
// The model is a pure function from (program, state) to successor states: the
// explorer, the replayer and the reference runtime are drivers of the same
// functions, so a trace from one replays in another.
package model

import (
	"bytes"
	"encoding/binary"
	"reflect"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Limits of a compiled program: they keep every per-process set a machine word.
const (
	MaxProcs  = litmus.MaxProcs
	MaxInstrs = litmus.MaxInstrs // per process
	MaxCells  = litmus.MaxCells
	MaxRegs   = litmus.MaxRegs // per process
)

// Kind is what an instruction does once the semantics is fixed: the same .lit
// instruction compiles to a plain store or to a put, depending on ls_is_rma.
type Kind uint8

const (
	KPlainLoad   Kind = iota // plain load (local, or remote on a shared window)
	KPlainStore              // plain store
	KRemoteLoad              // ls_is_rma: a remote load that acts as a blocking get
	KRemoteStore             // ls_is_rma: a remote store that acts as a put
	KRMA                     // put/get/acc/gacc/fop/cas and request forms: issue now, perform later
	KWaitReq
	KFence
	KPost
	KStart
	KComplete
	KWait
	KLock
	KUnlock
	KLockAll
	KUnlockAll
	KFlush      // flush, flush_all
	KFlushLocal // flush_local, flush_local_all
	KSync
	KSharedQuery
	KBarrier
	KSend
	KRecv
	KFree
	KArith   // r = V, r = V + V, r = V - V
	KUntil   // the exit test of a spin loop (repeat ... until COND, await)
	KTest    // r = test W: MPI_Win_test, a wait that returns 0 instead of blocking
	KTestReq // r = testreq q: MPI_Test, a waitreq that returns 0 instead of blocking
	KAttach  // r = attach W N: MPI_Win_attach of N fresh cells, r their address (MPI_Get_address)
	KDetach  // detach W r: MPI_Win_detach of the region at r
)

// Operand is an immediate or a register of the executing process.
type Operand struct {
	Reg int8 // -1: immediate
	Imm int64
}

// Instr is one compiled instruction.
type Instr struct {
	Src   *litmus.Instr
	Row   int    // 1-based row of the process table
	Text  string // the instruction as written (canonical), for traces
	Kind  Kind
	Op    litmus.Op
	IsMPI bool // MPI calls never pass each other (docs/semantics.md#hardware-models)
	// TwoPhase calls arrive (release half) in one step and return in another,
	// because other processes wait for their arrival: fence, barrier, free.
	TwoPhase bool

	GuardReg int8 // -1: no guard
	GuardEq  bool
	GuardVal Operand

	Dst   int8 // result register, -1 none
	Args  [2]Operand
	NArgs int
	AccOp litmus.AccOp

	Win  int8 // window index, -1 none
	Cell int8 // physical cell of Loc, -1 none (and for a multi-element call: see Elems)
	// Elems: a multi-element RMA call (a range, docs/language.md#ranges-and-tuples), one entry
	// per element in typemap order; nil for a one-element call. Cell is then -1 and
	// Dst the first element's result register (so Dst >= 0 still says it fetches).
	Elems    []Elem
	Target   int8   // target rank of RMA/lock/flush/shared_query; peer of send/recv
	Remote   bool   // Loc is in another rank's segment
	Group    uint32 // post/start group
	LockType litmus.LockType
	Asserts  uint8 // AssertNocheck | ...
	Slot     int8  // RMA slot issued by this instruction, -1 none
	ReqSlot  int8  // waitreq: the slot of its request
	// FenceAfter: a fence on the same window follows in program order, so a fence
	// epoch can be open here (after the caller's last fence there is none).
	FenceAfter bool

	// MBScope is the set of cells this call is a memory barrier for (0: not an MB).
	MBScope uint64
	// Blockers are the earlier instructions of the process that must have executed
	// (returned) before this one may execute (docs/semantics.md#hardware-models).
	Blockers uint64
	// FwdStore is, for a load, the latest earlier unguarded store to its cell, from
	// which it may read before that store executes (store forwarding); -1 none.
	FwdStore    int8
	FwdBlockers uint64 // Blockers without FwdStore
	// OriginBuf lists the earlier RMA instructions whose origin buffer this
	// instruction touches before they complete locally (E-ORIGIN-BUF), when it
	// runs: a false guard cancels the use (docs/semantics.md#hardware-models). OriginBufGuard lists
	// those whose result register its guard reads: a use whether the guard holds
	// or not.
	OriginBuf, OriginBufGuard []int8
	// AlignErr: the access is misaligned under the window's guarantee (§6); it
	// raises E-ALIGN, with this message, when it executes.
	AlignErr string
	// Local: executing this instruction touches only its process's own state, cannot
	// be disabled by another process's step, and commutes with every such step, so
	// the reduced search may take it at once, alone (a persistent set of one).
	// LocalSkip: the same holds for skipping it when its guard is false.
	// LocalReturn: the same for the return step of a two-phase call.
	// LocalCommit: the same for the commit of a speculative load (speculate.go).
	// QuietReturn: the return of a fence on a window with RMA operations, local
	// when it completes nothing (fenceCompletesNothing).
	Local, LocalSkip, LocalReturn, LocalCommit, QuietReturn bool
	// Completer is, for an RMA instruction, the first later call that completes it
	// at the origin (-1 none).
	Completer int8

	// Speculation (hw relaxed, docs/semantics.md#hardware-models): a load or register arithmetic that
	// is guarded, or stands after a spin loop, does not wait for its guard or the
	// loop's exit. It reads (a step of its own) once Blockers are done, and commits
	// (writes its register, raises what it raises) once CommitAfter are done too:
	// the guard's writers, the untils before it, and the instructions its register
	// write must not overtake. Spec is its slot of speculation state, -1 when it
	// never speculates (sc, tso, or nothing to wait for).
	CommitAfter uint64
	Spec        int8
	// ReadBlockers are earlier speculative instructions that this one needs read,
	// not committed: for coherence on a cell and for an MB's release half.
	ReadBlockers uint64
	// SpecCands are the candidate pairs (Program.Candidates) in which this
	// speculative load is the plain access: checked when it reads, reported when it
	// commits with its guard true.
	SpecCands []int

	// Until, the exit test of a spin loop: its condition (a disjunction of
	// conjunctions), and the loop's body (LoopBody: a mask of its instructions).
	Until    [][]UntilAtom
	LoopBody uint64

	// Progress: under weak_progress, the process is in MPI while this is its first
	// instruction not executed (progress.go).
	Progress bool

	// indep, for a plain access in IndepMask: what must have happened before the
	// reduction may take it alone.
	indep *independence

	// Computed, when not nil: the target rank or displacement is a register's value,
	// or null, resolved when the call executes (target.go). Cell is then -1, and
	// Target too unless the rank is a literal.
	Computed *Computed
}

// UntilAtom is one r == V or r != V of an until condition.
type UntilAtom struct {
	Reg int8
	Eq  bool
	Val Operand
}

// Assertion bits.
const (
	AssertNocheck uint8 = 1 << iota
	AssertNostore
	AssertNoput
	AssertNoprecede
	AssertNosucceed
)

var assertBits = map[string]uint8{
	"nocheck": AssertNocheck, "nostore": AssertNostore, "noput": AssertNoput,
	"noprecede": AssertNoprecede, "nosucceed": AssertNosucceed,
}

// Proc is the compiled code of one rank.
type Proc struct {
	Code    []Instr
	Regs    []string // register names; index = register number
	Stores  int      // number of store instructions (bounds the TSO buffer)
	AllMask uint64   // every instruction
	// LocalMask: instructions with a local exec, skip or return step (a quick
	// test before the reduced search looks for one).
	LocalMask uint64
	// IndepMask: plain accesses the reduction may take alone once their conflicts
	// have happened (independent.go).
	IndepMask uint64
	// Specs lists the instructions that may speculate (their Spec slots, in order).
	Specs []int
}

// Cell is one physical memory cell.
type Cell struct {
	Win      int // the window whose memory it is (after following over=)
	Rank     int // the owner
	Disp     int
	Separate bool // has a private copy besides the public one
	Name     string
}

// Window is a compiled window.
type Window struct {
	Name     string
	Flavor   litmus.Flavor
	Model    litmus.MemModel
	Group    uint32 // member ranks
	Base     int    // the window whose memory this one uses (itself unless over=)
	NoLocks  bool
	AccOrder uint8 // accumulate_ordering bits: OrdRAR | OrdRAW | OrdWAR | OrdWAW
	SegSize  []int // per rank, in displacement units
	OwnCells []uint64
	// Fences[r] are rank r's fence calls on the window and Posts[t][o] the posts of
	// t that name o, in program order: the k-th one opens epoch k (noput checks it).
	Fences [][]int
	Posts  [][][]int
	Src    *litmus.Window
	// FenceLock: some process fences the window and some locks it, so the state
	// keeps which fence intervals a lock overlapped and which RMA targeted
	// (exposure.go: E-EPOCH-MIX).
	FenceLock bool
}

// Accumulate ordering bits (accumulate_ordering info key).
const (
	OrdRAR uint8 = 1 << iota
	OrdRAW
	OrdWAR
	OrdWAW
)

// Slot is an RMA operation the program may issue: one per RMA instruction (and
// per remote store under ls_is_rma), since each instruction issues at most once.
type Slot struct {
	Proc, Instr int
	// Elems is the number of elements of a multi-element operation (range.go), 0
	// for a one-element one: the slot then holds one origin value per element and a
	// byte of performed elements.
	Elems int
	Multi bool
}

// Program is a litmus test compiled for one semantics and one hardware model.
type Program struct {
	Test   *litmus.Test
	Sem    spec.Semantics
	HW     spec.HW
	NProcs int
	Procs  []Proc
	Cells  []Cell
	Wins   []Window
	// Regions are the memory the attach instructions attach (dynamic.go).
	Regions []Region
	Slots   []Slot
	Chans   []Chan // message channels that the program uses
	Out     []OutItem
	// cond and filter are the test's condition and filter over outcome values.
	cond, filter compiledCond
	Layout       Layout
	ABI          ABI // the alignments E-ALIGN checks (default x86-64)
	// AllCells is the scope of an MB of scope all.
	AllCells uint64
	// Static: errors the program's text alone decides (E-ASSERT's all-or-none and
	// nocheck pairing rules), raised in every execution from its initial state.
	Static []Diagnostic
	init   State
	// hasSeparate: some cell has a private copy (R5/R6 copies have work to do).
	hasSeparate bool
	// Candidates are the pairs of accesses that break a rule if concurrent
	// (conflict.go); accesses are the memory accesses they pair.
	Candidates []Candidate
	accesses   []access
	// Exploit: the model acts on assertions as an implementation may (assert.go).
	Exploit bool
	// consulted are the switches the compile read, and those the steps read
	// (Under: a compile serves every semantics that agrees on them).
	consulted spec.Set
	// scopeRead are the switches the compile read for the scope of an MB call
	// alone (mbScope): Under counts them, ExecutionsUnder does not on sc and tso,
	// which never read a scope (scopeSwitchOn).
	scopeRead spec.Set
	// drainIndep[proc][cell]: what must have happened before the reduction may take
	// a drain of proc's store to cell alone (tso).
	drainIndep [][]independence
	// stub: the stubborn sets' dependence (stubborn.go); nil when out of their scope
	stub *stubborn
	// slotIndep[k], when not nil: what must have happened before the reduction may
	// take the perform of RMA slot k alone.
	slotIndep []*independence
	// elemIndep[k][e]: the same for element e of multi-element slot k (range.go).
	elemIndep [][]*independence
	// valueFields, when not nil, are the fields its steps forget (WithoutValues).
	valueFields []span
	// noPairChecks: compiled WithoutPairChecks (nopairs.go), no candidate pairs.
	noPairChecks bool
	// usesNostore: some call asserts nostore, so the state tracks own stores.
	usesNostore bool
	// weakProgress: weak_progress is on and governs some step (progress.go).
	weakProgress bool
	// live: the reader masks of the live-variable quotient (live.go, DropDead).
	live *liveness
}

// Chan is a FIFO message channel from one rank to another.
type Chan struct {
	From, To int
	Cap      int // number of sends in the program
}

// Initial returns a copy of the initial state.
func (p *Program) Initial() State { return p.init.Clone() }

// StateSize is the width of a state in bytes.
func (p *Program) StateSize() int { return p.Layout.Size }

// Fingerprint is a short digest of what the program does, a cache key: programs that
// behave alike (SameBehaviour) have the same fingerprint. The presets of a test often
// compile alike (a lock_all program does not care whether fence_ls is on), and a tso
// and an sc job of one preset need the same relaxed search for their pair flags: a
// driver may then run one search for several jobs.
func (p *Program) Fingerprint() string {
	return p.ExecutionsFingerprint() + string(binary.AppendUvarint(nil, uint64(len(p.Candidates))))
}

// ExecutionsFingerprint is Fingerprint for SameExecutions.
func (p *Program) ExecutionsFingerprint() string {
	b := make([]byte, 0, 256)
	b = binary.AppendUvarint(b, uint64(p.NProcs)<<8|uint64(p.HW)<<1|uint64(boolBit(p.Exploit)))
	b = binary.AppendUvarint(b, uint64(boolBit(p.ForgetsValues())))
	b = append(b, p.runtimeSwitches()...)
	for i := range p.Procs {
		for j := range p.Procs[i].Code {
			in := &p.Procs[i].Code[j]
			b = binary.AppendUvarint(b, uint64(in.Kind)|uint64(in.Cell+1)<<8|uint64(in.Win+1)<<16)
			b = binary.AppendUvarint(b, in.Blockers)
			b = binary.AppendUvarint(b, in.CommitAfter|in.ReadBlockers<<1)
		}
	}
	return string(append(b, p.init...))
}

// switchOn reads a switch of the program's semantics, for the compile: the
// switches read are the ones that shaped the program (Under).
func (p *Program) switchOn(sw spec.Switch) bool {
	p.consulted = p.consulted.With(sw, true)
	return p.Sem.Has(sw)
}

// Under is the program as compiled under sem, when sem agrees with p's semantics on
// every switch its compile and its steps read (else nil): a compile is a function
// of the switches it reads, so the program is p's with sem's name.
func (p *Program) Under(sem spec.Semantics) *Program {
	if sem == p.Sem {
		return p
	}
	if (sem.Switches^p.Sem.Switches)&(p.consulted|p.scopeRead) != 0 {
		return nil
	}
	q := *p
	q.Sem = sem
	return &q
}

// runtimeSwitches are the switches a step of this program consults while it runs
// (the others shaped the code at compile time): sq_any_flavor for shared_query,
// post_start_ls for start, weak_progress for performs and lock grants.
func (p *Program) runtimeSwitches() []byte {
	var b []byte
	if p.hasKind(KSharedQuery) {
		b = append(b, 'q', byte(boolBit(p.Sem.Has(spec.SqAnyFlavor))))
	}
	if p.hasKind(KStart) {
		b = append(b, 's', byte(boolBit(p.Sem.Has(spec.PostStartLS))))
	}
	if p.weakProgress {
		b = append(b, 'w', 1)
	}
	return b
}

func boolBit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SameBehaviour reports whether q does what p does: the same executions
// (SameExecutions) and the same candidate pairs for the concurrency checks. q then
// has p's executions, outcomes and flags, and a search of one serves both.
func (p *Program) SameBehaviour(q *Program) bool {
	return p.SameExecutions(q) && reflect.DeepEqual(p.Candidates, q.Candidates) && reflect.DeepEqual(p.accesses, q.accesses)
}

// SameExecutions reports whether q has p's executions, outcomes and step-raised
// flags: the same code with its masks and scopes, cells, windows, slots, channels,
// outcome items, static flags, initial state, hardware model, forgotten values and
// runtime switches, the semantics' name aside. A search without the concurrency
// checks (Options.NoConflicts) of one serves both.
func (p *Program) SameExecutions(q *Program) bool {
	return p.Test == q.Test && p.NProcs == q.NProcs && p.HW == q.HW && p.Exploit == q.Exploit && p.ABI == q.ABI &&
		bytes.Equal(p.runtimeSwitches(), q.runtimeSwitches()) && bytes.Equal(p.init, q.init) &&
		reflect.DeepEqual(p.valueFields, q.valueFields) &&
		sameCode(p.Procs, q.Procs) && reflect.DeepEqual(p.Cells, q.Cells) && reflect.DeepEqual(p.Wins, q.Wins) && reflect.DeepEqual(p.Regions, q.Regions) &&
		reflect.DeepEqual(p.Slots, q.Slots) && reflect.DeepEqual(p.Chans, q.Chans) && reflect.DeepEqual(p.Out, q.Out) &&
		reflect.DeepEqual(p.Static, q.Static)
}

// sameCode compares the code of two programs but what only shaped it at compile
// time: the scope of an MB call, which made the Blockers of the instructions
// around it (two presets often differ in that scope, and not in the Blockers).
func sameCode(a, b []Proc) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true // one compile's processes, shared through Under
	}
	for i := range a {
		x, y := a[i], b[i]
		if len(x.Code) != len(y.Code) {
			return false
		}
		x.Code, y.Code = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
		// The whole code at once first: DeepEqual walks it in place (a copy of
		// an instruction costs an allocation), and code shared through Under is
		// the same slice, equal at once; then each instruction, copied only
		// when the scopes differ.
		if reflect.DeepEqual(a[i].Code, b[i].Code) {
			continue
		}
		for k := range a[i].Code {
			if a[i].Code[k].MBScope == b[i].Code[k].MBScope {
				if !reflect.DeepEqual(a[i].Code[k:k+1], b[i].Code[k:k+1]) { // in place
					return false
				}
				continue
			}
			u, v := a[i].Code[k], b[i].Code[k]
			u.MBScope, v.MBScope = 0, 0
			if !reflect.DeepEqual(u, v) {
				return false
			}
		}
	}
	return true
}

func (p *Program) hasKind(k Kind) bool {
	for i := range p.Procs {
		for j := range p.Procs[i].Code {
			if p.Procs[i].Code[j].Kind == k {
				return true
			}
		}
	}
	return false
}
