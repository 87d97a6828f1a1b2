// Package cat is rmacheck's small relational language for axiomatic models, in the
// spirit of herd7's cat: a model names sets of events and relations between them
// (let), requires some to be acyclic, irreflexive or empty (a candidate execution
// that breaks one is not an execution), and raises a flag when a named relation or
// set is not empty (an execution that has one breaks the rule the flag names).
//
// The language is herd's where herd has the construct: `let`, `let rec ... and`,
// `|` union, `&` intersection, `\` difference, `;` sequence, `*` cartesian product,
// postfix `^-1` (inverse), `+` (transitive closure), `*` (reflexive-transitive),
// `?` (reflexive), `[S]` (identity on S), `~S` (complement of a set), `domain(r)`,
// `range(r)`, `0` (empty), `_` (every event), `acyclic`/`irreflexive`/`empty` checks
// with `as NAME`, `flag ~empty r as NAME`, `include "file"`, `(* comments *)`.
// Its additions: `if "name" then e else e`, true when the run's hardware model or
// one of its switches is called name; `flag relaxed ...`, a flag judged on the
// executions of the relaxed hardware model whatever the run's is (docs/semantics.md#concurrency:
// concurrency is a property of the MPI program, not of the machine); and
// `option NAME`, a switch that shapes the events themselves (ls_is_rma).
package cat

import "fmt"

// Pos is a position in a model file: 1-based line and column (in bytes).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is a problem in a model file, at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// Expr is an expression: a set or a relation.
type Expr interface{ At() Pos }

// Name is a reference to a base name the engine provides or a let binding.
type Name struct {
	P    Pos
	Name string
}

// Empty is 0, the empty set or relation (its type is its context's).
type Empty struct{ P Pos }

// Universe is _, the set of every event.
type Universe struct{ P Pos }

// Binary is L op R: '|' union, '&' intersection, '\\' difference, ';' sequence,
// '*' cartesian product.
type Binary struct {
	P    Pos
	Op   byte
	L, R Expr
}

// Unary is a postfix or prefix operator or a built-in function: "^-1", "+", "*",
// "?", "~", "[]", "domain", "range".
type Unary struct {
	P  Pos
	Op string
	X  Expr
}

// If is `if "name" then Then else Else`.
type If struct {
	P          Pos
	Cond       string
	Then, Else Expr
}

func (e *Name) At() Pos     { return e.P }
func (e *Empty) At() Pos    { return e.P }
func (e *Universe) At() Pos { return e.P }
func (e *Binary) At() Pos   { return e.P }
func (e *Unary) At() Pos    { return e.P }
func (e *If) At() Pos       { return e.P }

// Binding is NAME = Expr in a let.
type Binding struct {
	P    Pos
	Name string
	X    Expr
}

// Stmt is a statement: *Let, *Check, *Flag.
type Stmt interface{ At() Pos }

// Let binds names in order; a rec let binds them together, as the least fixpoint.
type Let struct {
	P        Pos
	Rec      bool
	Bindings []Binding
	// Doc is the comment just above the let, the paragraph docs print.
	Doc string
}

// Check is acyclic, irreflexive or empty: a candidate execution that breaks it is not
// an execution of the model.
type Check struct {
	P    Pos
	Kind string // "acyclic", "irreflexive", "empty"
	X    Expr
	Name string
	Doc  string
}

// Flag raises rule Name in an execution where X is not empty (herd's `flag ~empty`).
// Relaxed: judged on the executions of hw relaxed, whatever the run's hw model.
type Flag struct {
	P       Pos
	Relaxed bool
	X       Expr
	Name    string
	Doc     string
}

func (s *Let) At() Pos   { return s.P }
func (s *Check) At() Pos { return s.P }
func (s *Flag) At() Pos  { return s.P }

// Model is a parsed model file with its includes inlined.
type Model struct {
	File    string
	Title   string   // the string the file opens with, if any
	Options []string // option statements: switches that shape the events
	Stmts   []Stmt
}
