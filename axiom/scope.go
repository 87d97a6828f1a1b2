package axiom

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// The axiomatic engine covers plain load/store, put/get and the accumulates (acc,
// gacc, fop, cas) of one element or of several (ranges), fence, PSCW, lock/lock_all/flush/sync, send/recv and barrier, on
// allocate, allocate_shared and create windows in the unified model, under the four
// presets (and any switches but weak_progress) and the three hardware models. What it
// does not cover it refuses, naming the construct and where it is, so that a
// crosscheck never counts a program one engine does not read as an agreement.

// OutOfScope is a construct the axiomatic engine does not model, at its position.
type OutOfScope struct {
	File      string
	Pos       litmus.Pos
	Construct string
}

func (o OutOfScope) Error() string {
	at := o.File
	if o.Pos.IsValid() {
		at += ":" + o.Pos.String()
	}
	return fmt.Sprintf("%s: outside the axiomatic engine's scope: %s", at, o.Construct)
}

// ScopeError lists every out-of-scope construct of a test, in file order.
type ScopeError []OutOfScope

func (e ScopeError) Error() string {
	var lines []string
	for _, o := range e {
		lines = append(lines, o.Error())
	}
	return strings.Join(lines, "\n")
}

// Constructs lists the constructs named, each once, in order (for summaries).
func (e ScopeError) Constructs() []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range e {
		key := o.Construct
		if i := strings.IndexByte(key, ':'); i >= 0 {
			key = key[:i]
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	return out
}

// CheckScope reports the constructs of t outside the engine's scope under sem (nil
// when it has none).
func CheckScope(t *litmus.Test, sem spec.Semantics) error {
	var e ScopeError
	add := func(p litmus.Pos, format string, args ...any) {
		e = append(e, OutOfScope{File: t.File, Pos: p, Construct: fmt.Sprintf(format, args...)})
	}
	if sem.Has(spec.WeakProgress) {
		add(t.NamePos, "weak progress (weak_progress=on)")
	}
	if sem.Has(spec.CasReplace) {
		add(t.NamePos, "cas_replace=on")
	}
	for _, w := range t.Windows {
		switch {
		case w.Flavor == litmus.FlavorDynamic:
			add(w.Pos, "dynamic windows: window %s", w.Name)
		case w.Model == litmus.Separate:
			add(w.ModelPos, "the separate memory model: window %s (R5/R6 copies)", w.Name)
		case w.Bytes != nil:
			add(w.BytesPos, "byte-sized segments (bytes=): window %s", w.Name)
		case w.Over != "":
			add(w.OverPos, "windows over another window's memory (over=): window %s", w.Name)
		}
		if w.Type != litmus.TypeDefault && w.Type.Size() > 8 {
			add(w.TypePos, "cell type %s (alignment beyond 8 bytes)", w.Type)
		}
		for _, in := range w.Info {
			if in.Key == "mpi_minimum_memory_alignment" {
				add(in.Pos, "info key mpi_minimum_memory_alignment (alignment)")
			}
		}
	}
	for _, a := range t.Aliases {
		if a.Type != litmus.TypeDefault {
			add(a.Pos, "typed locations (%s : %s)", a.Name, a.Type)
		}
		if a.Loc.Computed() || a.Loc.Null {
			add(a.Pos, "computed targets: alias %s", a.Name)
		}
	}
	for _, p := range t.Procs {
		for _, in := range p.Code {
			if in != nil {
				instrScope(t, in, add)
			}
		}
	}
	if len(e) == 0 {
		return nil
	}
	return e
}

func instrScope(t *litmus.Test, in *litmus.Instr, add func(litmus.Pos, string, ...any)) {
	switch in.Op {
	case litmus.OpRepeat, litmus.OpUntil, litmus.OpAwait:
		add(in.Pos, "spin loops (%s)", in.Op)
		return
	case litmus.OpRput, litmus.OpRget, litmus.OpRacc, litmus.OpRgacc, litmus.OpWaitReq, litmus.OpTestReq:
		add(in.Pos, "request-based operations (%s)", in.Op)
		return
	case litmus.OpTest:
		add(in.Pos, "MPI_Win_test (test)")
		return
	case litmus.OpSharedQuery:
		add(in.Pos, "shared_query")
		return
	case litmus.OpFree:
		add(in.Pos, "free (window lifetime)")
		return
	case litmus.OpAttach, litmus.OpDetach:
		add(in.Pos, "dynamic windows (%s)", in.Op)
		return
	}
	if in.TargetReg != "" || in.TargetNull {
		add(in.TargetPos, "computed targets (%s)", in.Op)
	}
	if l := in.Loc; l != nil {
		if l.Computed() || l.Null {
			add(l.Pos, "computed targets (%s)", litmus.LocString(*l))
		}
		if w, rank, _, _, ok := t.ResolveLoc(*l); ok && !w.InGroup(rank) {
			add(l.Pos, "a target outside the window's group (E-TARGET)")
		}
	}
}
