// Package cgen translates a litmus test into one C program for a real MPI library
// (MPICH, Open MPI): the test's windows are created as declared, each rank runs its
// column as real MPI calls and volatile loads and stores, N iterations are released
// together by a spin barrier in shared memory, and rank 0 prints a histogram of the
// outcomes that the conform package parses:
//
//	RMACHECK test=NAME procs=N out=1:r0,x
//	LIBRARY MPICH Version: 4.0.2    (MPI_Get_library_version, its first line)
//	MODEL W unified                 (MPI_WIN_MODEL of each window, as the library says)
//	SKIP reason                     (the test cannot run as declared; no OUTCOME lines)
//	OUTCOME count v1 v2 ...         (values in the order of out=, one line per outcome)
//	TIME seconds iterations=N       (the iterations alone, set-up excluded)
//
// The program reads [iterations [seed [jitter]]] from its command line.
package cgen

import (
	"bytes"
	_ "embed"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Options of the generator.
type Options struct {
	// Runs is the number of iterations when the command line gives none (0: 10000).
	Runs int
	// Jitter is the default bound of the random delay (in pause instructions) each rank
	// waits after the start barrier (0: 4; -1: none).
	Jitter int
	// MaxWindowBytes bounds one rank's segment of a window (0: DefaultMaxWindowBytes).
	MaxWindowBytes int
}

// DefaultMaxWindowBytes bounds a rank's window segment in the C program: a litmus test
// names a few cells, and `win W allocate size=1000000000` passed check (the model keeps
// no memory for it) and then allocated 8 GB a rank on every run.
const DefaultMaxWindowBytes = 1 << 20

// Unsupported is the error of a construct cgen cannot express in C and MPI. It prints
// as every error about a file does: FILE:LINE:COL: cgen: reason (the test's name stands
// for the file when it has none).
type Unsupported struct {
	File   string // the test's file
	Test   string // the test's name
	Pos    litmus.Pos
	Reason string
}

func (e *Unsupported) Error() string {
	where := e.File
	if where == "" {
		where = e.Test
	}
	if e.Pos.IsValid() {
		return fmt.Sprintf("%s:%s: cgen: %s", where, e.Pos, e.Reason)
	}
	return fmt.Sprintf("%s: cgen: %s", where, e.Reason)
}

// Generate writes the C program of a validated test.
func Generate(t *litmus.Test, opt Options) ([]byte, error) {
	sem, _ := spec.Preset(spec.DefaultPreset)
	p, err := model.Compile(t, sem, spec.SC)
	if err != nil {
		return nil, err
	}
	g := &gen{t: t, p: p, opt: opt, nprocs: t.NumProcs()}
	if g.opt.Runs <= 0 {
		g.opt.Runs = 10000
	}
	if g.opt.Jitter == 0 {
		g.opt.Jitter = 4
	} else if g.opt.Jitter < 0 {
		g.opt.Jitter = 0
	}
	if err := g.prepare(); err != nil {
		return nil, err
	}
	g.program()
	if g.err != nil {
		return nil, g.err
	}
	return g.out.Bytes(), nil
}

// checkWindowBytes refuses a segment larger than Options.MaxWindowBytes.
func (g *gen) checkWindowBytes(w *litmus.Window, rank, n int) error {
	limit := g.opt.MaxWindowBytes
	if limit <= 0 {
		limit = DefaultMaxWindowBytes
	}
	if n <= limit {
		return nil
	}
	return &Unsupported{File: g.t.File, Test: g.t.Name, Pos: or(w.SizePos, w.BytesPos, w.Pos),
		Reason: fmt.Sprintf("window %s: %d bytes on rank %d, more than the %s a window segment may take in the C program (--max-window-bytes raises the bound)",
			w.Name, n, rank, litmus.SizeString(int64(limit)))}
}

// or is the first valid position.
func or(ps ...litmus.Pos) litmus.Pos {
	for _, p := range ps {
		if p.IsValid() {
			return p
		}
	}
	return litmus.Pos{}
}

type gen struct {
	t      *litmus.Test
	p      *model.Program
	opt    Options
	nprocs int
	out    bytes.Buffer
	err    error

	wins       []*winInfo
	perIter    bool // some window is freed: create and free the windows every iteration
	outTypes   []litmus.Type
	outOffsets []int // byte offset of a cell outcome in its base window's segment
	// needsShm says why the test needs memory shared by all its ranks, "" when it does
	// not: then it also runs when the ranks span nodes.
	needsShm string
}

type winInfo struct {
	w      *litmus.Window
	idx    int
	id     string // C identifier part
	base   *winInfo
	cell   litmus.Type
	du     int   // disp_unit
	bytes  []int // segment bytes per world rank
	ranks  []int // members, sorted (world ranks)
	sub    bool  // a sub-communicator is needed
	freed  bool
	shared bool // allocate_shared memory: remote plain access via MPI_Win_shared_query at set-up
}

func (g *gen) fail(pos litmus.Pos, format string, args ...any) {
	if g.err == nil {
		g.err = &Unsupported{File: g.t.File, Test: g.t.Name, Pos: pos, Reason: fmt.Sprintf(format, args...)}
	}
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.out, format, args...) }

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func cIdent(s string) string {
	if identRE.MatchString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteString("_")
		}
	}
	return b.String()
}

func (g *gen) prepare() error {
	t := g.t
	for i, w := range t.Windows {
		wi := &winInfo{w: w, idx: i, id: cIdent(w.Name), cell: w.CellType()}
		for r := 0; r < g.nprocs; r++ {
			if w.InGroup(r) {
				wi.ranks = append(wi.ranks, r)
			}
		}
		sort.Ints(wi.ranks)
		wi.sub = len(wi.ranks) != g.nprocs
		wi.shared = w.Flavor == litmus.FlavorAllocateShared
		g.wins = append(g.wins, wi)
	}
	for _, wi := range g.wins {
		w := wi.w
		b := w.Base(t)
		if b == nil {
			return &Unsupported{File: t.File, Test: t.Name, Pos: w.Pos, Reason: "window " + w.Name + ": over= does not resolve"}
		}
		wi.base = g.wins[g.winIndex(b.Name)]
		switch {
		case w.DispUnit > 0:
			wi.du = w.DispUnit
		case b.Bytes != nil:
			wi.du = 1
		default:
			wi.du = wi.cell.Size()
		}
		for r := 0; r < g.nprocs; r++ {
			n, ok := w.SegmentBytes(t, r)
			if !ok {
				n = w.SegmentSize(t, r) * b.CellType().Size()
			}
			if !w.InGroup(r) {
				n = 0
			}
			if err := g.checkWindowBytes(w, r, n); err != nil {
				return err
			}
			wi.bytes = append(wi.bytes, n)
		}
		if w.Over != "" {
			if w.Flavor != litmus.FlavorCreate {
				return &Unsupported{File: t.File, Test: t.Name, Pos: w.OverPos, Reason: "over= needs a create window"}
			}
			if wi.base.base != wi.base {
				return &Unsupported{File: t.File, Test: t.Name, Pos: w.OverPos, Reason: "over= a window that is itself over another"}
			}
		}
	}
	for _, pr := range t.Procs {
		for _, in := range pr.Code {
			if in != nil && in.Op == litmus.OpFree {
				g.wins[g.winIndex(in.Win)].freed = true
				g.perIter = true
			}
		}
	}
	g.needsShm = sharedMemoryNeed(t)
	// Outcome types and offsets.
	refs := g.outRefs()
	for _, o := range g.p.Out {
		if o.Cell < 0 {
			g.outTypes = append(g.outTypes, litmus.Int64)
			g.outOffsets = append(g.outOffsets, 0)
			continue
		}
		r, ok := refs[o.Name]
		if !ok {
			return &Unsupported{File: t.File, Test: t.Name, Reason: "outcome item " + o.Name + " not found"}
		}
		w, _, disp, typ, _ := t.ResolveLoc(*r.Loc)
		wi := g.wins[g.winIndex(w.Name)]
		if wi.base.freed && wi.base.w.Flavor != litmus.FlavorCreate && wi.base.w.Flavor != litmus.FlavorDynamic {
			return &Unsupported{File: t.File, Test: t.Name, Pos: r.Loc.Pos, Reason: "the outcome reads " + o.Name + ", memory of window " + wi.base.w.Name + " that the test frees (the library owns it)"}
		}
		g.outTypes = append(g.outTypes, typ)
		g.outOffsets = append(g.outOffsets, disp*wi.du)
	}
	// Constructs MPI cannot express.
	for _, pr := range t.Procs {
		for _, in := range pr.Code {
			if in == nil || !in.Op.IsRMA() {
				continue
			}
			_, _, _, typ, _ := t.ResolveLoc(*in.Loc)
			float := typ == litmus.Double || typ == litmus.LongDouble
			vec := typ == litmus.V32 || typ == litmus.V64
			switch {
			case float && (in.AccOp == litmus.AccBand || in.AccOp == litmus.AccBor || in.AccOp == litmus.AccBxor):
				g.fail(in.Pos, "%s: a bitwise reduction on a floating-point location is not valid MPI", litmus.InstrString(in))
			case in.Op == litmus.OpCas && (float || vec):
				g.fail(in.Pos, "%s: MPI_Compare_and_swap takes integer types only", litmus.InstrString(in))
			case in.Op == litmus.OpFop && vec:
				g.fail(in.Pos, "%s: MPI_Fetch_and_op takes one element, not a vector", litmus.InstrString(in))
			}
		}
	}
	return g.err
}

func (g *gen) winIndex(name string) int {
	for i, w := range g.t.Windows {
		if w.Name == name {
			return i
		}
	}
	return 0
}

// outRefs maps the names of the outcome items to the references that name them.
func (g *gen) outRefs() map[string]litmus.Ref {
	m := map[string]litmus.Ref{}
	add := func(r litmus.Ref) {
		if r.Loc != nil {
			if _, ok := m[litmus.RefString(r)]; !ok {
				m[litmus.RefString(r)] = r
			}
		}
	}
	for _, r := range litmus.CondRefs(g.t.Cond, g.t.Filter) {
		add(*r)
	}
	for _, r := range g.t.Locations {
		add(*r)
	}
	return m
}

// ---- C types ----

func cType(t litmus.Type) string {
	switch t {
	case litmus.Int8:
		return "int8_t"
	case litmus.Int16:
		return "int16_t"
	case litmus.Int32:
		return "int32_t"
	case litmus.Double:
		return "double"
	case litmus.LongDouble:
		return "long double"
	case litmus.V32:
		return "rmc_v32"
	case litmus.V64:
		return "rmc_v64"
	}
	return "int64_t"
}

// mpiType is the datatype and count of one access of type t.
func mpiType(t litmus.Type) (string, int) {
	switch t {
	case litmus.Int8:
		return "MPI_INT8_T", 1
	case litmus.Int16:
		return "MPI_INT16_T", 1
	case litmus.Int32:
		return "MPI_INT32_T", 1
	case litmus.Double:
		return "MPI_DOUBLE", 1
	case litmus.LongDouble:
		return "MPI_LONG_DOUBLE", 1
	case litmus.V32:
		return "MPI_INT64_T", 4
	case litmus.V64:
		return "MPI_INT64_T", 8
	}
	return "MPI_INT64_T", 1
}

func isVec(t litmus.Type) bool { return t == litmus.V32 || t == litmus.V64 }

// toC converts an int64 expression to a value of type t.
func toC(t litmus.Type, expr string) string {
	switch t {
	case litmus.V32:
		return fmt.Sprintf("rmc_v32_of(%s)", expr)
	case litmus.V64:
		return fmt.Sprintf("rmc_v64_of(%s)", expr)
	case litmus.Int64:
		return expr
	}
	return fmt.Sprintf("(%s)(%s)", cType(t), expr)
}

// fromC converts a value of type t to int64.
func fromC(t litmus.Type, expr string) string {
	switch {
	case isVec(t):
		return fmt.Sprintf("(%s)[0]", expr)
	case t == litmus.Int64:
		return expr
	}
	return fmt.Sprintf("(int64_t)(%s)", expr)
}

var accOps = map[litmus.AccOp]string{
	litmus.AccSum: "MPI_SUM", litmus.AccProd: "MPI_PROD", litmus.AccMax: "MPI_MAX", litmus.AccMin: "MPI_MIN",
	litmus.AccBand: "MPI_BAND", litmus.AccBor: "MPI_BOR", litmus.AccBxor: "MPI_BXOR",
	litmus.AccReplace: "MPI_REPLACE", litmus.AccNoOp: "MPI_NO_OP",
}

func comment(s string) string { return strings.ReplaceAll(s, "*/", "* /") }

// trank is the rank of world rank r in the window's communicator.
func (wi *winInfo) trank(r int) int {
	if !wi.sub {
		return r
	}
	for i, m := range wi.ranks {
		if m == r {
			return i
		}
	}
	return -1
}

func (wi *winInfo) comm() string {
	if wi.sub {
		return "comm_" + wi.id
	}
	return "tcomm"
}

// ---- the program ----

func (g *gen) program() {
	t := g.t
	g.printf("/* rmacheck cgen: litmus test %s", comment(t.Name))
	if t.File != "" {
		g.printf(" (%s)", comment(filepath.Base(t.File)))
	}
	g.printf("\n *\n")
	for _, line := range strings.Split(strings.TrimRight(string(litmus.Format(t)), "\n"), "\n") {
		g.printf(" *   %s\n", strings.TrimRight(comment(line), " "))
	}
	g.printf(` *
 * Build: mpicc -O2 -Wall -Werror -o test test.c
 * Run:   mpiexec -n %d ./test [iterations [seed [jitter]]]
 * Each iteration resets the windows to their initial values, releases the ranks together
 * with a spin barrier in a shared-memory segment of its own (MPI_Barrier would serialize
 * them), runs each rank's column, and records the outcome. Rank 0 prints one line
 *   OUTCOME count v1 v2 ...
 * per observed outcome, values in the order of the out= list of the first line.
 */
`, g.nprocs)
	g.printf("\n#define NPROCS %d\n#define NOUT %d\n#define DEFAULT_RUNS %d\n#define DEFAULT_JITTER %d\n",
		g.nprocs, len(g.p.Out), g.opt.Runs, g.opt.Jitter)
	g.out.WriteString(prelude)
	var names []string
	for _, o := range g.p.Out {
		names = append(names, o.Name)
	}
	g.printf("static const char *const test_name = %q;\n", t.Name)
	if g.needsShm != "" {
		g.printf("static const char *const needs_shm = %q; /* across nodes the test is skipped */\n", g.needsShm)
	} else {
		g.printf("static const char *const needs_shm = NULL; /* it runs across nodes too */\n")
	}
	g.printf("static const char *const out_names = %q;\n\n", strings.Join(names, ","))
	g.windowDecls()
	g.groupDecls()
	g.regionDecls()
	g.createWindows()
	g.freeWindows()
	g.resetMemory()
	for i := range t.Procs {
		g.proc(i)
	}
	g.readCells()
	g.mainFunc()
}

// prelude is the C every program starts with: c/prelude.c after its marker line (the lines
// before it make the file readable alone, by a linter or mpicc -fsyntax-only).
var prelude = func() string {
	_, body, ok := strings.Cut(preludeFile, "/* ---- cgen prelude ---- */\n")
	if !ok {
		panic("cgen: prelude.c lacks its marker line")
	}
	return body
}()

//go:embed c/prelude.c
var preludeFile string

func (g *gen) windowDecls() {
	for _, wi := range g.wins {
		w := wi.w
		g.printf("/* window %s: %s */\n", w.Name, comment(litmus.WindowString(w)))
		g.printf("static MPI_Win win_%s = MPI_WIN_NULL;\n", wi.id)
		if wi.sub {
			g.printf("static MPI_Comm comm_%s = MPI_COMM_NULL; /* its group: ranks %s */\n", wi.id, intList(wi.ranks))
		}
		g.printf("static char *base_%s;            /* my segment */\n", wi.id)
		g.printf("static char *seg_%s[NPROCS];     /* segments for load/store, from MPI_Win_shared_query */\n", wi.id)
		g.printf("static const MPI_Aint bytes_%s[NPROCS] = {%s};\n", wi.id, intList(wi.bytes))
		if w.Flavor == litmus.FlavorDynamic {
			g.printf("static MPI_Aint addr_%s[NPROCS];   /* attached memory of each rank (MPI_Get_address) */\n", wi.id)
			g.printf("static MPI_Aint addr_%s_sub[NPROCS];\n", wi.id)
		}
		if wi.freed {
			g.printf("static int freed_%s;\n", wi.id)
		}
		g.printf("\n")
	}
}

func intList(l []int) string {
	var s []string
	for _, v := range l {
		s = append(s, fmt.Sprint(v))
	}
	if len(s) == 0 {
		return "0"
	}
	return strings.Join(s, ", ")
}

type groupRef struct {
	proc, row int
	in        *litmus.Instr
}

func groupName(proc, row int) string { return fmt.Sprintf("grp_p%d_row%d", proc, row) }

func (g *gen) groupDecls() {
	var gs []groupRef
	for pi, pr := range g.t.Procs {
		for row, in := range pr.Code {
			if in != nil && (in.Op == litmus.OpPost || in.Op == litmus.OpStart) {
				gs = append(gs, groupRef{pi, row + 1, in})
			}
		}
	}
	g.printf("/* Groups of post and start calls, made once. */\n")
	for _, gr := range gs {
		g.printf("static MPI_Group %s; /* P%d row %d: %s */\n", groupName(gr.proc, gr.row), gr.proc, gr.row, comment(litmus.InstrString(gr.in)))
	}
	g.printf("\nstatic void make_groups(void) {\n")
	if len(gs) > 0 {
		g.printf("    MPI_Group all;\n")
	}
	for _, gr := range gs {
		wi := g.wins[g.winIndex(gr.in.Win)]
		var ranks []int
		for _, r := range gr.in.Group {
			ranks = append(ranks, wi.trank(r))
		}
		g.printf("    if (me == %d) {\n", gr.proc)
		g.printf("        int ranks[] = {%s};\n", intList(ranks))
		g.printf("        MPI_Comm_group(%s, &all);\n", wi.comm())
		g.printf("        CHECK(%d, MPI_Group_incl(all, %d, ranks, &%s));\n", gr.row, len(ranks), groupName(gr.proc, gr.row))
		g.printf("        MPI_Group_free(&all);\n    }\n")
	}
	g.printf("}\n\n")
}

func (g *gen) infoCalls(wi *winInfo, ind string) {
	g.printf("%sMPI_Info info;\n%sMPI_Info_create(&info);\n", ind, ind)
	for _, in := range wi.w.Info {
		g.printf("%sMPI_Info_set(info, %q, %q);\n", ind, in.Key, strings.Trim(in.Value, `"`))
	}
}

func (g *gen) createWindows() {
	g.printf("/* Creates the windows (collective over each window's group), records their\n * MPI_WIN_MODEL, and finds the segments load/store may reach. */\n")
	g.printf("static void create_windows(int first) {\n")
	for _, wi := range g.wins {
		w := wi.w
		g.printf("    /* %s */\n", comment(litmus.WindowString(w)))
		ind := "    "
		if wi.sub {
			g.printf("    if (comm_%s != MPI_COMM_NULL) {\n", wi.id)
			ind = "        "
		} else {
			g.printf("    {\n")
			ind = "        "
		}
		g.infoCalls(wi, ind)
		mine := fmt.Sprintf("bytes_%s[me]", wi.id)
		switch {
		case w.Over != "":
			b := wi.base
			g.printf("%s/* created over %s's memory: the two windows alias the same cells */\n", ind, b.w.Name)
			g.printf("%sbase_%s = base_%s;\n", ind, wi.id, b.id)
			g.printf("%sCHECK(0, MPI_Win_create(base_%s, bytes_%s[me], %d, info, %s, &win_%s));\n", ind, wi.id, wi.id, wi.du, wi.comm(), wi.id)
		case w.Flavor == litmus.FlavorCreate:
			g.printf("%sif (first && posix_memalign((void **)&base_%s, 64, %s > 0 ? %s : 1) != 0)\n%s    rmc_fail(\"posix_memalign\", 0);\n", ind, wi.id, mine, mine, ind)
			g.printf("%sCHECK(0, MPI_Win_create(base_%s, %s, %d, info, %s, &win_%s));\n", ind, wi.id, mine, wi.du, wi.comm(), wi.id)
		case w.Flavor == litmus.FlavorAllocate:
			g.printf("%sCHECK(0, MPI_Win_allocate(%s, %d, info, %s, &base_%s, &win_%s));\n", ind, mine, wi.du, wi.comm(), wi.id, wi.id)
		case w.Flavor == litmus.FlavorAllocateShared:
			g.printf("%sCHECK(0, MPI_Win_allocate_shared(%s, %d, info, %s, &base_%s, &win_%s));\n", ind, mine, wi.du, wi.comm(), wi.id, wi.id)
		case w.Flavor == litmus.FlavorDynamic:
			g.printf("%sCHECK(0, MPI_Win_create_dynamic(info, %s, &win_%s));\n", ind, wi.comm(), wi.id)
			g.printf("%sif (first && posix_memalign((void **)&base_%s, 64, %s > 0 ? %s : 1) != 0)\n%s    rmc_fail(\"posix_memalign\", 0);\n", ind, wi.id, mine, mine, ind)
			g.printf("%sif (%s > 0)\n%s    CHECK(0, MPI_Win_attach(win_%s, base_%s, %s));\n", ind, mine, ind, wi.id, wi.id, mine)
		}
		g.printf("%sMPI_Info_free(&info);\n", ind)
		g.printf("%sMPI_Win_set_errhandler(win_%s, MPI_ERRORS_RETURN);\n", ind, wi.id)
		if wi.shared {
			g.printf("%sfor (int r = 0; r < NPROCS; r++) {\n", ind)
			g.printf("%s    static const int trank[NPROCS] = {%s};\n", ind, intList(g.tranks(wi)))
			g.printf("%s    MPI_Aint size; int du; void *ptr = NULL;\n", ind)
			g.printf("%s    seg_%s[r] = NULL;\n", ind, wi.id)
			g.printf("%s    if (trank[r] >= 0 && MPI_Win_shared_query(win_%s, trank[r], &size, &du, &ptr) == MPI_SUCCESS)\n", ind, wi.id)
			g.printf("%s        seg_%s[r] = ptr;\n", ind, wi.id)
			g.printf("%s}\n", ind)
		}
		if w.Flavor == litmus.FlavorDynamic {
			g.printf("%s{\n%s    MPI_Aint a;\n%s    MPI_Get_address(base_%s, &a);\n", ind, ind, ind, wi.id)
			g.printf("%s    MPI_Allgather(&a, 1, MPI_AINT, addr_%s_sub, 1, MPI_AINT, %s);\n", ind, wi.id, wi.comm())
			for i, r := range wi.ranks {
				g.printf("%s    addr_%s[%d] = addr_%s_sub[%d];\n", ind, wi.id, r, wi.id, i)
			}
			g.printf("%s}\n", ind)
		}
		model := "MPI_WIN_UNIFIED"
		if w.Model == litmus.Separate {
			model = "MPI_WIN_SEPARATE"
		}
		if wi.freed {
			g.printf("%sfreed_%s = 0;\n", ind, wi.id)
		}
		g.printf("    }\n")
		g.printf("    if (first)\n        rmc_win_model(win_%s, %q, %s);\n", wi.id, w.Name, model)
	}
	g.printf("}\n\n")
}

func (g *gen) tranks(wi *winInfo) []int {
	var l []int
	for r := 0; r < g.nprocs; r++ {
		if wi.w.InGroup(r) {
			l = append(l, wi.trank(r))
		} else {
			l = append(l, -1)
		}
	}
	return l
}

func (g *gen) freeWindows() {
	g.printf("/* Frees the windows (the test's own free calls excepted). */\n")
	g.printf("static void free_windows(void) {\n")
	for i := len(g.wins) - 1; i >= 0; i-- {
		wi := g.wins[i]
		cond := fmt.Sprintf("win_%s != MPI_WIN_NULL", wi.id)
		if wi.freed {
			cond += fmt.Sprintf(" && !freed_%s", wi.id)
		}
		g.printf("    if (%s) {\n", cond)
		if wi.w.Flavor == litmus.FlavorDynamic {
			g.printf("        if (bytes_%s[me] > 0)\n            MPI_Win_detach(win_%s, base_%s);\n", wi.id, wi.id, wi.id)
		}
		g.printf("        MPI_Win_free(&win_%s);\n    }\n", wi.id)
		g.printf("    win_%s = MPI_WIN_NULL;\n", wi.id)
	}
	g.printf("}\n\n")
}

func (g *gen) resetMemory() {
	g.printf("/* Puts my segments back to the initial values (0 unless the init block says otherwise). */\n")
	g.printf("static void reset_memory(void) {\n")
	for _, wi := range g.wins {
		if wi.base != wi {
			continue
		}
		g.printf("    if (bytes_%s[me] > 0)\n        memset(base_%s, 0, bytes_%s[me]);\n", wi.id, wi.id, wi.id)
		if wi.w.Flavor != litmus.FlavorAllocateShared {
			g.printf("    seg_%s[me] = base_%s;\n", wi.id, wi.id)
		}
	}
	for _, wi := range g.wins {
		if !wi.shared {
			g.printf("    for (int r = 0; r < NPROCS; r++)\n        if (r != me)\n            seg_%s[r] = NULL; /* until a shared_query finds it */\n", wi.id)
		}
	}
	for _, in := range g.t.Inits {
		if in.Loc == nil {
			continue
		}
		w, rank, disp, typ, _ := g.t.ResolveLoc(*in.Loc)
		wi := g.wins[g.winIndex(w.Name)]
		g.printf("    if (me == %d) /* %s = %d */\n", rank, comment(litmus.LocString(*in.Loc)), in.Value)
		g.printf("        *(volatile %s *)(base_%s + %d) = %s;\n", cType(typ), wi.base.id, disp*wi.du, toC(typ, cInt(in.Value)))
	}
	g.printf("}\n\n")
}

func (g *gen) readCells() {
	g.printf("/* Records the final values of the cells I own that the outcome shows. */\n")
	g.printf("static void read_cells(int64_t *out) {\n")
	for k, o := range g.p.Out {
		if o.Cell < 0 {
			continue
		}
		c := g.p.Cells[o.Cell]
		wi := g.wins[c.Win]
		g.printf("    if (me == %d) /* %s */\n        out[%d] = %s;\n", c.Rank, comment(o.Name), k,
			g.sym(fromC(g.outTypes[k], fmt.Sprintf("*(volatile %s *)(base_%s + %d)", cType(g.outTypes[k]), wi.id, g.outOffsets[k]))))
	}
	g.printf("    (void)out;\n}\n\n")
}

func (g *gen) mainFunc() {
	g.printf("int main(int argc, char **argv) {\n")
	g.printf(`    long runs = argc > 1 ? atol(argv[1]) : DEFAULT_RUNS;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    long jitter = argc > 3 ? atol(argv[3]) : DEFAULT_JITTER;
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NPROCS) {
        if (me == 0)
            printf("ERROR the test needs %%d processes, not %%d (mpiexec -n %%d)\n", NPROCS, size, NPROCS);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &tcomm);
    rng_state = seed * 0x9E3779B97F4A7C15ull + (uint64_t)me * 0xBF58476D1CE4E5B9ull + 1;
    if (me == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = 0;
        printf("RMACHECK test=%%s procs=%%d out=%%s\nLIBRARY %%s\n", test_name, NPROCS, out_names, lib);
        fflush(stdout);
    }
    {   /* where the ranks run; a test that needs memory shared by all ranks needs one node */
        MPI_Comm node;
        int nodes = rmc_placement(&node);
        if (nodes > 1 && needs_shm != NULL) {
            if (me == 0)
                printf("SKIP the test needs memory shared by all ranks (%%s), and the ranks are on %%d nodes\n", needs_shm, nodes);
            fflush(stdout);
            MPI_Finalize();
            return 0;
        }
        rmc_barrier_init(nodes, node);
    }
`)
	for _, wi := range g.wins {
		if wi.sub {
			g.printf("    MPI_Comm_split(MPI_COMM_WORLD, %s ? 0 : MPI_UNDEFINED, me, &comm_%s);\n", g.memberCond(wi), wi.id)
		}
	}
	g.printf(`    make_groups();
    create_windows(1);
%s    if (rmc_skip) {
        free_windows();
        rmc_barrier_free();
        MPI_Finalize();
        return 0;
    }
    enum { BATCH = 4096 };
    int64_t *rows = calloc((size_t)BATCH * (NOUT + 1), sizeof(int64_t));
    int64_t *sum = calloc((size_t)BATCH * (NOUT + 1), sizeof(int64_t));
    long nbins = 0, capbins = 64;
    int64_t *bins = malloc((size_t)capbins * (NOUT + 1) * sizeof(int64_t)); /* count, values */
    double elapsed = 0;
    for (long done = 0; done < runs;) {
        long batch = runs - done < BATCH ? runs - done : BATCH;
        memset(rows, 0, (size_t)batch * (NOUT + 1) * sizeof(int64_t));
        double t0 = MPI_Wtime();
        for (long it = 0; it < batch; it++) {
            int64_t *out = rows + it * (NOUT + 1);
`, g.regionCall("    ", "make_regions"))
	if g.perIter {
		g.printf("            if (it + done > 0)\n                create_windows(0); /* the test frees a window: one set of windows per iteration */\n")
	}
	g.printf(`            reset_memory();
            spin_barrier(); /* start */
            for (long d = jitter > 0 ? (long)(rng() %% (uint64_t)(jitter + 1)) : 0; d > 0; d--)
                rmc_pause();
            switch (me) {
`)
	for i := range g.t.Procs {
		g.printf("            case %d: proc_%d(out); break;\n", i, i)
	}
	g.printf(`            }
            spin_barrier(); /* end: every column has finished */
            read_cells(out);
%s`, g.regionCall("            ", "detach_regions"))
	if g.perIter {
		g.printf("            free_windows();\n")
	}
	g.printf(`        }
        elapsed += MPI_Wtime() - t0;
        /* each value has one owner (a register's rank, a cell's owner): the sum gathers them */
        MPI_Reduce(rows, sum, (int)(batch * (NOUT + 1)), MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0) {
            for (long it = 0; it < batch; it++) {
                int64_t *v = sum + it * (NOUT + 1);
                long b;
                for (b = 0; b < nbins; b++)
                    if (memcmp(bins + b * (NOUT + 1) + 1, v, NOUT * sizeof(int64_t)) == 0)
                        break;
                if (b == nbins) {
                    if (nbins == capbins) {
                        capbins *= 2;
                        bins = realloc(bins, (size_t)capbins * (NOUT + 1) * sizeof(int64_t));
                    }
                    bins[b * (NOUT + 1)] = 0;
                    memcpy(bins + b * (NOUT + 1) + 1, v, NOUT * sizeof(int64_t));
                    nbins++;
                }
                bins[b * (NOUT + 1)]++;
            }
        }
        done += batch;
    }
    if (me == 0) {
        for (long b = 0; b < nbins; b++) {
            printf("OUTCOME %%lld", (long long)bins[b * (NOUT + 1)]);
            for (int k = 0; k < NOUT; k++)
                printf(" %%lld", (long long)bins[b * (NOUT + 1) + 1 + k]);
            printf("\n");
        }
        printf("TIME %%.6f iterations=%%ld\n", elapsed, runs);
        fflush(stdout);
    }
`)
	if !g.perIter {
		g.printf("    free_windows();\n")
	}
	g.printf(`    free(rows);
    free(sum);
    free(bins);
    rmc_barrier_free();
    MPI_Finalize();
    return 0;
}
`)
}

func (g *gen) memberCond(wi *winInfo) string {
	var cs []string
	for _, r := range wi.ranks {
		cs = append(cs, fmt.Sprintf("me == %d", r))
	}
	if len(cs) == 0 {
		return "0"
	}
	return "(" + strings.Join(cs, " || ") + ")"
}

// sharedMemoryNeed says why a test needs memory shared by all its ranks (an
// allocate_shared window, a shared_query, a plain access to another rank's segment),
// "" when it does not.
func sharedMemoryNeed(t *litmus.Test) string {
	for _, w := range t.Windows {
		if w.Flavor == litmus.FlavorAllocateShared {
			return "window " + w.Name + " is allocate_shared"
		}
	}
	for pi, pr := range t.Procs {
		for row, in := range pr.Code {
			if in == nil {
				continue
			}
			switch {
			case in.Op == litmus.OpSharedQuery:
				return fmt.Sprintf("P%d row %d: shared_query", pi, row+1)
			case (in.Op == litmus.OpLoad || in.Op == litmus.OpStore) && in.Loc != nil:
				if _, rank, _, _, _ := t.ResolveLoc(*in.Loc); rank != pi {
					return fmt.Sprintf("P%d row %d: a plain access to rank %d's segment", pi, row+1, rank)
				}
			}
		}
	}
	return ""
}
