package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// ScalingShapes are the shapes whose number of processes grows (issue 22, item 5:
// cost per thread beside herd7's; issue 37: in each synchronization variant). SB,
// MPC and IRIW are plain loads and stores on an allocate_shared window, with the
// condition of the outcome x86-TSO forbids or allows as named; RING is RMA on an
// allocate window (the fence ring of issue 22 when synchronized with fences, the
// PSCW ring with PSCW).
var ScalingShapes = []struct{ Name, Doc string }{
	{"SB", "store-buffering ring: process i stores 1 to x_i, then loads x_(i+1 mod n); " +
		"condition: every load reads 0 (allowed by TSO)"},
	{"MPC", "message chain of n-1 hops: P0 stores x0 (the data) then x1; process i (0<i<n-1) " +
		"loads x_i then stores x_(i+1); the last loads x_(n-1) then the data x0; condition: every flag load " +
		"reads 1 and the data load 0 (forbidden by TSO)"},
	{"IRIW", "independent reads of independent writes with n-2 readers: P0 stores x, P1 stores y; readers " +
		"P2, P4, .. load x then y, P3, P5, .. load y then x; condition: every reader sees its first " +
		"location's write and not its second's (forbidden by TSO)"},
	{"RING", "RMA ring in three rounds: process i puts i+1 into the next one's cell 0 and gets the previous " +
		"one's cell 1; then stores 7 into its own cell 1; then loads its own cell 0; condition: every process " +
		"loads what the previous one put"},
}

// ScalingSyncs are the synchronization variants of the scaling tests: the ways MPI
// code brackets the same accesses. Each round of a shape's accesses is one epoch;
// rounds are separated as each variant says.
var ScalingSyncs = []struct{ Name, Doc string }{
	{"lock_all", "one lock_all epoch a round (rounds: unlock_all, barrier, lock_all)"},
	{"nocheck", "the same with lock_all W nocheck, as MPI programmers write it"},
	{"lock", "each access in a lock epoch of its target rank: shared for a load or get, exclusive for a store " +
		"or put (rounds: a barrier between)"},
	{"pscw", "post to the processes that access the caller's memory in the round, start to those whose " +
		"memory it accesses, the accesses, complete, wait"},
	{"fence", "a fence before each round and after the last"},
}

// MinScalingProcs is the fewest processes a scaling test may have (IRIW needs
// two readers that read in opposite orders); MaxScalingProcs the most (a .lit
// test's ranks, and herd7's x86 tests are read by one process each).
const (
	MinScalingProcs = 2
	MaxScalingProcs = 64
)

// ScalingName is the name of the scaling test of shape with n processes in its
// lock_all variant, e.g. SB-n04 (two digits, so that a directory lists them in
// order of n).
func ScalingName(shape string, n int) string { return fmt.Sprintf("%s-n%02d", shape, n) }

// ScalingVariantName is the name of the scaling test of shape in sync variant sync
// with n processes: ScalingName for lock_all, else SHAPE+SYNC-nNN (SB+pscw-n04).
func ScalingVariantName(shape, sync string, n int) string {
	if sync == "lock_all" {
		return ScalingName(shape, n)
	}
	return ScalingName(shape+"+"+sync, n)
}

// scalingAccess is one access of a scaling test: its text and the rank whose
// memory it touches (the target of its lock, a member of its PSCW group).
type scalingAccess struct {
	text   string
	target int
	writes bool
}

// scalingShape is a shape built for n processes: its rounds (per round, per
// process, the accesses), its window and locations, its condition.
type scalingShape struct {
	rounds [][][]scalingAccess
	window string
	locs   []string // "x0 = W@0[0]" lines
	cond   []string
}

// Scaling builds the scaling test of shape (case-insensitive) with n processes in
// its lock_all variant.
func Scaling(shape string, n int) (FamilyTest, error) { return ScalingVariant(shape, "lock_all", n) }

// ScalingVariant builds the scaling test of shape in sync variant sync with n
// processes. Location x_i (and IRIW's x, y) lives in the segment of the process
// that writes it, so stores are local and loads remote.
func ScalingVariant(shape, sync string, n int) (FamilyTest, error) {
	shape = strings.ToUpper(shape)
	min := MinScalingProcs
	if shape == "IRIW" {
		min = 4
	}
	if n < min || n > MaxScalingProcs {
		return FamilyTest{}, fmt.Errorf("gen: %s needs %d to %d processes, not %d", shape, min, MaxScalingProcs, n)
	}
	if !slices.ContainsFunc(ScalingSyncs, func(s struct{ Name, Doc string }) bool { return s.Name == sync }) {
		return FamilyTest{}, fmt.Errorf("gen: unknown scaling sync %q (known: %s)", sync, scalingSyncNames())
	}
	sh, doc, err := buildScalingShape(shape, n)
	if err != nil {
		return FamilyTest{}, err
	}
	name := ScalingVariantName(shape, sync, n)
	var src strings.Builder
	fmt.Fprintf(&src, "MPI %s\n\"%s with %d processes, synchronized by %s (rmacheck gen --scaling): %s.\"\n", name, shape, n, sync, doc)
	fmt.Fprintf(&src, "Generator=rmacheck gen --scaling %s --sync %s --procs %d\n", shape, sync, n)
	fmt.Fprintf(&src, "{\n  %s;\n", sh.window)
	for _, l := range sh.locs {
		fmt.Fprintf(&src, "  %s;\n", l)
	}
	src.WriteString("}\n")
	writeTable(&src, synchronize(sh.rounds, sync, n))
	fmt.Fprintf(&src, "exists (%s)\n", strings.Join(sh.cond, " /\\ "))
	t, err := litmus.Parse(name+".lit", []byte(src.String()))
	if err != nil {
		return FamilyTest{}, fmt.Errorf("gen: scaling test %s does not parse: %v\n%s", name, err, src.String())
	}
	flavor := "allocate_shared"
	if shape == "RING" {
		flavor = "allocate"
	}
	syncs := make([]string, n)
	for p := range syncs {
		syncs[p] = sync
	}
	return FamilyTest{Name: name, Shape: shape, Syncs: syncs, Flavor: flavor, Source: litmus.Format(t), Test: t}, nil
}

func scalingSyncNames() string {
	var names []string
	for _, s := range ScalingSyncs {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// buildScalingShape lays out the accesses of shape with n processes.
func buildScalingShape(shape string, n int) (scalingShape, string, error) {
	sh := scalingShape{window: "win W allocate_shared size=1"}
	procs := make([][]scalingAccess, n)
	loc := func(name string, owner int) { sh.locs = append(sh.locs, fmt.Sprintf("%s = W@%d[0]", name, owner)) }
	load := func(reg, x string, owner int) scalingAccess {
		return scalingAccess{text: fmt.Sprintf("%s = load %s", reg, x), target: owner}
	}
	store := func(x string, owner int) scalingAccess {
		return scalingAccess{text: fmt.Sprintf("store %s 1", x), target: owner, writes: true}
	}
	switch shape {
	case "SB":
		for i := 0; i < n; i++ {
			loc(fmt.Sprintf("x%d", i), i)
			next := (i + 1) % n
			procs[i] = []scalingAccess{store(fmt.Sprintf("x%d", i), i), load("r0", fmt.Sprintf("x%d", next), next)}
			sh.cond = append(sh.cond, fmt.Sprintf("%d:r0=0", i))
		}
	case "MPC":
		for i := 0; i < n; i++ {
			loc(fmt.Sprintf("x%d", i), i)
			switch {
			case i == 0:
				procs[i] = []scalingAccess{store("x0", 0), store("x1", 1)}
			case i < n-1:
				procs[i] = []scalingAccess{load("r0", fmt.Sprintf("x%d", i), i), store(fmt.Sprintf("x%d", i+1), i+1)}
				sh.cond = append(sh.cond, fmt.Sprintf("%d:r0=1", i))
			default:
				procs[i] = []scalingAccess{load("r0", fmt.Sprintf("x%d", i), i), load("r1", "x0", 0)}
				sh.cond = append(sh.cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i, i))
			}
		}
	case "IRIW":
		loc("x", 0)
		loc("y", 1)
		procs[0], procs[1] = []scalingAccess{store("x", 0)}, []scalingAccess{store("y", 1)}
		for i := 2; i < n; i++ {
			a, b, oa, ob := "x", "y", 0, 1
			if i%2 == 1 {
				a, b, oa, ob = b, a, ob, oa
			}
			procs[i] = []scalingAccess{load("r0", a, oa), load("r1", b, ob)}
			sh.cond = append(sh.cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i, i))
		}
	case "RING":
		sh.window = "win W allocate size=2"
		sh.rounds = make([][][]scalingAccess, 3)
		for r := range sh.rounds {
			sh.rounds[r] = make([][]scalingAccess, n)
		}
		for i := 0; i < n; i++ {
			next, prev := (i+1)%n, (i+n-1)%n
			sh.rounds[0][i] = []scalingAccess{
				{text: fmt.Sprintf("put W@%d[0] %d", next, i+1), target: next, writes: true},
				{text: fmt.Sprintf("r0 = get W@%d[1]", prev), target: prev},
			}
			sh.rounds[1][i] = []scalingAccess{{text: fmt.Sprintf("store W@%d[1] 7", i), target: i, writes: true}}
			sh.rounds[2][i] = []scalingAccess{{text: fmt.Sprintf("r1 = load W@%d[0]", i), target: i}}
			sh.cond = append(sh.cond, fmt.Sprintf("%d:r1=%d", i, prev+1))
		}
	default:
		return sh, "", fmt.Errorf("gen: unknown scaling shape %q (known: SB, MPC, IRIW, RING)", shape)
	}
	if sh.rounds == nil {
		sh.rounds = [][][]scalingAccess{procs}
	}
	for _, s := range ScalingShapes {
		if s.Name == shape {
			return sh, s.Doc, nil
		}
	}
	return sh, "", nil
}

// synchronize writes each process's code: its rounds of accesses bracketed as sync says.
func synchronize(rounds [][][]scalingAccess, sync string, n int) [][]string {
	code := make([][]string, n)
	for r, round := range rounds {
		last := r == len(rounds)-1
		for p := 0; p < n; p++ {
			acc := round[p]
			switch sync {
			case "lock_all", "nocheck":
				open := "lock_all W"
				if sync == "nocheck" {
					open += " nocheck"
				}
				code[p] = append(code[p], open)
				for _, a := range acc {
					code[p] = append(code[p], a.text)
				}
				code[p] = append(code[p], "unlock_all W")
				if !last {
					code[p] = append(code[p], "barrier")
				}
			case "lock":
				for _, a := range acc {
					kind := "shared"
					if a.writes {
						kind = "excl"
					}
					code[p] = append(code[p], fmt.Sprintf("lock W %d %s", a.target, kind), a.text, fmt.Sprintf("unlock W %d", a.target))
				}
				if !last {
					code[p] = append(code[p], "barrier")
				}
			case "pscw":
				code[p] = append(code[p], pscwRound(round, p)...)
			case "fence":
				if r == 0 {
					code[p] = append(code[p], "fence W")
				}
				for _, a := range acc {
					code[p] = append(code[p], a.text)
				}
				code[p] = append(code[p], "fence W")
			}
		}
	}
	return code
}

// pscwRound is process p's code of one round under PSCW: post to the processes
// that access its memory, start to those whose memory it accesses (its own
// memory needs neither), the accesses, complete, wait.
func pscwRound(round [][]scalingAccess, p int) []string {
	var exposeTo, accessTo []int
	for q, acc := range round {
		for _, a := range acc {
			if q == p && a.target != p && !slices.Contains(accessTo, a.target) {
				accessTo = append(accessTo, a.target)
			}
			if q != p && a.target == p && !slices.Contains(exposeTo, q) {
				exposeTo = append(exposeTo, q)
			}
		}
	}
	group := func(g []int) string {
		slices.Sort(g)
		var s []string
		for _, r := range g {
			s = append(s, fmt.Sprint(r))
		}
		return "{" + strings.Join(s, ",") + "}"
	}
	var code []string
	if len(exposeTo) > 0 {
		code = append(code, "post W "+group(exposeTo))
	}
	if len(accessTo) > 0 {
		code = append(code, "start W "+group(accessTo))
	}
	for _, a := range round[p] {
		code = append(code, a.text)
	}
	if len(accessTo) > 0 {
		code = append(code, "complete W")
	}
	if len(exposeTo) > 0 {
		code = append(code, "wait W")
	}
	return code
}

// ScalingFamily is the scaling tests of the shapes given (SB, MPC and IRIW when
// empty) in the sync variants given (lock_all when empty), for n = lo..hi
// processes, shape by shape, then variant by variant; IRIW starts at 4 processes.
func ScalingFamily(shapes []string, lo, hi int, syncs ...string) ([]FamilyTest, error) {
	if len(shapes) == 0 {
		shapes = []string{"SB", "MPC", "IRIW"}
	}
	if len(syncs) == 0 {
		syncs = []string{"lock_all"}
	}
	if lo < MinScalingProcs || hi > MaxScalingProcs || lo > hi {
		return nil, fmt.Errorf("gen: processes %d-%d: want %d <= LO <= HI <= %d", lo, hi, MinScalingProcs, MaxScalingProcs)
	}
	var out []FamilyTest
	for _, sh := range shapes {
		for _, sync := range syncs {
			for n := lo; n <= hi; n++ {
				if strings.EqualFold(sh, "IRIW") && n < 4 {
					continue
				}
				ft, err := ScalingVariant(sh, sync, n)
				if err != nil {
					return nil, err
				}
				out = append(out, ft)
			}
		}
	}
	return out, nil
}
