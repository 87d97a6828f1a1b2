package axiom

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/axiom/cat"
)

// Markdown is docs/axioms.md: the language, the engine's base names, and each model
// file statement by statement, each with the paragraph (its comment) that says what
// it encodes and the sentence of MPI-4.1 it rests on. TestDocsUpToDate keeps the
// file equal to it (go test ./axiom -run DocsUpToDate -update rewrites it).
func Markdown() (string, error) {
	var b strings.Builder
	b.WriteString(docsIntro)
	b.WriteString("\n## The base names\n\nWhat the engine gives a model: sets of events and relations between them. ")
	b.WriteString("rf, co, lo and bufo are the choices of a candidate execution; the others are fixed by the program ")
	b.WriteString("and the control flow.\n\n| name | type | what |\n|---|---|---|\n")
	for _, bn := range Bases {
		typ := "set"
		if bn.info.Type == cat.TRel {
			typ = "relation"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", bn.name, typ, bn.info.Doc)
	}
	for _, name := range append([]string{"rma.cat"}, presetFiles()...) {
		src, err := BuiltinFile(name)
		if err != nil {
			return "", err
		}
		// a file's own statements: its include reads nothing here
		m, err := cat.Parse(name, src, func(string, string) ([]byte, string, error) { return nil, "included", nil })
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n## %s\n\n", name)
		if m.Title != "" {
			fmt.Fprintf(&b, "%s.\n\n", m.Title)
		}
		for _, o := range m.Options {
			fmt.Fprintf(&b, "`option %s`: a switch that shapes the events themselves.\n\n", o)
		}
		writeStatements(&b, m, src)
		if name != "rma.cat" {
			b.WriteString("Then `include \"rma.cat\"`: the rules every preset shares.\n")
		}
	}
	return b.String(), nil
}

func presetFiles() []string {
	var out []string
	for _, p := range PresetNames() {
		out = append(out, p+".cat")
	}
	return out
}

// writeStatements prints each statement's paragraph and its source lines.
func writeStatements(b *strings.Builder, m *cat.Model, src []byte) {
	lines := strings.Split(string(src), "\n")
	stmts := m.Stmts
	var block []string
	flush := func() {
		if len(block) > 0 {
			b.WriteString("```\n" + strings.Join(block, "\n") + "\n```\n\n")
			block = nil
		}
	}
	for i, s := range stmts {
		start := s.At().Line
		end := len(lines)
		if i+1 < len(stmts) {
			end = stmts[i+1].At().Line - 1
		}
		// the statement's text: from its line to the last non-blank, non-comment
		// line before the next statement
		var text []string
		inComment := false
		for _, l := range lines[start-1 : end] {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "(*") {
				inComment = true
			}
			if !inComment && t != "" && !strings.HasPrefix(t, "include ") {
				text = append(text, l)
			}
			if inComment && strings.Contains(t, "*)") {
				inComment = false
			}
		}
		// a paragraph, then the statements it speaks of: its own and the next ones
		// without a paragraph of their own
		if doc := docOf(s); doc != "" || i == 0 {
			flush()
			if doc != "" {
				b.WriteString(doc + "\n\n")
			}
		}
		block = append(block, text...)
	}
	flush()
}

func docOf(s cat.Stmt) string {
	switch s := s.(type) {
	case *cat.Let:
		return s.Doc
	case *cat.Check:
		return s.Doc
	case *cat.Flag:
		return s.Doc
	}
	return ""
}

const docsIntro = `# The axiomatic models

rmacheck states MPI RMA twice. The operational model (model/, the rules of
docs/semantics.md as steps) is what run searches; the axiomatic one (axiom/) describes the same
executions declaratively, in the style of herd7's cat files: a candidate execution
is a set of events with relations between them, and a model file says which
candidates are executions (acyclic, irreflexive, empty checks) and which rules an
execution breaks (flags). ` + "`rmacheck crosscheck`" + ` runs both and reports where they
differ, with a witness from each; ` + "`rmacheck run --engine axiomatic`" + ` runs the
axiomatic engine alone, ` + "`--model FILE`" + ` on a model file of your own (copy one below
and edit it: no recompiling).

This page is generated from the model files built into rmacheck
(axiom/models/*.cat): one per preset, each naming the readings the presets disagree
on, and rma.cat, the rules they share. Each statement comes with the paragraph its
file gives it: what it encodes, and the sentence of the MPI-4.1 report it rests on.

## The language

A model is a list of statements. ` + "`let NAME = EXPR`" + ` binds a set of events or a
relation (` + "`let rec A = ... and B = ...`" + `, a least fixpoint); ` + "`acyclic EXPR as NAME`" + `,
` + "`irreflexive EXPR as NAME`" + `, ` + "`empty EXPR as NAME`" + ` are checks a candidate must pass;
` + "`flag ~empty EXPR as RULE`" + ` raises a rule of the catalogue (` + "`rmacheck explain RULE`" + `)
in an execution where EXPR is not empty, and ` + "`flag relaxed ~empty ...`" + ` judges it on
the executions of hw relaxed whatever the run's hw model (docs/semantics.md, Concurrency:
concurrency is a property of the MPI program); ` + "`include \"FILE\"`" + ` reads another file
(beside the including one, else among the built-in ones); ` + "`option ls_is_rma`" + `
makes remote loads and stores RMA operations (it changes the events themselves).
Expressions: ` + "`A | B`" + ` union, ` + "`A \\ B`" + ` difference, ` + "`A & B`" + ` intersection,
` + "`r ; s`" + ` sequence, ` + "`S * T`" + ` cartesian product (loosest to tightest), ` + "`~S`" + `
complement, postfix ` + "`r^-1`" + ` inverse, ` + "`r+`" + `, ` + "`r*`" + `, ` + "`r?`" + ` closures, ` + "`[S]`" + ` the
identity on S, ` + "`domain(r)`" + `, ` + "`range(r)`" + `, ` + "`0`" + ` empty, ` + "`_`" + ` every event,
` + "`if \"NAME\" then A else B`" + ` (NAME a hw model: sc, tso, relaxed, or a switch), and
` + "`(* comments *)`" + `: the comment just above a statement is its paragraph here. Errors
name the file, line and column.

A candidate execution: the events of one control flow (which guards hold), those
that happen in one way the execution can end (every process finished, or some
waiting for ever: DEADLOCK), and a choice of reads-from (rf), coherence (co), lock
order (lo) and origin-buffer order (bufo). The engine requires ` + "`wait`" + `, what each
event waits for (fixed by the program: it finds the deadlocked executions with it),
and ` + "`ob`" + `, the order events happen in, which must contain wait, co, from-reads and
reads-from (but a load reading its own store before that store executes): it prunes
candidates with them, and computes the values in the order ob gives.

The scope: plain load/store, put, get, acc, gacc, fop, cas, of one element or of
several (ranges and tuples with literal displacements), fence, PSCW, lock, lock_all,
flush*, sync, send/recv and barrier, with their assertions, on allocate,
allocate_shared and create windows in the unified model, every preset, hw sc, tso
and relaxed. What it does not model it refuses, naming the construct, its file, line
and column: spin loops (repeat/until, await), request-based operations (rput, rget,
racc, rgacc, waitreq, testreq) and MPI_Win_test, computed targets (a rank or
displacement from a register, MPI_PROC_NULL, register-relative ranges), dynamic
windows (attach, detach, accesses through an address), the separate memory model,
windows over another's memory, typed cells, byte segments and alignment info,
shared_query, free, cas_replace=on and weak progress (weak_progress=on).
`
