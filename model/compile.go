package model

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Compile turns a validated litmus test into a program for one semantics and one
// hardware model. The test must have passed litmus.Validate.
func Compile(t *litmus.Test, sem spec.Semantics, hw spec.HW, opts ...Option) (*Program, error) {
	c := &compiler{t: t, p: &Program{Test: t, Sem: sem, HW: hw, NProcs: t.NumProcs()}, cellIdx: map[cellKey]int{},
		nocheckPSCW: make([]bool, len(t.Windows)), nocheckLock: make([]bool, len(t.Windows))}
	for _, o := range opts {
		o(c.p)
	}
	if err := c.compile(); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	return c.p, nil
}

type cellKey struct{ win, rank, disp int }

type compiler struct {
	t         *litmus.Test
	p         *Program
	cellIdx   map[cellKey]int
	cellTypes []litmus.Type // the type a cell was first named with
	// nocheckPSCW / nocheckLock: per window, some post/start or lock asserts nocheck.
	nocheckPSCW, nocheckLock []bool
	err                      error
}

func (c *compiler) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

func (c *compiler) compile() error {
	p := c.p
	if p.NProcs == 0 || p.NProcs > MaxProcs {
		return fmt.Errorf("%d processes: rmacheck models 1 to %d", p.NProcs, MaxProcs)
	}
	c.windows()
	p.Procs = make([]Proc, p.NProcs)
	c.registers()
	c.regions()
	for i, lp := range c.t.Procs {
		c.proc(i, lp)
	}
	c.regionInstrs()
	c.fenceLockWindows() // exposure.go
	c.outcomeItems()
	if c.err != nil {
		return c.err
	}
	for i := range p.Cells {
		p.AllCells |= 1 << uint(i)
	}
	c.ownCells()
	for i := range p.Procs {
		c.dependencies(i)
	}
	for _, cell := range p.Cells {
		p.hasSeparate = p.hasSeparate || cell.Separate
	}
	c.buildConflicts()
	c.buildAssertions()
	c.dropPairChecks() // nopairs.go
	c.specCandidates()
	c.compileWeakProgress()
	for i := range p.Procs {
		c.localSteps(i)
	}
	c.independenceReduction(c.cellOverlaps())
	c.stubbornReduction(c.cellOverlaps())
	c.buildLiveness()
	if p.ABI.Name == "" {
		p.ABI = X8664
	}
	c.staticAlignment(p.ABI)
	c.buildVariants() // computed targets, once every instruction is complete (target.go)
	p.buildLayout()
	p.init = make(State, p.Layout.Size)
	c.initialValues()
	// switches a step reads while the program runs
	if p.hasKind(KSharedQuery) {
		p.switchOn(spec.SqAnyFlavor)
	}
	if p.hasKind(KStart) {
		p.switchOn(spec.PostStartLS)
	}
	return c.err
}

func (c *compiler) windows() {
	t, p := c.t, c.p
	for _, w := range t.Windows {
		cw := Window{Name: w.Name, Flavor: w.Flavor, Model: w.Model, Src: w, AccOrder: OrdRAR | OrdRAW | OrdWAR | OrdWAW}
		for r := 0; r < p.NProcs; r++ {
			if w.InGroup(r) {
				cw.Group |= 1 << uint(r)
			}
			cw.SegSize = append(cw.SegSize, w.SegmentSize(t, r))
		}
		if v, ok := w.InfoValue("no_locks"); ok && v == "true" {
			cw.NoLocks = true
		}
		if v, ok := w.InfoValue("accumulate_ordering"); ok {
			cw.AccOrder = parseAccOrder(v)
		}
		p.Wins = append(p.Wins, cw)
	}
	for i := range p.Wins {
		p.Wins[i].Base = i
		if o := t.Windows[i].Over; o != "" {
			p.Wins[i].Base = c.winIndex(o)
		}
	}
}

func parseAccOrder(v string) uint8 {
	var bits uint8
	for _, item := range strings.Split(strings.Trim(v, `"`), ",") {
		switch strings.TrimSpace(item) {
		case "rar":
			bits |= OrdRAR
		case "raw":
			bits |= OrdRAW
		case "war":
			bits |= OrdWAR
		case "waw":
			bits |= OrdWAW
		}
	}
	return bits
}

func (c *compiler) winIndex(name string) int {
	for i, w := range c.t.Windows {
		if w.Name == name {
			return i
		}
	}
	c.fail("unknown window %q", name)
	return 0
}

// cell returns the physical cell of a location, creating it on first use.
// Windows created over= another window share that window's cells (aliasing).
func (c *compiler) cell(l litmus.Loc) (cell, win, rank int, typ litmus.Type) {
	w, rank, disp, typ, ok := c.t.ResolveLoc(l)
	if !ok {
		c.fail("cannot resolve location %s", litmus.LocString(l))
		return 0, 0, 0, typ
	}
	win = c.winIndex(w.Name)
	base := c.p.Wins[win].Base
	key := cellKey{base, rank, disp}
	if i, ok := c.cellIdx[key]; ok {
		return i, win, rank, typ
	}
	if len(c.p.Cells) == MaxCells {
		c.fail("more than %d memory cells", MaxCells)
		return 0, win, rank, typ
	}
	i := len(c.p.Cells)
	c.cellIdx[key] = i
	name := fmt.Sprintf("%s@%d[%d]", c.p.Wins[base].Name, rank, disp)
	sep := c.p.Wins[base].Model == litmus.Separate || c.p.Wins[win].Model == litmus.Separate
	c.p.Cells = append(c.p.Cells, Cell{Win: base, Rank: rank, Disp: disp, Separate: sep, Name: name})
	c.cellTypes = append(c.cellTypes, typ)
	return i, win, rank, typ
}

// registers numbers every register a process mentions, in order of first mention.
func (c *compiler) registers() {
	add := func(proc int, name string) {
		pr := &c.p.Procs[proc]
		for _, r := range pr.Regs {
			if r == name {
				return
			}
		}
		pr.Regs = append(pr.Regs, name)
	}
	for i, lp := range c.t.Procs {
		for _, in := range lp.Code {
			if in == nil {
				continue
			}
			for _, r := range in.WriteRegs() {
				add(i, r)
			}
			for _, r := range in.ReadRegs() {
				add(i, r)
			}
		}
	}
	for _, in := range c.t.Inits {
		if in.Reg != nil {
			add(in.Reg.Proc, in.Reg.Reg)
		}
	}
	refs := append(append([]*litmus.Ref(nil), c.t.Locations...), litmus.CondRefs(c.t.Cond, c.t.Filter)...)
	for _, r := range refs {
		if r.Reg != nil && r.Reg.Proc < c.p.NProcs {
			add(r.Reg.Proc, r.Reg.Reg)
		}
	}
	for i := range c.p.Procs {
		if len(c.p.Procs[i].Regs) > MaxRegs {
			c.fail("P%d uses %d registers: rmacheck models at most %d", i, len(c.p.Procs[i].Regs), MaxRegs)
		}
	}
}

func (c *compiler) reg(proc int, name string) int8 {
	for i, r := range c.p.Procs[proc].Regs {
		if r == name {
			return int8(i)
		}
	}
	c.fail("P%d: unknown register %s", proc, name)
	return 0
}

func (c *compiler) operand(proc int, v litmus.Value) Operand {
	if v.IsReg() {
		return Operand{Reg: c.reg(proc, v.Reg)}
	}
	return Operand{Reg: -1, Imm: v.Imm}
}

func (c *compiler) proc(i int, lp *litmus.Proc) {
	pr := &c.p.Procs[i]
	n := len(lp.Code) // an await is two instructions: the code's final length, so that append never grows it
	for _, in := range lp.Code {
		if in != nil && in.Op == litmus.OpAwait {
			n++
		}
	}
	pr.Code = make([]Instr, 0, min(n, MaxInstrs))
	loopStart := -1 // index of the first body instruction of the open loop
	add := func(ci Instr) bool {
		if len(pr.Code) == MaxInstrs {
			c.fail("P%d has more than %d instructions", i, MaxInstrs)
			return false
		}
		pr.Code = append(pr.Code, ci)
		return true
	}
	for row, in := range lp.Code {
		switch {
		case in == nil:
			continue
		case in.Op == litmus.OpRepeat:
			loopStart = len(pr.Code) // repeat is no instruction: it marks where the body starts
			continue
		case in.Op == litmus.OpAwait:
			// r = await LOC == V is repeat / r = load LOC / until r == V, on one row.
			load := *in
			load.Op, load.Until = litmus.OpLoad, nil
			loopStart = len(pr.Code)
			ld := c.instr(i, row+1, &load)
			ld.Src, ld.Text = in, instrText(&load)+"  (await)"
			if !add(ld) {
				return
			}
			until := &litmus.Instr{Pos: in.Pos, Op: litmus.OpUntil, Until: in.Until}
			u := c.instr(i, row+1, until)
			u.Src, u.Text = in, instrText(until)+"  (await)"
			in = until
			if !add(u) {
				return
			}
		default:
			if !add(c.instr(i, row+1, in)) {
				return
			}
		}
		if in.Op == litmus.OpUntil && loopStart >= 0 {
			u := &pr.Code[len(pr.Code)-1]
			for k := loopStart; k < len(pr.Code)-1; k++ {
				u.LoopBody |= 1 << uint(k)
			}
			loopStart = -1
		}
	}
	pr.AllMask = 1<<uint(len(pr.Code)) - 1
	if len(pr.Code) == 64 {
		pr.AllMask = ^uint64(0)
	}
}

func (c *compiler) instr(proc, row int, in *litmus.Instr) Instr {
	p := c.p
	ci := Instr{Src: in, Row: row, Text: instrText(in), Op: in.Op, IsMPI: in.Op.IsMPI(),
		GuardReg: -1, Dst: -1, Win: -1, Cell: -1, Target: -1, Slot: -1, ReqSlot: -1, FwdStore: -1, Completer: -1, Spec: -1}
	if g := in.Guard; g != nil {
		ci.GuardReg = c.reg(proc, g.Reg)
		ci.GuardEq = g.Eq
		ci.GuardVal = c.operand(proc, g.Val)
	}
	if in.Op == litmus.OpUntil && in.Until != nil {
		for _, term := range in.Until.Terms {
			var atoms []UntilAtom
			for _, g := range term {
				atoms = append(atoms, UntilAtom{Reg: c.reg(proc, g.Reg), Eq: g.Eq, Val: c.operand(proc, g.Val)})
			}
			ci.Until = append(ci.Until, atoms)
		}
	}
	if in.Dst != "" {
		ci.Dst = c.reg(proc, in.Dst)
	} else if len(in.Dsts) == 1 {
		ci.Dst = c.reg(proc, in.Dsts[0]) // (r0) = get W@1[0]
	}
	for k, a := range in.Args {
		if k < 2 {
			ci.Args[k] = c.operand(proc, a)
		}
	}
	ci.NArgs = len(in.Args)
	ci.AccOp = in.AccOp
	ci.LockType = in.LockType
	for _, a := range in.Asserts {
		ci.Asserts |= assertBits[a.Name]
	}
	if ci.Asserts&AssertNostore != 0 {
		p.usesNostore = true
	}
	for _, g := range in.Group {
		ci.Group |= 1 << uint(g)
	}
	if in.Win != "" {
		ci.Win = int8(c.winIndex(in.Win))
	}
	if in.Loc != nil && !in.ComputedTarget() && !c.rangeInstr(proc, &ci, in) {
		cell, win, rank, _ := c.cell(*in.Loc)
		ci.Cell, ci.Win, ci.Target = int8(cell), int8(win), int8(rank)
		ci.Remote = rank != proc
	}
	switch in.Op {
	case litmus.OpLock, litmus.OpUnlock, litmus.OpFlush, litmus.OpFlushLocal, litmus.OpSharedQuery, litmus.OpSend, litmus.OpRecv:
		ci.Target = int8(in.Target)
	}
	if in.ComputedTarget() {
		c.computedInstr(proc, &ci, in)
	}
	ci.Kind = c.kind(proc, &ci)
	if ci.Kind == KRMA || ci.Kind == KRemoteStore {
		ci.Slot = int8(len(p.Slots))
		p.Slots = append(p.Slots, Slot{Proc: proc, Instr: len(p.Procs[proc].Code), Elems: len(ci.Elems), Multi: ci.Elems != nil})
	}
	if ci.Kind == KPlainStore {
		p.Procs[proc].Stores++
	}
	if ci.Kind == KRemoteLoad || ci.Kind == KRemoteStore {
		ci.IsMPI = true // "Like every RMA call they keep program order with the other MPI calls."
	}
	if in.Op == litmus.OpSend {
		c.channel(proc, in.Target)
	}
	ci.MBScope = c.mbScope(proc, &ci)
	switch ci.Kind {
	case KFence:
		ci.TwoPhase = ci.Asserts&AssertNoprecede == 0
	case KBarrier:
		ci.TwoPhase = true
	case KFree:
		ci.TwoPhase = !p.Wins[ci.Win].NoLocks
	}
	return ci
}

func (c *compiler) channel(from, to int) {
	for i := range c.p.Chans {
		if c.p.Chans[i].From == from && c.p.Chans[i].To == to {
			c.p.Chans[i].Cap++
			return
		}
	}
	c.p.Chans = append(c.p.Chans, Chan{From: from, To: to, Cap: 1})
}

// kind decides what an instruction does under the semantics: under ls_is_rma
// (ticket #435 option A) a remote load/store on a shared window is an RMA call.
func (c *compiler) kind(proc int, ci *Instr) Kind {
	switch ci.Op {
	case litmus.OpLoad, litmus.OpStore:
		w := c.p.Wins[ci.Win]
		lsRMA := ci.Remote && c.p.switchOn(spec.LsIsRMA) && w.Model == litmus.Unified && w.Flavor != litmus.FlavorDynamic
		switch {
		case ci.Op == litmus.OpLoad && lsRMA:
			return KRemoteLoad
		case ci.Op == litmus.OpLoad:
			return KPlainLoad
		case lsRMA:
			return KRemoteStore
		default:
			return KPlainStore
		}
	case litmus.OpPut, litmus.OpGet, litmus.OpAcc, litmus.OpGacc, litmus.OpFop, litmus.OpCas,
		litmus.OpRput, litmus.OpRget, litmus.OpRacc, litmus.OpRgacc:
		return KRMA
	case litmus.OpWaitReq:
		return KWaitReq
	case litmus.OpFence:
		return KFence
	case litmus.OpPost:
		return KPost
	case litmus.OpStart:
		return KStart
	case litmus.OpComplete:
		return KComplete
	case litmus.OpWait:
		return KWait
	case litmus.OpLock:
		return KLock
	case litmus.OpUnlock:
		return KUnlock
	case litmus.OpLockAll:
		return KLockAll
	case litmus.OpUnlockAll:
		return KUnlockAll
	case litmus.OpFlush, litmus.OpFlushAll:
		return KFlush
	case litmus.OpFlushLocal, litmus.OpFlushLocalAll:
		return KFlushLocal
	case litmus.OpSync:
		return KSync
	case litmus.OpSharedQuery:
		return KSharedQuery
	case litmus.OpBarrier:
		return KBarrier
	case litmus.OpSend:
		return KSend
	case litmus.OpRecv:
		return KRecv
	case litmus.OpFree:
		return KFree
	case litmus.OpUntil:
		return KUntil
	case litmus.OpTest:
		return KTest
	case litmus.OpTestReq:
		return KTestReq
	case litmus.OpAttach:
		return KAttach
	case litmus.OpDetach:
		return KDetach
	}
	return KArith
}

const scopeOwn, scopeAll = 1, 2

// mbScope gives the cells an MPI call is a memory barrier for (docs/semantics.md#rma-operations R5/R6
// and §4): the owner calls of R5/R6 are MBs of scope own in every preset; the
// switches widen some calls to scope all; sync is always of scope all.
func (c *compiler) mbScope(proc int, ci *Instr) uint64 {
	scope := 0
	widen := func(sw spec.Switch) {
		if c.p.scopeSwitchOn(sw) {
			scope = scopeAll
		}
	}
	switch ci.Kind {
	case KFence:
		scope = scopeOwn
		widen(spec.FenceLS)
	case KPost:
		scope = scopeOwn
		widen(spec.PostStartLS)
	case KStart:
		widen(spec.PostStartLS)
	case KComplete:
		widen(spec.CompleteWaitLS)
	case KWait, KTest: // a test is an owner call like wait, whatever it returns
		scope = scopeOwn
		widen(spec.CompleteWaitLS)
	case KLock, KUnlock:
		if ci.targetIsSelf(proc) { // a computed target: when its register surely holds proc (target.go)
			scope = scopeOwn
		}
		widen(spec.LockLS)
	case KLockAll, KUnlockAll:
		scope = scopeOwn
		widen(spec.LockLS)
	case KFlush:
		widen(spec.FlushLS)
	case KSync:
		scope = scopeAll
	case KFree:
		scope = scopeOwn // free W (docs/semantics.md#synchronization): an MB of scope own, with R5 and R6
	}
	switch scope {
	case scopeOwn:
		return ownScopeMarker | uint64(ci.Win)
	case scopeAll:
		return allScopeMarker
	}
	return 0
}

// The scope of an MB is resolved to cells once every cell is known (ownCells):
// until then it holds a marker.
const (
	ownScopeMarker = 1 << 62
	allScopeMarker = 1 << 63
)

func (c *compiler) ownCells() {
	p := c.p
	for w := range p.Wins {
		p.Wins[w].OwnCells = make([]uint64, p.NProcs)
	}
	for i, cell := range p.Cells {
		for w := range p.Wins {
			if p.Wins[w].Base == cell.Win {
				p.Wins[w].OwnCells[cell.Rank] |= 1 << uint(i)
			}
		}
	}
	for proc := range p.Procs {
		for k := range p.Procs[proc].Code {
			in := &p.Procs[proc].Code[k]
			switch {
			case in.MBScope&allScopeMarker != 0:
				in.MBScope = p.AllCells
			case in.MBScope&ownScopeMarker != 0:
				in.MBScope = p.Wins[int(in.MBScope&0xff)].OwnCells[proc]
			}
		}
	}
}

func (c *compiler) initialValues() {
	p, s := c.p, c.p.init
	for _, in := range c.t.Inits {
		switch {
		case in.Reg != nil:
			p.setReg(s, in.Reg.Proc, int(c.reg(in.Reg.Proc, in.Reg.Reg)), in.Value)
		case in.Loc != nil:
			cell, _, _, _ := c.cell(*in.Loc)
			p.setPub(s, cell, in.Value)
			if p.Cells[cell].Separate {
				s.setI64(p.Layout.Priv+8*cell, in.Value)
			}
		}
	}
	for i := range p.Static {
		s.setU32(p.Layout.Flags, s.u32(p.Layout.Flags)|spec.FlagBit(p.Static[i].Rule))
	}
}

// instrText prints an instruction as in the canonical form.
func instrText(in *litmus.Instr) string {
	return strings.TrimSpace(litmus.InstrString(in))
}
