package cat

import (
	"fmt"
	"slices"
)

// Type is what an expression denotes.
type Type uint8

const (
	TAny Type = iota // 0: a set or a relation, as its context wants
	TSet
	TRel
)

func (t Type) String() string {
	switch t {
	case TSet:
		return "a set"
	case TRel:
		return "a relation"
	}
	return "0"
}

// BaseInfo declares a name the engine provides: its type, and whether its value
// changes from one candidate execution to the next (rf, co...) or is fixed for all
// the candidates that share the events (po, the event sets).
type BaseInfo struct {
	Type    Type
	Dynamic bool
	Doc     string
}

// Compiled is a model checked against the names an engine provides: every name
// resolved to a slot, every expression typed, every binding marked static or dynamic.
type Compiled struct {
	Model  *Model
	slots  []slot
	byName map[string]int // the slot a name has at the end of the file
	lets   []compiledLet
	Checks []CompiledCheck
	Flags  []CompiledFlag
	ncache int
}

type slot struct {
	name    string
	typ     Type
	base    bool
	dynamic bool
	let     int // the let binding it (-1: a base name)
}

type compiledLet struct {
	rec      bool
	slots    []int
	exprs    []cexpr
	dynamic  bool
	stmtPos  Pos
	bindings []Binding
}

// CompiledCheck is a check with its expression compiled.
type CompiledCheck struct {
	*Check
	x       cexpr
	dynamic bool
}

// CompiledFlag is a flag with its expression compiled.
type CompiledFlag struct {
	*Flag
	x       cexpr
	dynamic bool
}

// cexpr is a compiled expression.
type cexpr struct {
	op      string // "name", "0", "_", "|", "&", "\\", ";", "*", "^-1", "+", "*post", "?", "~", "[]", "domain", "range", "if"
	slot    int
	typ     Type
	dynamic bool
	cond    string
	kids    []cexpr
	pos     Pos
	// cache, when positive, is this static subexpression's slot in a frame's cache:
	// a dynamic binding computes it once a frame, not once a candidate.
	cache int
}

// cacheKids gives each maximal static subexpression of a dynamic expression a
// cache slot (a static binding is computed once a frame anyway).
func (c *Compiled) cacheKids(x *cexpr) {
	if x.dynamic {
		for i := range x.kids {
			c.cacheStatic(&x.kids[i])
		}
	}
}

// cacheStatic gives x, when static, a cache slot (not names and constants, which
// cost nothing), or looks for static parts in it.
func (c *Compiled) cacheStatic(x *cexpr) {
	if !x.dynamic {
		switch x.op {
		case "name", "0", "_":
		default:
			if x.typ != TAny {
				c.ncache++
				x.cache = c.ncache
			}
		}
		return
	}
	for i := range x.kids {
		c.cacheStatic(&x.kids[i])
	}
}

// Compile checks a model against the base names an engine provides. validCond says
// whether a name may stand in an if's condition.
func Compile(m *Model, bases map[string]BaseInfo, validCond func(string) bool) (*Compiled, error) {
	c := &Compiled{Model: m, byName: map[string]int{}}
	names := make([]string, 0, len(bases))
	for n := range bases {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b := bases[n]
		c.byName[n] = len(c.slots)
		c.slots = append(c.slots, slot{name: n, typ: b.Type, base: true, dynamic: b.Dynamic, let: -1})
	}
	cc := &compiler{c: c, validCond: validCond}
	for _, s := range m.Stmts {
		if err := cc.stmt(s); err != nil {
			return nil, err
		}
	}
	for i := range c.lets {
		if c.lets[i].rec {
			continue // its bindings read themselves: nothing in them is fixed
		}
		for k := range c.lets[i].exprs {
			c.cacheKids(&c.lets[i].exprs[k])
		}
	}
	for i := range c.Checks {
		c.cacheKids(&c.Checks[i].x)
	}
	for i := range c.Flags {
		c.cacheKids(&c.Flags[i].x)
	}
	return c, nil
}

type compiler struct {
	c         *Compiled
	validCond func(string) bool
}

func (cc *compiler) stmt(s Stmt) error {
	c := cc.c
	switch s := s.(type) {
	case *Let:
		cl := compiledLet{rec: s.Rec, stmtPos: s.P, bindings: s.Bindings}
		if s.Rec {
			// every name of the group is visible in every binding; a rec binding is
			// a relation (its least fixpoint starts from the empty relation)
			for _, b := range s.Bindings {
				c.byName[b.Name] = len(c.slots)
				cl.slots = append(cl.slots, len(c.slots))
				c.slots = append(c.slots, slot{name: b.Name, typ: TRel, let: len(c.lets)})
			}
			for k, b := range s.Bindings {
				x, err := cc.expr(b.X)
				if err != nil {
					return err
				}
				if x.typ == TSet {
					c.slots[cl.slots[k]].typ = TSet
				}
				cl.exprs = append(cl.exprs, x)
				cl.dynamic = cl.dynamic || x.dynamic
			}
			for _, k := range cl.slots {
				c.slots[k].dynamic = cl.dynamic
			}
			// mark the group dynamic in its own references: a second pass types them
			for k, b := range s.Bindings {
				x, err := cc.expr(b.X)
				if err != nil {
					return err
				}
				cl.exprs[k] = x
			}
		} else {
			for _, b := range s.Bindings {
				x, err := cc.expr(b.X)
				if err != nil {
					return err
				}
				typ := x.typ
				if typ == TAny {
					typ = TRel // let r = 0: the empty relation
				}
				idx := len(c.slots)
				c.slots = append(c.slots, slot{name: b.Name, typ: typ, dynamic: x.dynamic, let: len(c.lets)})
				c.byName[b.Name] = idx
				cl.slots = append(cl.slots, idx)
				cl.exprs = append(cl.exprs, x)
				cl.dynamic = cl.dynamic || x.dynamic
			}
		}
		c.lets = append(c.lets, cl)
	case *Check:
		x, err := cc.expr(s.X)
		if err != nil {
			return err
		}
		if s.Kind != "empty" && x.typ == TSet {
			return errorf(s.P, "%s needs a relation, and this is a set", s.Kind)
		}
		c.Checks = append(c.Checks, CompiledCheck{Check: s, x: x, dynamic: x.dynamic})
	case *Flag:
		x, err := cc.expr(s.X)
		if err != nil {
			return err
		}
		c.Flags = append(c.Flags, CompiledFlag{Flag: s, x: x, dynamic: x.dynamic})
	}
	return nil
}

func (cc *compiler) expr(e Expr) (cexpr, error) {
	c := cc.c
	switch e := e.(type) {
	case *Name:
		k, ok := c.byName[e.Name]
		if !ok {
			return cexpr{}, errorf(e.P, "unknown name %q (not a base name of the engine, and not bound by an earlier let)", e.Name)
		}
		return cexpr{op: "name", slot: k, typ: c.slots[k].typ, dynamic: c.slots[k].dynamic, pos: e.P}, nil
	case *Empty:
		return cexpr{op: "0", typ: TAny, pos: e.P}, nil
	case *Universe:
		return cexpr{op: "_", typ: TSet, pos: e.P}, nil
	case *If:
		if cc.validCond != nil && !cc.validCond(e.Cond) {
			return cexpr{}, errorf(e.P, "if %q: not a hardware model (sc, tso, relaxed) or a switch name", e.Cond)
		}
		th, err := cc.expr(e.Then)
		if err != nil {
			return cexpr{}, err
		}
		el, err := cc.expr(e.Else)
		if err != nil {
			return cexpr{}, err
		}
		t, ok := unify(th.typ, el.typ)
		if !ok {
			return cexpr{}, errorf(e.P, "the branches of this if differ: %s and %s", th.typ, el.typ)
		}
		return cexpr{op: "if", cond: e.Cond, typ: t, dynamic: th.dynamic || el.dynamic, kids: []cexpr{th, el}, pos: e.P}, nil
	case *Binary:
		l, err := cc.expr(e.L)
		if err != nil {
			return cexpr{}, err
		}
		r, err := cc.expr(e.R)
		if err != nil {
			return cexpr{}, err
		}
		x := cexpr{op: string(e.Op), dynamic: l.dynamic || r.dynamic, kids: []cexpr{l, r}, pos: e.P}
		switch e.Op {
		case '|', '&', '\\':
			t, ok := unify(l.typ, r.typ)
			if !ok {
				return cexpr{}, errorf(e.P, "%q needs two sets or two relations: this is %s and %s", string(e.Op), l.typ, r.typ)
			}
			x.typ = t
		case ';':
			if l.typ == TSet || r.typ == TSet {
				return cexpr{}, errorf(e.P, "';' sequences two relations: this is %s and %s (write [S] for the identity on a set)", l.typ, r.typ)
			}
			x.typ = TRel
		case '*':
			if l.typ == TRel || r.typ == TRel {
				return cexpr{}, errorf(e.P, "'*' is the product of two sets: this is %s and %s", l.typ, r.typ)
			}
			x.typ = TRel
		}
		return x, nil
	case *Unary:
		k, err := cc.expr(e.X)
		if err != nil {
			return cexpr{}, err
		}
		x := cexpr{op: e.Op, dynamic: k.dynamic, kids: []cexpr{k}, pos: e.P}
		switch e.Op {
		case "^-1", "+", "*", "?":
			if k.typ == TSet {
				return cexpr{}, errorf(e.P, "%q applies to a relation, and this is a set", e.Op)
			}
			x.typ = TRel
			if e.Op == "*" {
				x.op = "*post"
			}
		case "~":
			x.typ = k.typ
			if k.typ == TAny {
				x.typ = TSet
			}
		case "[]":
			if k.typ == TRel {
				return cexpr{}, errorf(e.P, "[S] takes a set, and this is a relation (domain(r) or range(r) are sets)")
			}
			x.typ = TRel
		case "domain", "range":
			if k.typ == TSet {
				return cexpr{}, errorf(e.P, "%s takes a relation, and this is a set", e.Op)
			}
			x.typ = TSet
		}
		return x, nil
	}
	return cexpr{}, fmt.Errorf("cat: unknown expression %T", e)
}

func unify(a, b Type) (Type, bool) {
	switch {
	case a == TAny:
		return b, true
	case b == TAny, a == b:
		return a, true
	}
	return TAny, false
}

// Value is what an expression evaluates to.
type Value struct {
	Set Set
	Rel Rel
	Typ Type
}

// Empty reports whether the value has no event or pair.
func (v Value) Empty() bool {
	if v.Typ == TSet {
		return v.Set.Empty()
	}
	return v.Rel.Bits == nil || v.Rel.Empty()
}

// Frame evaluates a compiled model over one set of events: the static names once,
// the dynamic ones for each candidate execution.
type Frame struct {
	c    *Compiled
	n    int
	cond func(string) bool
	vals []Value
	set  []bool
	// The dynamic bindings are computed when first used after EvalDynamic (a
	// candidate that breaks a check needs none of the flags' relations): stamp is
	// the generation a slot was computed in.
	gen   int
	stamp []int
	cache []Value
	univ  Set
}

// NewFrame is a frame over n events; cond decides the ifs.
func (c *Compiled) NewFrame(n int, cond func(string) bool) *Frame {
	f := &Frame{c: c, n: n, cond: cond, vals: make([]Value, len(c.slots)), set: make([]bool, len(c.slots)), stamp: make([]int, len(c.slots)),
		cache: make([]Value, c.ncache+1)}
	for k := range f.stamp {
		f.stamp[k] = -1
	}
	return f
}

// Has reports whether the model uses the name (as a base name or a binding).
func (c *Compiled) Has(name string) bool { _, ok := c.byName[name]; return ok }

// SetBase gives a base name its value (ignored when the model does not use it).
func (f *Frame) SetBaseSet(name string, s Set) {
	if k, ok := f.c.byName[name]; ok && f.c.slots[k].base {
		f.vals[k] = Value{Set: s, Typ: TSet}
		f.set[k] = true
	}
}

// SetBaseRel gives a base relation its value.
func (f *Frame) SetBaseRel(name string, r Rel) {
	if k, ok := f.c.byName[name]; ok && f.c.slots[k].base {
		f.vals[k] = Value{Rel: r, Typ: TRel}
		f.set[k] = true
	}
}

// EvalStatic computes every binding that depends on static names only.
func (f *Frame) EvalStatic() error {
	for i := range f.c.lets {
		if !f.c.lets[i].dynamic {
			if err := f.evalLet(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// EvalDynamic starts a new candidate (after EvalStatic and the dynamic names'
// SetBase*): the bindings that depend on a dynamic name are computed anew when used.
func (f *Frame) EvalDynamic() error {
	f.gen++
	return nil
}

func (f *Frame) evalLet(i int) error {
	cl := &f.c.lets[i]
	for _, k := range cl.slots {
		f.stamp[k] = f.gen
	}
	{
		if !cl.rec {
			for k, x := range cl.exprs {
				v, err := f.eval(x)
				if err != nil {
					return err
				}
				f.vals[cl.slots[k]] = v
			}
			return nil
		}
		for _, k := range cl.slots {
			if f.c.slots[k].typ == TSet {
				f.vals[k] = Value{Set: NewSet(f.n), Typ: TSet}
			} else {
				f.vals[k] = Value{Rel: NewRel(f.n), Typ: TRel}
			}
		}
		for changed := true; changed; {
			changed = false
			next := make([]Value, len(cl.exprs))
			for k, x := range cl.exprs {
				v, err := f.eval(x)
				if err != nil {
					return err
				}
				next[k] = v
			}
			for k, v := range next {
				if !sameValue(f.vals[cl.slots[k]], v) {
					changed = true
				}
				f.vals[cl.slots[k]] = v
			}
		}
	}
	return nil
}

// value is a slot's value, computing a dynamic binding not yet computed for this
// candidate.
func (f *Frame) value(k int) (Value, error) {
	sl := &f.c.slots[k]
	if sl.dynamic && !sl.base && f.stamp[k] != f.gen {
		if err := f.evalLet(sl.let); err != nil {
			return Value{}, err
		}
	}
	return f.vals[k], nil
}

func sameValue(a, b Value) bool {
	if a.Typ == TSet {
		return slices.Equal(a.Set, b.Set)
	}
	return slices.Equal(a.Rel.Bits, b.Rel.Bits)
}

// Lookup is the value of a name after evaluation.
func (f *Frame) Lookup(name string) (Value, bool) {
	k, ok := f.c.byName[name]
	if !ok {
		return Value{}, false
	}
	v, err := f.value(k)
	return v, err == nil
}

// CheckResult is a check an execution breaks.
type CheckResult struct {
	Check *Check
	// Cycle is the cycle found, for acyclic; the reflexive event, for irreflexive; a
	// pair (or an event) of the non-empty value, for empty.
	Events []int
}

// Violated returns the first check the candidate breaks (nil: it is consistent).
// Static checks are judged too: a frame whose static part already breaks one is
// no execution either.
func (f *Frame) Violated() (*CheckResult, error) {
	for i := range f.c.Checks {
		ch := &f.c.Checks[i]
		v, err := f.eval(ch.x)
		if err != nil {
			return nil, err
		}
		switch ch.Kind {
		case "acyclic":
			r := v.Rel
			if r.Bits == nil || Acyclic(r) {
				continue
			}
			return &CheckResult{Check: ch.Check, Events: Cycle(r)}, nil
		case "irreflexive":
			if v.Rel.Bits == nil {
				continue
			}
			if i, bad := Reflexive(v.Rel); bad {
				return &CheckResult{Check: ch.Check, Events: []int{i}}, nil
			}
		case "empty":
			if !v.Empty() {
				return &CheckResult{Check: ch.Check, Events: someOf(v)}, nil
			}
		}
	}
	return nil, nil
}

// FlagResult is a flag an execution raises, with the pairs (or events) that raise it.
type FlagResult struct {
	Flag  *Flag
	Value Value
}

// Flags returns the flags raised, those with relaxed set or not as asked, but those
// skip says are known already (nil: none).
func (f *Frame) Flags(relaxed bool, skip func(*Flag) bool) ([]FlagResult, error) {
	var out []FlagResult
	for i := range f.c.Flags {
		fl := &f.c.Flags[i]
		if fl.Relaxed != relaxed || skip != nil && skip(fl.Flag) {
			continue
		}
		v, err := f.eval(fl.x)
		if err != nil {
			return nil, err
		}
		if !v.Empty() {
			out = append(out, FlagResult{Flag: fl.Flag, Value: v})
		}
	}
	return out, nil
}

func someOf(v Value) []int {
	var out []int
	if v.Typ == TSet {
		v.Set.Each(func(i int) {
			if out == nil {
				out = []int{i}
			}
		})
		return out
	}
	v.Rel.Each(func(i, j int) {
		if out == nil {
			out = []int{i, j}
		}
	})
	return out
}

// universe is the set of every event (shared: callers must not change it).
func (f *Frame) universe() Set {
	if f.univ == nil {
		f.univ = NewSet(f.n)
		for i := 0; i < f.n; i++ {
			f.univ.Add(i)
		}
	}
	return f.univ
}

func (f *Frame) emptyOf(t Type) Value {
	if t == TSet {
		return Value{Set: NewSet(f.n), Typ: TSet}
	}
	return Value{Rel: NewRel(f.n), Typ: TRel}
}

// eval evaluates a compiled expression; an expression of type 0 evaluates as want
// says (its context's type), a relation when the context has none.
func (f *Frame) eval(x cexpr) (Value, error) {
	return f.evalAs(x, x.typ)
}

func (f *Frame) evalAs(x cexpr, want Type) (Value, error) {
	if x.cache > 0 {
		if v := f.cache[x.cache]; v.Typ != 0 {
			return v, nil
		}
		k := x.cache
		x.cache = 0 // x is a copy: evaluate it uncached
		v, err := f.evalAs(x, want)
		if err == nil {
			f.cache[k] = v
		}
		return v, err
	}
	if want == TAny {
		want = TRel
	}
	switch x.op {
	case "name":
		if !f.set[x.slot] && f.c.slots[x.slot].base {
			return Value{}, errorf(x.pos, "the engine gave no value to %q", f.c.slots[x.slot].name)
		}
		v, err := f.value(x.slot)
		if err != nil {
			return Value{}, err
		}
		if v.Typ == 0 {
			return f.emptyOf(want), nil
		}
		return v, nil
	case "0":
		return f.emptyOf(want), nil
	case "_":
		return Value{Set: f.universe(), Typ: TSet}, nil
	case "if":
		k := 1
		if f.cond(x.cond) {
			k = 0
		}
		return f.evalAs(x.kids[k], x.typ)
	}
	if len(x.kids) == 2 {
		kidType := x.typ
		if x.op == ";" {
			kidType = TRel
		}
		if x.op == "*" {
			kidType = TSet
		}
		l, err := f.evalAs(x.kids[0], kidType)
		if err != nil {
			return Value{}, err
		}
		r, err := f.evalAs(x.kids[1], kidType)
		if err != nil {
			return Value{}, err
		}
		switch x.op {
		case "|", "&", "\\":
			return combine(x.op, l, r), nil
		case ";":
			return Value{Rel: Seq(l.Rel, r.Rel), Typ: TRel}, nil
		case "*":
			return Value{Rel: Product(f.n, l.Set, r.Set), Typ: TRel}, nil
		}
	}
	kidType := TRel
	switch x.op {
	case "~":
		kidType = x.typ
	case "[]":
		kidType = TSet
	}
	k, err := f.evalAs(x.kids[0], kidType)
	if err != nil {
		return Value{}, err
	}
	switch x.op {
	case "^-1":
		return Value{Rel: Inverse(k.Rel), Typ: TRel}, nil
	case "+":
		return Value{Rel: Plus(k.Rel), Typ: TRel}, nil
	case "*post", "?":
		var r Rel
		if x.op == "*post" {
			r = Plus(k.Rel)
		} else {
			r = k.Rel.Clone()
		}
		for i := 0; i < f.n; i++ {
			r.Add(i, i)
		}
		return Value{Rel: r, Typ: TRel}, nil
	case "~":
		if k.Typ == TSet {
			s := f.universe().Clone()
			andNotInto(s, k.Set)
			return Value{Set: s, Typ: TSet}, nil
		}
		r := Product(f.n, f.universe(), f.universe())
		andNotInto(r.Bits, k.Rel.Bits)
		return Value{Rel: r, Typ: TRel}, nil
	case "[]":
		return Value{Rel: Identity(f.n, k.Set), Typ: TRel}, nil
	case "domain":
		return Value{Set: Domain(k.Rel), Typ: TSet}, nil
	case "range":
		return Value{Set: Range(k.Rel), Typ: TSet}, nil
	}
	return Value{}, errorf(x.pos, "cat: unknown operator %q", x.op)
}

func combine(op string, l, r Value) Value {
	if l.Typ == TSet {
		s := l.Set.Clone()
		switch op {
		case "|":
			orInto(s, r.Set)
		case "&":
			andInto(s, r.Set)
		case "\\":
			andNotInto(s, r.Set)
		}
		return Value{Set: s, Typ: TSet}
	}
	out := l.Rel.Clone()
	switch op {
	case "|":
		orInto(out.Bits, r.Rel.Bits)
	case "&":
		andInto(out.Bits, r.Rel.Bits)
	case "\\":
		andNotInto(out.Bits, r.Rel.Bits)
	}
	return Value{Rel: out, Typ: TRel}
}

// Dynamic reports whether a name's value changes from one candidate to the next.
func (c *Compiled) Dynamic(name string) bool {
	k, ok := c.byName[name]
	return ok && c.slots[k].dynamic
}
