package gen

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// PlainShapes are the shapes PlainFamily varies: the classic ones of diy7, with
// plain accesses only.
var PlainShapes = []string{"SB", "MP", "LB", "2+2W", "R", "S", "WRC", "IRIW"}

// PlainFamily is a family of n tests like the x86 shapes diy7 generates, converted
// to MPI as the issue on performance describes them: every process in a lock_all
// epoch of one allocate_shared window, with plain loads and stores only. Each test
// is a shape of PlainShapes, varied: an observer process may be added (up to 4
// processes), each process may get up to two more accesses (a load, or a store of
// a fresh value, to x, y or z) anywhere in its code, and the locations live in
// random segments. The shape's condition is kept. The same seed gives the same
// family.
func PlainFamily(n int, seed int64) ([]FamilyTest, error) {
	rng := rand.New(rand.NewSource(seed))
	var out []FamilyTest
	for i := 0; i < n; i++ {
		sh, _ := ShapeByName(PlainShapes[rng.Intn(len(PlainShapes))])
		ft, err := plainVariant(sh, i, rng)
		if err != nil {
			return nil, err
		}
		out = append(out, ft)
	}
	return out, nil
}

// plainVariant draws one variant of shape sh.
func plainVariant(sh Shape, i int, rng *rand.Rand) (FamilyTest, error) {
	procs := make([][]string, len(sh.Procs))
	for p, accs := range sh.Procs {
		reg := 0
		for _, a := range accs {
			if a.Write {
				procs[p] = append(procs[p], fmt.Sprintf("store %s %d", a.Loc, a.Value))
			} else {
				procs[p] = append(procs[p], fmt.Sprintf("r%d = load %s", reg, a.Loc))
				reg++
			}
		}
	}
	locs := []string{"x", "y", "z"}
	if len(procs) < 4 && rng.Intn(3) == 0 { // an observer
		a, b := locs[rng.Intn(3)], locs[rng.Intn(3)]
		procs = append(procs, []string{"r0 = load " + a, "r1 = load " + b})
	}
	value := 10
	for p := range procs {
		extra := rng.Intn(3)
		for k := 0; k < extra; k++ {
			var in string
			loc := locs[rng.Intn(3)]
			if rng.Intn(2) == 0 {
				in = fmt.Sprintf("r%d = load %s", 5+k, loc)
			} else {
				value++
				in = fmt.Sprintf("store %s %d", loc, value)
			}
			at := rng.Intn(len(procs[p]) + 1)
			procs[p] = append(procs[p][:at], append([]string{in}, procs[p][at:]...)...)
		}
	}
	n := len(procs)
	name := fmt.Sprintf("%s+plain%04d", sh.Name, i)
	var src strings.Builder
	fmt.Fprintf(&src, "MPI %s\n\"%s with plain accesses in lock_all, varied (rmacheck's plain family, test %d).\"\n", name, sh.Name, i)
	fmt.Fprintf(&src, "{\n  win W allocate_shared size=3;\n")
	for k, l := range locs {
		fmt.Fprintf(&src, "  %s = W@%d[%d];\n", l, rng.Intn(n), k)
	}
	src.WriteString("}\n")
	code := make([][]string, n)
	for p := range procs {
		code[p] = append(append([]string{"lock_all W"}, procs[p]...), "unlock_all W")
	}
	writeTable(&src, code)
	fmt.Fprintf(&src, "exists (%s)\n", sh.Cond)
	t, err := litmus.Parse(name+".lit", []byte(src.String()))
	if err != nil {
		return FamilyTest{}, fmt.Errorf("gen: plain family test %s does not parse: %v\n%s", name, err, src.String())
	}
	return FamilyTest{Name: name, Shape: sh.Name, Flavor: "allocate_shared", Source: litmus.Format(t), Test: t}, nil
}
