// Package gen generates litmus programs: rapid generators of small well-formed
// MPI RMA programs, for property-based tests that use the explorer as the oracle.
//
// A generated program is written as .lit text and parsed, so every program a test
// draws is one a user could have written, and the parser is exercised as well.
package gen

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/litmus"
)

// Config bounds the programs drawn.
type Config struct {
	MinProcs, MaxProcs int // processes (default 2..3)
	MaxInstrs          int // instructions per process, not counting epoch brackets (default 4)
	// Syncs are the synchronization styles to draw from (default: all of them):
	// "none", "fence", "lock_all", "pscw", "barrier", and, not drawn by default,
	// "lock" (each access in a lock epoch of its target rank, shared or exclusive),
	// "rounds" (lock_all epochs with a barrier between two) and "fencelock" (fence
	// epochs whose accesses are sometimes in a lock epoch of their target too: a
	// window both fenced and locked, E-EPOCH-MIX when RMA of the fence epoch
	// targets a rank locked during it).
	Syncs []string
	// RMA allows put/get/acc in epochs (default true unless NoRMA).
	NoRMA bool
	// Asserts adds random assertions to the synchronization calls (fence asserts,
	// lock_all/post/start nocheck), true or false as the program turns out.
	Asserts bool
	// Loops adds spin loops: await on a cell, repeat / load / until, and (allocate
	// windows in lock_all) repeat / fop no_op / flush_all / until.
	Loops bool
	// ConditionOnly leaves out the locations line, so that the outcomes show the
	// condition's cell alone and most values end dead (the explorer's live-variable
	// quotient drops them); else every register and cell is shown.
	ConditionOnly bool
	// Separate makes an allocate window separate (model=separate): private and
	// public copies, R5/R6 points.
	Separate bool
	// Tests adds completion tests (tests.go): PSCW targets end their exposure
	// epoch with test (once, then wait if it failed, or in a spin loop), and
	// lock_all epochs issue rput/rget whose requests waitreq, testreq or nothing
	// completes before unlock_all.
	Tests bool
	// Dynamic draws programs on a dynamic window instead (dynamic.go): a region
	// attached, its address sent, accessed through it, detached in order or early.
	Dynamic bool
	// Computed lets RMA calls take their target rank and displacement from
	// registers set in the init block, MPI_PROC_NULL among them (computed.go).
	Computed bool
	// Ranges makes some put, get and acc calls move two elements with one call (a
	// range and a tuple, gen/range.go): the window's two cells, in order or reversed.
	Ranges bool
}

func (c Config) withDefaults() Config {
	if c.MinProcs == 0 {
		c.MinProcs = 2
	}
	if c.MaxProcs == 0 {
		c.MaxProcs = 3
	}
	if c.MaxInstrs == 0 {
		c.MaxInstrs = 4
	}
	if len(c.Syncs) == 0 {
		c.Syncs = []string{"none", "fence", "lock_all", "pscw", "barrier"}
	}
	return c
}

// Program is a generator of well-formed programs within cfg's bounds.
func Program(cfg Config) *rapid.Generator[*litmus.Test] {
	cfg = cfg.withDefaults()
	return rapid.Custom(func(t *rapid.T) *litmus.Test {
		src := Source(t, cfg)
		lt, err := litmus.Parse("gen.lit", []byte(src))
		if err != nil {
			// A generator bug, not a property failure of the code under test.
			panic(fmt.Sprintf("gen: generated program does not parse: %v\n%s", err, src))
		}
		return lt
	})
}

// Source draws the text of a program.
func Source(t *rapid.T, cfg Config) string {
	cfg = cfg.withDefaults()
	if cfg.Dynamic {
		return dynamicSource(t, cfg)
	}
	g := &builder{t: t, cfg: cfg}
	g.n = rapid.IntRange(cfg.MinProcs, cfg.MaxProcs).Draw(t, "procs")
	g.sync = rapid.SampledFrom(cfg.Syncs).Draw(t, "sync")
	g.flavor = "allocate_shared"
	if !cfg.NoRMA && g.sync != "none" && g.sync != "barrier" && rapid.Bool().Draw(t, "allocate") {
		g.flavor = "allocate"
	}
	g.separate = cfg.Separate && g.flavor == "allocate" && rapid.Bool().Draw(t, "separate")
	g.rows = make([][]string, g.n)
	g.regs = make([]int, g.n)
	g.reqs = make([][]string, g.n)
	g.body()
	return g.text()
}

type builder struct {
	t      *rapid.T
	cfg    Config
	n      int
	sync   string
	flavor string
	// separate: the allocate window is separate (Config.Separate).
	separate bool
	rows     [][]string // per process, its instructions in order
	regs     []int      // registers used per process
	locs     []string
	// reqs: per process, the requests issued and not yet completed (Tests).
	reqs [][]string
	nreq int
	// inits are the init block's register values of computed targets ("0:t0 = 1").
	inits []string
}

func (g *builder) cell(label string) string {
	r := rapid.IntRange(0, g.n-1).Draw(g.t, label+"-rank")
	d := rapid.IntRange(0, 1).Draw(g.t, label+"-disp")
	return fmt.Sprintf("W@%d[%d]", r, d)
}

func (g *builder) value(p int, label string) string {
	if g.regs[p] > 0 && rapid.IntRange(0, 3).Draw(g.t, label+"-isreg") == 0 {
		return fmt.Sprintf("r%d", rapid.IntRange(0, g.regs[p]-1).Draw(g.t, label+"-reg"))
	}
	return fmt.Sprint(rapid.IntRange(1, 2).Draw(g.t, label))
}

func (g *builder) newReg(p int) string {
	g.regs[p]++
	return fmt.Sprintf("r%d", g.regs[p]-1)
}

// body lays out each process: an epoch bracket chosen by the sync style, with
// random accesses inside it; collective calls stand at the same place in every process.
func (g *builder) body() {
	open, close := g.brackets()
	for p := 0; p < g.n; p++ {
		g.rows[p] = append(g.rows[p], open(p)...)
	}
	k := rapid.IntRange(1, g.cfg.MaxInstrs).Draw(g.t, "instrs")
	collectiveAt := -1
	if g.sync == "barrier" || g.sync == "fence" || g.sync == "rounds" || g.sync == "fencelock" {
		collectiveAt = rapid.IntRange(0, k).Draw(g.t, "collective-at")
	}
	for i := 0; i < k; i++ {
		if i == collectiveAt {
			g.collective()
		}
		for p := 0; p < g.n; p++ {
			if rapid.IntRange(0, 4).Draw(g.t, "skip") == 0 {
				continue
			}
			g.rows[p] = append(g.rows[p], g.lockEach(p, g.instrs(p))...)
		}
	}
	if collectiveAt == k {
		g.collective()
	}
	for p := 0; p < g.n; p++ {
		g.rows[p] = append(g.rows[p], close(p)...)
	}
}

func (g *builder) collective() {
	for p := 0; p < g.n; p++ {
		switch g.sync {
		case "barrier":
			g.rows[p] = append(g.rows[p], "barrier")
		case "rounds":
			g.rows[p] = append(g.rows[p], "unlock_all W", "barrier", "lock_all W")
		default:
			g.rows[p] = append(g.rows[p], "fence W")
		}
	}
}

// assert draws assertions for a call (" nocheck", " nostore noput", ...), or "".
func (g *builder) assert(label string, names ...string) string {
	if !g.cfg.Asserts {
		return ""
	}
	var out string
	for _, n := range names {
		if rapid.IntRange(0, 2).Draw(g.t, label+"-"+n) == 0 {
			out += " " + n
		}
	}
	return out
}

func (g *builder) brackets() (open, close func(int) []string) {
	none := func(int) []string { return nil }
	switch g.sync {
	case "fence", "fencelock":
		first := g.assert("fence1", "nostore", "noput", "noprecede", "nosucceed")
		last := g.assert("fence2", "nostore", "noput", "noprecede", "nosucceed")
		return func(int) []string { return []string{"fence W" + first} }, func(int) []string { return []string{"fence W" + last} }
	case "lock_all", "rounds":
		nocheck := g.assert("lock_all", "nocheck")
		return func(int) []string { return []string{"lock_all W" + nocheck} },
			func(p int) []string { return append(g.completeRequests(p), "unlock_all W") }
	case "pscw":
		// P0 is the origin of an access epoch to every other process.
		others := make([]string, 0, g.n-1)
		for q := 1; q < g.n; q++ {
			others = append(others, fmt.Sprint(q))
		}
		group := "{" + strings.Join(others, ",") + "}"
		nocheck := g.assert("pscw", "nocheck")
		return func(p int) []string {
				if p == 0 {
					return []string{"start W " + group + nocheck}
				}
				return []string{"post W {0}" + nocheck + g.assert(fmt.Sprintf("post%d", p), "nostore", "noput")}
			}, func(p int) []string {
				if p == 0 {
					return []string{"complete W"}
				}
				return g.waitOrTest(p)
			}
	}
	return none, none
}

// instrs draws one instruction of process p, or with Loops sometimes a spin loop (the
// rows of its body and its until).
func (g *builder) instrs(p int) []string {
	if !g.cfg.Loops || rapid.IntRange(0, 5).Draw(g.t, "loop") != 0 {
		return []string{g.instr(p)}
	}
	want := rapid.IntRange(1, 2).Draw(g.t, "until-v")
	kinds := []string{"await", "poll"}
	if g.flavor == "allocate" {
		kinds = []string{"load-own"}
		if g.sync == "lock_all" {
			kinds = append(kinds, "fop")
		}
	}
	r := g.newReg(p)
	switch rapid.SampledFrom(kinds).Draw(g.t, "loop-kind") {
	case "await":
		return []string{fmt.Sprintf("%s = await %s == %d", r, g.cell("aw"), want)}
	case "poll":
		return []string{"repeat", fmt.Sprintf("%s = load %s", r, g.cell("pl")), fmt.Sprintf("until %s == %d", r, want)}
	case "load-own":
		return []string{"repeat", fmt.Sprintf("%s = load W@%d[%d]", r, p, rapid.IntRange(0, 1).Draw(g.t, "lod")), fmt.Sprintf("until %s == %d", r, want)}
	}
	return []string{"repeat", fmt.Sprintf("%s = fop %s no_op 0", r, g.rmaCell(p, "fp")), "flush_all W", fmt.Sprintf("until %s == %d", r, want)}
}

// instr draws one instruction of process p: a plain access, an RMA call where an
// epoch allows one, register arithmetic, or a sync call that fits the epoch.
func (g *builder) instr(p int) string {
	kinds := []string{"store", "load", "arith"}
	if g.rmaAllowed(p) {
		kinds = append(kinds, "put", "get", "acc")
	}
	if g.sync == "lock_all" {
		kinds = append(kinds, "sync", "flush")
	}
	if g.sync == "lock" || g.sync == "fencelock" {
		kinds = append(kinds, "sync")
	}
	if g.flavor == "allocate" {
		kinds = []string{"arith"}
		if g.rmaAllowed(p) {
			kinds = append(kinds, "put", "get", "acc", "put", "get")
		}
		if g.sync == "lock_all" {
			kinds = append(kinds, "flush")
		}
		kinds = append(kinds, "localstore", "localload")
	}
	kinds = append(kinds, g.requestKinds(p)...)
	switch rapid.SampledFrom(kinds).Draw(g.t, "kind") {
	case "store":
		return g.guarded(p, fmt.Sprintf("store %s %s", g.cell("st"), g.value(p, "sv")))
	case "load":
		return g.guarded(p, fmt.Sprintf("%s = load %s", g.newReg(p), g.cell("ld")))
	case "localstore":
		return fmt.Sprintf("store W@%d[%d] %s", p, rapid.IntRange(0, 1).Draw(g.t, "lsd"), g.value(p, "lsv"))
	case "localload":
		return fmt.Sprintf("%s = load W@%d[%d]", g.newReg(p), p, rapid.IntRange(0, 1).Draw(g.t, "lld"))
	case "put":
		if s, ok := g.rangeCall(p, "put"); ok {
			return s
		}
		return fmt.Sprintf("put %s %d", g.rmaCell(p, "pt"), rapid.IntRange(1, 2).Draw(g.t, "pv"))
	case "get":
		if s, ok := g.rangeCall(p, "get"); ok {
			return s
		}
		return fmt.Sprintf("%s = get %s", g.newReg(p), g.rmaCell(p, "gt"))
	case "acc":
		if s, ok := g.rangeCall(p, "acc"); ok {
			return s
		}
		return fmt.Sprintf("acc %s sum %d", g.rmaCell(p, "ac"), rapid.IntRange(1, 2).Draw(g.t, "av"))
	case "sync":
		return "sync W"
	case "flush":
		return "flush_all W"
	case "request":
		return g.request(p)
	}
	if g.regs[p] == 0 {
		return fmt.Sprintf("%s = %d", g.newReg(p), rapid.IntRange(0, 2).Draw(g.t, "mv"))
	}
	src := fmt.Sprintf("r%d", rapid.IntRange(0, g.regs[p]-1).Draw(g.t, "asrc"))
	return fmt.Sprintf("%s = %s + 1", g.newReg(p), src)
}

// lockEach puts a lock epoch of its target rank around an access (sync "lock",
// and under "fencelock" sometimes): shared or exclusive, sometimes nocheck (with
// Asserts); a row without a target (arithmetic) or a spin loop is left as it is. A
// request-based call (Tests) is completed inside its lock epoch, or left pending
// (completeRequests), and under "fencelock" always has one: request-based
// operations need a passive-target epoch.
func (g *builder) lockEach(p int, rows []string) []string {
	if len(rows) != 1 || (g.sync != "lock" && g.sync != "fencelock") {
		return rows
	}
	request := len(g.reqs[p]) > 0
	if g.sync == "fencelock" && !request && rapid.Bool().Draw(g.t, "fence-lock") {
		return rows
	}
	_, after, ok := strings.Cut(rows[0], "W@")
	if !ok {
		if rows[0] == "sync W" { // MPI_Win_sync needs an epoch too
			after = fmt.Sprint(p)
		} else {
			return rows
		}
	}
	t, _, _ := strings.Cut(after, "[") // a rank, or a computed target's register or null
	kind := rapid.SampledFrom([]string{"shared", "excl"}).Draw(g.t, "lock-kind")
	out := []string{fmt.Sprintf("lock W %s %s%s", t, kind, g.assert("lock", "nocheck")), rows[0]}
	if request {
		out = append(out, g.completeRequests(p)...)
	}
	return append(out, "unlock W "+t)
}

// guarded sometimes predicates an access on an earlier register.
func (g *builder) guarded(p int, instr string) string {
	if g.regs[p] == 0 || rapid.IntRange(0, 5).Draw(g.t, "guard") != 0 {
		return instr
	}
	return fmt.Sprintf("[r%d == 1] %s", rapid.IntRange(0, g.regs[p]-1).Draw(g.t, "greg"), instr)
}

// rmaAllowed: an RMA call needs an access epoch: inside a fence or lock_all
// bracket, or, for PSCW, at the origin P0.
func (g *builder) rmaAllowed(p int) bool {
	if g.cfg.NoRMA {
		return false
	}
	switch g.sync {
	case "fence", "lock_all", "lock", "rounds", "fencelock":
		return true
	case "pscw":
		return p == 0
	}
	return false
}

// rmaCell is a target cell of an RMA call: under PSCW a process of the start group.
func (g *builder) rmaCell(p int, label string) string {
	if g.cfg.Computed && rapid.IntRange(0, 2).Draw(g.t, label+"-computed") == 0 {
		return g.computedCell(p, label) // computed.go
	}
	if g.sync == "pscw" {
		r := rapid.IntRange(1, g.n-1).Draw(g.t, label+"-rank")
		return fmt.Sprintf("W@%d[%d]", r, rapid.IntRange(0, 1).Draw(g.t, label+"-disp"))
	}
	return g.cell(label)
}

func (g *builder) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "MPI gen\n\"A generated program (sync %s, %s window).\"\n", g.sync, g.flavor)
	model := ""
	if g.separate {
		model = " model=separate"
	}
	fmt.Fprintf(&b, "{\n  win W %s size=2%s;\n", g.flavor, model)
	for _, in := range g.inits {
		fmt.Fprintf(&b, "  %s;\n", in)
	}
	b.WriteString("}\n")
	height := 0
	for _, r := range g.rows {
		height = max(height, len(r))
	}
	cols := make([]string, g.n)
	for p := range cols {
		cols[p] = fmt.Sprintf("P%d", p)
	}
	b.WriteString(strings.Join(cols, " | ") + " ;\n")
	for i := 0; i < height; i++ {
		for p := range cols {
			cols[p] = ""
			if i < len(g.rows[p]) {
				cols[p] = g.rows[p][i]
			}
		}
		b.WriteString(strings.Join(cols, " | ") + " ;\n")
	}
	var locs []string
	for p := 0; p < g.n; p++ {
		for r := 0; r < g.regs[p]; r++ {
			locs = append(locs, fmt.Sprintf("%d:r%d", p, r))
		}
		locs = append(locs, fmt.Sprintf("W@%d[0]", p), fmt.Sprintf("W@%d[1]", p))
	}
	if !g.cfg.ConditionOnly {
		fmt.Fprintf(&b, "locations [%s];\n", strings.Join(locs, "; "))
	}
	fmt.Fprintf(&b, "exists (W@0[0]=1)\n")
	return b.String()
}
