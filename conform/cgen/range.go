package cgen

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// Multi-element calls (docs/language.md#ranges-and-tuples):
// the origin buffer is a contiguous array of the elements, the target a derived
// datatype built for the call — MPI_Type_contiguous for lo..hi, MPI_Type_vector for
// lo..hi by k, MPI_Type_create_indexed_block for {d0,d1,..} — committed before and
// freed after it (MPI-4.1 §5.1.9: freeing a datatype does not affect an operation
// that uses it), so the libraries' datatype paths carry the test.

// rangeRMA writes a call whose location names a range; it reports false for a
// one-element location.
func (pg *procGen) rangeRMA(k int, in *litmus.Instr) bool {
	r := pg.g.t.RangeOf(*in.Loc)
	if r == nil {
		return false
	}
	row := k + 1
	li := pg.loc(*in.Loc)
	wi := li.wi
	base, cnt := mpiType(li.typ)
	if cnt != 1 {
		pg.g.fail(in.Loc.Pos, "a range of %s elements (a vector type) has no one-element MPI datatype", li.typ)
		return true
	}
	offs := r.Offsets()
	n := len(offs)
	target := wi.trank(li.rank)
	win := "win_" + wi.id
	// The target datatype and the displacement of its first byte.
	first := li.disp
	tdt := base
	tcount := n
	if n > 0 {
		tdt, tcount = fmt.Sprintf("tdt_row%d", row), 1
		pg.decl("MPI_Datatype %s;\n", tdt)
		switch r.Kind() {
		case "contiguous":
			first += r.Lo
			pg.printf("CHECK(%d, MPI_Type_contiguous(%d, %s, &%s));\n", row, n, base, tdt)
		case "vector":
			first += r.Lo
			pg.printf("CHECK(%d, MPI_Type_vector(%d, 1, %d, %s, &%s));\n", row, n, r.Step, base, tdt)
		default:
			displs := fmt.Sprintf("displs_row%d", row)
			ds := make([]string, n)
			for i, d := range offs {
				ds[i] = fmt.Sprint(d)
			}
			pg.decl("int %s[%d] = {%s};\n", displs, n, strings.Join(ds, ", "))
			pg.printf("CHECK(%d, MPI_Type_create_indexed_block(%d, 1, %s, %s, &%s));\n", row, n, displs, base, tdt)
		}
		pg.printf("CHECK(%d, MPI_Type_commit(&%s));\n", row, tdt)
	}
	tdisp := fmt.Sprint(first)
	if wi.w.Flavor == litmus.FlavorDynamic {
		tdisp = fmt.Sprintf("MPI_Aint_add(addr_%s[%d], %d)", wi.id, li.rank, first*wi.du)
	}
	tgtRank := fmt.Sprint(target)
	if l := *in.Loc; l.Computed() || l.Null {
		// a computed base (W@1[r5+0..3], W@r1[0..3]) or MPI_PROC_NULL: the
		// displacement of the first byte is the base's plus the datatype's start
		// (target.go), as the model resolves it at issue
		l.Disp, l.Range = first, nil
		if t, d, ok := pg.computedTarget(l, li); ok {
			tgtRank, tdisp = t, d
		}
	}
	tgt := fmt.Sprintf("%s, %s, %d, %s", tgtRank, tdisp, tcount, tdt)
	size := max(n, 1) // C has no arrays of 0 elements
	src := func() string {
		buf := fmt.Sprintf("src_row%d", row)
		pg.decl("%s %s[%d];\n", cType(li.typ), buf, size)
		for e := 0; e < n; e++ {
			v := in.Args[0]
			if in.ArgTuple {
				v = in.Args[e]
			}
			pg.printf("%s[%d] = %s;\n", buf, e, toC(li.typ, pg.value(v)))
		}
		return buf
	}
	res := func() string {
		buf := fmt.Sprintf("res_row%d", row)
		pg.decl("%s %s[%d];\n", cType(li.typ), buf, size)
		var conv []string
		for e, d := range in.FetchRegs() {
			// the registers' values first: a call that moves nothing (to
			// MPI_PROC_NULL) leaves them as they were, as in the model
			pg.printf("%s[%d] = %s;\n", buf, e, toC(li.typ, regName(d)))
			conv = append(conv, fmt.Sprintf("%s = %s; (void)%s;", regName(d), fromC(li.typ, fmt.Sprintf("%s[%d]", buf, e)), regName(d)))
		}
		if len(conv) > 0 {
			line := strings.Join(conv, " ") + fmt.Sprintf(" /* row %d's results, complete now */", row)
			if c := pg.completer(k); c >= 0 && pg.g.t.Procs[pg.pi].Code[c].Guard == nil {
				pg.after[c] = append(pg.after[c], line)
			} else {
				pg.after[-1] = append(pg.after[-1], line)
			}
		}
		return buf
	}
	op := accOps[in.AccOp]
	chk := func(format string, args ...any) {
		pg.printf("CHECK(%d, %s);\n", row, fmt.Sprintf(format, args...))
	}
	switch in.Op {
	case litmus.OpPut:
		chk("MPI_Put(%s, %d, %s, %s, %s)", src(), n, base, tgt, win)
	case litmus.OpRput:
		chk("MPI_Rput(%s, %d, %s, %s, %s, %s)", src(), n, base, tgt, win, pg.req(in.Req))
	case litmus.OpGet:
		chk("MPI_Get(%s, %d, %s, %s, %s)", res(), n, base, tgt, win)
	case litmus.OpRget:
		chk("MPI_Rget(%s, %d, %s, %s, %s, %s)", res(), n, base, tgt, win, pg.req(in.Req))
	case litmus.OpAcc:
		chk("MPI_Accumulate(%s, %d, %s, %s, %s, %s)", src(), n, base, tgt, op, win)
	case litmus.OpRacc:
		chk("MPI_Raccumulate(%s, %d, %s, %s, %s, %s, %s)", src(), n, base, tgt, op, win, pg.req(in.Req))
	case litmus.OpGacc:
		s := src()
		chk("MPI_Get_accumulate(%s, %d, %s, %s, %d, %s, %s, %s, %s)", s, n, base, res(), n, base, tgt, op, win)
	case litmus.OpRgacc:
		s := src()
		chk("MPI_Rget_accumulate(%s, %d, %s, %s, %d, %s, %s, %s, %s, %s)", s, n, base, res(), n, base, tgt, op, win, pg.req(in.Req))
	}
	if n > 0 {
		pg.printf("CHECK(%d, MPI_Type_free(&%s));\n", row, tdt)
	}
	return true
}
