package model

import (
	"fmt"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Dynamic memory at run time (docs/language.md#dynamic-windows): r = attach
// W N attaches N fresh cells of the caller's memory to dynamic window W and sets r
// to their address; detach W r detaches the region at r. Each attach instruction
// runs at most once (a loop body may not hold one), so its region's cells are
// cells of the program from the start, owned by the caller, and a bit of the state
// says whether the region is attached now.
//
// Addresses are symbols, equal only to themselves: region g's cell k has the
// address AddrBase + g<<16 + 1<<15 + k, so that "r6 = r5 + 2" is the third cell
// and "r5 - 1" no cell of the region, and outcomes print it &W@rank[attROW+k].

// AddrBase is the lowest address value: far from every value a test computes
// with small integers. Generated C programs map a real address to the same value
// (cgen: the region's base address in cells, rebased).
const AddrBase int64 = 1 << 40

// regionSpan is the room of one region's addresses: offsets from -1<<15 to 1<<15-1.
const regionSpan = 1 << 16

// Region is the memory one attach instruction attaches.
type Region struct {
	Proc, Instr int // the attach
	Row         int
	Win         int // the window (its base: where the cells live)
	Cell        int // its first cell; N cells follow
	N           int
}

// Addr is the address of cell k of region g.
func Addr(g, k int) int64 { return AddrBase + int64(g)*regionSpan + regionSpan/2 + int64(k) }

// decodeAddr splits an address value into its region and offset (ok false: the
// value is no address of a region of the program).
func (p *Program) decodeAddr(v int64) (g, k int, ok bool) {
	if v < AddrBase || v >= AddrBase+int64(len(p.Regions))*regionSpan {
		return 0, 0, false
	}
	d := v - AddrBase
	return int(d / regionSpan), int(d%regionSpan) - regionSpan/2, true
}

// AddrString prints an address value as &W@rank[attROW+k] (ok false: v is no address).
func (p *Program) AddrString(v int64) (string, bool) {
	g, k, ok := p.decodeAddr(v)
	if !ok {
		return "", false
	}
	r := p.Regions[g]
	sign := "+"
	if k < 0 {
		sign, k = "-", -k
	}
	return fmt.Sprintf("&%s@%d[att%d%s%d]", p.Wins[r.Win].Name, r.Proc, r.Row, sign, k), true
}

// valueString prints an outcome value: an address as its symbol, else the integer.
func (p *Program) valueString(v int64) string {
	if s, ok := p.AddrString(v); ok {
		return s
	}
	return fmt.Sprint(v)
}

// DynamicCell is the cell at address v in rank's memory of window win (ok false:
// v is no address of a region that rank attaches to win, or lies outside it).
func (p *Program) DynamicCell(win, rank int, v int64) (cell int, ok bool) {
	g, k, ok := p.decodeAddr(v)
	if !ok {
		return 0, false
	}
	r := p.Regions[g]
	if r.Proc != rank || r.Win != p.Wins[win].Base || k < 0 || k >= r.N {
		return 0, false
	}
	return r.Cell + k, true
}

// CellAttached reports whether cell c is attached in s: a cell of a region that
// is attached now, or any other cell (declared with size=, always attached).
func (p *Program) CellAttached(s State, c int) bool {
	g := p.cellRegion(c)
	return g < 0 || s.u64(p.Layout.Attached)&(1<<uint(g)) != 0
}

// cellRegion is the region holding cell c (-1: none).
func (p *Program) cellRegion(c int) int {
	for g, r := range p.Regions {
		if c >= r.Cell && c < r.Cell+r.N {
			return g
		}
	}
	return -1
}

// RegionCells are the cells of the regions rank attaches to window win: the cells
// an access through an address may reach there.
func (p *Program) RegionCells(win, rank int) uint64 {
	var m uint64
	for _, r := range p.Regions {
		if r.Proc == rank && r.Win == p.Wins[win].Base {
			for k := 0; k < r.N; k++ {
				m |= 1 << uint(r.Cell+k)
			}
		}
	}
	return m
}

// regions makes the cells of every attach instruction, in program order of each
// process: named W@rank[attROW+k] in traces.
func (c *compiler) regions() {
	p := c.p
	for proc, lp := range c.t.Procs {
		for row, in := range lp.Code {
			if in == nil || in.Op != litmus.OpAttach || len(in.Args) != 1 {
				continue
			}
			win := p.Wins[c.winIndex(in.Win)].Base
			n := int(in.Args[0].Imm)
			if len(p.Cells)+n > MaxCells {
				c.fail("more than %d memory cells", MaxCells)
				return
			}
			g := len(p.Regions)
			if g == 64 {
				c.fail("more than 64 attach calls")
				return
			}
			p.Regions = append(p.Regions, Region{Proc: proc, Instr: -1, Row: row + 1, Win: win, Cell: len(p.Cells), N: n})
			sep := p.Wins[win].Model == litmus.Separate
			for k := 0; k < n; k++ {
				a := int(Addr(g, k))
				c.cellIdx[cellKey{win, proc, a}] = len(p.Cells)
				p.Cells = append(p.Cells, Cell{Win: win, Rank: proc, Disp: a, Separate: sep,
					Name: fmt.Sprintf("%s@%d[att%d+%d]", p.Wins[win].Name, proc, row+1, k)})
				c.cellTypes = append(c.cellTypes, p.Wins[win].Src.CellType())
			}
		}
	}
}

// attach is MPI_Win_attach and MPI_Get_address: the region becomes attached and
// the register holds its address. It is no MB (docs/language.md#dynamic-windows): stores into a fresh
// region need a later owner call before another rank may rely on them.
func (p *Program) attach(s State, proc, j int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	g := p.regionOf(proc, j)
	s.setU64(p.Layout.Attached, s.u64(p.Layout.Attached)|1<<uint(g))
	p.setReg(s, proc, int(in.Dst), Addr(g, 0))
	if rec.full() {
		rec.Text += fmt.Sprintf("  (attaches %d cells at %s)", p.Regions[g].N, p.valueString(Addr(g, 0)))
	}
	return true
}

// regionOf is the region of the attach instruction j of proc.
func (p *Program) regionOf(proc, j int) int {
	for g, r := range p.Regions {
		if r.Proc == proc && r.Instr == j {
			return g
		}
	}
	panic(fmt.Sprintf("model: P%d instruction %d attaches no region", proc, j))
}

// regionInstrs finds the compiled instruction of each region's attach.
func (c *compiler) regionInstrs() {
	p := c.p
	for g := range p.Regions {
		r := &p.Regions[g]
		for j := range p.Procs[r.Proc].Code {
			if in := &p.Procs[r.Proc].Code[j]; in.Kind == KAttach && in.Row == r.Row {
				r.Instr = j
			}
		}
	}
}

// detach is MPI_Win_detach of the region whose address the register holds: the
// region is no longer attached, and an access that performs on it from now on is
// E-TARGET. An address that is no attached region of the caller's on the window
// (detached already, another rank's, an offset into a region) is E-TARGET too.
func (p *Program) detach(s State, proc int, in *Instr, rec *Record) bool {
	if !p.winUsable(s, proc, in, rec) {
		return true
	}
	v := p.val(s, proc, in.Args[0])
	g, k, ok := p.decodeAddr(v)
	if ok && k == 0 && p.Regions[g].Proc == proc && p.Regions[g].Win == p.Wins[in.Win].Base && s.u64(p.Layout.Attached)&(1<<uint(g)) != 0 {
		s.setU64(p.Layout.Attached, s.u64(p.Layout.Attached)&^(1<<uint(g)))
		if rec.full() {
			rec.Text += fmt.Sprintf("  (detaches %s)", p.valueString(v))
		}
		return true
	}
	p.badDetach(s, proc, in, v, rec)
	return true
}

// dynamicMayCells adds to a computed location on a dynamic window, whose
// displacement is a register, the cells of the regions its target ranks attach:
// the register may hold any of their addresses.
func (c *compiler) dynamicMayCells(cmp *Computed, win int, l *litmus.Loc) {
	p := c.p
	if p.Wins[win].Flavor != litmus.FlavorDynamic || l.DispReg == "" || l.Null {
		return
	}
	for r := 0; r < p.NProcs; r++ {
		if l.RankReg == "" && r != l.Rank || p.Wins[win].Group&(1<<uint(r)) == 0 {
			continue
		}
		if cells := p.RegionCells(win, r); cells != 0 {
			cmp.MayCells |= cells
			cmp.MayTargets |= 1 << uint(r)
		}
	}
}

// performDetached is the perform of an operation whose cell's region is not
// attached at the target now (detached, or not yet attached): E-TARGET, and the
// operation moves no data (docs/rules.md#e-target: memory not attached may not be the
// target of RMA, MPI_WIN_CREATE_DYNAMIC).
func (p *Program) performDetached(s State, k int, in *Instr, rec *Record) bool {
	sl := p.Slots[k]
	p.raise(s, rec, spec.ETarget, sl.Proc, in, func() string {
		return fmt.Sprintf("%s (P%d row %d) performs on %s, which is not attached at P%d now",
			in.Text, sl.Proc, in.Row, p.Cells[in.Cell].Name, in.Target)
	})
	s[p.Layout.Slot[k]] = SlotPerformed
	if rec.full() {
		rec.Text = fmt.Sprintf("perform %s of P%d row %d: %s is not attached (no effect)", in.Text, sl.Proc, in.Row, p.Cells[in.Cell].Name)
	}
	return true
}

// badDetach: detach of an address that is no region the caller has attached to
// the window now (E-TARGET: MPI_WIN_DETACH detaches memory that an attach of the
// caller attached).
func (p *Program) badDetach(s State, proc int, in *Instr, v int64, rec *Record) {
	p.raise(s, rec, spec.ETarget, proc, in, func() string {
		return fmt.Sprintf("%s: %s is no region P%d has attached to window %s now", in.Text, p.valueString(v), proc, p.Wins[in.Win].Name)
	})
}

// attachesOrDetaches: some process attaches or detaches memory; whether an
// operation performs on attached memory then depends on when it performs.
func (c *compiler) attachesOrDetaches() bool {
	for i := range c.p.Procs {
		for k := range c.p.Procs[i].Code {
			if kd := c.p.Procs[i].Code[k].Kind; kd == KAttach || kd == KDetach {
				return true
			}
		}
	}
	return false
}
