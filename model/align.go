package model

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Layout and alignment (docs/semantics.md#layout-and-alignment, node251, mpi-issues #121).
//
// Segment addresses are symbolic: an allocation's base is guaranteed an alignment G,
// and a segment or location is base + offset. With align_guarantee (MPI-4.0), G is
// the ABI's largest alignment of a predefined type, or mpi_minimum_memory_alignment
// when larger; without it the standard promised nothing and rmacheck assumes 8, what
// libraries such as Open MPI 4.1 return (Open MPI issue #4952). allocate gives every
// rank with memory its own allocation; contiguous allocate_shared one allocation,
// rank r starting after the bytes of the ranks below it; alloc_shared_noncontig one
// per rank. create and dynamic windows use user memory, aligned for its type.

// ABI is what the alignment guarantee depends on: the alignment of each predefined
// type, from the platform's processor-specific ABI document. Sizes are the .lit
// types' own (litmus.Type.Size); only alignments differ between ABIs. The SIMD
// vector types v32 and v64 are not MPI datatypes: they align to their size on
// every ABI.
type ABI struct {
	Name string
	Doc  string // the psABI document the alignments come from
	// int64, double and long double: the alignments that differ between ABIs.
	int64Align, doubleAlign, longDoubleAlign int
}

// Align is the alignment of a type under the ABI.
func (a ABI) Align(t litmus.Type) int {
	switch t {
	case litmus.Int64, litmus.TypeDefault:
		return a.int64Align
	case litmus.Double:
		return a.doubleAlign
	case litmus.LongDouble:
		return a.longDoubleAlign
	}
	return t.Size() // int8, int16, int32; v32, v64
}

// MaxAlign is the largest alignment of a predefined MPI datatype: what MPI-4.0
// guarantees allocated window memory (node251).
func (a ABI) MaxAlign() int { return max(a.int64Align, a.doubleAlign, a.longDoubleAlign) }

// The ABIs --abi accepts.
var (
	// X8664 is the default ABI. System V AMD64 psABI 1.0, §3.1.2, Figure 3.1
	// (long double: 16-byte aligned).
	X8664 = ABI{Name: "x86-64", Doc: "System V AMD64 psABI 1.0, §3.1.2, Figure 3.1", int64Align: 8, doubleAlign: 8, longDoubleAlign: 16}
	// I386: System V i386 psABI (Intel386 supplement, 4th ed., and the 2015 update),
	// §2.2 "Fundamental Types", Figure 2.1: long long, double and long double are
	// 4-byte aligned, so the largest predefined alignment is 4.
	I386    = ABI{Name: "i386", Doc: "System V i386 psABI, §2.2, Figure 2.1", int64Align: 4, doubleAlign: 4, longDoubleAlign: 4}
	aarch64 = ABI{Name: "aarch64", Doc: "AAPCS64 (Arm IHI 0055), §5.1, Table 1: quad-precision long double 16-byte aligned", int64Align: 8, doubleAlign: 8, longDoubleAlign: 16}
	ppc64le = ABI{Name: "ppc64le", Doc: "64-bit ELF V2 ABI for Power, §2.1.2.1, Table 2.1: long double 16-byte aligned", int64Align: 8, doubleAlign: 8, longDoubleAlign: 16}
	ABIs    = []ABI{X8664, aarch64, ppc64le, I386}
)

// ParseABI finds an ABI by name.
func ParseABI(name string) (ABI, error) {
	var names []string
	for _, a := range ABIs {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return ABI{}, fmt.Errorf("unknown ABI %q (known: %s)", name, strings.Join(names, ", "))
}

// WithABI compiles for an ABI other than x86-64 (the alignments E-ALIGN checks).
func WithABI(a ABI) Option { return func(p *Program) { p.ABI = a } }

// noGuaranteeAlign is the alignment assumed without align_guarantee: 8, what common
// libraries return (Open MPI issue #4952), or the ABI's largest alignment when it is
// smaller, so that the MPI-4.0 guarantee is never weaker than none.
func noGuaranteeAlign(abi ABI) int { return min(8, abi.MaxAlign()) }

// Segment is one rank's segment of a window.
type Segment struct {
	Window     string
	Flavor     litmus.Flavor
	Rank       int
	Bytes      int
	Allocation string // "alloc W" (shared by the ranks of a contiguous allocate_shared), "alloc W@r", or "user memory"
	Offset     int    // from the allocation's base
	Align      int    // alignment guaranteed for the segment's start (0: user memory, aligned for its type)
}

// StartAlign is the alignment guaranteed for the segment's first byte (0: user memory).
func (s Segment) StartAlign() int {
	if s.Align == 0 || s.Offset == 0 {
		return s.Align
	}
	return gcd(s.Offset, s.Align)
}

// LocationAlign is a typed access and whether its address is aligned.
type LocationAlign struct {
	Proc, Row int
	Instr     string
	Loc       string
	Type      litmus.Type
	Segment   Segment
	Offset    int // of the location, from the allocation's base
	Aligned   int // alignment its address is guaranteed
	OK        bool
}

// WindowLayout lays out every window of t (following over= to the memory used) and
// checks every typed access of the program against the guarantee.
func WindowLayout(t *litmus.Test, sem spec.Semantics, abi ABI) ([]Segment, []LocationAlign) {
	var segs []Segment
	for _, w := range t.Windows {
		for r := 0; r < t.NumProcs(); r++ {
			if w.InGroup(r) {
				segs = append(segs, segmentOf(t, w, r, sem.Has(spec.AlignGuarantee), abi))
			}
		}
	}
	var locs []LocationAlign
	typedAccesses(t, sem.Has(spec.AlignGuarantee), abi, func(in *litmus.Instr, la LocationAlign) {
		la.Instr, la.Loc = instrText(in), litmus.LocString(*in.Loc)
		locs = append(locs, la)
	})
	return segs, locs
}

// typedAccesses calls f with every access of t to a location that is not computed,
// in program order, and its alignment with or without the guarantee (all but its
// Instr and Loc texts, which f makes when it needs them).
func typedAccesses(t *litmus.Test, guarantee bool, abi ABI, f func(in *litmus.Instr, la LocationAlign)) {
	for proc, lp := range t.Procs {
		for row, in := range lp.Code {
			if in == nil || in.Loc == nil || in.ComputedTarget() {
				continue // a computed location: cells of size= windows (litmus validate_target.go)
			}
			w, rank, disp, typ, ok := t.ResolveLoc(*in.Loc)
			if !ok {
				continue
			}
			seg := segmentOf(t, w, rank, guarantee, abi)
			la := LocationAlign{Proc: proc, Row: row + 1, Type: typ, Segment: seg, Offset: seg.Offset + disp*dispUnitBytes(w), OK: true}
			if seg.Align > 0 {
				la.Aligned = gcd(la.Offset, seg.Align)
				la.OK = la.Aligned%abi.Align(typ) == 0
			}
			f(in, la)
		}
	}
}

// staticAlignment marks every typed access the guarantee does not align: the access
// raises E-ALIGN when it executes (a guarded one only when its guard holds). The
// switch align_guarantee shapes the program only when it changes those accesses or
// their messages (most tests have none either way): only then is it read (Under).
func (c *compiler) staticAlignment(abi ABI) {
	on := c.p.Sem.Has(spec.AlignGuarantee)
	errs := alignErrors(c.t, on, abi)
	if !maps.Equal(errs, alignErrors(c.t, !on, abi)) {
		c.p.switchOn(spec.AlignGuarantee)
	}
	for site, msg := range errs {
		if in := c.p.InstrAt(site); in != nil {
			in.AlignErr = msg
		}
	}
}

// alignErrors are the E-ALIGN messages of the typed accesses the layout with or
// without the guarantee does not align, by site.
func alignErrors(t *litmus.Test, guarantee bool, abi ABI) map[Site]string {
	var errs map[Site]string
	typedAccesses(t, guarantee, abi, func(in *litmus.Instr, la LocationAlign) {
		if la.OK {
			return
		}
		if errs == nil {
			errs = map[Site]string{}
		}
		errs[Site{Proc: la.Proc, Row: la.Row}] = fmt.Sprintf("%s: a %s at offset %d of an allocation aligned to %d bytes is only %d-byte aligned, not %d",
			instrText(in), la.Type, la.Offset, la.Segment.Align, la.Aligned, abi.Align(la.Type))
	})
	return errs
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func dispUnitBytes(w *litmus.Window) int {
	switch {
	case w.DispUnit > 0:
		return w.DispUnit
	case w.Bytes != nil:
		return 1
	}
	return w.CellType().Size()
}

// segBytes is the byte size of rank's segment.
func segBytes(t *litmus.Test, w *litmus.Window, rank int) int {
	if n, ok := w.SegmentBytes(t, rank); ok {
		return n
	}
	return w.SegmentSize(t, rank) * w.Base(t).CellType().Size()
}

// segmentOf places rank's segment of w (of the window whose memory it uses).
func segmentOf(t *litmus.Test, w *litmus.Window, rank int, guarantee bool, abi ABI) Segment {
	base := w.Base(t)
	seg := Segment{Window: w.Name, Flavor: w.Flavor, Rank: rank, Bytes: segBytes(t, w, rank)}
	g := noGuaranteeAlign(abi)
	if guarantee {
		g = abi.MaxAlign()
		if v, ok := base.InfoValue("mpi_minimum_memory_alignment"); ok {
			if n, err := strconv.Atoi(v); err == nil && n > g {
				g = n
			}
		}
	}
	switch base.Flavor {
	case litmus.FlavorCreate, litmus.FlavorDynamic:
		seg.Allocation = "user memory"
		return seg
	case litmus.FlavorAllocateShared:
		if v, _ := base.InfoValue("alloc_shared_noncontig"); v != "true" {
			seg.Allocation = "alloc " + base.Name
			for r := 0; r < rank; r++ {
				seg.Offset += segBytes(t, base, r)
			}
			seg.Align = g
			return seg
		}
	}
	seg.Allocation = fmt.Sprintf("alloc %s@%d", base.Name, rank)
	seg.Align = g
	return seg
}
