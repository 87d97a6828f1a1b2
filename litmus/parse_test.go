package litmus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rmacheck/rmacheck/spec"
)

// instrProg puts one instruction in P0's column of a 3-process test.
func instrProg(cell string) string {
	return "MPI i\n{\n  win W allocate size=2;\n  x = W@1[0];\n  0:r0 = 1; 0:r1 = 2;\n}\n" +
		" P0 | P1 | P2 ;\n " + cell + " | | ;\n" + "exists (x=0)\n"
}

func loc(alias string) *Loc { return &Loc{Alias: alias} }

func imm(v int64) Value  { return Value{Imm: v} }
func reg(r string) Value { return Value{Reg: r} }

var instrCases = []struct {
	cell string
	want Instr
}{
	{"store x 1", Instr{Op: OpStore, Loc: loc("x"), Args: []Value{imm(1)}}},
	{"store W@1[1] -3", Instr{Op: OpStore, Loc: &Loc{Win: "W", Rank: 1, Disp: 1}, Args: []Value{imm(-3)}}},
	{"r2 = load x", Instr{Op: OpLoad, Dst: "r2", Loc: loc("x")}},
	{"put x r0", Instr{Op: OpPut, Loc: loc("x"), Args: []Value{reg("r0")}}},
	{"r2 = get x", Instr{Op: OpGet, Dst: "r2", Loc: loc("x")}},
	{"acc x bxor 3", Instr{Op: OpAcc, Loc: loc("x"), AccOp: AccBxor, Args: []Value{imm(3)}}},
	{"r2 = gacc x no_op 0", Instr{Op: OpGacc, Dst: "r2", Loc: loc("x"), AccOp: AccNoOp, Args: []Value{imm(0)}}},
	{"r2 = fop x sum r1", Instr{Op: OpFop, Dst: "r2", Loc: loc("x"), AccOp: AccSum, Args: []Value{reg("r1")}}},
	{"r2 = cas x 0 r1", Instr{Op: OpCas, Dst: "r2", Loc: loc("x"), Args: []Value{imm(0), reg("r1")}}},
	{"rput x 1 @q", Instr{Op: OpRput, Loc: loc("x"), Args: []Value{imm(1)}, Req: "q"}},
	{"r2 = rget W@1[0] @q", Instr{Op: OpRget, Dst: "r2", Loc: &Loc{Win: "W", Rank: 1}, Req: "q"}},
	{"racc x max 4 @q", Instr{Op: OpRacc, Loc: loc("x"), AccOp: AccMax, Args: []Value{imm(4)}, Req: "q"}},
	{"r2 = rgacc x replace 4 @q", Instr{Op: OpRgacc, Dst: "r2", Loc: loc("x"), AccOp: AccReplace, Args: []Value{imm(4)}, Req: "q"}},
	{"fence W", Instr{Op: OpFence, Win: "W"}},
	{"fence W nostore noprecede", Instr{Op: OpFence, Win: "W", Asserts: []Assert{{Name: "nostore"}, {Name: "noprecede"}}}},
	{"post W {1,2} nocheck", Instr{Op: OpPost, Win: "W", Group: []int{1, 2}, Asserts: []Assert{{Name: "nocheck"}}}},
	{"start W {1}", Instr{Op: OpStart, Win: "W", Group: []int{1}}},
	{"complete W", Instr{Op: OpComplete, Win: "W"}},
	{"wait W", Instr{Op: OpWait, Win: "W"}},
	{"lock W 1 shared nocheck", Instr{Op: OpLock, Win: "W", Target: 1, LockType: LockShared, Asserts: []Assert{{Name: "nocheck"}}}},
	{"lock W 2 excl", Instr{Op: OpLock, Win: "W", Target: 2, LockType: LockExclusive}},
	{"unlock W 1", Instr{Op: OpUnlock, Win: "W", Target: 1}},
	{"lock_all W nocheck", Instr{Op: OpLockAll, Win: "W", Asserts: []Assert{{Name: "nocheck"}}}},
	{"unlock_all W", Instr{Op: OpUnlockAll, Win: "W"}},
	{"flush W 1", Instr{Op: OpFlush, Win: "W", Target: 1}},
	{"flush_all W", Instr{Op: OpFlushAll, Win: "W"}},
	{"flush_local W 2", Instr{Op: OpFlushLocal, Win: "W", Target: 2}},
	{"flush_local_all W", Instr{Op: OpFlushLocalAll, Win: "W"}},
	{"sync W", Instr{Op: OpSync, Win: "W"}},
	{"r2 = shared_query W 1", Instr{Op: OpSharedQuery, Dst: "r2", Win: "W", Target: 1}},
	{"barrier", Instr{Op: OpBarrier}},
	{"send 1", Instr{Op: OpSend, Target: 1}},
	{"send 2 r0", Instr{Op: OpSend, Target: 2, Args: []Value{reg("r0")}}},
	{"recv 1", Instr{Op: OpRecv, Target: 1}},
	{"r2 = recv 2", Instr{Op: OpRecv, Dst: "r2", Target: 2}},
	{"free W", Instr{Op: OpFree, Win: "W"}},
	{"r2 = 5", Instr{Op: OpMov, Dst: "r2", Args: []Value{imm(5)}}},
	{"r2 = -5", Instr{Op: OpMov, Dst: "r2", Args: []Value{imm(-5)}}},
	{"r2 = r0 + 1", Instr{Op: OpAdd, Dst: "r2", Args: []Value{reg("r0"), imm(1)}}},
	{"r2 = r0 - r1", Instr{Op: OpSub, Dst: "r2", Args: []Value{reg("r0"), reg("r1")}}},
	{"[r0 != 0] r2 = load x", Instr{Guard: &Guard{Reg: "r0", Val: imm(0)}, Op: OpLoad, Dst: "r2", Loc: loc("x")}},
	{"[r0 == r1] store x 1", Instr{Guard: &Guard{Reg: "r0", Eq: true, Val: reg("r1")}, Op: OpStore, Loc: loc("x"), Args: []Value{imm(1)}}},
}

func TestInstrForms(t *testing.T) {
	for _, c := range instrCases {
		t.Run(c.cell, func(t *testing.T) {
			src := instrProg(c.cell)
			if strings.Contains(c.cell, "@q") && c.want.Op != OpWaitReq {
				src = strings.Replace(src, " | | ;\n", " | | ;\n waitreq q | | ;\n", 1)
			}
			tst, err := Parse("i.lit", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			got := tst.Procs[0].Code[0]
			if d := cmp.Diff(&c.want, got, astOpts); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if s := InstrString(got); s != c.cell {
				t.Errorf("InstrString = %q, want %q", s, c.cell)
			}
			roundTrip(t, "i.lit", tst)
		})
	}
}

func TestWindowKeys(t *testing.T) {
	cases := []struct{ decl, canon string }{
		{"win W create size=4", ""},
		{"win W allocate size=[1,2]", ""},
		{"win W allocate_shared bytes=[3,16] alloc_shared_noncontig=true", ""},
		{"win W dynamic size=2 type=int32 disp_unit=4 model=separate ranks=0,1", ""},
		{"win W allocate size=1 no_locks=true accumulate_ordering=\"rar, raw\" accumulate_ops=same_op", `win W allocate size=1 no_locks=true accumulate_ordering="rar,raw" accumulate_ops=same_op`},
		{"win W allocate size=1 accumulate_ordering=none mpi_minimum_memory_alignment=64 same_size=false same_disp_unit=true", ""},
		{"win W allocate size=1 accumulate_ordering=waw", ""},
		{"win W allocate size=1 model=unified", ""},
		{"win W allocate type=double size=1", "win W allocate size=1 type=double"},
	}
	for _, c := range cases {
		t.Run(c.decl, func(t *testing.T) {
			src := "MPI w\n{\n  " + c.decl + ";\n}\n P0 | P1 ;\n barrier | barrier ;\nexists (true)\n"
			tst, err := Parse("w.lit", []byte(src))
			if err != nil {
				t.Fatalf("%v", err)
			}
			want := c.canon
			if want == "" {
				want = c.decl
			}
			if got := WindowString(tst.Windows[0]); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
			roundTrip(t, "w.lit", tst)
		})
	}
}

func TestSegmentSize(t *testing.T) {
	src := `MPI seg
{
  win S allocate_shared size=[2,3,0];
  win C create over=S;
  win B allocate bytes=[16,32,8] disp_unit=4;
  win G allocate size=5 ranks=0,2;
}
 P0 | P1 | P2 ;
exists (true)
`
	tst, err := Parse("seg.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	check := func(w string, rank, want int) {
		if got := tst.LookupWindow(w).SegmentSize(tst, rank); got != want {
			t.Errorf("%s rank %d: SegmentSize = %d, want %d", w, rank, got, want)
		}
	}
	check("S", 1, 3)
	check("C", 0, 2)
	check("C", 2, 0)
	check("B", 1, 8)
	check("G", 1, 0)
	check("G", 2, 5)
	if tst.LookupWindow("G").InGroup(1) || !tst.LookupWindow("G").InGroup(0) {
		t.Error("InGroup wrong")
	}
}

func TestResolve(t *testing.T) {
	src := "MPI r\n{\n  win W allocate_shared bytes=[16,16];\n  z = W@1[0] : longdouble;\n}\n P0 | P1 ;\n | r0 = load z ;\nexists (1:r0=0)\n"
	tst, err := Parse("r.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w, rank, disp, typ, ok := tst.ResolveLoc(Loc{Alias: "z"})
	if !ok || w.Name != "W" || rank != 1 || disp != 0 || typ != LongDouble {
		t.Errorf("ResolveLoc(z) = %v %d %d %v %v", w, rank, disp, typ, ok)
	}
	_, _, _, typ, ok = tst.ResolveLoc(Loc{Win: "W", Rank: 0, Disp: 8})
	if !ok || typ != Int64 {
		t.Errorf("ResolveLoc(W@0[8]) typ %v ok %v", typ, ok)
	}
	if _, _, _, _, ok := tst.ResolveLoc(Loc{Alias: "nope"}); ok {
		t.Error("unknown alias resolved")
	}
	ins := tst.Procs[1].Code[0]
	if d := cmp.Diff([]string{"r0"}, ins.WriteRegs()); d != "" {
		t.Error(d)
	}
	g := &Instr{Guard: &Guard{Reg: "r1", Val: reg("r2")}, Op: OpAdd, Args: []Value{reg("r3"), imm(1)}}
	if d := cmp.Diff([]string{"r1", "r2", "r3"}, g.ReadRegs()); d != "" {
		t.Error(d)
	}
}

func TestConditions(t *testing.T) {
	cases := []struct{ in, canon string }{
		{`0:r0=0 /\ 1:r0=0`, ""},
		{`x=1 \/ y=2 /\ 0:r0=1`, ""},
		{`(x=1 \/ y=2) /\ 0:r0=1`, ""},
		{`x=1 => y=2 => 0:r0=1`, ""},
		{`(x=1 => y=2) => 0:r0=1`, ""},
		{`~x=1 /\ ~(y=2 \/ x=0)`, ""},
		{`~~x=1`, ""},
		{`x=1 /\ (y=2 /\ x=3)`, ""},
		{`((x=1))`, `x=1`},
		{`true \/ false`, ""},
		{`W@1[1]=-4 /\ 1:r9=7`, ""},
		{`x=1 /\ y=2 \/ x=2 /\ y=1`, ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			src := "MPI c\n{\n  win W allocate size=2;\n  x = W@0[0]; y = W@1[0];\n}\n P0 | P1 ;\n barrier | barrier ;\nexists (" + c.in + ")\n"
			tst, err := Parse("c.lit", []byte(src))
			if err != nil {
				t.Fatalf("%v", err)
			}
			want := c.canon
			if want == "" {
				want = c.in
			}
			if got := CondString(tst.Cond); got != want {
				t.Errorf("CondString = %q, want %q", got, want)
			}
			roundTrip(t, "c.lit", tst)
		})
	}
	// precedence: ~ binds tightest, then /\, \/, => (right-associative)
	tst, _ := Parse("c.lit", []byte("MPI c\n{\n  win W allocate size=1;\n  x = W@0[0];\n}\n P0 ;\n barrier ;\nexists (~x=1 /\\ x=2 \\/ x=3 => x=4 => x=5)\n"))
	imp, ok := tst.Cond.(*Implies)
	if !ok {
		t.Fatalf("top is %T", tst.Cond)
	}
	if _, ok := imp.R.(*Implies); !ok {
		t.Errorf("=> is not right-associative")
	}
	or, ok := imp.L.(*Or)
	if !ok {
		t.Fatalf("left of => is %T", imp.L)
	}
	and, ok := or.L.(*And)
	if !ok {
		t.Fatalf("left of \\/ is %T", or.L)
	}
	if _, ok := and.L.(*Not); !ok {
		t.Errorf("~ does not bind tightest")
	}
}

func TestHeaderTailAndComments(t *testing.T) {
	src := `# a comment before the header
MPI X+y.z-1 (* block
comment *)
"the doc"
Source=mpi-issues #553
Cite=node337   
{ (* inside *)
  win W allocate size=1; # trailing
  x = W@1[0]; y = W@0[0] : int32;
  x = 3; W@0[0] = -2;
  1:r5 = 9;
}
 P0      | P1           ;
 fence W | fence W      ;
         | r0 = r5 + 1  ;
locations [x; 1:r0; W@0[0]];
filter (1:r0=10)
~exists (x=3)
expect mpi-3.0=Never A=Erroneous B=Erroneous(E-EPOCH)
expect hw=tso: mpi-4.1=Always
`
	tst, err := Parse("h.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tst.Name != "X+y.z-1" || tst.Doc != "the doc" || len(tst.Meta) != 2 ||
		tst.Meta[0].Value != "mpi-issues #553" || tst.Meta[1].Value != "node337" {
		t.Errorf("header: %q %q %+v", tst.Name, tst.Doc, tst.Meta)
	}
	if tst.Quant != NotExists || len(tst.Locations) != 3 || tst.Filter == nil || len(tst.Inits) != 3 {
		t.Errorf("tail: %v %d %v %d", tst.Quant, len(tst.Locations), tst.Filter, len(tst.Inits))
	}
	if tst.Aliases[1].Type != Int32 {
		t.Errorf("alias type %v", tst.Aliases[1].Type)
	}
	e := tst.Expects
	if len(e) != 2 || e[0].Items[1].Obs != ObsErroneous || e[0].Items[1].Rule != spec.NoRule ||
		e[0].Items[2].Rule != spec.EEpoch || e[1].HW != spec.TSO || !e[1].HWSet || e[0].HWSet || e[0].HW != spec.Relaxed || e[1].Items[0].Obs != ObsAlways {
		t.Errorf("expects: %+v", e)
	}
	want := `# a comment before the header
MPI X+y.z-1
(* block
comment *)
"the doc"
Source=mpi-issues #553
Cite=node337
{ (* inside *)
  win W allocate size=1; # trailing
  x = W@1[0];
  y = W@0[0] : int32;
  x = 3;
  W@0[0] = -2;
  1:r5 = 9;
}
 P0      | P1          ;
 fence W | fence W     ;
         | r0 = r5 + 1 ;
locations [x; 1:r0; W@0[0]];
filter (1:r0=10)
~exists (x=3)
expect mpi-3.0=Never A=Erroneous B=Erroneous(E-EPOCH)
expect hw=tso: mpi-4.1=Always
`
	if got := string(Format(tst)); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
	roundTrip(t, "h.lit", tst)
}

func TestErrorListAPI(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list is an error")
	}
	l.Add("f", Pos{2, 1}, "b")
	l.Add("f", Pos{1, 5}, "a")
	l.Sort()
	if l.Len() != 2 || l.Error() != "f:1:5: a\nf:2:1: b" {
		t.Errorf("got %q", l.Error())
	}
	many := "MPI m\n{\n" + strings.Repeat("  y = V@0[0];\n", 30) + "}\n P0 ;\nexists (true)\n"
	_, err := Parse("m.lit", []byte(many))
	el := err.(ErrorList)
	if len(el) != MaxErrors+1 || !strings.Contains(el[MaxErrors].Msg, "too many errors") {
		t.Errorf("cap: %d errors, last %v", len(el), el[len(el)-1])
	}
}
