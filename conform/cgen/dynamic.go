package cgen

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
)

// Dynamic memory at run time (docs/language.md#dynamic-windows). Each
// attach instruction owns one region of memory, allocated once by its rank before
// the first iteration; the attach attaches it (MPI_Win_attach), zeroed, and puts
// its address in the register as MPI_Get_address gives it, in cells (the address
// divided by 8: "r6 = r5 + 2" is then the third cell, as in the model). An RMA call
// on the window takes (address + offset) * 8 bytes as its MPI_BOTTOM-relative
// displacement. Every rank learns every region's address at set-up, so that an
// outcome prints an address as the model's symbol (model.Addr) whichever rank
// holds it; a region still attached at the end of an iteration is detached.

// regionDecls declares the regions and the conversion of addresses to symbols.
func (g *gen) regionDecls() {
	if len(g.p.Regions) == 0 {
		return
	}
	n := len(g.p.Regions)
	g.printf("/* The regions the attach calls attach: allocated once by their rank; their\n * addresses in cells, known to every rank (make_regions). */\n")
	g.printf("#define NREGIONS %d\n", n)
	g.printf("static int64_t *region[NREGIONS];\nstatic int attached[NREGIONS];\nstatic int64_t region_cell[NREGIONS];\n")
	var owners, sizes []int
	for _, r := range g.p.Regions {
		owners = append(owners, r.Proc)
		sizes = append(sizes, r.N)
	}
	g.printf("static const int region_owner[NREGIONS] = {%s};\n", intList(owners))
	g.printf("static const int region_n[NREGIONS] = {%s};\n", intList(sizes))
	g.printf("static MPI_Win region_win[NREGIONS];\n\n")
	g.printf(`/* An address in cells as the model prints it (model.Addr): region g's cell k is
 * %dLL + g*%d + %d + k; any other value is itself. */
static int64_t __attribute__((unused)) rmc_addr_sym(int64_t v) {
    for (int g = 0; g < NREGIONS; g++)
        if (v >= region_cell[g] - %d && v < region_cell[g] + %d)
            return %dLL + (int64_t)g * %d + %d + (v - region_cell[g]);
    return v;
}

/* The target displacement of a register displacement v on a dynamic window: an
 * address of a region (in cells) is MPI_BOTTOM-relative, in bytes; any other value
 * counts from the memory attached at creation, base, in units of du. */
static MPI_Aint __attribute__((unused)) rmc_dyn_disp(int64_t v, MPI_Aint base, int du) {
    for (int g = 0; g < NREGIONS; g++)
        if (v >= region_cell[g] - %d && v < region_cell[g] + %d)
            return (MPI_Aint)(v * 8);
    return MPI_Aint_add(base, (MPI_Aint)v * du);
}

/* The memory a plain load/store through an address register v (in cells) names:
 * a cell of a region (its address is MPI_Get_address's, in cells), else a cell of
 * the memory attached at creation, base, of n units of du bytes; NULL for none (the
 * model's E-TARGET: the access has no effect). */
static __attribute__((unused)) char *rmc_dyn_ptr(int64_t v, char *base, int64_t n, int du) {
    for (int g = 0; g < NREGIONS; g++)
        if (v >= region_cell[g] && v < region_cell[g] + region_n[g])
            return (char *)(intptr_t)(v * 8);
    return v >= 0 && v < n ? base + v * du : NULL;
}

static void make_regions(void) {
    for (int g = 0; g < NREGIONS; g++) {
        MPI_Aint a = 0;
        if (me == region_owner[g]) {
            if (posix_memalign((void **)&region[g], 64, (size_t)region_n[g] * 8) != 0)
                rmc_fail("posix_memalign", 0);
            MPI_Get_address(region[g], &a);
        }
        MPI_Bcast(&a, 1, MPI_AINT, region_owner[g], MPI_COMM_WORLD);
        region_cell[g] = (int64_t)(a / 8);
    }
}

/* Detaches what the iteration left attached, so the next one may attach it again. */
static void detach_regions(void) {
    for (int g = 0; g < NREGIONS; g++)
        if (attached[g]) {
            MPI_Win_detach(region_win[g], region[g]);
            attached[g] = 0;
        }
}

`, model.AddrBase, 1<<16, 1<<15, 1<<15, 1<<15, model.AddrBase, 1<<16, 1<<15, 1<<15, 1<<15)
}

// attach prints r = attach W N: the region of this instruction, zeroed, attached.
func (pg *procGen) attach(row int, in *litmus.Instr, wi *winInfo) {
	g := -1
	for i, r := range pg.g.p.Regions {
		if r.Proc == pg.pi && r.Row == row {
			g = i
		}
	}
	if g < 0 {
		pg.g.fail(in.Pos, "attach on row %d has no region", row)
		return
	}
	pg.printf("memset(region[%d], 0, %d);\n", g, 8*pg.g.p.Regions[g].N)
	pg.printf("CHECK(%d, MPI_Win_attach(win_%s, region[%d], %d));\n", row, wi.id, g, 8*pg.g.p.Regions[g].N)
	pg.printf("attached[%d] = 1;\n", g)
	pg.printf("region_win[%d] = win_%s;\n", g, wi.id)
	pg.printf("{\n")
	pg.printf("    MPI_Aint a;\n")
	pg.printf("    MPI_Get_address(region[%d], &a);\n", g)
	pg.printf("    %s = (int64_t)(a / 8);\n", regName(in.Dst))
	pg.printf("}\n")
}

// detach prints detach W r: MPI_Win_detach of the memory at the address in r.
func (pg *procGen) detach(row int, in *litmus.Instr, wi *winInfo) {
	a := pg.value(in.Args[0])
	pg.printf("CHECK(%d, MPI_Win_detach(win_%s, (void *)(intptr_t)(%s * 8)));\n", row, wi.id, a)
	if len(pg.g.p.Regions) == 0 {
		// No attach in the test: no region to mark (and no NREGIONS: the C of a
		// detach without an attach did not compile, issue 38 row 7).
		return
	}
	pg.printf("for (int g = 0; g < NREGIONS; g++)\n")
	pg.printf("    if (region_cell[g] == %s)\n", a)
	pg.printf("        attached[g] = 0;\n")
}

// dynamicDisp is the target displacement of an RMA call on a dynamic window whose
// displacement is a register plus an offset (disp, in cells): an address of a
// region is MPI_BOTTOM-relative, in bytes; any other value is a displacement in the
// memory the window was created with (size=), as for every computed displacement.
func (g *gen) dynamicDisp(wi *winInfo, rankIdx, disp string) string {
	return fmt.Sprintf("rmc_dyn_disp(%s, addr_%s[%s], %d)", disp, wi.id, rankIdx, wi.du)
}

// sym wraps an outcome value so that an address prints as its symbol (only when
// the program attaches: the C of other programs stays as it was).
func (g *gen) sym(expr string) string {
	if len(g.p.Regions) == 0 {
		return expr
	}
	return "rmc_addr_sym(" + expr + ")"
}

// regionCall is the call of a region function at set-up or at the end of an
// iteration, when the program attaches ("" else).
func (g *gen) regionCall(ind, fn string) string {
	if len(g.p.Regions) == 0 {
		return ""
	}
	return ind + fn + "();\n"
}

// detachRegions detaches, before the test frees the window, the regions the
// caller left attached to it (the memory stays the program's, docs/semantics.md#synchronization).
func (pg *procGen) detachRegions(wi *winInfo) {
	if len(pg.g.p.Regions) == 0 || wi.w.Flavor != litmus.FlavorDynamic {
		return
	}
	pg.printf("for (int g = 0; g < NREGIONS; g++)\n")
	pg.printf("    if (attached[g] && region_win[g] == win_%s) {\n", wi.id)
	pg.printf("        MPI_Win_detach(win_%s, region[g]);\n", wi.id)
	pg.printf("        attached[g] = 0;\n")
	pg.printf("    }\n")
}

// addressPtr is the pointer expression of a load, store or await through an
// address register (docs/language.md#dynamic-windows: W@0[r5], W@0[r5+2]), NULL when the
// register names no memory of the rank (the model's E-TARGET: no effect); ok false
// when the location is no such access. Through another rank's address it fails the
// run: a dynamic window gives no load/store access (the model's E-LS-ACCESS).
func (pg *procGen) addressPtr(l litmus.Loc, li locInfo, row int) (ptr string, ok bool) {
	if l.DispReg == "" || li.wi.w.Flavor != litmus.FlavorDynamic {
		return "", false
	}
	wi := li.wi
	if l.Rank != pg.pi {
		pg.printf("rmc_fail(\"load/store through an address of rank %d's memory of window %s: a dynamic window gives no load/store access\", %d);\n", l.Rank, wi.w.Name, row)
	}
	v := fmt.Sprintf("rmc_add(%s, %d)", regName(l.DispReg), l.Disp)
	n := fmt.Sprintf("bytes_%s[me] / %d", wi.id, wi.du)
	if len(pg.g.p.Regions) == 0 {
		return fmt.Sprintf("(%s >= 0 && %s < %s ? base_%s + %s * %d : NULL)", v, v, n, wi.id, v, wi.du), true
	}
	return fmt.Sprintf("rmc_dyn_ptr(%s, base_%s, %s, %d)", v, wi.id, n, wi.du), true
}
