package litmus

// Completion tests and dynamic memory at run time (docs/language.md#completion-tests):
// the checks on test, testreq, attach and detach that the text alone decides.

// maxAttach bounds the cells one attach makes (each is a cell of the model).
const maxAttach = 8

// completionTests checks a process's test, testreq, attach and detach calls in
// program order: a test needs a post of its window above it (MPI_Win_test tests
// the exposure epoch that post opens, node329), a testreq a request that an
// rput, rget, racc or rgacc above it creates (MPI_Test on that request), and
// attach and detach a dynamic window (MPI_Win_attach, node312).
func (v *validator) completionTests(pi int, p *Proc, created map[string]Pos) {
	posted := map[string]bool{}
	above := map[string]bool{}
	for _, ins := range p.Code {
		if ins == nil {
			continue
		}
		switch ins.Op {
		case OpPost:
			posted[ins.Win] = true
		case OpTest:
			if w := v.t.LookupWindow(ins.Win); w != nil && !posted[ins.Win] {
				v.errorf(or(ins.WinPos, ins.Pos), "test on window %s without a post of P%d above it: MPI_Win_test tests the exposure epoch a post opens (node329)", ins.Win, pi)
			}
		case OpTestReq:
			pos := or(ins.ReqPos, ins.Pos)
			switch _, ok := created[ins.Req]; {
			case ins.Req == "":
			case !ok:
				v.errorf(pos, "testreq on request %q that no rput, rget, racc or rgacc of P%d creates", ins.Req, pi)
			case !above[ins.Req]:
				v.errorf(pos, "testreq on request %q above the call that creates it (at %s)", ins.Req, created[ins.Req])
			}
		case OpAttach, OpDetach:
			v.dynamicCall(ins)
		}
		if ins.Op.IsRequest() && ins.Req != "" {
			above[ins.Req] = true
		}
	}
	v.addressArithmetic(pi, p)
}

// dynamicCall checks attach W N (N a literal from 1 to maxAttach) and detach W r
// (r a register holding an address): both need a dynamic window.
func (v *validator) dynamicCall(ins *Instr) {
	if w := v.t.LookupWindow(ins.Win); w != nil && w.Flavor != FlavorDynamic {
		v.errorf(or(ins.WinPos, ins.Pos), "%s on window %s of flavor %s: MPI_Win_%s needs a dynamic window (MPI_Win_create_dynamic, node312)", ins.Op, w.Name, w.Flavor, ins.Op)
	}
	if len(ins.Args) != 1 {
		return
	}
	a := ins.Args[0]
	switch {
	case ins.Op == OpAttach && a.IsReg():
		v.errorf(or(a.Pos, ins.Pos), "attach takes a number of cells, found register %q (the size is fixed in the program text)", a.Reg)
	case ins.Op == OpAttach && (a.Imm < 1 || a.Imm > maxAttach):
		v.errorf(or(a.Pos, ins.Pos), "attach of %d cells: an attach makes 1 to %d cells", a.Imm, maxAttach)
	case ins.Op == OpDetach && !a.IsReg():
		v.errorf(or(a.Pos, ins.Pos), "detach takes the register holding the address an attach returned, found %d", a.Imm)
	}
}

// testsInLoop: a test or testreq in a loop body changes nothing when it fails,
// but a successful one ends the exposure epoch or completes the request, so no
// iteration but the last may have it succeed with effects that the one iteration
// of spin-assume would not have: the condition must require its result to be 1
// (every alternative has r == 1: MPI_Waitall, a request tested 1 again only tests
// true again), or be met by it alone (r == 1 is a whole alternative of the \/:
// MPI_Waitany, every earlier iteration had every such test fail). docs/semantics.md#spin-loops.
func (v *validator) testsInLoop(body []*Instr, until *Instr) {
	isOne := func(g Guard, r string) bool { return g.Reg == r && g.Eq && !g.Val.IsReg() && g.Val.Imm == 1 }
	for _, ins := range body {
		if (ins.Op != OpTest && ins.Op != OpTestReq) || ins.Dst == "" {
			continue
		}
		every, alone := true, false
		for _, term := range until.Until.Terms {
			has := false
			for _, g := range term {
				has = has || isOne(g, ins.Dst)
			}
			every = every && has
			alone = alone || len(term) == 1 && isOne(term[0], ins.Dst)
		}
		if !every && !alone {
			v.errorf(ins.Pos, "a %s in a loop body must end the loop when it succeeds: every alternative of the until condition needs %s == 1, or %s == 1 is an alternative on its own (docs/semantics.md, Spin loops)", ins.Op, ins.Dst, ins.Dst)
		}
	}
}

// addressArithmetic refuses arithmetic on an address other than a literal offset
// (docs/language.md: "r6 = r5 + 2 / r6 = r5 - 2 give an address; any other arithmetic on an
// address is refused"). A register holds an address here when every instruction
// of the process that writes it is an attach or r = ADDR, ADDR + N, ADDR - N of
// such a register; an address that arrives by recv or get is not known here.
func (v *validator) addressArithmetic(pi int, p *Proc) {
	writers := map[string][]*Instr{}
	for _, ins := range p.Code {
		if ins != nil && ins.Dst != "" {
			writers[ins.Dst] = append(writers[ins.Dst], ins)
		}
	}
	addr := map[string]bool{}
	isAddr := func(x Value) bool { return x.IsReg() && addr[x.Reg] }
	for changed := true; changed; {
		changed = false
		for r, ws := range writers {
			all := !addr[r]
			for _, w := range ws {
				switch {
				case w.Op == OpAttach:
				case w.Op == OpMov && len(w.Args) == 1 && isAddr(w.Args[0]):
				case (w.Op == OpAdd || w.Op == OpSub) && len(w.Args) == 2 && isAddr(w.Args[0]) && !w.Args[1].IsReg():
				default:
					all = false
				}
			}
			if all {
				addr[r], changed = true, true
			}
		}
	}
	for _, ins := range p.Code {
		if ins == nil || (ins.Op != OpAdd && ins.Op != OpSub) || len(ins.Args) != 2 {
			continue
		}
		a, b := ins.Args[0], ins.Args[1]
		if (isAddr(a) && b.IsReg()) || isAddr(b) {
			v.errorf(ins.Pos, "arithmetic on an address in P%d: only a literal offset gives an address (r = ADDR + N, r = ADDR - N); %s is refused (docs/language.md, Dynamic windows)", pi, InstrString(ins))
		}
	}
}
