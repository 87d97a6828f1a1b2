package gen

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// ScalingShapes are the shapes whose number of processes grows (issue 22, item 5:
// cost per thread beside herd7's): each has n processes, plain loads and stores in
// one lock_all epoch of an allocate_shared window, and the condition of its outcome
// x86-TSO forbids or allows as named.
var ScalingShapes = []struct{ Name, Doc string }{
	{"SB", "store-buffering ring: process i stores 1 to x_i, then loads x_(i+1 mod n); " +
		"condition: every load reads 0 (allowed by TSO)"},
	{"MPC", "message chain of n-1 hops: P0 stores x0 (the data) then x1; process i (0<i<n-1) " +
		"loads x_i then stores x_(i+1); the last loads x_(n-1) then the data x0; condition: every flag load " +
		"reads 1 and the data load 0 (forbidden by TSO)"},
	{"IRIW", "independent reads of independent writes with n-2 readers: P0 stores x, P1 stores y; readers " +
		"P2, P4, .. load x then y, P3, P5, .. load y then x; condition: every reader sees its first " +
		"location's write and not its second's (forbidden by TSO)"},
}

// MinScalingProcs is the fewest processes a scaling test may have (IRIW needs
// two readers that read in opposite orders); MaxScalingProcs the most (a .lit
// test's ranks, and herd7's x86 tests are read by one process each).
const (
	MinScalingProcs = 2
	MaxScalingProcs = 64
)

// ScalingName is the name of the scaling test of shape with n processes, e.g.
// SB-n04 (two digits, so that a directory lists them in order of n).
func ScalingName(shape string, n int) string { return fmt.Sprintf("%s-n%02d", shape, n) }

// Scaling builds the scaling test of shape (SB, MPC or IRIW, case-insensitive)
// with n processes. Location x_i (and IRIW's x, y) lives in the segment of the
// process that writes it, so stores are local and loads remote.
func Scaling(shape string, n int) (FamilyTest, error) {
	min := MinScalingProcs
	if strings.EqualFold(shape, "IRIW") {
		min = 4
	}
	if n < min || n > MaxScalingProcs {
		return FamilyTest{}, fmt.Errorf("gen: %s needs %d to %d processes, not %d", strings.ToUpper(shape), min, MaxScalingProcs, n)
	}
	var (
		procs = make([][]string, n)
		locs  []string // names; locs[k] lives in owner[k]'s segment
		owner []int
		cond  []string
		doc   string
	)
	switch strings.ToUpper(shape) {
	case "SB":
		shape = "SB"
		for i := 0; i < n; i++ {
			locs, owner = append(locs, fmt.Sprintf("x%d", i)), append(owner, i)
			procs[i] = []string{fmt.Sprintf("store x%d 1", i), fmt.Sprintf("r0 = load x%d", (i+1)%n)}
			cond = append(cond, fmt.Sprintf("%d:r0=0", i))
		}
	case "MPC":
		shape = "MPC"
		for i := 0; i < n; i++ {
			locs, owner = append(locs, fmt.Sprintf("x%d", i)), append(owner, i)
			switch {
			case i == 0:
				procs[i] = []string{"store x0 1", "store x1 1"}
			case i < n-1:
				procs[i] = []string{fmt.Sprintf("r0 = load x%d", i), fmt.Sprintf("store x%d 1", i+1)}
				cond = append(cond, fmt.Sprintf("%d:r0=1", i))
			default:
				procs[i] = []string{fmt.Sprintf("r0 = load x%d", i), "r1 = load x0"}
				cond = append(cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i, i))
			}
		}
	case "IRIW":
		shape = "IRIW"
		locs, owner = []string{"x", "y"}, []int{0, 1}
		procs[0], procs[1] = []string{"store x 1"}, []string{"store y 1"}
		for i := 2; i < n; i++ {
			a, b := "x", "y"
			if i%2 == 1 {
				a, b = b, a
			}
			procs[i] = []string{"r0 = load " + a, "r1 = load " + b}
			cond = append(cond, fmt.Sprintf("%d:r0=1 /\\ %d:r1=0", i, i))
		}
	default:
		return FamilyTest{}, fmt.Errorf("gen: unknown scaling shape %q (known: SB, MPC, IRIW)", shape)
	}
	for _, s := range ScalingShapes {
		if s.Name == shape {
			doc = s.Doc
		}
	}
	name := ScalingName(shape, n)
	var src strings.Builder
	fmt.Fprintf(&src, "MPI %s\n\"%s with %d processes, plain accesses in lock_all (rmacheck gen --scaling): %s.\"\n", name, shape, n, doc)
	fmt.Fprintf(&src, "Generator=rmacheck gen --scaling %s --procs %d\n", shape, n)
	src.WriteString("{\n  win W allocate_shared size=1;\n")
	for k, l := range locs {
		fmt.Fprintf(&src, "  %s = W@%d[0];\n", l, owner[k])
	}
	src.WriteString("}\n")
	code := make([][]string, n)
	for p := range procs {
		code[p] = append(append([]string{"lock_all W"}, procs[p]...), "unlock_all W")
	}
	writeTable(&src, code)
	fmt.Fprintf(&src, "exists (%s)\n", strings.Join(cond, " /\\ "))
	t, err := litmus.Parse(name+".lit", []byte(src.String()))
	if err != nil {
		return FamilyTest{}, fmt.Errorf("gen: scaling test %s does not parse: %v\n%s", name, err, src.String())
	}
	return FamilyTest{Name: name, Shape: shape, Flavor: "allocate_shared", Source: litmus.Format(t), Test: t}, nil
}

// ScalingFamily is the scaling tests of the shapes given (every one when empty),
// for n = lo..hi processes, shape by shape; IRIW starts at 4 processes.
func ScalingFamily(shapes []string, lo, hi int) ([]FamilyTest, error) {
	if len(shapes) == 0 {
		for _, s := range ScalingShapes {
			shapes = append(shapes, s.Name)
		}
	}
	if lo < MinScalingProcs || hi > MaxScalingProcs || lo > hi {
		return nil, fmt.Errorf("gen: processes %d-%d: want %d <= LO <= HI <= %d", lo, hi, MinScalingProcs, MaxScalingProcs)
	}
	var out []FamilyTest
	for _, sh := range shapes {
		for n := lo; n <= hi; n++ {
			if strings.EqualFold(sh, "IRIW") && n < 4 {
				continue
			}
			ft, err := Scaling(sh, n)
			if err != nil {
				return nil, err
			}
			out = append(out, ft)
		}
	}
	return out, nil
}
