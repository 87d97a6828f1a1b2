package axiom

import (
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Values: an execution's values follow from its reads-from, computed event by event
// in the order ob gives (any order that extends ob gives the same values: ob holds
// every dependency of a value on another). A load that reads a store of its own
// process before that store executes (store forwarding) reads the value the store's
// operand has then, which no later instruction can have changed (it would wait for
// the store).

// simulate computes the values of the candidate in order (local events), and reports
// false when a guard evaluates otherwise than the control flow assumed.
func (s *search) simulate(order []int) (*Execution, bool) {
	u, p := s.u, s.u.p
	regs := make([][]int64, p.nprocs)
	for proc := range regs {
		regs[proc] = make([]int64, len(p.regs[proc]))
		for r, v := range p.regInit[proc] {
			regs[proc][r] = v
		}
	}
	wval := map[int]int64{} // global write event -> the value it writes
	rval := map[int]int64{} // global read event -> the value it reads
	stored := map[*ins]int64{}
	origin := map[*ins][]int64{} // an operation's origin values at issue: one per element, then cas's swap value
	sent := map[*ins]int64{}
	val := func(proc int, o operand) int64 {
		if o.reg < 0 {
			return o.imm
		}
		return regs[proc][o.reg]
	}
	arg := func(in *ins, k int) int64 {
		if k < len(in.args) {
			return val(in.proc, in.args[k])
		}
		return 0
	}
	valueOf := func(local int) int64 {
		g := s.evs[local]
		if v, ok := wval[g]; ok {
			return v
		}
		// a store forwarded before it executes: its operand's value now
		return arg(u.events[g].in, 0)
	}
	for _, li := range order {
		g := s.evs[li]
		e := u.events[g]
		switch e.kind {
		case eNever, eProgram:
			continue
		case eInit:
			wval[g] = p.cellInit[e.cell]
			continue
		case eDrain:
			wval[g] = stored[e.in]
			continue
		case ePerform:
			in := e.in
			a := origin[in]
			var old int64
			if e.read {
				old = valueOf(s.rf[li])
				rval[g] = old
			}
			if in.kind == kRStore {
				wval[g] = a[0]
				continue
			}
			if d := in.elems[e.elem].dst; d >= 0 {
				regs[in.proc][d] = old
			}
			if e.write {
				wval[g] = performedValue(in, old, a[e.elem], a[len(a)-1])
			}
			continue
		}
		in := e.in
		inf := u.info[in]
		decides := e.kind == eCommit || e.kind == eExec // a relaxed load decides at its commit
		if decides && in.guard != nil {
			gd := in.guard
			holds := (regs[in.proc][gd.reg] == val(in.proc, gd.val)) == gd.eq
			if holds != u.guards[in] {
				return nil, false
			}
		}
		if inf.skip || inf.noEff {
			continue
		}
		switch in.kind {
		case kArith:
			regs[in.proc][in.dst] = in.op.Arith(arg(in, 0), arg(in, 1))
		case kLoad:
			switch e.kind {
			case eRead:
				rval[g] = valueOf(s.rf[li])
			case eCommit:
				regs[in.proc][in.dst] = rval[u.first[in]]
			default:
				v := valueOf(s.rf[li])
				rval[g] = v
				regs[in.proc][in.dst] = v
			}
		case kRLoad:
			v := valueOf(s.rf[li])
			rval[g] = v
			regs[in.proc][in.dst] = v
		case kStore:
			v := arg(in, 0)
			stored[in] = v
			if e.write {
				wval[g] = v
			}
		case kRStore:
			origin[in] = []int64{arg(in, 0)}
		case kRMA:
			var vs []int64
			for _, el := range in.elems {
				vs = append(vs, val(in.proc, el.arg))
			}
			origin[in] = append(vs, arg(in, 1))
		case kSend:
			sent[in] = arg(in, 0)
		case kRecv:
			if in.dst >= 0 {
				if snd := u.matchedSend(in); snd != nil {
					regs[in.proc][in.dst] = sent[snd]
				}
			}
		}
	}
	x := &Execution{u: u, order: make([]int, len(order)), rf: map[int]int{}, values: map[int]int64{}, stuck: s.d.stuck}
	for k, li := range order {
		x.order[k] = s.evs[li]
	}
	for r, w := range s.rf {
		x.rf[s.evs[r]] = s.evs[w]
	}
	for g, v := range wval {
		x.values[g] = v
	}
	for g, v := range rval {
		x.values[g] = v
	}
	mem := map[int]int64{}
	for c, co := range s.co {
		mem[s.u.events[s.evs[co[len(co)-1]]].cell] = wval[s.evs[co[len(co)-1]]]
		_ = c
	}
	x.Values = make([]int64, len(p.out))
	for i, o := range p.out {
		if o.proc >= 0 {
			x.Values[i] = regs[o.proc][o.reg]
		} else {
			x.Values[i] = mem[o.cell]
		}
	}
	return x, true
}

// performedValue is what an RMA operation leaves in a cell that held old, given its
// origin value a (and, for compare_and_swap, the value b it swaps in).
func performedValue(in *ins, old, a, b int64) int64 {
	switch in.op {
	case litmus.OpPut:
		return a
	case litmus.OpCas:
		if old == a {
			return b
		}
		return old
	}
	return in.accOp.Apply(old, a)
}

// matchedSend is the send a recv receives (the k-th of its channel), nil for none.
func (u *universe) matchedSend(r *ins) *ins {
	key := [2]int{r.target, r.proc}
	for k, x := range u.recvs[key] {
		if x == r {
			if k < len(u.sends[key]) {
				return u.sends[key][k]
			}
			return nil
		}
	}
	return nil
}

// sat / keep: the outcome values satisfy the condition / pass the filter.
func (p *program) sat(vals []int64) bool { return evalCond(p.t.Cond, p.condIdx, vals) }

func (p *program) keep(vals []int64) bool {
	if p.t.Filter == nil {
		return true
	}
	return evalCond(p.t.Filter, p.filterIdx, vals)
}

func evalCond(c litmus.Cond, idx map[*litmus.Ref]int, vals []int64) bool {
	if c == nil {
		return true
	}
	val := func(r *litmus.Ref) int64 { return vals[idx[r]] }
	return litmus.Eval(c, func(a *litmus.Atom) bool { return a.Holds(val) })
}

var _ = spec.Relaxed
