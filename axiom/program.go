package axiom

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The program as the axiomatic engine reads it: its instructions with their cells,
// windows, targets and registers, read from the litmus test directly (not from the
// operational model's compile), so that the two formalizations share the parser and
// nothing else.

// kind is what an instruction is once the semantics is fixed (under ls_is_rma a
// remote load or store is an RMA operation).
type kind uint8

const (
	kArith kind = iota
	kLoad
	kStore
	kRLoad  // ls_is_rma: a remote load, a get performed when it executes
	kRStore // ls_is_rma: a remote store, a put
	kRMA    // put, get, acc, gacc, fop, cas
	kFence
	kPost
	kStart
	kComplete
	kWait
	kLock
	kUnlock
	kLockAll
	kUnlockAll
	kFlush
	kFlushAll
	kFlushLocal
	kFlushLocalAll
	kSync
	kBarrier
	kSend
	kRecv
)

var kindNames = [...]string{"arith", "load", "store", "rload", "rstore", "rma", "fence", "post", "start",
	"complete", "wait", "lock", "unlock", "lock_all", "unlock_all", "flush", "flush_all", "flush_local",
	"flush_local_all", "sync", "barrier", "send", "recv"}

func (k kind) String() string { return kindNames[k] }

// mpi: an MPI call (MPI calls never pass each other, docs/semantics.md#hardware-models); remote
// accesses under ls_is_rma count ("Like every RMA call they keep program order with
// the other MPI calls").
func (k kind) mpi() bool { return k >= kRLoad }

// hasCell: the instruction accesses a cell (for coherence, an RMA call counts at issue).
func (k kind) hasCell() bool { return k >= kLoad && k <= kRMA }

// operand is an immediate or a register of the process.
type operand struct {
	reg int // -1: immediate
	imm int64
}

type guard struct {
	reg int
	eq  bool
	val operand
}

// ins is one instruction.
type ins struct {
	proc, idx int
	row       int
	src       *litmus.Instr
	text      string
	op        litmus.Op
	kind      kind
	guard     *guard
	dst       int // result register, -1 none
	args      []operand
	accOp     litmus.AccOp
	cell      int // -1 none
	win       int // -1 none
	target    int // rank: of the location, lock, flush, send, recv; -1 none
	remote    bool
	group     uint32 // post/start group
	lockType  litmus.LockType
	asserts   uint8 // assertNocheck | ... (node332)
	// elems: an RMA call's elements in typemap order (a range, docs/language.md#ranges-and-tuples;
	// one for a plain location, none for W@1[{}]), each performed on its
	// own: its cell, its result register, its origin value.
	elems []elem
}

type elem struct {
	cell int
	dst  int // -1 none
	arg  operand
}

// cells are the cells the instruction accesses (an RMA call at issue, all its elements').
func (in *ins) cells() []int {
	if in.kind == kRMA {
		out := make([]int, 0, len(in.elems))
		for _, e := range in.elems {
			out = append(out, e.cell)
		}
		return out
	}
	if in.cell >= 0 {
		return []int{in.cell}
	}
	return nil
}

// Assertion bits (node332).
const (
	assertNocheck uint8 = 1 << iota
	assertNostore
	assertNoput
	assertNoprecede
	assertNosucceed
)

var assertBits = map[string]uint8{"nocheck": assertNocheck, "nostore": assertNostore, "noput": assertNoput,
	"noprecede": assertNoprecede, "nosucceed": assertNosucceed}

func (in *ins) has(bit uint8) bool { return in.asserts&bit != 0 }

// twoPhase: the call arrives in one step and returns in another, because other
// processes wait for its arrival: a fence without noprecede ("a call ... that is
// known not to end any epoch ... does not necessarily act as a barrier"), a barrier.
func (in *ins) twoPhase() bool {
	return in.kind == kBarrier || in.kind == kFence && !in.has(assertNoprecede)
}

// argRegs lists the registers an instruction's operands read (not its guard's).
func (in *ins) argRegs() []int {
	var rs []int
	for _, e := range in.elems {
		if e.arg.reg >= 0 {
			rs = append(rs, e.arg.reg)
		}
	}
	for _, a := range in.args {
		if a.reg >= 0 {
			rs = append(rs, a.reg)
		}
	}
	return rs
}

func (in *ins) guardRegs() []int {
	if in.guard == nil {
		return nil
	}
	rs := []int{in.guard.reg}
	if in.guard.val.reg >= 0 {
		rs = append(rs, in.guard.val.reg)
	}
	return rs
}

// fetches: an RMA operation with a result (get, gacc, fop, cas).
func (in *ins) fetches() bool {
	return in.kind == kRMA && (in.dst >= 0 || len(in.elems) > 0 && in.elems[0].dst >= 0)
}

// resultRegs are the registers a fetch's performs write.
func (in *ins) resultRegs() []int {
	var out []int
	for _, e := range in.elems {
		if e.dst >= 0 {
			out = append(out, e.dst)
		}
	}
	return out
}

// updates: the operation writes its target cell (put, acc, gacc/fop other than
// no_op, cas; a remote store under ls_is_rma).
func (in *ins) updates() bool {
	switch in.op {
	case litmus.OpPut, litmus.OpAcc, litmus.OpCas:
		return in.kind == kRMA
	case litmus.OpGacc, litmus.OpFop:
		return in.accOp != litmus.AccNoOp
	}
	return in.kind == kRStore
}

// readsTarget: the operation reads its target cell (get, gacc, fop, cas; a remote
// load under ls_is_rma).
func (in *ins) readsTarget() bool {
	switch in.op {
	case litmus.OpGet, litmus.OpGacc, litmus.OpFop, litmus.OpCas:
		return in.kind == kRMA
	}
	return in.kind == kRLoad
}

// accumulate: acc, gacc, fop, cas.
func (in *ins) accumulate() bool {
	switch in.op {
	case litmus.OpAcc, litmus.OpGacc, litmus.OpFop, litmus.OpCas:
		return in.kind == kRMA
	}
	return false
}

type cellInfo struct {
	win, rank, disp int
	name            string
}

type winInfo struct {
	name     string
	flavor   litmus.Flavor
	group    uint32
	noLocks  bool
	sameOp   bool  // accumulate_ops=same_op
	accOrder uint8 // accumulate_ordering: ordRAR | ordRAW | ordWAR | ordWAW
	segSize  []int
}

const (
	ordRAR uint8 = 1 << iota
	ordRAW
	ordWAR
	ordWAW
)

// outItem is a value an outcome shows: a register or a cell.
type outItem struct {
	name string
	proc int // register: its rank; cell: -1
	reg  int
	cell int
}

type program struct {
	t      *litmus.Test
	sem    spec.Semantics
	nprocs int
	procs  [][]*ins
	regs   [][]string
	cells  []cellInfo
	wins   []winInfo
	out    []outItem
	// cond and filter index the outcome items their atoms name.
	condIdx, filterIdx map[*litmus.Ref]int
	regInit            []map[int]int64
	cellInit           map[int]int64
}

func compile(t *litmus.Test, sem spec.Semantics) (*program, error) {
	p := &program{t: t, sem: sem, nprocs: t.NumProcs(), cellInit: map[int]int64{}}
	cellIdx := map[[3]int]int{}
	winIdx := map[string]int{}
	for i, w := range t.Windows {
		winIdx[w.Name] = i
		wi := winInfo{name: w.Name, flavor: w.Flavor, accOrder: ordRAR | ordRAW | ordWAR | ordWAW}
		for r := 0; r < p.nprocs; r++ {
			if w.InGroup(r) {
				wi.group |= 1 << uint(r)
			}
			wi.segSize = append(wi.segSize, w.SegmentSize(t, r))
		}
		if v, ok := w.InfoValue("no_locks"); ok && v == "true" {
			wi.noLocks = true
		}
		if v, ok := w.InfoValue("accumulate_ops"); ok && v == "same_op" {
			wi.sameOp = true
		}
		if v, ok := w.InfoValue("accumulate_ordering"); ok {
			wi.accOrder = accOrdering(v)
		}
		p.wins = append(p.wins, wi)
	}
	cell := func(l litmus.Loc) (int, int, int, error) {
		w, rank, disp, _, ok := t.ResolveLoc(l)
		if !ok {
			return 0, 0, 0, fmt.Errorf("cannot resolve location %s", litmus.LocString(l))
		}
		win := winIdx[w.Name]
		key := [3]int{win, rank, disp}
		if c, ok := cellIdx[key]; ok {
			return c, win, rank, nil
		}
		cellIdx[key] = len(p.cells)
		p.cells = append(p.cells, cellInfo{win: win, rank: rank, disp: disp, name: fmt.Sprintf("%s@%d[%d]", w.Name, rank, disp)})
		return len(p.cells) - 1, win, rank, nil
	}
	// registers, in order of first mention
	p.regs = make([][]string, p.nprocs)
	reg := func(proc int, name string) int {
		for i, r := range p.regs[proc] {
			if r == name {
				return i
			}
		}
		p.regs[proc] = append(p.regs[proc], name)
		return len(p.regs[proc]) - 1
	}
	opnd := func(proc int, v litmus.Value) operand {
		if v.IsReg() {
			return operand{reg: reg(proc, v.Reg)}
		}
		return operand{reg: -1, imm: v.Imm}
	}
	p.procs = make([][]*ins, p.nprocs)
	for pi, lp := range t.Procs {
		for row, li := range lp.Code {
			if li == nil {
				continue
			}
			in := &ins{proc: pi, idx: len(p.procs[pi]), row: row + 1, src: li, op: li.Op,
				text: strings.TrimSpace(litmus.InstrString(li)), dst: -1, cell: -1, win: -1, target: -1, accOp: li.AccOp}
			if g := li.Guard; g != nil {
				in.guard = &guard{reg: reg(pi, g.Reg), eq: g.Eq, val: opnd(pi, g.Val)}
			}
			if li.Dst != "" {
				in.dst = reg(pi, li.Dst)
			}
			for _, a := range li.Args {
				in.args = append(in.args, opnd(pi, a))
			}
			if li.Win != "" {
				in.win = winIdx[li.Win]
			}
			if li.Loc != nil && t.RangeOf(*li.Loc) != nil {
				w, rank, _, _, ok := t.ResolveLoc(*li.Loc)
				if !ok {
					return nil, fmt.Errorf("cannot resolve location %s", litmus.LocString(*li.Loc))
				}
				in.win, in.target, in.remote = winIdx[w.Name], rank, rank != pi
			} else if li.Loc != nil {
				c, w, rank, err := cell(*li.Loc)
				if err != nil {
					return nil, err
				}
				in.cell, in.win, in.target, in.remote = c, w, rank, rank != pi
			}
			switch li.Op {
			case litmus.OpLock, litmus.OpUnlock, litmus.OpFlush, litmus.OpFlushLocal, litmus.OpSend, litmus.OpRecv:
				in.target = li.Target
			}
			for _, g := range li.Group {
				in.group |= 1 << uint(g)
			}
			in.lockType = li.LockType
			for _, a := range li.Asserts {
				in.asserts |= assertBits[a.Name]
			}
			in.kind = p.kindOf(in)
			if in.kind == kRMA {
				if err := p.elements(in, li, cell, reg, opnd); err != nil {
					return nil, err
				}
			}
			p.procs[pi] = append(p.procs[pi], in)
		}
	}
	// outcome items: the condition's atoms, the filter's, the locations line
	add := func(r *litmus.Ref) (int, error) {
		name := refName(*r)
		for i, o := range p.out {
			if o.name == name {
				return i, nil
			}
		}
		item := outItem{name: name, proc: -1, cell: -1}
		if r.Reg != nil {
			if r.Reg.Proc >= p.nprocs {
				return 0, fmt.Errorf("%s: no rank %d", name, r.Reg.Proc)
			}
			item.proc, item.reg = r.Reg.Proc, reg(r.Reg.Proc, r.Reg.Reg)
		} else {
			c, _, _, err := cell(*r.Loc)
			if err != nil {
				return 0, err
			}
			item.cell = c
		}
		p.out = append(p.out, item)
		return len(p.out) - 1, nil
	}
	index := func(c litmus.Cond) (map[*litmus.Ref]int, error) {
		m := map[*litmus.Ref]int{}
		for _, r := range litmus.CondRefs(c) {
			i, err := add(r)
			if err != nil {
				return nil, err
			}
			m[r] = i
		}
		return m, nil
	}
	var err error
	if p.condIdx, err = index(t.Cond); err != nil {
		return nil, err
	}
	if p.filterIdx, err = index(t.Filter); err != nil {
		return nil, err
	}
	for _, r := range t.Locations {
		if _, err := add(r); err != nil {
			return nil, err
		}
	}
	p.regInit = make([]map[int]int64, p.nprocs)
	for i := range p.regInit {
		p.regInit[i] = map[int]int64{}
	}
	for _, in := range t.Inits {
		switch {
		case in.Reg != nil:
			p.regInit[in.Reg.Proc][reg(in.Reg.Proc, in.Reg.Reg)] = in.Value
		case in.Loc != nil:
			c, _, _, err := cell(*in.Loc)
			if err != nil {
				return nil, err
			}
			p.cellInit[c] = in.Value
		}
	}
	return p, nil
}

// refName is the name an outcome shows for a reference: "1:r0", "x", "W@1[0]" (the
// operational model's names, so that the two engines' outcomes compare by name).
func refName(r litmus.Ref) string {
	if r.Reg != nil {
		return fmt.Sprintf("%d:%s", r.Reg.Proc, r.Reg.Reg)
	}
	return litmus.RefString(r)
}

func accOrdering(v string) uint8 {
	var bits uint8
	for _, item := range strings.Split(strings.Trim(v, `"`), ",") {
		switch strings.TrimSpace(item) {
		case "rar":
			bits |= ordRAR
		case "raw":
			bits |= ordRAW
		case "war":
			bits |= ordWAR
		case "waw":
			bits |= ordWAW
		}
	}
	return bits
}

func (p *program) kindOf(in *ins) kind {
	switch in.op {
	case litmus.OpLoad, litmus.OpStore:
		w := p.wins[in.win]
		rma := in.remote && p.sem.Has(spec.LsIsRMA) && w.flavor != litmus.FlavorDynamic
		switch {
		case in.op == litmus.OpLoad && rma:
			return kRLoad
		case in.op == litmus.OpLoad:
			return kLoad
		case rma:
			return kRStore
		}
		return kStore
	case litmus.OpPut, litmus.OpGet, litmus.OpAcc, litmus.OpGacc, litmus.OpFop, litmus.OpCas:
		return kRMA
	case litmus.OpFence:
		return kFence
	case litmus.OpPost:
		return kPost
	case litmus.OpStart:
		return kStart
	case litmus.OpComplete:
		return kComplete
	case litmus.OpWait:
		return kWait
	case litmus.OpLock:
		return kLock
	case litmus.OpUnlock:
		return kUnlock
	case litmus.OpLockAll:
		return kLockAll
	case litmus.OpUnlockAll:
		return kUnlockAll
	case litmus.OpFlush:
		return kFlush
	case litmus.OpFlushAll:
		return kFlushAll
	case litmus.OpFlushLocal:
		return kFlushLocal
	case litmus.OpFlushLocalAll:
		return kFlushLocalAll
	case litmus.OpSync:
		return kSync
	case litmus.OpBarrier:
		return kBarrier
	case litmus.OpSend:
		return kSend
	case litmus.OpRecv:
		return kRecv
	}
	return kArith
}

// writeRegs / readRegs are the registers an instruction writes and reads (its
// operands and its guard).
func (in *ins) writeRegs() []int {
	if in.kind == kRMA {
		return in.resultRegs()
	}
	if in.dst >= 0 {
		return []int{in.dst}
	}
	return nil
}

// elements lists an RMA call's elements: one per element of its range (its alias
// resolved), each with its cell, its result register (of the tuple, or the call's)
// and its origin value (of the tuple, or the call's one value for every element).
func (p *program) elements(in *ins, li *litmus.Instr, cell func(litmus.Loc) (int, int, int, error),
	reg func(int, string) int, opnd func(int, litmus.Value) operand) error {
	locs := p.t.Elems(*li.Loc)
	for k, l := range locs {
		c, _, _, err := cell(l)
		if err != nil {
			return err
		}
		e := elem{cell: c, dst: -1, arg: operand{reg: -1}}
		switch {
		case len(li.Dsts) > k:
			e.dst = reg(in.proc, li.Dsts[k])
		case li.Dst != "" && k == 0:
			e.dst = in.dst
		}
		switch {
		case li.ArgTuple && k < len(li.Args):
			e.arg = opnd(in.proc, li.Args[k])
		case !li.ArgTuple && len(li.Args) > 0:
			e.arg = opnd(in.proc, li.Args[0])
		}
		in.elems = append(in.elems, e)
	}
	if len(locs) != 1 {
		in.cell = -1 // a range: its cells are its elements'
	}
	if li.ArgTuple {
		in.args = nil // the origin buffer is the elements'
	}
	return nil
}
