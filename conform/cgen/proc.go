package cgen

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

var plainReg = regexp.MustCompile(`^r[0-9]+$`)

// regName is the C variable of a register.
func regName(r string) string {
	if plainReg.MatchString(r) {
		return r
	}
	return "reg_" + cIdent(r)
}

// procGen writes one rank's column as a C function.
type procGen struct {
	g     *gen
	pi    int
	decls bytes.Buffer
	body  bytes.Buffer
	ind   string
	// after[k]: statements to run right after row k's instruction (conversions of typed
	// results once the call that completes them has returned); after[-1]: at the end.
	after map[int][]string
	reqs  map[string]bool
	// loopRow is the row of the open loop's repeat (0: none), loopMPI whether its
	// body calls MPI (a slower spin: a lower bound).
	loopRow int
	loopMPI bool
}

// Spin bounds of a loop (iterations) before the program prints SPIN-LIMIT and stops:
// the model's LIVELOCK on real hardware, or a library that never delivers the flag.
// A body with MPI calls spins about a microsecond an iteration, a plain one a few
// nanoseconds.
const (
	spinLimitPlain = 1 << 26
	spinLimitMPI   = 1 << 21
)

func (pg *procGen) printf(format string, args ...any) {
	fmt.Fprintf(&pg.body, pg.ind+format, args...)
}

func (pg *procGen) decl(format string, args ...any) {
	fmt.Fprintf(&pg.decls, "    "+format, args...)
}

func (g *gen) proc(pi int) {
	pg := &procGen{g: g, pi: pi, ind: "    ", after: map[int][]string{}, reqs: map[string]bool{}}
	t := g.t
	code := t.Procs[pi].Code
	inits := map[string]int64{}
	for _, in := range t.Inits {
		if in.Reg != nil && in.Reg.Proc == pi {
			inits[in.Reg.Reg] = in.Value
		}
	}
	for _, r := range g.p.Procs[pi].Regs {
		pg.decl("int64_t %s = %s;\n", regName(r), cInt(inits[r]))
	}
	for k, in := range code {
		if in == nil {
			continue
		}
		pg.instr(k, in)
		for _, s := range pg.after[k] {
			pg.printf("%s\n", s)
		}
	}
	for _, s := range pg.after[-1] {
		pg.printf("%s\n", s)
	}
	g.printf("/* P%d: the column of rank %d */\n", pi, pi)
	g.printf("static void proc_%d(int64_t *out) {\n", pi)
	g.out.Write(pg.decls.Bytes())
	g.out.Write(pg.body.Bytes())
	printed := uint32(0)
	for k, o := range g.p.Out {
		if o.Cell < 0 && o.Proc == pi {
			g.printf("    out[%d] = %s; /* %s */\n", k, g.sym(regName(g.p.Procs[pi].Regs[o.Reg])), o.Name)
			printed |= 1 << uint(o.Reg)
		}
	}
	// a register the program sets and nothing reads would fail -Werror
	// (unused-but-set-variable)
	for r, name := range g.p.Procs[pi].Regs {
		if (g.p.RegistersRead(pi)|printed)&(1<<uint(r)) == 0 {
			g.printf("    (void)%s;\n", regName(name))
		}
	}
	g.printf("    (void)out;\n}\n\n")
}

func (pg *procGen) value(v litmus.Value) string {
	if v.IsReg() {
		return regName(v.Reg)
	}
	return cInt(v.Imm)
}

// cInt is an int64 literal in C: -9223372036854775808 is not one (it is the negation of
// a constant too large for any signed type: -Werror refused it), so it is INT64_MIN,
// and values beyond int32 are INT64_C(...).
func cInt(v int64) string {
	switch {
	case v == math.MinInt64:
		return "INT64_MIN"
	case v < math.MinInt32 || v > math.MaxInt32:
		return fmt.Sprintf("INT64_C(%d)", v)
	}
	return fmt.Sprintf("%d", v)
}

func asserts(as []litmus.Assert) string {
	if len(as) == 0 {
		return "0"
	}
	var l []string
	for _, a := range as {
		l = append(l, "MPI_MODE_"+strings.ToUpper(a.Name))
	}
	return strings.Join(l, " | ")
}

type locInfo struct {
	wi   *winInfo
	rank int
	disp int
	typ  litmus.Type
	off  int // byte offset in the rank's segment
}

func (pg *procGen) loc(l litmus.Loc) locInfo {
	w, rank, disp, typ, _ := pg.g.t.ResolveLoc(l)
	wi := pg.g.wins[pg.g.winIndex(w.Name)]
	return locInfo{wi: wi, rank: rank, disp: disp, typ: typ, off: disp * wi.du}
}

// plainPtr is the address expression of a plain load/store, with a check when the
// segment is another rank's.
func (pg *procGen) plainPtr(li locInfo, row int) string {
	if li.rank == pg.pi {
		return fmt.Sprintf("(volatile %s *)(base_%s + %d)", cType(li.typ), li.wi.base.id, li.off)
	}
	pg.printf("if (!seg_%s[%d])\n%s    rmc_fail(\"load/store to rank %d's segment of window %s, which MPI_Win_shared_query did not give\", %d);\n",
		li.wi.id, li.rank, pg.ind, li.rank, li.wi.w.Name, row)
	return fmt.Sprintf("(volatile %s *)(seg_%s[%d] + %d)", cType(li.typ), li.wi.id, li.rank, li.off)
}

// completer is the first later row whose call completes the RMA call of row k at the
// origin (-1: none), as model's completer does.
func (pg *procGen) completer(k int) int {
	code := pg.g.t.Procs[pg.pi].Code
	rma := code[k]
	li := pg.loc(*rma.Loc)
	for j := k + 1; j < len(code); j++ {
		in := code[j]
		if in == nil {
			continue
		}
		if in.Op == litmus.OpWaitReq || in.Op == litmus.OpTestReq {
			if rma.Req != "" && in.Req == rma.Req {
				return j
			}
			continue
		}
		if in.Win != li.wi.w.Name {
			continue
		}
		switch in.Op {
		case litmus.OpFence, litmus.OpComplete, litmus.OpUnlockAll, litmus.OpFlushAll, litmus.OpFlushLocalAll:
			return j
		case litmus.OpUnlock, litmus.OpFlush, litmus.OpFlushLocal:
			if sameCallTarget(rma, in, li.rank) {
				return j
			}
		}
	}
	return -1
}

// origin is the address of an origin buffer holding v as type t: the register itself
// when it is an int64 register (the registers are the origin buffers), else a buffer
// of the row, assigned at the call.
func (pg *procGen) origin(row int, name string, t litmus.Type, v litmus.Value) string {
	if t == litmus.Int64 && v.IsReg() {
		return "&" + regName(v.Reg)
	}
	buf := fmt.Sprintf("%s_row%d", name, row)
	pg.decl("%s %s;\n", cType(t), buf)
	pg.printf("%s = %s;\n", buf, toC(t, pg.value(v)))
	return "&" + buf
}

// result is the address the call writes its result to: the register for int64 cells,
// else a buffer converted into the register once the completing call has returned.
func (pg *procGen) result(k, row int, in *litmus.Instr, t litmus.Type) string {
	dst := regName(in.FetchRegs()[0]) // Dst, or the one register of "(r0) = get W@1[0]"
	if t == litmus.Int64 {
		return "&" + dst
	}
	buf := fmt.Sprintf("res_row%d", row)
	pg.decl("%s %s;\n", cType(t), buf)
	c := pg.completer(k)
	conv := fmt.Sprintf("%s = %s; /* row %d's result, complete now */", dst, fromC(t, buf), row)
	if c >= 0 && pg.g.t.Procs[pg.pi].Code[c].Guard == nil {
		pg.after[c] = append(pg.after[c], conv)
	} else {
		pg.after[-1] = append(pg.after[-1], conv)
	}
	return "&" + buf
}

func (pg *procGen) req(name string) string {
	v := "req_" + cIdent(name)
	if !pg.reqs[name] {
		pg.reqs[name] = true
		pg.decl("MPI_Request %s = MPI_REQUEST_NULL;\n", v)
	}
	return "&" + v
}

func (pg *procGen) instr(k int, in *litmus.Instr) {
	g := pg.g
	row := k + 1
	pg.printf("/* row %d: %s */\n", row, comment(litmus.InstrString(in)))
	if gd := in.Guard; gd != nil {
		op := "!="
		if gd.Eq {
			op = "=="
		}
		pg.printf("if (%s %s %s) {\n", regName(gd.Reg), op, pg.value(gd.Val))
		pg.ind += "    "
		defer func() {
			pg.ind = pg.ind[:len(pg.ind)-4]
			pg.printf("}\n")
		}()
	}
	var wi *winInfo
	if in.Win != "" {
		wi = g.wins[g.winIndex(in.Win)]
	}
	chk := func(format string, args ...any) {
		pg.printf("CHECK(%d, %s);\n", row, fmt.Sprintf(format, args...))
	}
	switch op := in.Op; {
	case op == litmus.OpStore:
		li := pg.loc(*in.Loc)
		if a, ok := pg.addressPtr(*in.Loc, li, row); ok { // dynamic.go
			pg.printf("{ char *p = %s; if (p) *(volatile %s *)p = %s; }\n", a, cType(li.typ), toC(li.typ, pg.value(in.Args[0])))
			break
		}
		ptr := pg.plainPtr(li, row)
		pg.printf("*%s = %s;\n", ptr, toC(li.typ, pg.value(in.Args[0])))
	case op == litmus.OpLoad:
		li := pg.loc(*in.Loc)
		if a, ok := pg.addressPtr(*in.Loc, li, row); ok {
			pg.printf("{ char *p = %s; if (p) %s = %s; }\n", a, regName(in.Dst), fromC(li.typ, fmt.Sprintf("*(volatile %s *)p", cType(li.typ))))
			break
		}
		ptr := pg.plainPtr(li, row)
		pg.printf("%s = %s;\n", regName(in.Dst), fromC(li.typ, "*"+ptr))
	case op.IsRMA():
		pg.rma(k, in)
	case op == litmus.OpWaitReq:
		chk("MPI_Wait(%s, MPI_STATUS_IGNORE)", pg.req(in.Req))
	case op == litmus.OpTestReq, op == litmus.OpTest:
		pg.completionTest(row, in, wi)
	case op == litmus.OpAttach:
		pg.attach(row, in, wi)
	case op == litmus.OpDetach:
		pg.detach(row, in, wi)
	case op == litmus.OpFence:
		chk("MPI_Win_fence(%s, win_%s)", asserts(in.Asserts), wi.id)
	case op == litmus.OpPost:
		chk("MPI_Win_post(%s, %s, win_%s)", groupName(pg.pi, row), asserts(in.Asserts), wi.id)
	case op == litmus.OpStart:
		chk("MPI_Win_start(%s, %s, win_%s)", groupName(pg.pi, row), asserts(in.Asserts), wi.id)
	case op == litmus.OpComplete:
		chk("MPI_Win_complete(win_%s)", wi.id)
	case op == litmus.OpWait:
		chk("MPI_Win_wait(win_%s)", wi.id)
	case op == litmus.OpLock:
		lt := "MPI_LOCK_EXCLUSIVE"
		if in.LockType == litmus.LockShared {
			lt = "MPI_LOCK_SHARED"
		}
		chk("MPI_Win_lock(%s, %s, %s, win_%s)", lt, pg.callTarget(wi, in), asserts(in.Asserts), wi.id)
	case op == litmus.OpUnlock:
		chk("MPI_Win_unlock(%s, win_%s)", pg.callTarget(wi, in), wi.id)
	case op == litmus.OpLockAll:
		chk("MPI_Win_lock_all(%s, win_%s)", asserts(in.Asserts), wi.id)
	case op == litmus.OpUnlockAll:
		chk("MPI_Win_unlock_all(win_%s)", wi.id)
	case op == litmus.OpFlush:
		chk("MPI_Win_flush(%s, win_%s)", pg.callTarget(wi, in), wi.id)
	case op == litmus.OpFlushAll:
		chk("MPI_Win_flush_all(win_%s)", wi.id)
	case op == litmus.OpFlushLocal:
		chk("MPI_Win_flush_local(%s, win_%s)", pg.callTarget(wi, in), wi.id)
	case op == litmus.OpFlushLocalAll:
		chk("MPI_Win_flush_local_all(win_%s)", wi.id)
	case op == litmus.OpSync:
		chk("MPI_Win_sync(win_%s)", wi.id)
	case op == litmus.OpSharedQuery:
		pg.printf("{   /* the size of rank %s's segment in displacement units; 0 when the library gives none */\n", litmus.TargetString(in))
		pg.printf("    MPI_Aint size = 0; int du = 0; char *ptr = NULL;\n")
		pg.printf("    if (MPI_Win_shared_query(win_%s, %s, &size, &du, &ptr) == MPI_SUCCESS && size > 0 && ptr != NULL) {\n", wi.id, pg.callTarget(wi, in))
		pg.printf("        seg_%s[%s] = ptr;\n", wi.id, pg.segIndex(wi, in))
		pg.printf("        %s = size / (du > 0 ? du : 1);\n", regName(in.Dst))
		pg.printf("    } else\n        %s = 0;\n}\n", regName(in.Dst))
	case op == litmus.OpBarrier:
		chk("MPI_Barrier(tcomm)")
	case op == litmus.OpSend:
		if len(in.Args) > 0 {
			pg.decl("int64_t msg_row%d;\n", row)
			pg.printf("msg_row%d = %s;\n", row, pg.value(in.Args[0]))
			chk("MPI_Send(&msg_row%d, 1, MPI_INT64_T, %d, 0, tcomm)", row, in.Target)
		} else {
			chk("MPI_Send(NULL, 0, MPI_INT64_T, %d, 0, tcomm)", in.Target)
		}
	case op == litmus.OpRecv:
		pg.decl("int64_t msg_row%d;\n", row)
		pg.printf("msg_row%d = 0;\n", row)
		chk("MPI_Recv(&msg_row%d, 1, MPI_INT64_T, %d, 0, tcomm, MPI_STATUS_IGNORE)", row, in.Target)
		if in.Dst != "" {
			pg.printf("%s = msg_row%d;\n", regName(in.Dst), row)
		}
	case op == litmus.OpFree:
		if wi.w.Flavor == litmus.FlavorDynamic {
			pg.printf("if (bytes_%s[me] > 0)\n%s    CHECK(%d, MPI_Win_detach(win_%s, base_%s));\n", wi.id, pg.ind, row, wi.id, wi.id)
		}
		pg.detachRegions(wi)
		chk("MPI_Win_free(&win_%s)", wi.id)
		pg.printf("freed_%s = 1;\n", wi.id)
	case op == litmus.OpMov:
		pg.printf("%s = %s;\n", regName(in.Dst), pg.value(in.Args[0]))
	case op == litmus.OpAdd:
		// The model's registers wrap; signed overflow in C is undefined (and gcc
		// optimizes a loop counting a register up on that assumption).
		pg.printf("%s = rmc_add(%s, %s);\n", regName(in.Dst), pg.value(in.Args[0]), pg.value(in.Args[1]))
	case op == litmus.OpSub:
		pg.printf("%s = rmc_sub(%s, %s);\n", regName(in.Dst), pg.value(in.Args[0]), pg.value(in.Args[1]))
	case op == litmus.OpRepeat:
		pg.loopRow, pg.loopMPI = row, pg.bodyCallsMPI(k)
		pg.decl("unsigned long spins_row%d;\n", row)
		pg.printf("spins_row%d = 0;\n", row)
		pg.printf("do {\n")
		pg.ind += "    "
	case op == litmus.OpUntil:
		pg.spinCheck()
		pg.ind = pg.ind[:len(pg.ind)-4]
		pg.printf("} while (!(%s));\n", pg.loopCond(in.Until))
		pg.loopRow = 0
	case op == litmus.OpAwait:
		li := pg.loc(*in.Loc)
		load := ""
		if a, ok := pg.addressPtr(*in.Loc, li, row); ok {
			load = fmt.Sprintf("{ char *p = %s; if (p) %s = %s; }\n", a, regName(in.Dst), fromC(li.typ, fmt.Sprintf("*(volatile %s *)p", cType(li.typ))))
		} else {
			load = fmt.Sprintf("%s = %s;\n", regName(in.Dst), fromC(li.typ, "*"+pg.plainPtr(li, row)))
		}
		pg.loopRow, pg.loopMPI = row, false
		pg.decl("unsigned long spins_row%d;\n", row)
		pg.printf("spins_row%d = 0;\n", row)
		pg.printf("do {\n")
		pg.ind += "    "
		pg.printf("%s", load)
		pg.spinCheck()
		pg.ind = pg.ind[:len(pg.ind)-4]
		pg.printf("} while (!(%s));\n", pg.loopCond(in.Until))
		pg.loopRow = 0
	default:
		g.fail(in.Pos, "instruction %s has no C translation", litmus.InstrString(in))
	}
}

// bodyCallsMPI reports whether the loop that starts at row k+1 calls MPI in its body.
func (pg *procGen) bodyCallsMPI(k int) bool {
	for _, in := range pg.g.t.Procs[pg.pi].Code[k+1:] {
		switch {
		case in == nil:
		case in.Op == litmus.OpUntil:
			return false
		case in.Op.IsMPI():
			return true
		}
	}
	return false
}

// spinCheck counts an iteration of the open loop and stops the program when it passes
// the spin bound: it prints SPIN-LIMIT (conform reports it as a finding: the loop did
// not exit on this library) and aborts, so that no run hangs. The count is unsigned:
// MPI_Abort is not noreturn, so gcc saw a signed count overflow in a loop counting a
// register up to its wrap-around and refused it under -Werror (issue 38 row 13).
func (pg *procGen) spinCheck() {
	limit := spinLimitPlain
	if pg.loopMPI {
		limit = spinLimitMPI
	}
	pg.printf("if (++spins_row%d == %d) {\n", pg.loopRow, limit)
	pg.printf("    printf(\"SPIN-LIMIT P%d row %d: the loop did not exit after %%lu iterations\\n\", spins_row%d);\n", pg.pi, pg.loopRow, pg.loopRow)
	pg.printf("    fflush(stdout);\n")
	pg.printf("    MPI_Abort(MPI_COMM_WORLD, 3);\n")
	pg.printf("}\n")
}

// loopCond is an until condition in C.
func (pg *procGen) loopCond(c *litmus.LoopCond) string {
	var terms []string
	for _, term := range c.Terms {
		var atoms []string
		for _, g := range term {
			op := "!="
			if g.Eq {
				op = "=="
			}
			atoms = append(atoms, fmt.Sprintf("%s %s %s", regName(g.Reg), op, pg.value(g.Val)))
		}
		terms = append(terms, "("+strings.Join(atoms, " && ")+")")
	}
	return strings.Join(terms, " || ")
}

func (pg *procGen) rma(k int, in *litmus.Instr) {
	if pg.rangeRMA(k, in) {
		return
	}
	row := k + 1
	li := pg.loc(*in.Loc)
	wi := li.wi
	dt, n := mpiType(li.typ)
	target := fmt.Sprint(wi.trank(li.rank))
	tdisp := fmt.Sprint(li.disp)
	if wi.w.Flavor == litmus.FlavorDynamic {
		tdisp = fmt.Sprintf("MPI_Aint_add(addr_%s[%d], %d)", wi.id, li.rank, li.off)
	}
	if t, d, ok := pg.computedTarget(*in.Loc, li); ok { // target.go
		target, tdisp = t, d
	}
	win := "win_" + wi.id
	op := accOps[in.AccOp]
	tgt := fmt.Sprintf("%s, %s, %d, %s", target, tdisp, n, dt) // target rank, disp, count, type
	chk := func(format string, args ...any) {
		pg.printf("CHECK(%d, %s);\n", row, fmt.Sprintf(format, args...))
	}
	switch in.Op {
	case litmus.OpPut:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Put(%s, %d, %s, %s, %s)", src, n, dt, tgt, win)
	case litmus.OpRput:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Rput(%s, %d, %s, %s, %s, %s)", src, n, dt, tgt, win, pg.req(in.Req))
	case litmus.OpGet:
		chk("MPI_Get(%s, %d, %s, %s, %s)", pg.result(k, row, in, li.typ), n, dt, tgt, win)
	case litmus.OpRget:
		chk("MPI_Rget(%s, %d, %s, %s, %s, %s)", pg.result(k, row, in, li.typ), n, dt, tgt, win, pg.req(in.Req))
	case litmus.OpAcc:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Accumulate(%s, %d, %s, %s, %s, %s)", src, n, dt, tgt, op, win)
	case litmus.OpRacc:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Raccumulate(%s, %d, %s, %s, %s, %s, %s)", src, n, dt, tgt, op, win, pg.req(in.Req))
	case litmus.OpGacc:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Get_accumulate(%s, %d, %s, %s, %d, %s, %s, %s, %s)", src, n, dt, pg.result(k, row, in, li.typ), n, dt, tgt, op, win)
	case litmus.OpRgacc:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Rget_accumulate(%s, %d, %s, %s, %d, %s, %s, %s, %s, %s)", src, n, dt, pg.result(k, row, in, li.typ), n, dt, tgt, op, win, pg.req(in.Req))
	case litmus.OpFop:
		src := pg.origin(row, "src", li.typ, in.Args[0])
		chk("MPI_Fetch_and_op(%s, %s, %s, %s, %s, %s, %s)", src, pg.result(k, row, in, li.typ), dt, target, tdisp, op, win)
	case litmus.OpCas:
		cmp := pg.origin(row, "cmp", li.typ, in.Args[0])
		nw := pg.origin(row, "new", li.typ, in.Args[1])
		chk("MPI_Compare_and_swap(%s, %s, %s, %s, %s, %s, %s)", nw, cmp, pg.result(k, row, in, li.typ), dt, target, tdisp, win)
	}
}
