package litmus

// Validate checks that a syntactically well-formed test means something. It refuses, each
// with the position of the offending name:
//
//   - a test with no processes, or a process whose column does not have Test.Rows cells;
//   - windows: a duplicate name; both size= and bytes=; neither size=/bytes= nor over=;
//     size=/bytes= together with over=; over= on a non-create window, naming an unknown
//     window, itself, or a loop of over= windows; a size/bytes list whose length is not the
//     number of processes; a negative size; disp_unit <= 0; ranks= out of range, duplicated or
//     empty; an unknown info key, a duplicate one, or a bad value (booleans true|false,
//     accumulate_ordering none or a list of distinct rar,raw,war,waw, accumulate_ops
//     same_op|same_op_no_op, mpi_minimum_memory_alignment a positive power of two);
//   - aliases: a duplicate name, a name that is also a window's, an alias of an alias, and
//     the location checks below, with a typed location fitting its bytes= segment;
//   - locations (everywhere): unknown alias or window, a rank out of range or outside the
//     window's group, a displacement outside the segment (SegmentSize), a window name used
//     where a location is needed;
//   - initial values: the location checks, a rank out of range, a duplicate initial value of
//     one cell (through aliases) or register, a register named like an alias;
//   - instructions: a register read (operand or predicate) that its process never writes and
//     the init block does not set; a location alias used as a value; a result register named
//     like an alias; an unknown window; a caller outside the window's group; a lock, unlock,
//     flush, flush_local or shared_query target out of range or outside the group; send/recv
//     to an unknown rank or to self; a post/start group naming self, an unknown rank, a rank
//     twice, or a rank outside the window's group; acc/racc with no_op; an unknown, misplaced
//     or duplicate assertion (fence: nostore noput noprecede nosucceed; post: nocheck nostore
//     noput; start, lock, lock_all: nocheck; nothing else takes any); a request handle created
//     twice by one process, waited on without being created, or waited on twice; missing
//     operands in programmatically built instructions;
//   - locations line and conditions: an unknown rank, a register named like an alias, the
//     location checks;
//   - expect: an unknown hardware model, preset or rule id, a rule id that is never raised
//     (R1-R6), a rule on an observation other than Erroneous, an empty line, or the same
//     preset twice for one hardware model (no hw= and hw=relaxed are the same).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rmacheck/rmacheck/spec"
)

type validator struct {
	t    *Test
	n    int
	errs ErrorList
	// dropped: the processes with a cell the parser dropped after a syntax error;
	// checks that relate a process's instructions (a register read that no
	// instruction writes, a waitreq with no call that creates its request, a loop
	// never closed) skip them, since the dropped cell may hold the other half.
	dropped uint64
}

// whole reports whether every cell of process pi parsed (validator.dropped).
func (v *validator) whole(pi int) bool { return v.dropped&(1<<uint(pi%64)) == 0 }

func (v *validator) errorf(pos Pos, format string, args ...any) {
	v.errs.Add(v.t.File, pos, format, args...)
}

// Validate runs the semantic checks alone (Parse calls it). The list is sorted by position.
func Validate(t *Test) ErrorList { return validate(t, 0) }

// validate is Validate of a test some of whose processes lost a cell to a syntax
// error (dropped, bit i: P i): their relational checks are skipped.
func validate(t *Test, dropped uint64) ErrorList {
	if t == nil {
		return nil
	}
	v := &validator{t: t, n: len(t.Procs), dropped: dropped}
	v.run()
	v.errs.Sort()
	return v.errs
}

func (v *validator) run() {
	t := v.t
	if v.n == 0 {
		v.errorf(t.NamePos, "test %q has no processes (the table needs a header row P0 | ... ;)", t.Name)
	}
	v.windows()
	v.aliases()
	v.inits()
	for i, p := range t.Procs {
		if p == nil {
			continue
		}
		v.proc(i, p)
	}
	for _, r := range t.Locations {
		if r != nil {
			v.ref(*r)
		}
	}
	v.valueTypes()
	v.cond(t.Filter)
	if t.Cond == nil {
		v.errorf(t.QuantPos, "missing final condition")
	}
	v.cond(t.Cond)
	v.expects()
	v.limits()
}

// The limits of the model (each per-process set is a machine word): a test beyond
// them is refused here, with the position where it passes the limit, so that every
// command refuses it alike.
const (
	MaxProcs  = 16
	MaxInstrs = 64 // per process, as compiled: await is two (a load and an until), repeat none
	MaxCells  = 64 // distinct memory cells (a window over= another shares its cells)
	MaxRegs   = 32 // per process
	// MaxWindows: a window has a cell on each rank it is used at, so a test cannot use
	// more than MaxCells; 5,000 unused windows gave 5 MB of C (issue 38 row 20).
	MaxWindows = MaxCells
	// MaxRows bounds the process table's rows, empty cells included (MaxInstrs bounds
	// only the instructions): 50,000 empty rows gave C that gcc did not compile in
	// 10 minutes (issue 38 row 20). Checked by the parser, row by row.
	MaxRows = 4 * MaxInstrs
)

// limits checks the model's limits.
func (v *validator) limits() {
	t := v.t
	if len(t.Procs) > MaxProcs {
		v.errorf(or(t.Procs[MaxProcs].Pos, t.NamePos), "%d processes: rmacheck models at most %d (each process set is a word)", len(t.Procs), MaxProcs)
	}
	if len(t.Windows) > MaxWindows {
		v.errorf(t.Windows[MaxWindows].Pos, "%d windows: rmacheck models at most %d (each window used takes a memory cell)", len(t.Windows), MaxWindows)
	}
	type cellKey struct {
		win        *Window
		rank, disp int
	}
	cells := map[cellKey]bool{}
	cell := func(l *Loc) {
		if l == nil {
			return
		}
		w, rank, disp, _, ok := t.ResolveLoc(*l)
		if !ok || w.Base(t) == nil {
			return
		}
		keys := []cellKey{{w.Base(t), rank, disp}}
		if l.Computed() || l.Null {
			keys = nil // every cell the location may name (CellsNamed)
			for _, rd := range t.CellsNamed(*l) {
				keys = append(keys, cellKey{w.Base(t), rd[0], rd[1]})
			}
		} else if t.RangeOf(*l) != nil {
			keys = nil // every element of a range (range.go)
			for _, e := range t.Elems(*l) {
				if _, r, d, _, ok := t.ResolveLoc(e); ok {
					keys = append(keys, cellKey{w.Base(t), r, d})
				}
			}
		}
		for _, k := range keys {
			if !cells[k] {
				cells[k] = true
				if len(cells) == MaxCells+1 {
					v.errorf(l.Pos, "the %dth distinct memory cell: rmacheck models at most %d (a computed location counts every cell it may name)", MaxCells+1, MaxCells)
				}
			}
		}
	}
	for pi, p := range t.Procs {
		instrs := 0
		regs := map[string]bool{}
		reg := func(r string, pos Pos) {
			if !regs[r] {
				regs[r] = true
				if len(regs) == MaxRegs+1 {
					v.errorf(pos, "register %s is P%d's %dth: rmacheck models at most %d registers a process", r, pi, MaxRegs+1, MaxRegs)
				}
			}
		}
		for _, in := range p.Code {
			if in == nil {
				continue
			}
			before := instrs
			switch in.Op {
			case OpRepeat:
			case OpAwait:
				instrs += 2
			default:
				instrs++
			}
			if before <= MaxInstrs && instrs > MaxInstrs {
				v.errorf(in.Pos, "P%d passes %d instructions here: rmacheck models at most %d a process (await counts two)", pi, MaxInstrs, MaxInstrs)
			}
			for _, r := range append(in.WriteRegs(), in.ReadRegs()...) {
				reg(r, in.Pos)
			}
			cell(in.Loc)
		}
		for _, in := range t.Inits {
			if in != nil && in.Reg != nil && in.Reg.Proc == pi {
				reg(in.Reg.Reg, in.Reg.Pos)
			}
		}
		refs := append(append([]*Ref(nil), t.Locations...), CondRefs(t.Cond, t.Filter)...)
		for _, r := range refs {
			if r != nil && r.Reg != nil && r.Reg.Proc == pi {
				reg(r.Reg.Reg, r.Reg.Pos)
			}
		}
	}
	for _, in := range t.Inits {
		if in != nil {
			cell(in.Loc)
		}
	}
	for _, r := range CondRefs(t.Cond, t.Filter) {
		cell(r.Loc)
	}
	for _, r := range t.Locations {
		if r != nil {
			cell(r.Loc)
		}
	}
}

func declared(kind string, names []string) string {
	if len(names) == 0 {
		return "(no " + kind + " declared)"
	}
	var uniq []string
	for _, n := range names {
		if !slices.Contains(uniq, n) {
			uniq = append(uniq, n)
		}
	}
	names = uniq
	return "(declared: " + strings.Join(names, ", ") + ")"
}

func (v *validator) windowNames() string {
	var ns []string
	for _, w := range v.t.Windows {
		ns = append(ns, w.Name)
	}
	return declared("windows", ns)
}

func (v *validator) aliasNames() string {
	var ns []string
	for _, a := range v.t.Aliases {
		ns = append(ns, a.Name)
	}
	return declared("aliases", ns)
}

func (v *validator) procRange() string {
	if v.n == 1 {
		return "1 process: rank 0"
	}
	return fmt.Sprintf("%d processes: ranks 0..%d", v.n, v.n-1)
}

func or(p, q Pos) Pos {
	if p.IsValid() {
		return p
	}
	return q
}

func intsString(l []int) string {
	s := make([]string, len(l))
	for i, x := range l {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// InfoKeys are the MPI info keys a window accepts.
var InfoKeys = []string{"no_locks", "accumulate_ordering", "accumulate_ops", "alloc_shared_noncontig",
	"mpi_minimum_memory_alignment", "same_size", "same_disp_unit"}

func (v *validator) windows() {
	t := v.t
	seen := map[string]*Window{}
	for _, w := range t.Windows {
		if w == nil {
			continue
		}
		if first, dup := seen[w.Name]; dup {
			v.errorf(w.Pos, "duplicate window %q (first declared at %s)", w.Name, first.Pos)
		} else {
			seen[w.Name] = w
		}
	}
	for _, w := range t.Windows {
		if w == nil {
			continue
		}
		if w.Flavor < 0 || int(w.Flavor) >= len(flavorNames) {
			v.errorf(w.Pos, "window %s: bad flavor %d", w.Name, int(w.Flavor))
			continue
		}
		if w.Type < 0 || int(w.Type) >= len(typeNames) {
			v.errorf(or(w.TypePos, w.Pos), "window %s: bad type %d", w.Name, int(w.Type))
		}
		hasSize, hasBytes := w.Size != nil, w.Bytes != nil
		if hasSize && hasBytes {
			v.errorf(or(w.BytesPos, w.Pos), "window %s: both size= and bytes= given (use one)", w.Name)
		}
		if w.Over != "" {
			if hasSize {
				v.errorf(or(w.SizePos, w.Pos), "window %s: size= given together with over= (over= takes %s's sizes)", w.Name, w.Over)
			}
			if hasBytes {
				v.errorf(or(w.BytesPos, w.Pos), "window %s: bytes= given together with over= (over= takes %s's sizes)", w.Name, w.Over)
			}
			opos := or(w.OverPos, w.Pos)
			switch o := t.LookupWindow(w.Over); {
			case w.Flavor != FlavorCreate:
				v.errorf(opos, "window %s: over= is only for create windows, not %s", w.Name, w.Flavor)
			case w.Over == w.Name:
				v.errorf(opos, "window %s: over= names the window itself", w.Name)
			case o == nil:
				v.errorf(opos, "window %s: over= names unknown window %q %s", w.Name, w.Over, v.windowNames())
			case w.Base(t) == nil:
				v.errorf(opos, "window %s: over= windows form a loop", w.Name)
			}
		} else if !hasSize && !hasBytes && w.Flavor != FlavorDynamic { // a dynamic window may start with nothing attached
			v.errorf(w.Pos, "window %s has no size: give size=N, size=[..], bytes=[..] or over=OTHER", w.Name)
		}
		if hasSize {
			if w.SizeList && len(w.Size) != v.n && v.n > 0 {
				v.errorf(or(w.SizePos, w.Pos), "window %s: size list has %d entries, expected %d (one per process)", w.Name, len(w.Size), v.n)
			}
			if !w.SizeList && len(w.Size) != 1 {
				v.errorf(or(w.SizePos, w.Pos), "window %s: size=N must have exactly one value", w.Name)
			}
			for _, s := range w.Size {
				if s < 0 {
					v.errorf(or(w.SizePos, w.Pos), "window %s: negative size %d", w.Name, s)
					break
				}
			}
		}
		if hasBytes {
			if len(w.Bytes) != v.n && v.n > 0 {
				v.errorf(or(w.BytesPos, w.Pos), "window %s: bytes list has %d entries, expected %d (one per process)", w.Name, len(w.Bytes), v.n)
			}
			for _, s := range w.Bytes {
				if s < 0 {
					v.errorf(or(w.BytesPos, w.Pos), "window %s: negative byte size %d", w.Name, s)
					break
				}
			}
		}
		if w.DispUnit < 0 || (w.DispUnit == 0 && w.DispUnitPos.IsValid()) {
			v.errorf(or(w.DispUnitPos, w.Pos), "window %s: disp_unit must be positive, found %d", w.Name, w.DispUnit)
		}
		if w.Ranks != nil {
			if len(w.Ranks) == 0 {
				v.errorf(or(w.RanksPos, w.Pos), "window %s: empty ranks= list", w.Name)
			}
			seenR := map[int]bool{}
			for _, r := range w.Ranks {
				if r < 0 || r >= v.n {
					v.errorf(or(w.RanksPos, w.Pos), "window %s: rank %d in ranks= out of range (%s)", w.Name, r, v.procRange())
				} else if seenR[r] {
					v.errorf(or(w.RanksPos, w.Pos), "window %s: rank %d listed twice in ranks=", w.Name, r)
				}
				seenR[r] = true
			}
		}
		v.info(w)
	}
}

func (v *validator) info(w *Window) {
	seen := map[string]bool{}
	for _, in := range w.Info {
		pos := or(in.Pos, w.Pos)
		if seen[in.Key] {
			v.errorf(pos, "window %s: duplicate info key %q", w.Name, in.Key)
		}
		seen[in.Key] = true
		bad := func(want string) {
			v.errorf(pos, "window %s: bad value %q for info key %s (expected %s)", w.Name, in.Value, in.Key, want)
		}
		switch in.Key {
		case "no_locks", "alloc_shared_noncontig", "same_size", "same_disp_unit":
			if in.Value != "true" && in.Value != "false" {
				bad("true or false")
			}
		case "accumulate_ops":
			if in.Value != "same_op" && in.Value != "same_op_no_op" {
				bad("same_op or same_op_no_op")
			}
		case "accumulate_ordering":
			if in.Value == "none" {
				break
			}
			items := strings.Split(in.Value, ",")
			got := map[string]bool{}
			for _, it := range items {
				if (it != "rar" && it != "raw" && it != "war" && it != "waw") || got[it] {
					bad(`none or a list of distinct rar, raw, war, waw such as "rar,raw"`)
					break
				}
				got[it] = true
			}
		case "mpi_minimum_memory_alignment":
			n, err := strconv.Atoi(in.Value)
			if err != nil || n <= 0 || n&(n-1) != 0 {
				bad("a positive power of two")
			}
		default:
			v.errorf(pos, "window %s: unknown key %q (keys: size, bytes, type, disp_unit, model, ranks, over, %s)", w.Name, in.Key, strings.Join(InfoKeys, ", "))
		}
	}
}

// locWindow finds the window of a location and checks a literal rank (not one a
// register holds, nor null) against the processes and the window's group.
func (v *validator) locWindow(l Loc) (*Window, bool) {
	w := v.t.LookupWindow(l.Win)
	if w == nil {
		v.errorf(l.Pos, "unknown window %q %s", l.Win, v.windowNames())
		return nil, false
	}
	if l.RankReg != "" || l.Null {
		return w, true
	}
	if l.Rank < 0 || l.Rank >= v.n {
		v.errorf(l.Pos, "%s: rank %d out of range (%s)", LocString(l), l.Rank, v.procRange())
		return nil, false
	}
	if !w.InGroup(l.Rank) {
		v.errorf(l.Pos, "%s: rank %d is not in the group of window %s (ranks=%s)", LocString(l), l.Rank, w.Name, intsString(w.Ranks))
		return nil, false
	}
	return w, true
}

// loc checks a location; it reports whether it resolves and is in range.
func (v *validator) loc(l Loc) bool {
	t := v.t
	if l.Computed() || l.Null {
		v.fixedLocNeeded(l, "an alias, an initial value, the locations line or a condition", false)
		return false
	}
	if l.Alias != "" {
		if t.LookupAlias(l.Alias) != nil {
			return true
		}
		if t.LookupWindow(l.Alias) != nil {
			v.errorf(l.Pos, "window %q used as a location (write %s@rank[disp])", l.Alias, l.Alias)
			return false
		}
		v.errorf(l.Pos, "unknown location %q %s", l.Alias, v.aliasNames())
		return false
	}
	w, ok := v.locWindow(l)
	if !ok {
		return false
	}
	name := LocString(l)
	if b := w.Base(t); b == nil || b.Size == nil && b.Bytes == nil {
		return false // reported at the window
	}
	size := w.SegmentSize(t, l.Rank)
	if size < 0 {
		return false // a negative size, reported at the window
	}
	if l.Range != nil {
		return v.rangeInSegment(l, w, size)
	}
	if l.Disp < 0 || l.Disp >= size {
		unit := "cells"
		if size == 1 {
			unit = "cell"
		}
		if _, isBytes := w.SegmentBytes(t, l.Rank); isBytes {
			unit = "bytes"
			if w.DispUnit > 1 {
				unit = fmt.Sprintf("units of %d bytes", w.DispUnit)
			}
		}
		v.errorf(l.Pos, "%s: displacement %d outside rank %d's segment of window %s (size %d %s)", name, l.Disp, l.Rank, w.Name, size, unit)
		return false
	}
	return true
}

// fits checks that a typed location lies inside its bytes= segment.
func (v *validator) fits(l Loc, typ Type, pos Pos) {
	w := v.t.LookupWindow(l.Win)
	if w == nil {
		return
	}
	b, isBytes := w.SegmentBytes(v.t, l.Rank)
	if !isBytes {
		return
	}
	if typ == TypeDefault {
		typ = w.CellType()
	}
	unit := max(w.DispUnit, 1)
	if l.Disp*unit+typ.Size() > b {
		v.errorf(pos, "%s: a %s (%d bytes) at byte %d does not fit rank %d's segment of window %s (%d bytes)",
			LocString(l), typ, typ.Size(), l.Disp*unit, l.Rank, w.Name, b)
	}
}

func (v *validator) aliases() {
	t := v.t
	seen := map[string]*Alias{}
	for _, a := range t.Aliases {
		if a == nil {
			continue
		}
		if first, dup := seen[a.Name]; dup {
			v.errorf(a.Pos, "duplicate alias %q (first declared at %s)", a.Name, first.Pos)
			continue
		}
		seen[a.Name] = a
		if t.LookupWindow(a.Name) != nil {
			v.errorf(a.Pos, "alias %q has the name of a window", a.Name)
		}
		if a.Type < 0 || int(a.Type) >= len(typeNames) {
			v.errorf(a.Pos, "alias %s: bad type %d", a.Name, int(a.Type))
			continue
		}
		if a.Loc.Alias != "" {
			v.errorf(or(a.Loc.Pos, a.Pos), "alias %s must name a cell W@rank[disp], not the alias %q", a.Name, a.Loc.Alias)
			continue
		}
		if v.loc(a.Loc) {
			if a.Loc.Range != nil && a.Type != TypeDefault {
				v.errorf(a.Pos, "alias %s of the range %s cannot take a type: a range's elements are the window's cells", a.Name, LocString(a.Loc))
				continue
			}
			v.fits(a.Loc, a.Type, or(a.Loc.Pos, a.Pos))
		}
	}
}

func (v *validator) isAlias(name string) bool { return v.t.LookupAlias(name) != nil }

func (v *validator) inits() {
	t := v.t
	type cell struct {
		w          string
		rank, disp int
	}
	cells := map[cell]Pos{}
	regs := map[RegRef]Pos{}
	for _, in := range t.Inits {
		if in == nil {
			continue
		}
		switch {
		case in.Reg != nil:
			r := *in.Reg
			pos := or(r.Pos, in.Pos)
			if r.Proc < 0 || r.Proc >= v.n {
				v.errorf(pos, "register %d:%s: rank %d out of range (%s)", r.Proc, r.Reg, r.Proc, v.procRange())
				continue
			}
			if v.isAlias(r.Reg) {
				v.errorf(pos, "register %q has the name of a location alias", r.Reg)
			}
			key := RegRef{Proc: r.Proc, Reg: r.Reg}
			if first, dup := regs[key]; dup {
				v.errorf(pos, "duplicate initial value for register %d:%s (first at %s)", r.Proc, r.Reg, first)
			}
			regs[key] = pos
		case in.Loc != nil:
			pos := or(in.Loc.Pos, in.Pos)
			if !v.loc(*in.Loc) || !v.oneCell(*in.Loc, "an initial value") {
				continue
			}
			w, rank, disp, _, ok := t.ResolveLoc(*in.Loc)
			if !ok {
				continue
			}
			key := cell{w.Name, rank, disp}
			if first, dup := cells[key]; dup {
				v.errorf(pos, "duplicate initial value for %s (first at %s)", LocString(*in.Loc), first)
			}
			cells[key] = pos
		default:
			v.errorf(in.Pos, "initial value names neither a register nor a location")
		}
	}
}

var assertNames = []string{"nocheck", "nostore", "noput", "noprecede", "nosucceed"}

// AllowedAsserts lists the assertions an op takes (nil: none).
func AllowedAsserts(op Op) []string {
	switch op {
	case OpFence:
		return []string{"nostore", "noput", "noprecede", "nosucceed"}
	case OpPost:
		return []string{"nocheck", "nostore", "noput"}
	case OpStart, OpLock, OpLockAll:
		return []string{"nocheck"}
	}
	return nil
}

func (v *validator) proc(pi int, p *Proc) {
	t := v.t
	if len(p.Code) != t.Rows {
		v.errorf(p.Pos, "P%d has %d cells, expected %d (one per row)", pi, len(p.Code), t.Rows)
	}
	writes := map[string]bool{}
	for _, in := range t.Inits {
		if in != nil && in.Reg != nil && in.Reg.Proc == pi {
			writes[in.Reg.Reg] = true
		}
	}
	for _, ins := range p.Code {
		if ins != nil && ins.Dst != "" {
			writes[ins.Dst] = true
		}
		if ins != nil {
			for _, d := range ins.Dsts {
				writes[d] = true
			}
		}
	}
	created := map[string]Pos{}
	waited := map[string]Pos{}
	for _, ins := range p.Code {
		if ins != nil && ins.Op.IsRequest() && ins.Req != "" {
			if first, dup := created[ins.Req]; dup {
				v.errorf(or(ins.ReqPos, ins.Pos), "request %q created twice in P%d (first at %s)", ins.Req, pi, first)
				continue
			}
			created[ins.Req] = or(ins.ReqPos, ins.Pos)
		}
	}
	if v.whole(pi) {
		v.loops(pi, p)
	}
	for _, ins := range p.Code {
		if ins == nil {
			continue
		}
		v.instr(pi, ins, writes)
		if ins.Op == OpWaitReq && v.whole(pi) {
			pos := or(ins.ReqPos, ins.Pos)
			if _, ok := created[ins.Req]; !ok {
				v.errorf(pos, "waitreq on request %q that no rput, rget, racc or rgacc of P%d creates", ins.Req, pi)
			} else if first, dup := waited[ins.Req]; dup {
				v.errorf(pos, "request %q waited on twice in P%d (first at %s)", ins.Req, pi, first)
			}
			waited[ins.Req] = pos
		}
	}
	if v.whole(pi) {
		v.completionTests(pi, p, created)
	}
}

// loops checks the spin loops of a process (docs/semantics.md#spin-loops, docs/language.md#spin-loops): every
// repeat has an until below it in the same column, loops do not nest, a body is not
// empty, holds no instruction with side effects on memory, and writes a register of
// its condition; a cas in a body is the lock-acquire idiom, whose loop exits exactly
// when the compare succeeds (until r == CMP on its result).
func (v *validator) loops(pi int, p *Proc) {
	var repeat *Instr // the open loop's first row
	var body []*Instr
	for _, ins := range p.Code {
		if ins == nil {
			continue
		}
		switch ins.Op {
		case OpRepeat, OpAwait:
			if repeat != nil {
				v.errorf(ins.Pos, "loops do not nest: %s inside the loop of P%d that starts at %s", ins.Op, pi, repeat.Pos)
				continue
			}
			if ins.Op == OpRepeat {
				repeat, body = ins, nil
			}
		case OpUntil:
			if repeat == nil {
				v.errorf(ins.Pos, "until without a repeat above it in P%d's column", pi)
				continue
			}
			v.loopBody(pi, repeat, body, ins)
			repeat = nil
		default:
			if repeat != nil {
				body = append(body, ins)
				if !loopBodyOp(ins) {
					v.errorf(ins.Pos, "%s has side effects on memory: a loop body may hold only loads, get, gacc and fop with no_op, cas, flushes, sync, test, testreq and register arithmetic (docs/semantics.md, Spin loops)", InstrString(ins))
				}
			}
		}
	}
	if repeat != nil {
		v.errorf(repeat.Pos, "repeat without until: the loop of P%d that starts here is never closed (until COND in the same column)", pi)
	}
}

// loopBodyOp: the instruction may stand in a loop body (it changes no memory).
func loopBodyOp(ins *Instr) bool {
	switch ins.Op {
	case OpLoad, OpGet, OpCas, OpFlush, OpFlushAll, OpFlushLocal, OpFlushLocalAll, OpSync, OpMov, OpAdd, OpSub,
		OpTest, OpTestReq: // a failed test changes nothing (testsInLoop checks the condition)
		return true
	case OpGacc, OpFop:
		return ins.AccOp == AccNoOp
	}
	return false
}

func (v *validator) loopBody(pi int, repeat *Instr, body []*Instr, until *Instr) {
	if len(body) == 0 {
		v.errorf(repeat.Pos, "empty loop body: put the instructions that poll between repeat and until")
		return
	}
	if until.Until == nil {
		return
	}
	written := map[string]bool{}
	for _, ins := range body {
		if ins.Dst != "" {
			written[ins.Dst] = true
		}
	}
	changes := false
	for _, r := range until.Until.Regs() {
		changes = changes || written[r]
	}
	if !changes {
		v.errorf(until.Until.Pos, "no instruction of the loop body writes a register of %q, so the loop can never change its condition", LoopCondString(until.Until))
	}
	v.testsInLoop(body, until)
	for _, ins := range body {
		if ins.Op != OpCas || len(ins.Args) != 2 {
			continue
		}
		c := until.Until
		if len(c.Terms) != 1 || len(c.Terms[0]) != 1 || !c.Terms[0][0].Eq || c.Terms[0][0].Reg != ins.Dst || valueOnly(c.Terms[0][0].Val) != valueOnly(ins.Args[0]) {
			v.errorf(ins.Pos, "a cas in a loop body writes memory when its compare succeeds: the loop must exit exactly then (until %s == %s)", ins.Dst, ValueString(ins.Args[0]))
		}
	}
}

// valueOnly is a value without its position, for comparing two values.
func valueOnly(x Value) Value { return Value{Reg: x.Reg, Imm: x.Imm} }

func (v *validator) readReg(pi int, reg string, pos Pos, writes map[string]bool, guard bool) {
	if keywords[reg] {
		v.errorf(pos, "register name %q is a keyword", reg)
		return
	}
	if v.isAlias(reg) {
		v.errorf(pos, "location %q used as a value (only registers and integers are values)", reg)
		return
	}
	if writes[reg] || !v.whole(pi) { // a dropped cell of pi may write it
		return
	}
	if guard {
		v.errorf(pos, "predicate on undefined register %q (P%d never writes it and the init block does not set it)", reg, pi)
		return
	}
	v.errorf(pos, "register %q is read but P%d never writes it and the init block does not set it", reg, pi)
}

// numArgs is how many operands each op has (-1: 0 or 1).
func numArgs(op Op) int {
	switch op {
	case OpStore, OpPut, OpAcc, OpGacc, OpFop, OpRput, OpRacc, OpRgacc, OpMov, OpAttach, OpDetach:
		return 1
	case OpCas, OpAdd, OpSub:
		return 2
	case OpSend:
		return -1
	}
	return 0
}

func hasDst(op Op) bool {
	switch op {
	case OpLoad, OpGet, OpGacc, OpFop, OpCas, OpRget, OpRgacc, OpSharedQuery, OpMov, OpAdd, OpSub, OpAwait,
		OpAttach, OpTest, OpTestReq:
		return true
	}
	return false
}

func hasLoc(op Op) bool { return op == OpStore || op == OpLoad || op == OpAwait || op.IsRMA() }

func hasWin(op Op) bool {
	return op >= OpFence && op <= OpSharedQuery || op == OpFree || op == OpAttach || op == OpDetach || op == OpTest
}

func (v *validator) instr(pi int, ins *Instr, writes map[string]bool) {
	t := v.t
	op := ins.Op
	if op < 0 || op >= NumOps {
		v.errorf(ins.Pos, "bad op %d", int(op))
		return
	}
	if g := ins.Guard; g != nil {
		v.readReg(pi, g.Reg, or(g.Pos, ins.Pos), writes, true)
		if g.Val.IsReg() {
			v.readReg(pi, g.Val.Reg, or(g.Val.Pos, g.Pos), writes, true)
		}
		if op == OpRepeat || op == OpUntil || op == OpAwait {
			v.errorf(or(g.Pos, ins.Pos), "%s cannot be guarded: a loop runs or blocks, it is never skipped", op)
		}
	}
	if op == OpUntil || op == OpAwait {
		if ins.Until == nil || len(ins.Until.Terms) == 0 {
			v.errorf(ins.Pos, "%s needs a condition", op)
		} else if op == OpUntil {
			for _, term := range ins.Until.Terms {
				for _, g := range term {
					v.readReg(pi, g.Reg, or(g.Pos, ins.Pos), writes, true)
					if g.Val.IsReg() {
						v.readReg(pi, g.Val.Reg, or(g.Val.Pos, g.Pos), writes, true)
					}
				}
			}
		} else if g := ins.Until.Terms[0][0]; g.Val.IsReg() {
			v.readReg(pi, g.Val.Reg, or(g.Val.Pos, ins.Pos), writes, true)
		}
	}
	if hasDst(op) && ins.Dst == "" && ins.Dsts == nil {
		v.errorf(ins.Pos, "%s needs a result register", op)
	}
	if ins.Dst != "" && keywords[ins.Dst] {
		v.errorf(or(ins.DstPos, ins.Pos), "register name %q is a keyword", ins.Dst)
	}
	if ins.Dst != "" && v.isAlias(ins.Dst) {
		v.errorf(or(ins.DstPos, ins.Pos), "register %q has the name of a location alias", ins.Dst)
	}
	if n := numArgs(op); !ins.ArgTuple && ((n >= 0 && len(ins.Args) != n) || (n < 0 && len(ins.Args) > 1)) {
		v.errorf(ins.Pos, "%s has %d operands, expected %d", op, len(ins.Args), max(n, 1))
	}
	for _, a := range ins.Args {
		if a.IsReg() {
			v.readReg(pi, a.Reg, or(a.Pos, ins.Pos), writes, false)
		}
	}
	v.tuples(ins)
	// Accumulate ops.
	switch op {
	case OpAcc, OpRacc:
		if ins.AccOp == AccNoOp {
			v.errorf(ins.Pos, "%s cannot use no_op (only gacc, rgacc and fop can)", op)
		}
		fallthrough
	case OpGacc, OpFop, OpRgacc:
		if ins.AccOp <= AccNone || ins.AccOp > AccNoOp {
			v.errorf(ins.Pos, "%s needs an accumulate op (%s)", op, accOpList)
		}
	default:
		if ins.AccOp != AccNone {
			v.errorf(ins.Pos, "%s takes no accumulate op", op)
		}
	}
	// Locations and windows.
	var w *Window
	if hasLoc(op) {
		if ins.Loc == nil {
			v.errorf(ins.Pos, "%s needs a location", op)
		} else if ins.Loc.Computed() || ins.Loc.Null {
			if v.callLoc(pi, ins, writes) {
				w = t.LookupWindow(ins.Loc.Win)
				if w != nil && !w.InGroup(pi) {
					v.errorf(ins.Loc.Pos, "P%d is not in the group of window %s (ranks=%s)", pi, w.Name, intsString(w.Ranks))
				}
			}
		} else if v.loc(*ins.Loc) {
			v.rangeUse(ins)
			w, _, _, _, _ = t.ResolveLoc(*ins.Loc)
			if w != nil && !w.InGroup(pi) {
				v.errorf(ins.Loc.Pos, "P%d is not in the group of window %s (ranks=%s)", pi, w.Name, intsString(w.Ranks))
			}
		}
	}
	if hasWin(op) {
		pos := or(ins.WinPos, ins.Pos)
		if ins.Win == "" {
			v.errorf(pos, "%s needs a window", op)
		} else if w = t.LookupWindow(ins.Win); w == nil {
			if v.isAlias(ins.Win) {
				v.errorf(pos, "%s takes a window, found location alias %q %s", op, ins.Win, v.windowNames())
			} else {
				v.errorf(pos, "unknown window %q %s", ins.Win, v.windowNames())
			}
		} else if !w.InGroup(pi) {
			v.errorf(pos, "P%d is not in the group of window %s (ranks=%s)", pi, w.Name, intsString(w.Ranks))
		}
	}
	// Targets.
	tpos := or(ins.TargetPos, ins.Pos)
	switch op {
	case OpLock, OpUnlock, OpFlush, OpFlushLocal, OpSharedQuery:
		if !v.callTarget(pi, ins, writes) {
			break
		}
		if ins.Target < 0 || ins.Target >= v.n {
			v.errorf(tpos, "%s target rank %d out of range (%s)", op, ins.Target, v.procRange())
		} else if w != nil && !w.InGroup(ins.Target) {
			v.errorf(tpos, "%s target rank %d is not in the group of window %s (ranks=%s)", op, ins.Target, w.Name, intsString(w.Ranks))
		}
	case OpSend, OpRecv:
		what := "destination"
		if op == OpRecv {
			what = "source"
		}
		if ins.Target < 0 || ins.Target >= v.n {
			v.errorf(tpos, "%s %s rank %d out of range (%s)", op, what, ins.Target, v.procRange())
		} else if ins.Target == pi {
			v.errorf(tpos, "%s %s is the caller itself (P%d)", op, what, pi)
		}
	case OpPost, OpStart:
		tpos = or(ins.GroupPos, ins.Pos)
		seen := map[int]bool{}
		for _, r := range ins.Group {
			switch {
			case r < 0 || r >= v.n:
				v.errorf(tpos, "%s group: rank %d out of range (%s)", op, r, v.procRange())
			case seen[r]:
				v.errorf(tpos, "%s group lists rank %d twice", op, r)
			case w != nil && !w.InGroup(r):
				v.errorf(tpos, "%s group: rank %d is not in the group of window %s (ranks=%s)", op, r, w.Name, intsString(w.Ranks))
			}
			seen[r] = true
		}
	}
	if (op == OpWaitReq || op == OpTestReq) && ins.Req == "" || op.IsRequest() && ins.Req == "" {
		v.errorf(ins.Pos, "%s needs a request handle", op)
	}
	// Assertions.
	allowed := AllowedAsserts(op)
	seenA := map[string]bool{}
	for _, a := range ins.Asserts {
		pos := or(a.Pos, ins.Pos)
		switch {
		case !slices.Contains(assertNames, a.Name):
			v.errorf(pos, "unknown assertion %q (assertions: %s)", a.Name, strings.Join(assertNames, ", "))
		case allowed == nil:
			v.errorf(pos, "%s takes no assertions, found %q", op, a.Name)
		case !slices.Contains(allowed, a.Name):
			v.errorf(pos, "%s does not take assertion %q (it takes: %s)", op, a.Name, strings.Join(allowed, ", "))
		case seenA[a.Name]:
			v.errorf(pos, "duplicate assertion %q", a.Name)
		}
		seenA[a.Name] = true
	}
}

func (v *validator) ref(r Ref) {
	switch {
	case r.Reg != nil:
		if r.Reg.Proc < 0 || r.Reg.Proc >= v.n {
			v.errorf(r.Reg.Pos, "register %d:%s: rank %d out of range (%s)", r.Reg.Proc, r.Reg.Reg, r.Reg.Proc, v.procRange())
		} else if v.isAlias(r.Reg.Reg) {
			v.errorf(r.Reg.Pos, "register %q has the name of a location alias", r.Reg.Reg)
		}
	case r.Loc != nil:
		if v.loc(*r.Loc) {
			v.oneCell(*r.Loc, "a condition or locations entry")
		}
	}
}

func (v *validator) cond(c Cond) {
	for _, a := range Atoms(c) {
		for _, r := range a.Refs() {
			if r.Reg == nil && r.Loc == nil {
				v.errorf(a.Pos, "condition atom names nothing")
			}
			v.ref(*r)
		}
	}
}

// raceItems checks the race-class part of an expect item: OBS+RULE names race-class
// rules only, each once; Erroneous takes none.
func (v *validator) raceItems(it ExpectItem) {
	if !it.RaceChecked {
		return
	}
	pos := func(i int) Pos {
		if i < len(it.RacePos) {
			return or(it.RacePos[i], it.Pos)
		}
		return it.Pos
	}
	if it.Obs == ObsErroneous {
		v.errorf(pos(0), "race-class rules go with Always, Sometimes or Never, not with Erroneous (which ignores them)")
		return
	}
	seen := map[spec.RuleID]bool{}
	for i, r := range it.Race {
		switch {
		case r.Class() == spec.ClassRace:
		case r.Raisable():
			v.errorf(pos(i), "%s is not race-class (race-class rules: %s); an erroneous rule goes in Erroneous(%s)", r, strings.Join(raceRules(), " "), r)
		default:
			v.errorf(pos(i), "unknown race-class rule %q (race-class rules: %s, or none)", r, strings.Join(raceRules(), " "))
		}
		if seen[r] {
			v.errorf(pos(i), "%s listed twice", r)
		}
		seen[r] = true
	}
}

// expectSwitches checks the switch qualifiers of an expect line: each on or off,
// each once (a switch name is known, or the parser would not have read it as one).
func (v *validator) expectSwitches(e *Expect) {
	seen := map[string]bool{}
	for _, sw := range e.Switches {
		pos := or(sw.Pos, e.Pos)
		if sw.Value != "on" && sw.Value != "off" {
			v.errorf(pos, "switch %s in an expect line: expected on or off, found %q", sw.Name, sw.Value)
		}
		if seen[sw.Name] {
			v.errorf(pos, "switch %s given twice in one expect line", sw.Name)
		}
		seen[sw.Name] = true
	}
}

func (v *validator) expects() {
	type key struct {
		hw, preset string // hw: the model and the line's switches ("relaxed weak_progress=on")
	}
	seen := map[key]Pos{}
	for _, e := range v.t.Expects {
		if e == nil {
			continue
		}
		hw := e.HW
		if !slices.Contains(spec.HWModels, hw) {
			v.errorf(or(e.HWPos, e.Pos), "unknown hardware model %v (hw: %s)", hw, spec.HWNames(", "))
		}
		v.expectSwitches(e)
		reading := hw.String()
		if q := e.Qualifier(); q != "" {
			reading += " " + q
		}
		if len(e.Items) == 0 {
			v.errorf(e.Pos, "expect line lists no PRESET=OBS item")
		}
		for _, it := range e.Items {
			pos := or(it.Pos, e.Pos)
			if !knownPreset(it.Preset) {
				v.errorf(pos, "unknown preset %q (presets: %s)", it.Preset, strings.Join(presetNames(), ", "))
			} else {
				k := key{reading, it.Preset}
				if first, dup := seen[k]; dup {
					v.errorf(pos, "preset %s expected twice for hw=%s (first at %s)", it.Preset, reading, first)
				}
				seen[k] = pos
			}
			if it.Obs < ObsNever || it.Obs > ObsErroneous {
				v.errorf(pos, "bad observation %d", int(it.Obs))
			}
			if it.Rule != spec.NoRule {
				switch {
				case it.Obs != ObsErroneous:
					v.errorf(pos, "a rule id only goes with Erroneous, found %s(%s)", it.ObsString(), it.Rule)
				case it.Rule.Class() == spec.ClassRule:
					v.errorf(pos, "rule %s is a rule the model executes, never raised: Erroneous(RULE) needs one of %s", it.Rule, strings.Join(erroneousRules(), " "))
				case it.Rule.Class() == spec.ClassRace:
					v.errorf(pos, "%s is race-class, never erroneous: write Never+%s (or Sometimes+%s, Always+%s)", it.Rule, it.Rule, it.Rule, it.Rule)
				case !it.Rule.Raisable():
					v.errorf(pos, "unknown rule %q in Erroneous(...) (rules: %s)", it.Rule, strings.Join(erroneousRules(), " "))
				}
			}
			v.raceItems(it)
		}
	}
}

// valueTypes refuses a literal value that the type of the memory it goes to cannot
// hold: an initial value, or a store, put or accumulate operand (`w = W@1[0] : int8;
// store w 300` passed check, the model allowed 300, and MPICH showed 44, a false
// NON-CONFORMING). Values in registers are not known here.
func (v *validator) valueTypes() {
	t := v.t
	for _, in := range t.Inits {
		if in != nil && in.Loc != nil {
			v.valueFits(*in.Loc, Value{Pos: in.Pos, Imm: in.Value})
		}
	}
	for _, p := range t.Procs {
		if p == nil {
			continue
		}
		for _, in := range p.Code {
			if in == nil || in.Loc == nil {
				continue
			}
			for _, a := range in.Args {
				v.valueFits(*in.Loc, a)
			}
		}
	}
}

// valueFits checks one literal against the type of the location it is written to.
func (v *validator) valueFits(l Loc, x Value) {
	if x.IsReg() {
		return
	}
	w, _, _, typ, ok := v.t.ResolveLoc(l)
	if !ok || w == nil {
		return
	}
	if typ == TypeDefault {
		typ = w.CellType()
	}
	if lo, hi, bounded := typ.ExactRange(); bounded && (x.Imm < lo || x.Imm > hi) {
		v.errorf(or(x.Pos, l.Pos), "value %d does not fit %s (type %s: %d to %d)", x.Imm, LocString(l), typ, lo, hi)
	}
}
