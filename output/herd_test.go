package output

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
)

// TestHerdX86Golden: the x86 twin of the 3-process SB ring, as herd7 reads it.
func TestHerdX86Golden(t *testing.T) {
	ft, err := gen.Scaling("SB", 3)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := HerdX86(ft.Test)
	if err != nil {
		t.Fatal(err)
	}
	want := `X86 SB-n03
"x86 twin of SB-n03.lit (rmacheck gen --herd)"
{
  x0=0;
  x1=0;
  x2=0;
}
 P0           | P1           | P2           ;
 MOV [x0],$1  | MOV [x1],$1  | MOV [x2],$1  ;
 MOV EAX,[x1] | MOV EAX,[x2] | MOV EAX,[x0] ;
exists (0:EAX=0 /\ 1:EAX=0 /\ 2:EAX=0)
`
	if string(tw.Source) != want {
		t.Errorf("twin:\n%s\nwant:\n%s", tw.Source, want)
	}
}

var (
	x86Cell  = regexp.MustCompile(`^MOV (\[(\w+)\],(\$(-?\d+)|(\w+))|(\w+),\[(\w+)\])$`)
	x86Atom  = regexp.MustCompile(`(\d+):([A-Z]+)\b`)
	x86Quant = regexp.MustCompile(`^(~?exists|forall) \((.*)\)$`)
)

// fromTwin rebuilds the .lit test of a twin: the original's header and init block,
// then the twin's code read back (MOV to memory a store, MOV to a register a load,
// registers renamed back through tw.Regs, each process in one lock_all epoch of W)
// and the twin's condition with its registers renamed back. It fails on any line
// of the twin it cannot read.
func fromTwin(t *testing.T, orig []byte, tw HerdTwin) []byte {
	t.Helper()
	back := make([]map[string]string, len(tw.Regs))
	for p, m := range tw.Regs {
		back[p] = map[string]string{}
		for r, x := range m {
			back[p][x] = r
		}
	}
	src := string(orig)
	head := src[:strings.Index(src, "\n}\n")+3]
	lines := strings.Split(strings.TrimSuffix(string(tw.Source), "\n"), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], " P0 ") {
		i++
	}
	code := make([][]string, len(tw.Regs))
	for p := range code {
		code[p] = []string{"lock_all W"}
	}
	for i++; i < len(lines) && strings.HasSuffix(lines[i], ";"); i++ {
		cells := strings.Split(strings.TrimSuffix(lines[i], ";"), "|")
		if len(cells) != len(code) {
			t.Fatalf("row %q has %d cells, want %d", lines[i], len(cells), len(code))
		}
		for p, c := range cells {
			c = strings.TrimSpace(c)
			if c == "" {
				continue
			}
			m := x86Cell.FindStringSubmatch(c)
			switch {
			case m == nil:
				t.Fatalf("cell %q is not a MOV to or from memory", c)
			case m[6] != "":
				code[p] = append(code[p], fmt.Sprintf("%s = load %s", back[p][m[6]], m[7]))
			case m[4] != "":
				code[p] = append(code[p], fmt.Sprintf("store %s %s", m[2], m[4]))
			default:
				code[p] = append(code[p], fmt.Sprintf("store %s %s", m[2], back[p][m[5]]))
			}
		}
	}
	for p := range code {
		code[p] = append(code[p], "unlock_all W")
	}
	if i != len(lines)-1 {
		t.Fatalf("twin has lines after its table other than the condition:\n%s", tw.Source)
	}
	m := x86Quant.FindStringSubmatch(lines[i])
	if m == nil {
		t.Fatalf("condition line %q", lines[i])
	}
	cond := x86Atom.ReplaceAllStringFunc(m[2], func(s string) string {
		sm := x86Atom.FindStringSubmatch(s)
		var p int
		fmt.Sscan(sm[1], &p)
		return sm[1] + ":" + back[p][sm[2]]
	})
	var b strings.Builder
	b.WriteString(head)
	writeColumns(&b, code) // the same table syntax as a .lit file's
	fmt.Fprintf(&b, "%s (%s)\n", m[1], cond)
	return []byte(b.String())
}

// TestHerdX86RoundTrip: over the scaling shapes and 300 plain-family tests, the x86
// twin read back gives the test again (litmus.Format of the two is equal): the same
// accesses, values and registers in the same order, and the same condition; the twin
// declares every cell of the test with its initial value 0.
func TestHerdX86RoundTrip(t *testing.T) {
	scaling, err := gen.ScalingFamily(nil, 2, 7)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gen.PlainFamily(300, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, ft := range append(scaling, plain...) {
		tw, err := HerdX86(ft.Test)
		if err != nil {
			t.Fatalf("%s: %v", ft.Name, err)
		}
		back := fromTwin(t, ft.Source, tw)
		lt, err := litmus.Parse(ft.Name+".lit", back)
		if err != nil {
			t.Fatalf("%s: read back: %v\n%s", ft.Name, err, back)
		}
		if got := litmus.Format(lt); string(got) != string(ft.Source) {
			t.Fatalf("%s: twin read back differs:\n%s\nwant:\n%s\ntwin:\n%s", ft.Name, got, ft.Source, tw.Source)
		}
		for _, a := range ft.Test.Aliases {
			if !strings.Contains(string(tw.Source), "\n  "+a.Name+"=0;\n") {
				t.Errorf("%s: twin does not declare %s:\n%s", ft.Name, a.Name, tw.Source)
			}
		}
	}
}

// TestHerdX86Conditions: every condition form, initial values, the locations line,
// a filter, W@r[d] cells and a register store convert as herd7 writes them.
func TestHerdX86Conditions(t *testing.T) {
	for _, c := range []struct{ lit, want string }{
		{`exists (0:r0=1 \/ ~(x=2 /\ 1:r0=0))`, `exists (0:EAX=1 \/ ~(x=2 /\ 1:EBX=0))`},
		{`forall ((0:r0=1 => x=1) \/ true)`, `forall ((0:EAX=1 => x=1) \/ true)`},
		{`~exists (W@1[1]=3 /\ (0:r0=0 \/ 1:r2=5))`, `~exists (W_1_1=3 /\ (0:EAX=0 \/ 1:EBX=5))`},
		{`exists (false)`, `exists (false)`},
	} {
		src := `MPI T
{
  win W allocate_shared size=2;
  x = W@0[0];
  x = 4;
  1:r3 = 7;
}
 P0          | P1           ;
 lock_all W  |              ;
 r0 = load x | r3 = load x  ;
 store x r0  | store W@1[1] r3 ;
 unlock_all W |             ;
locations [x; 1:r3];
filter (x=4 \/ x=0)
` + c.lit + "\n"
		lt, err := litmus.Parse("t.lit", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tw, err := HerdX86(lt)
		if err != nil {
			t.Fatal(err)
		}
		got := string(tw.Source)
		for _, frag := range []string{
			"{\n  x=4;\n  W_1_1=0;\n  1:EAX=7;\n}\n",
			" MOV EAX,[x] | MOV EAX,[x]     ;\n MOV [x],EAX | MOV [W_1_1],EAX ;\n",
			"locations [x; 1:EAX;]\nfilter (x=4 \\/ x=0)\n" + c.want + "\n",
		} {
			if !strings.Contains(got, frag) {
				t.Errorf("%s: twin lacks %q:\n%s", c.lit, frag, got)
			}
		}
	}
}

// TestHerdX86Refuses: what has no x86 twin is refused at its FILE:LINE:COL.
func TestHerdX86Refuses(t *testing.T) {
	head := "MPI T\n{\n  win W allocate_shared size=8;\n  x = W@1[0];\n}\n P0 | P1 ;\n"
	for _, c := range []struct{ code, cond, want string }{
		{" fence W | fence W ;\n", "exists (x=0)", "t.lit:7:2: no x86 twin: fence"},
		{" lock_all W | ;\n put x 1 | ;\n unlock_all W | ;\n", "exists (x=0)", "t.lit:8:2: no x86 twin: put"},
		{" r0 = load x | ;\n [r0 == 1] store x 2 | ;\n", "exists (x=0)", "t.lit:8:2: no x86 twin: a guarded instruction"},
		{" r1 = 3 | ;\n", "exists (x=0)", "t.lit:7:2: no x86 twin: mov"},
		{" r0 = load x | ;\n r1 = load x | ;\n r2 = load x | ;\n r3 = load x | ;\n r4 = load x | ;\n r5 = load x | ;\n r6 = load x | ;\n",
			"exists (x=0)", "t.lit:13:2: no x86 twin: P0 uses more than 6 registers"},
	} {
		src := head + c.code + c.cond + "\n"
		lt, err := litmus.Parse("t.lit", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if _, err := HerdX86(lt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.code, err, c.want)
		}
	}
	typed := "MPI T\n{\n  win W allocate_shared size=1 type=double;\n  x = W@1[0];\n}\n P0 | P1 ;\n store x 1 | ;\nexists (x=0)\n"
	lt, err := litmus.Parse("t.lit", []byte(typed))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := HerdX86(lt); err == nil || !strings.Contains(err.Error(), "t.lit:3:3: no x86 twin: window W is not of int64 cells") {
		t.Errorf("double window: %v", err)
	}
}
