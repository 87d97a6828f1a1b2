package model

import (
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Site is where a diagnostic points: an instruction of a process, by its row of the
// process table and its position in the .lit file.
type Site struct {
	Proc int
	Row  int
	Pos  litmus.Pos // of the instruction (zero when the program came from no file)
}

// Diagnostic is a rule broken by some execution (docs/semantics.md#verdicts), as data, like
// go/analysis's Diagnostic: the rule, its class, a message, the instruction it is
// about and the related ones (the other access of a racing pair), and the
// execution that breaks it. The message carries no position and no citation:
// printers add FILE:LINE:COL, the rule and its MPI-4.1 report node.
type Diagnostic struct {
	Rule    spec.RuleID
	Class   spec.Class
	Message string
	At      Site
	Related []Site
	// Witness is the shortest execution found that breaks the rule, its accesses
	// marked (the search fills it in; a step's record leaves it empty).
	Witness Witness
}

// Sites lists At and then the related sites.
func (d *Diagnostic) Sites() []Site { return append([]Site{d.At}, d.Related...) }

// newDiagnostic fills in the rule's class from the catalogue (every RuleID has an entry:
// spec's TestRuleIDsAreTheCatalogue).
func newDiagnostic(rule spec.RuleID, at Site, msg string, related ...Site) Diagnostic {
	return Diagnostic{Rule: rule, Class: rule.Class(), Message: msg, At: at, Related: related}
}

// SiteOf is the site of instruction j of process proc.
func (p *Program) SiteOf(proc, j int) Site {
	in := &p.Procs[proc].Code[j]
	return p.site(proc, in)
}

func (p *Program) site(proc int, in *Instr) Site {
	s := Site{Proc: proc, Row: in.Row}
	if in.Src != nil {
		s.Pos = in.Src.Pos
	}
	return s
}

// InstrAt is the instruction a site names.
func (p *Program) InstrAt(s Site) *Instr {
	for k := range p.Procs[s.Proc].Code {
		if in := &p.Procs[s.Proc].Code[k]; in.Row == s.Row {
			return in
		}
	}
	return nil
}

// Record collects what a step did, for traces. The search passes a light one (or
// nil): it notes only which rules the step raises, and where.
type Record struct {
	// Light: note only Sites (the rules raised and their instructions), no text and
	// no message: the search's record, which must cost next to nothing.
	Light bool
	Sites []RaiseSite

	Text   string
	Raised []Diagnostic
	// The memory the step read and wrote, for reads-from in traces (trace.go).
	Reads  []Copy
	Writes []Copy
	// Copies: R5/R6 copies from one copy of a cell to the other (the value keeps
	// where it came from).
	Copies [][2]Copy
	// A load that took its value from its own process's store that has not reached
	// memory: Forwarded, an unexecuted store (1 + its instruction index; 0: none);
	// Buffered, the tso store buffer. A tso store that went into the buffer has
	// Buffered too.
	Forwarded int
	Buffered  bool
	// Ended: a test that returned 1 ended its exposure epoch (the complete -> test
	// edge of a trace, as complete -> wait).
	Ended bool
}

// Copy is one copy of a cell: the public (or only) one, or the private one of a
// separate window.
type Copy struct {
	Cell    int
	Private bool
}

// RaiseSite is a rule a step raised at an instruction (a light record's note).
type RaiseSite struct {
	Rule      spec.RuleID
	Proc, Row int
}

// full reports whether the record wants text, messages and memory effects.
func (r *Record) full() bool { return r != nil && !r.Light }

func (r *Record) read(c Copy) {
	if r.full() {
		r.Reads = append(r.Reads, c)
	}
}

func (r *Record) wrote(c Copy) {
	if r.full() {
		r.Writes = append(r.Writes, c)
	}
}

// raise marks rule in the state's flag word and, when a record is kept, describes
// the diagnostic at instruction in of proc. The message is built only for a record:
// the search keeps none, so a step that raises a rule allocates nothing either.
func (p *Program) raise(s State, rec *Record, rule spec.RuleID, proc int, in *Instr, msg func() string) {
	off := p.Layout.Flags
	s.setU32(off, s.u32(off)|spec.FlagBit(rule))
	switch {
	case rec == nil:
	case rec.Light:
		rec.Sites = append(rec.Sites, RaiseSite{Rule: rule, Proc: proc, Row: in.Row})
	default:
		rec.Raised = append(rec.Raised, newDiagnostic(rule, p.site(proc, in), msg()))
	}
}
