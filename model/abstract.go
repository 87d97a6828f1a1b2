package model

// Concurrency-only programs. The conflict and race flags of a tso or sc verdict come
// from the relaxed model's reachable states (docs/semantics.md#concurrency): which accesses are
// enabled together, a matter of the processes' progress, epochs and RMA slots, not
// of the values in memory and registers, as long as no step's enabling reads a
// value (no guard, no spin loop). Such a program's pair search may forget values:
// states that differ only in them are one state, so the search is much smaller,
// and its pairs and their traces are those of the full search (the traces replay
// on the full program: the same steps are enabled there).

// WithoutValues is the program for its concurrency checks alone, when its control
// reads no value (ValueFree; else nil): a copy whose steps set every successor's
// values (registers, memory, RMA and message values) to zero. Its outcomes mean
// nothing; its pair flags are p's, and their traces replay on p. A search of it is
// for those alone: it stops once every candidate pair is found (explorer).
func (p *Program) WithoutValues() *Program {
	if !p.ValueFree() {
		return nil
	}
	q := *p
	q.valueFields = p.valueFieldSpans()
	q.init = p.init.Clone()
	q.forget(q.init)
	return &q
}

// ForgetsValues reports whether the program is one of WithoutValues.
func (p *Program) ForgetsValues() bool { return p.valueFields != nil }

// ValueFree reports whether no step's enabling depends on a value: no guarded
// instruction, no spin loop, no target or displacement computed from a register.
func (p *Program) ValueFree() bool {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			in := &p.Procs[i].Code[k]
			if in.GuardReg >= 0 || in.Kind == KUntil || in.Spec >= 0 || in.Computed.regs() != 0 {
				return false
			}
		}
	}
	return true
}

// span is a byte range of a state.
type span struct{ off, n int }

// valueFieldSpans lists the value fields of the layout (not nil).
func (p *Program) valueFieldSpans() []span {
	l := &p.Layout
	var f []span
	add := func(off, n int) {
		if n > 0 {
			f = append(f, span{off, n})
		}
	}
	for i := range p.Procs {
		add(l.Regs[i], 8*len(p.Procs[i].Regs))
	}
	add(l.Pub, 8*len(p.Cells))
	if l.Priv != l.Pub {
		for _, c := range p.Cells {
			if c.Separate {
				add(l.Priv, 8*len(p.Cells))
				break
			}
		}
	}
	for k := range p.Slots {
		for _, f := range p.slotValueSpans(k) {
			add(f.off, f.n)
		}
	}
	for k, c := range p.Chans {
		add(l.Chan[k]+2, 8*c.Cap)
	}
	if f == nil {
		f = []span{} // nothing to forget; still a program that forgets
	}
	return f
}

// forget sets the value fields of s to zero.
func (p *Program) forget(s State) {
	for _, f := range p.valueFields {
		clear(s[f.off : f.off+f.n])
	}
}
