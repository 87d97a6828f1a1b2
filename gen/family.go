package gen

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// A diy7-style family: a shape (the accesses of each process and the interesting
// final outcome), a synchronization inserted between the two accesses of each
// process, the flavor of the one window, and where the locations live.

// Shape is a relaxation shape of diy7: each process makes one or two accesses, and
// the condition is the outcome that only a reordering or a stale read explains.
type Shape struct {
	Name  string
	Doc   string
	Procs [][]Access
	Cond  string // the final condition, in .lit syntax over x, y and the registers
	// Polls: the shape polls a flag (a spin loop). It takes only the syncs that let
	// the flag arrive while the reader spins (none, sync, lock_all+flush: a lock held
	// over the loop, a fence or a post/start round would keep it out).
	Polls bool
	// AllocateOnly: the shape uses RMA reads that need an allocate window's epoch.
	AllocateOnly bool
}

// Access is one access of a shape: a write of Value, or a read into the next register;
// a poll reads until it sees Value.
type Access struct {
	Write bool
	Loc   string // "x" or "y"
	Value int    // for writes; for polls the value awaited
	// Poll: a spin loop on the location: a load (a local segment, or a shared
	// window), a get and a flush (another segment of an allocate window), or, with
	// Fop, a fetch_and_op no_op and a flush.
	Poll, Fop bool
	// Elems > 1: the access is one RMA call over that many elements of the location
	// (a range, gen/range.go), with Op its accumulate op ("" put or get).
	Elems int
	Op    string
}

func w(loc string, v int) Access     { return Access{Write: true, Loc: loc, Value: v} }
func r(loc string) Access            { return Access{Loc: loc} }
func poll(loc string, v int) Access  { return Access{Loc: loc, Value: v, Poll: true} }
func fpoll(loc string, v int) Access { return Access{Loc: loc, Value: v, Poll: true, Fop: true} }

// Shapes are the shapes of diy7 that `rmacheck gen --shape` knows, in its order.
var Shapes = []Shape{
	{"SB", "store buffering: each process stores then loads the other's location",
		[][]Access{{w("x", 1), r("y")}, {w("y", 1), r("x")}}, "0:r0=0 /\\ 1:r0=0", false, false},
	{"MP", "message passing: P0 stores x then y, P1 loads y then x",
		[][]Access{{w("x", 1), w("y", 1)}, {r("y"), r("x")}}, "1:r0=1 /\\ 1:r1=0", false, false},
	{"LB", "load buffering: each process loads then stores the other's location",
		[][]Access{{r("x"), w("y", 1)}, {r("y"), w("x", 1)}}, "0:r0=1 /\\ 1:r0=1", false, false},
	{"2+2W", "two writes each, in opposite orders; both first writes last in coherence",
		[][]Access{{w("x", 2), w("y", 1)}, {w("y", 2), w("x", 1)}}, "x=2 /\\ y=2", false, false},
	{"S", "P0 writes x then y, P1 reads y then writes x; P0's first write last in coherence",
		[][]Access{{w("x", 2), w("y", 1)}, {r("y"), w("x", 1)}}, "1:r0=1 /\\ x=2", false, false},
	{"R", "P0 writes x then y, P1 writes y then reads x; P1's write last, its read stale",
		[][]Access{{w("x", 1), w("y", 1)}, {w("y", 2), r("x")}}, "y=2 /\\ 1:r0=0", false, false},
	{"WRC", "write-to-read causality: P1 reads P0's write and writes y, P2 reads y then x",
		[][]Access{{w("x", 1)}, {r("x"), w("y", 1)}, {r("y"), r("x")}}, "1:r0=1 /\\ 2:r0=1 /\\ 2:r1=0", false, false},
	{"IRIW", "independent reads of independent writes: P1 and P3 see the two writes in opposite orders",
		[][]Access{{w("x", 1)}, {r("x"), r("y")}, {w("y", 1)}, {r("y"), r("x")}},
		"1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0", false, false},
	{"MPpoll", "message passing with a poll: P0 writes data x then flag y, P1 spins until it sees the flag, then reads data",
		[][]Access{{w("x", 1), w("y", 1)}, {poll("y", 1), r("x")}}, "1:r1=0", true, false},
	{"MPfpoll", "message passing with an RMA poll: P1 spins on fetch_and_op(no_op) and a flush of the flag, then reads data",
		[][]Access{{w("x", 1), w("y", 1)}, {fpoll("y", 1), r("x")}}, "1:r1=0", true, true},
	// several elements in one call (gen/range.go)
	{"TORN", "torn read: P0 puts two elements with one call, P1 gets them with one call; the get sees the second new and the first old",
		[][]Access{{wn("x", 1, 2, "")}, {rn("x", 2, "")}}, "1:r0=0 /\\ 1:r1=1", false, true},
	{"TORNacc", "torn read of atomic elements: P0 replaces two elements with one accumulate, P1 reads them with one get_accumulate(no_op)",
		[][]Access{{wn("x", 1, 2, "replace")}, {rn("x", 2, "no_op")}}, "1:r0=0 /\\ 1:r1=1", false, true},
	{"ACC2", "per-element atomicity: both processes add into the same two elements with one accumulate each; an update lost in one element",
		[][]Access{{wn("x", 1, 2, "sum")}, {wn("x", 10, 2, "sum")}}, "x0=11 /\\ x1=10", false, true},
	{"MPrange", "message passing of a range: P0 puts two data elements with one call, then the flag y; P1 reads y, then the data with one get",
		[][]Access{{wn("x", 1, 2, ""), w("y", 1)}, {r("y"), rn("x", 2, "")}}, "1:r0=1 /\\ 1:r2=0", false, true},
}

// ShapeByName finds a shape (case-insensitive).
func ShapeByName(name string) (Shape, bool) {
	for _, s := range Shapes {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Shape{}, false
}

// Syncs are the synchronizations of a family, in `rmacheck gen --sync` spelling, and
// the token each contributes to a test's name.
var Syncs = []struct{ Name, Token, Doc string }{
	{"none", "po", "nothing between the accesses"},
	{"sync", "sync", "lock_all, MPI_Win_sync between the accesses, unlock_all"},
	{"fence", "fence", "a fence before, between and after the accesses (every process)"},
	{"pscw", "pscw", "one post/start/complete/wait round per access (every process)"},
	{"lock", "lock", "each access under an exclusive lock of its target"},
	{"lock_all+flush", "flush", "lock_all, flush_all between the accesses, unlock_all"},
	{"barrier", "barrier", "a barrier between the accesses (every process)"},
	{"sendrecv", "sendrecv", "a message from the writer of a location, after its write, to the reader, before its read"},
}

// Collective syncs must be used by every process alike; the others may be mixed.
func collectiveSync(s string) bool {
	return s == "fence" || s == "pscw" || s == "barrier" || s == "sendrecv"
}

func syncToken(s string) string {
	for _, x := range Syncs {
		if x.Name == s {
			return x.Token
		}
	}
	return s
}

// Flavors and Localities of a family.
var (
	Flavors    = []string{"allocate_shared", "allocate"}
	Localities = []string{"local", "remote"}
)

func flavorToken(f string) string {
	if f == "allocate_shared" {
		return "shared"
	}
	return "alloc"
}

// FamilyOptions select a family: the cross product of the lists (empty: all).
type FamilyOptions struct {
	Shapes, Syncs, Flavors, Localities []string
	// Mix lets each process of a test take its own non-collective sync (none, sync,
	// lock, lock_all+flush), as diy7's MP+dmb+po: the cross product is then over the
	// per-process choices; collective syncs (fence, pscw, barrier, sendrecv) are
	// always used by every process.
	Mix bool
	// Targets: literal (the default), computed (each test rewritten by
	// ComputedTargets, named NAME+computed), or both.
	Targets []string
	// Max, when > 0, keeps a sample of Max tests drawn with Seed (in family order).
	Max  int
	Seed int64
}

// FamilyTest is one generated test.
type FamilyTest struct {
	Name     string
	Shape    string
	Syncs    []string // per process
	Flavor   string
	Locality string
	Computed bool   // the targets are registers' values (ComputedTargets)
	Source   []byte // canonical .lit text (litmus.Format of the parsed test)
	Test     *litmus.Test
}

// Size is the number of instructions of the test.
func (ft *FamilyTest) Size() int { return Size(ft.Test) }

// Size counts the instructions of a test.
func Size(t *litmus.Test) int {
	n := 0
	for _, p := range t.Procs {
		for _, in := range p.Code {
			if in != nil {
				n++
			}
		}
	}
	return n
}

func validate(list []string, known []string, what string) error {
	for _, x := range list {
		ok := false
		for _, k := range known {
			ok = ok || k == x
		}
		if !ok {
			return fmt.Errorf("unknown %s %q (known: %s)", what, x, strings.Join(known, ", "))
		}
	}
	return nil
}

// Family generates the tests of a family, deduplicated: a test whose program (all but
// its name, doc string and Generator line) equals an earlier one's is dropped.
func Family(opt FamilyOptions) ([]FamilyTest, error) {
	var shapeNames, syncNames []string
	for _, s := range Shapes {
		shapeNames = append(shapeNames, s.Name)
	}
	for _, s := range Syncs {
		syncNames = append(syncNames, s.Name)
	}
	if len(opt.Shapes) == 0 {
		opt.Shapes = shapeNames
	}
	if len(opt.Syncs) == 0 {
		opt.Syncs = syncNames
	}
	if len(opt.Flavors) == 0 {
		opt.Flavors = Flavors
	}
	if len(opt.Localities) == 0 {
		opt.Localities = Localities
	}
	var shapes []Shape
	for _, n := range opt.Shapes {
		s, ok := ShapeByName(n)
		if !ok {
			return nil, fmt.Errorf("unknown shape %q (known: %s)", n, strings.Join(shapeNames, ", "))
		}
		shapes = append(shapes, s)
	}
	if err := validate(opt.Syncs, syncNames, "sync"); err != nil {
		return nil, err
	}
	if err := validate(opt.Flavors, Flavors, "flavor"); err != nil {
		return nil, err
	}
	if err := validate(opt.Localities, Localities, "locality"); err != nil {
		return nil, err
	}
	if len(opt.Targets) == 0 {
		opt.Targets = Targets[:1]
	}
	if err := validate(opt.Targets, Targets, "target"); err != nil {
		return nil, err
	}
	literal, computed := false, false
	for _, tg := range opt.Targets {
		literal, computed = literal || tg == "literal", computed || tg == "computed"
	}
	var out []FamilyTest
	seen := map[string]bool{}
	for _, sh := range shapes {
		for _, syncs := range syncChoices(len(sh.Procs), opt.Syncs, opt.Mix) {
			if sh.Polls && !pollSyncs(syncs) {
				continue
			}
			for _, fl := range opt.Flavors {
				if sh.AllocateOnly && fl != "allocate" {
					continue
				}
				if sh.hasRanges() && slices.Contains(syncs, "pscw") {
					continue // an RMA call to the own segment would need a start epoch on itself
				}
				for _, loc := range opt.Localities {
					ft, err := Build(sh, syncs, fl, loc)
					if err != nil {
						return nil, err
					}
					var tests []FamilyTest
					if literal {
						tests = append(tests, ft)
					}
					if computed {
						ct, ok, err := ComputedTargets(ft)
						if err != nil {
							return nil, err
						}
						if ok {
							tests = append(tests, ct)
						}
					}
					for _, ft := range tests {
						key := programKey(ft.Test)
						if seen[key] {
							continue
						}
						seen[key] = true
						out = append(out, ft)
					}
				}
			}
		}
	}
	if opt.Max > 0 && opt.Max < len(out) {
		rng := rand.New(rand.NewSource(opt.Seed))
		keep := rng.Perm(len(out))[:opt.Max]
		sort.Ints(keep)
		sample := make([]FamilyTest, 0, opt.Max)
		for _, i := range keep {
			sample = append(sample, out[i])
		}
		out = sample
	}
	return out, nil
}

// pollSyncs: syncs that let a polled flag arrive while the reader spins.
func pollSyncs(syncs []string) bool {
	for _, s := range syncs {
		if s != "none" && s != "sync" && s != "lock_all+flush" {
			return false
		}
	}
	return true
}

// syncChoices lists the per-process sync assignments: each sync for every process,
// and with mix every combination of the non-collective ones.
func syncChoices(n int, syncs []string, mix bool) [][]string {
	var out [][]string
	var local []string
	for _, s := range syncs {
		if !collectiveSync(s) {
			local = append(local, s)
		}
	}
	if mix && len(local) > 1 {
		// every combination of the non-collective syncs, then the collective ones
		idx := make([]int, n)
		for {
			c := make([]string, n)
			for p := range c {
				c[p] = local[idx[p]]
			}
			out = append(out, c)
			k := n - 1
			for k >= 0 {
				idx[k]++
				if idx[k] < len(local) {
					break
				}
				idx[k] = 0
				k--
			}
			if k < 0 {
				break
			}
		}
		for _, s := range syncs {
			if collectiveSync(s) {
				out = append(out, repeat(s, n))
			}
		}
		return out
	}
	for _, s := range syncs {
		out = append(out, repeat(s, n))
	}
	return out
}

func repeat(s string, n int) []string {
	c := make([]string, n)
	for i := range c {
		c[i] = s
	}
	return c
}

// programKey is the test's program without its name, doc and meta lines.
func programKey(t *litmus.Test) string {
	c := *t
	c.Name, c.Doc, c.HasDoc, c.Meta = "x", "", false, nil
	return string(litmus.Format(&c))
}

// Build writes one test of a family: shape sh with syncs[p] for process p, a window
// of the flavor, locations placed by locality ("local": each location in the
// segment of its first writer, so writes are local and reads remote; "remote": in
// the segment of another process that accesses it, so writes are remote).
func Build(sh Shape, syncs []string, flavor, locality string) (FamilyTest, error) {
	n := len(sh.Procs)
	b := &famBuilder{sh: sh, syncs: syncs, shared: flavor == "allocate_shared", owner: map[string]int{}, disp: map[string]int{}}
	// where each location lives
	cells := make([]int, n)
	for _, l := range []string{"x", "y"} {
		writer, other := -1, -1
		for p, accs := range sh.Procs {
			for _, a := range accs {
				if a.Loc != l {
					continue
				}
				if a.Write && writer < 0 {
					writer = p
				}
			}
		}
		for p, accs := range sh.Procs {
			for _, a := range accs {
				if a.Loc == l && p != writer && other < 0 {
					other = p
				}
			}
		}
		if writer < 0 {
			continue
		}
		o := writer
		if locality == "remote" && other >= 0 {
			o = other
		}
		b.owner[l], b.disp[l] = o, cells[o]
		cells[o] += sh.elems(l)
		b.locs = append(b.locs, l)
	}
	size := 1
	for _, c := range cells {
		size = max(size, c)
	}
	if sh.hasRanges() {
		size += size % 2 // a multiple of 16 bytes: MPICH 4.0.2 misplaces other allocate segments (#6140)
	}
	code := make([][]string, n)
	for p := 0; p < n; p++ {
		code[p] = b.process(p)
	}
	name := sh.Name + "+" + nameSyncs(syncs) + "+" + flavorToken(flavor) + "+" + locality
	var src strings.Builder
	fmt.Fprintf(&src, "MPI %s\n\"%s\"\n", name, b.doc(flavor, locality))
	fmt.Fprintf(&src, "Generator=rmacheck gen --shape %s --sync %s --flavor %s --locality %s\n",
		sh.Name, strings.Join(syncs, ","), flavor, locality)
	fmt.Fprintf(&src, "{\n  win W %s size=%d;\n", flavor, size)
	for _, l := range b.locs {
		b.declare(&src, l)
	}
	src.WriteString("}\n")
	writeTable(&src, code)
	fmt.Fprintf(&src, "exists (%s)\n", sh.Cond)
	t, err := litmus.Parse(name+".lit", []byte(src.String()))
	if err != nil {
		return FamilyTest{}, fmt.Errorf("gen: family test %s does not parse: %v\n%s", name, err, src.String())
	}
	text := litmus.Format(t)
	t, err = litmus.Parse(name+".lit", text)
	if err != nil {
		return FamilyTest{}, fmt.Errorf("gen: formatted family test %s does not parse: %v", name, err)
	}
	return FamilyTest{Name: name, Shape: sh.Name, Syncs: syncs, Flavor: flavor, Locality: locality, Source: text, Test: t}, nil
}

func nameSyncs(syncs []string) string {
	same := true
	for _, s := range syncs {
		same = same && s == syncs[0]
	}
	if same {
		return syncToken(syncs[0])
	}
	toks := make([]string, len(syncs))
	for i, s := range syncs {
		toks[i] = syncToken(s)
	}
	return strings.Join(toks, "+")
}

// writeTable lays out the process table, one instruction a row, each column from the top.
func writeTable(b *strings.Builder, code [][]string) {
	cols := make([]string, len(code))
	height := 0
	for p := range code {
		cols[p] = fmt.Sprintf("P%d", p)
		height = max(height, len(code[p]))
	}
	b.WriteString(strings.Join(cols, " | ") + " ;\n")
	for i := 0; i < height; i++ {
		for p := range code {
			cols[p] = ""
			if i < len(code[p]) {
				cols[p] = code[p][i]
			}
		}
		b.WriteString(strings.Join(cols, " | ") + " ;\n")
	}
}

type famBuilder struct {
	sh     Shape
	syncs  []string
	shared bool
	owner  map[string]int
	disp   map[string]int
	locs   []string
}

// access is the rows of access k of process p (one instruction, or a poll loop), and
// its target rank.
func (b *famBuilder) access(p, k int) ([]string, int) {
	a := b.sh.Procs[p][k]
	t := b.owner[a.Loc]
	remote := t != p && !b.shared
	reg := 0
	for j := 0; j < k; j++ {
		if !b.sh.Procs[p][j].Write {
			reg += max(1, b.sh.Procs[p][j].Elems)
		}
	}
	if a.Elems > 1 {
		return b.multi(a, reg), t
	}
	one := func(format string, args ...any) ([]string, int) { return []string{fmt.Sprintf(format, args...)}, t }
	spin := func(body ...string) ([]string, int) {
		rows := append(append([]string{"repeat"}, body...), fmt.Sprintf("until r%d == %d", reg, a.Value))
		return rows, t
	}
	switch {
	case a.Write && remote:
		return one("put %s %d", a.Loc, a.Value)
	case a.Write:
		return one("store %s %d", a.Loc, a.Value)
	case a.Fop:
		return spin(fmt.Sprintf("r%d = fop %s no_op 0", reg, a.Loc), fmt.Sprintf("flush W %d", t))
	case a.Poll && remote:
		return spin(fmt.Sprintf("r%d = get %s", reg, a.Loc), fmt.Sprintf("flush W %d", t))
	case a.Poll:
		return spin(fmt.Sprintf("r%d = load %s", reg, a.Loc))
	case remote:
		return one("r%d = get %s", reg, a.Loc)
	}
	return one("r%d = load %s", reg, a.Loc)
}

// process writes the column of process p.
func (b *famBuilder) process(p int) []string {
	accs := b.sh.Procs[p]
	var code []string
	add := func(s ...string) { code = append(code, s...) }
	a1, t1 := b.access(p, 0)
	var a2 []string
	t2 := -1
	if len(accs) > 1 {
		a2, t2 = b.access(p, 1)
	}
	// RMA calls of an allocate window need an epoch: syncs that open none get lock_all.
	bracket := !b.shared
	switch b.syncs[p] {
	case "none", "barrier", "sendrecv":
		if bracket {
			add("lock_all W")
		}
		add(a1...)
		switch b.syncs[p] {
		case "barrier":
			add("barrier")
		case "sendrecv":
			add(b.messages(p)...)
		}
		add(a2...)
		if bracket {
			add("unlock_all W")
		}
	case "sync", "lock_all+flush":
		mid := "sync W"
		if b.syncs[p] == "lock_all+flush" {
			mid = "flush_all W"
		}
		add("lock_all W")
		add(a1...)
		add(mid)
		add(a2...)
		add("unlock_all W")
	case "lock":
		add(fmt.Sprintf("lock W %d excl", t1))
		add(a1...)
		add(fmt.Sprintf("unlock W %d", t1))
		if a2 != nil {
			add(fmt.Sprintf("lock W %d excl", t2))
			add(a2...)
			add(fmt.Sprintf("unlock W %d", t2))
		}
	case "fence":
		add("fence W")
		add(a1...)
		add("fence W")
		add(a2...)
		add("fence W")
	case "pscw":
		for k := 0; k < 2; k++ {
			acc, t := a1, t1
			if k == 1 {
				acc, t = a2, t2
			}
			exp := b.exposure(p, k)
			if len(exp) > 0 {
				add("post W " + group(exp))
			}
			remote := acc != nil && t != p
			if remote {
				add(fmt.Sprintf("start W {%d}", t))
			}
			add(acc...)
			if remote {
				add("complete W")
			}
			if len(exp) > 0 {
				add("wait W")
			}
		}
	}
	return code
}

// exposure lists the processes whose access k targets p's segment remotely.
func (b *famBuilder) exposure(p, k int) []int {
	var out []int
	for q, accs := range b.sh.Procs {
		if q != p && k < len(accs) && b.owner[accs[k].Loc] == p {
			out = append(out, q)
		}
	}
	return out
}

func group(ranks []int) string {
	s := make([]string, len(ranks))
	for i, r := range ranks {
		s[i] = fmt.Sprint(r)
	}
	return "{" + strings.Join(s, ",") + "}"
}

// messages is the middle of process p under sendrecv: a send to each process whose
// second access reads the location p's first access writes, then a receive from
// each process whose first access writes the location p's second access reads.
// Sends are buffered and come first, so no process waits for one that waits.
func (b *famBuilder) messages(p int) []string {
	var sends, recvs []string
	mine := b.sh.Procs[p]
	for q, accs := range b.sh.Procs {
		if q == p {
			continue
		}
		if mine[0].Write && len(accs) > 1 && !accs[1].Write && accs[1].Loc == mine[0].Loc {
			sends = append(sends, fmt.Sprintf("send %d", q))
		}
		if len(mine) > 1 && !mine[1].Write && accs[0].Write && accs[0].Loc == mine[1].Loc {
			recvs = append(recvs, fmt.Sprintf("recv %d", q))
		}
	}
	return append(sends, recvs...)
}

func (b *famBuilder) doc(flavor, locality string) string {
	var where []string
	for _, l := range b.locs {
		where = append(where, fmt.Sprintf("%s in P%d's segment", l, b.owner[l]))
	}
	acc := "plain loads and stores"
	if !b.shared {
		acc = "put/get to other segments, plain loads and stores to the own one"
	}
	var sy []string
	same := true
	for _, s := range b.syncs {
		same = same && s == b.syncs[0]
	}
	for p, s := range b.syncs {
		d := ""
		for _, x := range Syncs {
			if x.Name == s {
				d = x.Doc
			}
		}
		if same {
			sy = append(sy, d)
			break
		}
		sy = append(sy, fmt.Sprintf("P%d %s", p, d))
	}
	return fmt.Sprintf("%s %s; %s window, %s (%s, writes %s); sync: %s.", b.sh.Name, b.sh.Doc, flavor,
		strings.Join(where, ", "), acc, map[string]string{"local": "local", "remote": "remote"}[locality],
		strings.Join(sy, "; "))
}
