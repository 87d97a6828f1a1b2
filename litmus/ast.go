// Package litmus is the .lit language (docs/language.md): a typed AST with positions,
// a parser that reports FILE:LINE:COL errors, a validator, and a printer that
// writes the canonical form.
package litmus

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/spec"
)

// Pos is a position in a source file: 1-based line and column (in bytes).
// The zero Pos means "no position" (nodes built by programs, not parsed).
type Pos struct {
	Line, Col int
}

func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Test is one parsed .lit file.
type Test struct {
	File    string // file name as given to the parser
	Name    string // after "MPI"
	NamePos Pos
	Doc     string // the doc string without quotes; "" when absent
	HasDoc  bool
	Meta    []Meta // key=value lines, in file order

	Windows []*Window
	Aliases []*Alias
	Inits   []*Init // initial values of memory and registers, in file order

	Procs []*Proc // one per column; Procs[i] is rank i
	Rows  int     // number of instruction rows (all columns have this many cells)

	Locations []*Ref // the locations line; nil when absent
	HasLocs   bool
	Filter    Cond // nil when absent
	Quant     Quant
	QuantPos  Pos
	Cond      Cond
	Expects   []*Expect

	// Comments of the lines that are not nodes of their own (see Comments). Format prints
	// each group where it was; nodes with a line of their own (Meta, Window, Alias, Init,
	// Expect) carry theirs.
	HeaderComments Comments   // the "MPI NAME" line (Lead: the comments opening the file)
	DocComments    Comments   // the doc string line
	OpenComments   Comments   // the "{" line
	CloseComments  Comments   // the "}" line (Lead: after the last init statement)
	RowComments    []Comments // [0] the "P0 | P1 ;" row, [i] instruction row i; nil when none
	LocsComments   Comments   // the locations line
	FilterComments Comments   // the filter line
	CondComments   Comments   // the final condition line
	EndComments    []Comment  // after the last line
}

// Comment is one comment as written: "# text" (trailing blanks dropped) or "(* text *)",
// which may span lines.
type Comment struct {
	Pos   Pos
	Text  string
	Blank bool // a blank line separates it from what precedes it
}

// Comments are the comments that belong to one line of a file: the comments on the lines
// before it (Lead), and those after its last token on the same line or inside it when it
// spans lines (Trail). Format prints Lead above the line and Trail at its end; a multi-line
// comment, or anything after a "#" comment, goes on lines of its own below it.
type Comments struct {
	Lead, Trail []Comment
}

// Meta is a key=value line of the header.
type Meta struct {
	Pos      Pos
	Key      string
	Value    string
	Comments Comments // Trail is printed below the line: the value runs to its end
}

// Flavor is how a window's memory was made.
type Flavor int

const (
	FlavorCreate Flavor = iota
	FlavorAllocate
	FlavorAllocateShared
	FlavorDynamic
)

var flavorNames = [...]string{"create", "allocate", "allocate_shared", "dynamic"}

func (f Flavor) String() string { return flavorNames[f] }

// MemModel is MPI_WIN_MODEL: unified or separate.
type MemModel int

const (
	Unified MemModel = iota
	Separate
)

func (m MemModel) String() string {
	if m == Separate {
		return "separate"
	}
	return "unified"
}

// Type is the type of a cell or a typed location.
type Type int

const (
	TypeDefault Type = iota // not given: int64 for cells
	Int8
	Int16
	Int32
	Int64
	Double
	LongDouble
	V32
	V64
)

var typeNames = [...]string{"", "int8", "int16", "int32", "int64", "double", "longdouble", "v32", "v64"}

func (t Type) String() string { return typeNames[t] }

// Size is the byte width of the type on x86-64 (long double occupies 16 bytes).
func (t Type) Size() int {
	switch t {
	case Int8:
		return 1
	case Int16:
		return 2
	case Int32:
		return 4
	case LongDouble:
		return 16
	case V32:
		return 32
	case V64:
		return 64
	default:
		return 8
	}
}

// ExactRange is the range of integers the type holds exactly (bounded false: all of
// int64's). A double or long double holds every integer up to 2^53 in magnitude; the
// vector types hold an int64 per element.
func (t Type) ExactRange() (lo, hi int64, bounded bool) {
	switch t {
	case Int8:
		return math.MinInt8, math.MaxInt8, true
	case Int16:
		return math.MinInt16, math.MaxInt16, true
	case Int32:
		return math.MinInt32, math.MaxInt32, true
	case Double, LongDouble:
		return -1 << 53, 1 << 53, true
	}
	return 0, 0, false
}

// TypeByName finds a type by its .lit spelling.
func TypeByName(s string) (Type, bool) {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return Type(i), true
		}
	}
	return TypeDefault, false
}

// Window is a `win NAME FLAVOR key=value...;` statement.
type Window struct {
	Pos    Pos
	Name   string
	Flavor Flavor

	// Exactly one of Size and Bytes is set, unless Over is (then neither is).
	Size     []int // size=N (SizeList false, one element) or size=[n0,n1,..]
	SizeList bool
	Bytes    []int // bytes=[b0,b1,..]

	Type     Type     // type=T; TypeDefault when not given
	DispUnit int      // disp_unit=N; 0 when not given
	Model    MemModel // model=...
	ModelSet bool     // model= was written
	Ranks    []int    // ranks=0,1,..; nil means every process
	Over     string   // over=OTHER (create only)
	OverPos  Pos

	Info []Info // MPI info keys, in file order

	Comments Comments

	// Positions of the keys (added for precise validation messages; zero when not written).
	SizePos, BytesPos, TypePos, DispUnitPos, ModelPos, RanksPos Pos
}

// Info is one info key of a window, spelled as in MPI.
type Info struct {
	Pos   Pos
	Key   string
	Value string
}

// InfoValue returns the value of an info key, or "" when absent.
func (w *Window) InfoValue(key string) (string, bool) {
	for _, in := range w.Info {
		if in.Key == key {
			return in.Value, true
		}
	}
	return "", false
}

// CellType is the type of the window's cells (int64 unless type= says otherwise).
func (w *Window) CellType() Type {
	if w.Type == TypeDefault {
		return Int64
	}
	return w.Type
}

// Alias is `x = W@1[0] [: type];`.
type Alias struct {
	Pos  Pos
	Name string
	Loc  Loc
	Type Type // TypeDefault when not given

	Comments Comments
}

// Loc names a cell, or with Range several cells: an alias (Alias != "") or
// W@RANK[DISP] (docs/language.md#locations-and-aliases).
//
//   - RANK is a literal (Rank), a register holding the rank at issue (RankReg:
//     W@r1[0]), or null (Null: MPI_PROC_NULL, W@null[0]).
//   - DISP is a literal (Disp), or a register holding a displacement or an address
//     plus a literal offset (DispReg with Disp as the offset: W@1[r5], W@1[r5+2]).
//   - Range, when not nil, names several elements: W@1[0..3], W@1[0..6 by 2],
//     W@1[{0,3,5}]; relative to DispReg when that is set (W@1[r5+0..3]), else the
//     range's values are the displacements themselves (Disp is 0).
type Loc struct {
	Pos   Pos
	Alias string
	Win   string
	Rank  int
	Disp  int

	RankReg string // the rank is this register's value when the call is issued
	Null    bool   // MPI_PROC_NULL
	DispReg string // the displacement (or address) is this register's value plus Disp
	Range   *Range // several elements; nil for one
}

// Computed reports whether the location's rank or displacement is a register's value.
func (l Loc) Computed() bool { return l.RankReg != "" || l.DispReg != "" }

// Range is the element list of a multi-element location: lo..hi (Step 1),
// lo..hi by step (a vector), or {d0,d1,..} (indexed, in typemap order).
type Range struct {
	Pos     Pos
	Indexed bool  // {d0,d1,..}: List holds the displacements
	List    []int // Indexed
	Lo, Hi  int   // lo..hi
	Step    int   // 1 unless "by" was written
	StepSet bool  // "by STEP" was written (fmt prints it back)
	StepPos Pos
	ListPos Pos
}

// Offsets lists the range's displacements in typemap order (relative to the
// location's DispReg when it has one).
func (r *Range) Offsets() []int {
	if r.Indexed {
		return slices.Clone(r.List)
	}
	if r.Step <= 0 || r.Hi < r.Lo {
		return nil
	}
	var d []int
	for x := r.Lo; x <= r.Hi; x += r.Step {
		d = append(d, x)
	}
	return d
}

// Init is an initial value: of memory (`x = 5;`, `W@1[0] = 5;`) or of a register (`0:r3 = 7;`).
type Init struct {
	Pos   Pos
	Reg   *RegRef // register init when set
	Loc   *Loc    // memory init when set
	Value int64

	Comments Comments
}

// RegRef is `P:reg`, a register of a rank.
type RegRef struct {
	Pos  Pos
	Proc int
	Reg  string
}

// Ref is what locations and conditions name: a register or a memory location.
type Ref struct {
	Reg *RegRef
	Loc *Loc
}

// Proc is one column of the process table.
type Proc struct {
	Pos  Pos      // of the "Pn" header
	Code []*Instr // one per row; nil for an empty cell
}

// Quant is the quantifier of the final condition.
type Quant int

const (
	Exists Quant = iota
	NotExists
	Forall
)

var quantNames = [...]string{"exists", "~exists", "forall"}

func (q Quant) String() string { return quantNames[q] }

// Cond is a condition: *Atom, *Not, *And, *Or, *Implies, or *Bool.
type Cond interface{ condNode() }

// Atom is `P:reg=V` or `LOC=V`, or compares two items: `P:reg=Q:reg`, `LOC=P:reg`
// (Other set, Value unused): a fetch_and_op counter asks whether two ranks got the
// same ticket in one atom, not one per possible value.
type Atom struct {
	Pos   Pos
	Ref   Ref
	Value int64
	Other *Ref // the item Ref is compared with; nil: Value
}

// Refs are the items the atom names: Ref, then Other when it has one.
func (a *Atom) Refs() []*Ref {
	if a.Other != nil {
		return []*Ref{&a.Ref, a.Other}
	}
	return []*Ref{&a.Ref}
}

// Holds evaluates the atom given the value of each item it names.
func (a *Atom) Holds(val func(*Ref) int64) bool {
	if a.Other != nil {
		return val(&a.Ref) == val(a.Other)
	}
	return val(&a.Ref) == a.Value
}

// Not is `~C`.
type Not struct {
	Pos Pos
	C   Cond
}

// And is `L /\ R`.
type And struct{ L, R Cond }

// Or is `L \/ R`.
type Or struct{ L, R Cond }

// Implies is `L => R`.
type Implies struct{ L, R Cond }

// Bool is `true` or `false`.
type Bool struct {
	Pos Pos
	V   bool
}

func (*Atom) condNode()    {}
func (*Not) condNode()     {}
func (*And) condNode()     {}
func (*Or) condNode()      {}
func (*Implies) condNode() {}
func (*Bool) condNode()    {}

// Obs is an observation: what a test's condition does over all executions.
type Obs int

const (
	ObsNever Obs = iota
	ObsSometimes
	ObsAlways
	ObsErroneous // Erroneous, or Erroneous(Rule)
)

// Expect is one `expect [hw=H] [SWITCH=on|off ...][:] PRESET=OBS ...` line.
type Expect struct {
	Pos   Pos
	HW    spec.HW // spec.Relaxed unless hw= names another
	HWSet bool    // the line says hw= (fmt prints it back)
	HWPos Pos
	// Switches qualify the line (docs/language.md#expect-lines): each applies to every preset of it.
	Switches []ExpectSwitch
	Items    []ExpectItem

	Comments Comments
}

// String is the line as fmt prints it: "expect hw=tso weak_progress=on: A=Never B=Sometimes".
func (e *Expect) String() string {
	var b strings.Builder
	b.WriteString("expect")
	if e.HWSet {
		b.WriteString(" hw=" + e.HW.String())
	}
	if q := e.Qualifier(); q != "" {
		b.WriteString(" " + q)
	}
	if e.HWSet || len(e.Switches) > 0 {
		b.WriteString(":")
	}
	for _, it := range e.Items {
		fmt.Fprintf(&b, " %s=%s", it.Preset, it.ObsString())
	}
	return b.String()
}

// HasSpinLoops reports whether some process has a spin loop (repeat ... until, await).
func (t *Test) HasSpinLoops() bool {
	for _, pr := range t.Procs {
		for _, in := range pr.Code {
			if in != nil && (in.Op == OpUntil || in.Op == OpAwait) {
				return true
			}
		}
	}
	return false
}

// ExpectSwitch is one SWITCH=on|off qualifier of an expect line.
type ExpectSwitch struct {
	Pos   Pos
	Name  string
	Value string // on or off (validated)
}

// Qualifier spells the line's switches as written after `expect`: "weak_progress=on"
// ("" for none).
func (e *Expect) Qualifier() string {
	var parts []string
	for _, sw := range e.Switches {
		parts = append(parts, sw.Name+"="+sw.Value)
	}
	return strings.Join(parts, " ")
}

// Semantics is the semantics an item of the line speaks of: its preset with the
// line's switches applied, named as --sem names it ("mpi-4.1,weak_progress=on").
func (e *Expect) Semantics(it ExpectItem) (spec.Semantics, error) {
	arg := it.Preset
	for _, sw := range e.Switches {
		arg += "," + sw.Name + "=" + sw.Value
	}
	return spec.ParseSemantics(arg)
}

// ExpectItem is PRESET=OBS, where OBS is Always, Sometimes or Never, optionally
// followed by race-class rules (Never+U2, Sometimes+RACE+U3) or +none, or Erroneous,
// optionally Erroneous(RULE).
type ExpectItem struct {
	Pos    Pos
	Preset string
	Obs    Obs
	Rule   spec.RuleID // with ObsErroneous: the rule in parentheses, or NoRule
	// RaceChecked: the item lists the race-class rules expected, exactly (Race), or
	// none at all (+none, Race empty). Without it race-class rules are not checked.
	RaceChecked bool
	Race        []spec.RuleID
	RacePos     []Pos // of each rule of Race (of "none" when Race is empty)
}

// ObsString spells the observation as in .lit files: Never, Sometimes+RACE,
// Always+none, Erroneous, Erroneous(RULE).
func (e ExpectItem) ObsString() string {
	if e.Obs == ObsErroneous {
		if e.Rule != spec.NoRule {
			return "Erroneous(" + e.Rule.String() + ")"
		}
		return "Erroneous"
	}
	s := e.Obs.String()
	if e.RaceChecked && len(e.Race) == 0 {
		return s + "+none"
	}
	for _, r := range e.Race {
		s += "+" + r.String()
	}
	return s
}

// Op is an instruction's operation.
type Op int

const (
	OpStore         Op = iota // store LOC V
	OpLoad                    // r = load LOC
	OpPut                     // put LOC V
	OpGet                     // r = get LOC
	OpAcc                     // acc LOC OP V
	OpGacc                    // r = gacc LOC OP V
	OpFop                     // r = fop LOC OP V
	OpCas                     // r = cas LOC CMP NEW
	OpRput                    // rput LOC V @q
	OpRget                    // r = rget LOC @q
	OpRacc                    // racc LOC OP V @q
	OpRgacc                   // r = rgacc LOC OP V @q
	OpWaitReq                 // waitreq q
	OpFence                   // fence W [ASSERT|..]
	OpPost                    // post W {g} [ASSERT..]
	OpStart                   // start W {g} [nocheck]
	OpComplete                // complete W
	OpWait                    // wait W
	OpLock                    // lock W t excl|shared [nocheck]
	OpUnlock                  // unlock W t
	OpLockAll                 // lock_all W [nocheck]
	OpUnlockAll               // unlock_all W
	OpFlush                   // flush W t
	OpFlushAll                // flush_all W
	OpFlushLocal              // flush_local W t
	OpFlushLocalAll           // flush_local_all W
	OpSync                    // sync W
	OpSharedQuery             // r = shared_query W t
	OpBarrier                 // barrier
	OpSend                    // send t [V]
	OpRecv                    // [r =] recv s
	OpFree                    // free W
	OpAttach                  // r = attach W N
	OpDetach                  // detach W r
	OpTest                    // r = test W (MPI_Win_test)
	OpTestReq                 // r = testreq q (MPI_Test)
	OpMov                     // r = V
	OpAdd                     // r = V + V
	OpSub                     // r = V - V
	OpRepeat                  // repeat: the first row of a spin loop
	OpUntil                   // until COND: the last row of a spin loop
	OpAwait                   // r = await LOC == V (or != V): repeat / r = load LOC / until r == V
	NumOps
)

var opNames = [NumOps]string{
	"store", "load", "put", "get", "acc", "gacc", "fop", "cas", "rput", "rget", "racc", "rgacc",
	"waitreq", "fence", "post", "start", "complete", "wait", "lock", "unlock", "lock_all",
	"unlock_all", "flush", "flush_all", "flush_local", "flush_local_all", "sync", "shared_query",
	"barrier", "send", "recv", "free", "attach", "detach", "test", "testreq", "mov", "add", "sub", "repeat", "until", "await",
}

func (o Op) String() string { return opNames[o] }

// IsRMA reports whether the op is an RMA communication call (put, get, accumulates, request forms).
func (o Op) IsRMA() bool { return o >= OpPut && o <= OpRgacc }

// IsRequest reports whether the op is a request-based RMA call.
func (o Op) IsRequest() bool { return o >= OpRput && o <= OpRgacc }

// IsMPI reports whether the op is an MPI call (everything but load, store and register arithmetic).
func (o Op) IsMPI() bool { return o >= OpPut && o <= OpTestReq }

// Arith is register arithmetic: r = a (OpMov), r = a + b, r = a - b (wrapping, as the
// generated C does on unsigned values).
func (o Op) Arith(a, b int64) int64 {
	switch o {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	}
	return a
}

// AccOp is the reduction of an accumulate.
type AccOp int

const (
	AccNone AccOp = iota // not an accumulate
	AccSum
	AccProd
	AccMax
	AccMin
	AccBand
	AccBor
	AccBxor
	AccReplace
	AccNoOp
)

var accOpNames = [...]string{"", "sum", "prod", "max", "min", "band", "bor", "bxor", "replace", "no_op"}

func (a AccOp) String() string { return accOpNames[a] }

// Apply is the reduction's new value of a cell holding old when v is accumulated into it
// (MPI_Accumulate's predefined operations on integers; no_op and none leave old). Both
// engines, the operational and the axiomatic, apply it, so they cannot differ on it.
func (a AccOp) Apply(old, v int64) int64 {
	switch a {
	case AccSum:
		return old + v
	case AccProd:
		return old * v
	case AccMax:
		return max(old, v)
	case AccMin:
		return min(old, v)
	case AccBand:
		return old & v
	case AccBor:
		return old | v
	case AccBxor:
		return old ^ v
	case AccReplace:
		return v
	}
	return old
}

// AccOpByName finds an accumulate op by its .lit spelling.
func AccOpByName(s string) (AccOp, bool) {
	for i, n := range accOpNames {
		if i > 0 && n == s {
			return AccOp(i), true
		}
	}
	return AccNone, false
}

// LockType is the lock type of MPI_Win_lock.
type LockType int

const (
	LockExclusive LockType = iota
	LockShared
)

func (l LockType) String() string {
	if l == LockShared {
		return "shared"
	}
	return "excl"
}

// Value is an operand: an integer literal or a register of the executing process.
type Value struct {
	Pos Pos
	Reg string // register name when not ""
	Imm int64
}

func (v Value) IsReg() bool { return v.Reg != "" }

// Guard is the predicate `[r != V]` or `[r == V]`.
type Guard struct {
	Pos Pos
	Reg string
	Eq  bool // == when true, != when false
	Val Value
}

// Assert is one assertion of a sync call (nocheck, nostore, noput, noprecede, nosucceed).
type Assert struct {
	Pos  Pos
	Name string
}

// Instr is one instruction of a process. Which fields mean something depends on Op;
// the parser sets only those its form has.
type Instr struct {
	Pos   Pos // of the instruction (after the guard)
	Guard *Guard
	Op    Op

	Dst    string // result register: load, get, gacc, fop, cas, rget, rgacc, shared_query, recv, mov/add/sub, attach, test, testreq
	DstPos Pos
	// Dsts is a tuple of result registers, "(r0,r1,..) = get W@1[0..1]" (Dst is then "").
	Dsts    []string
	DstsPos []Pos

	Loc  *Loc    // load/store and RMA ops
	Args []Value // store/put/acc/gacc/fop/rput/racc/rgacc: [V]; cas: [CMP, NEW]; send: [] or [V]; mov: [V]; add/sub: [V, V]; attach: [N]; detach: [r]
	// ArgTuple: Args is an origin buffer written as a tuple "(1,2,r3)", one value per
	// element of the location's range ("put v 7" puts 7 in every element).
	ArgTuple bool

	AccOp AccOp // acc, gacc, fop, racc, rgacc

	Win    string // sync calls, shared_query, free
	WinPos Pos

	Target    int // lock, unlock, flush, flush_local, shared_query, send (dest), recv (source)
	TargetPos Pos
	// TargetReg / TargetNull: the target rank of lock, unlock, flush, flush_local or
	// shared_query is a register's value, or null (MPI_PROC_NULL).
	TargetReg  string
	TargetNull bool
	Group      []int // post, start
	GroupPos   Pos   // of the group's "{" (added)
	LockType   LockType
	Asserts    []Assert

	Req    string // request handle: rput/rget/racc/rgacc, waitreq and testreq
	ReqPos Pos

	// Until is the exit condition of until and await (await's atom names its Dst).
	Until *LoopCond
}

// LoopCond is a spin loop's exit condition: r == V and r != V atoms joined by /\
// and \/, a disjunction of conjunctions (/\ binds tighter, as in conditions).
type LoopCond struct {
	Pos   Pos
	Terms [][]Guard
}

// Regs lists the registers the condition reads, each once, in order.
func (c *LoopCond) Regs() []string {
	var rs []string
	for _, term := range c.Terms {
		for _, g := range term {
			for _, r := range g.Regs() {
				if !slices.Contains(rs, r) {
					rs = append(rs, r)
				}
			}
		}
	}
	return rs
}

// Regs lists the registers a guard atom reads: its register, and its value's when
// that is one.
func (g *Guard) Regs() []string {
	if g.Val.IsReg() {
		return []string{g.Reg, g.Val.Reg}
	}
	return []string{g.Reg}
}
