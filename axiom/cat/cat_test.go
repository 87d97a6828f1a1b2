package cat

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var testBases = map[string]BaseInfo{
	"po": {Type: TRel}, "rf": {Type: TRel, Dynamic: true}, "R": {Type: TSet}, "W": {Type: TSet},
}

func compileSrc(t *testing.T, src string) (*Compiled, error) {
	t.Helper()
	m, err := Parse("m.cat", []byte(src), nil)
	if err != nil {
		return nil, err
	}
	return Compile(m, testBases, func(n string) bool { return n == "sc" || n == "relaxed" })
}

// Every error names the file, line and column of what is wrong.
func TestErrorsHavePositions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"let x = po ;", "m.cat:1:13: expected a set or relation"},
		{"let x = (po", "m.cat:1:12: expected \")\" closing the parenthesis"},
		{"let = po", "m.cat:1:5: expected a name to bind"},
		{"\n  acyclic nope as c", "m.cat:2:11: unknown name \"nope\""},
		{"let x = R ; po", "m.cat:1:11: ';' sequences two relations: this is a set and a relation"},
		{"let x = po * R", "m.cat:1:12: '*' is the product of two sets"},
		{"let x = R | po", "m.cat:1:11: \"|\" needs two sets or two relations"},
		{"acyclic R", "m.cat:1:1: acyclic needs a relation"},
		{"flag empty po as X", "m.cat:1:6: expected \"~\""},
		{"let x = if \"tso\" then po else po", "m.cat:1:9: if \"tso\": not a hardware model"},
		{"let x = [po]", "m.cat:1:9: [S] takes a set"},
		{"let x = po^2", "m.cat:1:11: expected ^-1"},
		{"(* open", "m.cat:1:1: comment not closed"},
		{"let x = po $", "m.cat:1:12: unexpected character"},
		{"include \"x.cat\"", "m.cat:1:9: include \"x.cat\": this model cannot include files"},
	} {
		_, err := compileSrc(t, c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s...", c.src, err, c.want)
		}
	}
}

// rel builds a relation over n events from pairs.
func rel(n int, pairs ...[2]int) Rel {
	r := NewRel(n)
	for _, p := range pairs {
		r.Add(p[0], p[1])
	}
	return r
}

// The operators, on a chain 0 -> 1 -> 2 -> 3.
func TestOperators(t *testing.T) {
	src := `
let seq = po ; po
let plus = po+
let star = po*
let inv = po^-1
let opt = po?
let prod = R * W
let diff = plus \ po
let inter = plus & po^-1
let dom = domain(po)
let rng = range(po)
let comp = ~R
let id = [R]
let rec tc = po | (tc ; po)
let br = if "sc" then po else 0
acyclic po as ok
`
	c, err := compileSrc(t, src)
	if err != nil {
		t.Fatal(err)
	}
	f := c.NewFrame(4, func(n string) bool { return n == "sc" })
	f.SetBaseRel("po", rel(4, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}))
	f.SetBaseRel("rf", NewRel(4))
	r := NewSet(4)
	r.Add(0)
	w := NewSet(4)
	w.Add(3)
	f.SetBaseSet("R", r)
	f.SetBaseSet("W", w)
	if err := f.EvalStatic(); err != nil {
		t.Fatal(err)
	}
	pairs := func(name string) [][2]int {
		v, _ := f.Lookup(name)
		var out [][2]int
		v.Rel.Each(func(i, j int) { out = append(out, [2]int{i, j}) })
		return out
	}
	members := func(name string) []int {
		v, _ := f.Lookup(name)
		var out []int
		v.Set.Each(func(i int) { out = append(out, i) })
		return out
	}
	check := func(name string, got, want any) {
		t.Helper()
		if gs, ws := fmt.Sprint(got), fmt.Sprint(want); gs != ws {
			t.Errorf("%s = %s, want %s", name, gs, ws)
		}
	}
	check("seq", pairs("seq"), [][2]int{{0, 2}, {1, 3}})
	check("plus", pairs("plus"), [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}})
	check("star", len(pairs("star")), 10)
	check("inv", pairs("inv"), [][2]int{{1, 0}, {2, 1}, {3, 2}})
	check("opt", len(pairs("opt")), 7)
	check("prod", pairs("prod"), [][2]int{{0, 3}})
	check("diff", pairs("diff"), [][2]int{{0, 2}, {0, 3}, {1, 3}})
	check("inter", len(pairs("inter")), 0)
	check("dom", members("dom"), []int{0, 1, 2})
	check("rng", members("rng"), []int{1, 2, 3})
	check("comp", members("comp"), []int{1, 2, 3})
	check("id", pairs("id"), [][2]int{{0, 0}})
	check("tc", pairs("tc"), pairs("plus"))
	check("br", pairs("br"), pairs("po"))
	if bad, err := f.Violated(); err != nil || bad != nil {
		t.Errorf("acyclic chain: %v %v", bad, err)
	}
}

// Dynamic bindings are computed anew for each candidate, and a check names the
// cycle it finds.
func TestDynamicAndCycle(t *testing.T) {
	c, err := compileSrc(t, "let ob = po | rf\nacyclic ob as causality")
	if err != nil {
		t.Fatal(err)
	}
	f := c.NewFrame(2, nil)
	f.SetBaseRel("po", rel(2, [2]int{0, 1}))
	f.SetBaseSet("R", NewSet(2))
	f.SetBaseSet("W", NewSet(2))
	if err := f.EvalStatic(); err != nil {
		t.Fatal(err)
	}
	f.SetBaseRel("rf", NewRel(2))
	f.EvalDynamic()
	if bad, _ := f.Violated(); bad != nil {
		t.Fatalf("no rf: violated %v", bad.Check.Name)
	}
	f.SetBaseRel("rf", rel(2, [2]int{1, 0}))
	f.EvalDynamic()
	bad, _ := f.Violated()
	if bad == nil || bad.Check.Name != "causality" || len(bad.Events) != 2 {
		t.Fatalf("rf 1->0 with po 0->1: want the cycle, got %+v", bad)
	}
}

// Plus is the transitive closure: it contains r, is transitive, and is the least
// such (every pair is reachable along r).
func TestPlusIsTheClosure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 70).Draw(t, "n")
		r := NewRel(n)
		for k := rapid.IntRange(0, 3*n).Draw(t, "edges"); k > 0; k-- {
			r.Add(rapid.IntRange(0, n-1).Draw(t, "i"), rapid.IntRange(0, n-1).Draw(t, "j"))
		}
		p := Plus(r)
		// reachability by search
		for i := 0; i < n; i++ {
			seen := make([]bool, n)
			stack := []int{i}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				r.Row(x).Each(func(j int) {
					if !seen[j] {
						seen[j] = true
						stack = append(stack, j)
					}
				})
			}
			for j := 0; j < n; j++ {
				if seen[j] != p.Has(i, j) {
					t.Fatalf("Plus(%d,%d) = %v, reachable %v", i, j, p.Has(i, j), seen[j])
				}
			}
		}
		if (Cycle(r) == nil) != Acyclic(r) {
			t.Fatalf("Cycle and Acyclic disagree")
		}
		if order := TopoOrder(r); Acyclic(r) != (order != nil) {
			t.Fatalf("TopoOrder and Acyclic disagree")
		}
	})
}
