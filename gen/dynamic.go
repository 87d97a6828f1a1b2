package gen

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Dynamic windows at run time in generated programs (Config.Dynamic; docs/language.md#dynamic-windows): an owner attaches a region, stores into it and
// loads from it through the address (publishing with an owner call or not), sends
// the address to the others, which access it through the address (plus an offset,
// or a range relative to it, sometimes past the region) in a lock_all epoch; the owner detaches it either after their
// "done" messages or at once, so that some performs may find it detached
// (E-TARGET).

// dynamicSource draws the text of a program on a dynamic window.
func dynamicSource(t *rapid.T, cfg Config) string {
	n := rapid.IntRange(2, max(2, min(cfg.MaxProcs, 3))).Draw(t, "procs")
	owner := rapid.IntRange(0, n-1).Draw(t, "owner")
	size := rapid.IntRange(1, 2).Draw(t, "cells")
	early := rapid.IntRange(0, 3).Draw(t, "early-detach") == 0
	rows := make([][]string, n)
	regs := make([]int, n)
	reg := func(p int) string { regs[p]++; return fmt.Sprintf("r%d", regs[p]-1) }
	// the owner: attach, store into (and load from) the region through the address,
	// sometimes publish the stores with an owner call (lock and unlock of itself:
	// attach is no MB), send the address to each other process
	a := reg(owner)
	rows[owner] = append(rows[owner], fmt.Sprintf("%s = attach D %d", a, size))
	for i := rapid.IntRange(0, 2).Draw(t, "owner-accesses"); i > 0; i-- {
		off := rapid.IntRange(0, size).Draw(t, "owner-offset") // size: past the region, E-TARGET
		loc := fmt.Sprintf("D@%d[%s+%d]", owner, a, off)
		if rapid.Bool().Draw(t, "owner-store") {
			rows[owner] = append(rows[owner], fmt.Sprintf("store %s %d", loc, rapid.IntRange(1, 2).Draw(t, "owner-v")))
		} else {
			rows[owner] = append(rows[owner], fmt.Sprintf("%s = load %s", reg(owner), loc))
		}
	}
	if rapid.Bool().Draw(t, "owner-call") {
		rows[owner] = append(rows[owner], fmt.Sprintf("lock D %d excl", owner), fmt.Sprintf("unlock D %d", owner))
	}
	for p := 0; p < n; p++ {
		if p != owner {
			rows[owner] = append(rows[owner], fmt.Sprintf("send %d %s", p, a))
		}
	}
	if early {
		rows[owner] = append(rows[owner], "detach D "+a)
	}
	for p := 0; p < n; p++ {
		if p == owner {
			continue
		}
		addr := reg(p)
		rows[p] = append(rows[p], fmt.Sprintf("%s = recv %d", addr, owner), "lock_all D")
		k := rapid.IntRange(1, max(1, cfg.MaxInstrs-1)).Draw(t, "accesses")
		for i := 0; i < k; i++ {
			off := rapid.IntRange(0, size-1).Draw(t, "offset")
			if rapid.IntRange(0, 4).Draw(t, "past") == 0 {
				off = size // past the region: E-TARGET
			}
			loc := fmt.Sprintf("D@%d[%s+%d]", owner, addr, off)
			if size == 2 && rapid.IntRange(0, 2).Draw(t, "relative-range") == 0 {
				// both cells with one call, relative to the address (in typemap
				// order or reversed), or from the second cell on (past the region)
				rng := rapid.SampledFrom([]string{"0..1", "{1,0}", "1..2"}).Draw(t, "range")
				loc = fmt.Sprintf("D@%d[%s+%s]", owner, addr, rng)
				switch rapid.IntRange(0, 2).Draw(t, "range-op") {
				case 0:
					rows[p] = append(rows[p], fmt.Sprintf("put %s (%d,%d)", loc, rapid.IntRange(1, 2).Draw(t, "v"), rapid.IntRange(1, 2).Draw(t, "v")))
				case 1:
					r0 := reg(p)
					rows[p] = append(rows[p], fmt.Sprintf("(%s,%s) = get %s", r0, reg(p), loc))
				default:
					rows[p] = append(rows[p], fmt.Sprintf("acc %s sum (1,1)", loc))
				}
				continue
			}
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				rows[p] = append(rows[p], fmt.Sprintf("put %s %d", loc, rapid.IntRange(1, 2).Draw(t, "v")))
			case 1:
				rows[p] = append(rows[p], fmt.Sprintf("%s = get %s", reg(p), loc))
			case 2:
				rows[p] = append(rows[p], fmt.Sprintf("acc %s sum 1", loc))
			default:
				rows[p] = append(rows[p], "flush_all D")
			}
		}
		rows[p] = append(rows[p], "unlock_all D", fmt.Sprintf("send %d", owner))
		if !early {
			rows[owner] = append(rows[owner], fmt.Sprintf("recv %d", p))
		}
	}
	if !early {
		rows[owner] = append(rows[owner], "detach D "+a)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MPI gen\n\"A generated program (dynamic window, owner P%d, %d cells).\"\n{\n  win D dynamic;\n}\n", owner, size)
	writeTable(&b, rows)
	var locs []string
	for p := 0; p < n; p++ {
		for r := 0; r < regs[p]; r++ {
			locs = append(locs, fmt.Sprintf("%d:r%d", p, r))
		}
	}
	fmt.Fprintf(&b, "locations [%s];\n", strings.Join(locs, "; "))
	fmt.Fprintf(&b, "exists (%d:r0=0)\n", owner)
	return b.String()
}
