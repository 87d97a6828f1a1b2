// Package output holds rmacheck's output formats, each written in one place: the
// herd7-style block of a search, the side-by-side table across presets, litmus7-
// style histograms of conformance runs, differences between two semantics, traces,
// diagnostics as FILE:LINE:COL: RULE: message, and the versioned JSON records of
// run and conform (which the evidence reports read back with the same types).
//
// The formats are stable: scripts read them, and the CLI's golden tests pin them.
package output

import (
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// Citation is the MPI-4.1 report nodes a rule rests on, as a message suffix
// (" [node327, node330]"), or "" for a rule with none (DEADLOCK, RACE).
func Citation(rule spec.RuleID) string {
	r := rule.Rule()
	if len(r.Nodes) == 0 {
		return ""
	}
	return " [" + r.Cite() + "]"
}

// Position is FILE:LINE:COL of a site (FILE:, LINE:COL or "" when unknown).
func Position(file string, s model.Site) string {
	switch {
	case file != "" && s.Pos.IsValid():
		return fmt.Sprintf("%s:%d:%d", file, s.Pos.Line, s.Pos.Col)
	case s.Pos.IsValid():
		return fmt.Sprintf("%d:%d", s.Pos.Line, s.Pos.Col)
	}
	return file
}

// DiagnosticLine is a diagnostic as text output prints it, compiler style:
// FILE:LINE:COL: RULE: message [nodeNNN].
func DiagnosticLine(file string, d *model.Diagnostic) string {
	var b strings.Builder
	if pos := Position(file, d.At); pos != "" {
		b.WriteString(pos + ": ")
	}
	b.WriteString(d.Rule.String() + ": " + d.Message + Citation(d.Rule))
	return b.String()
}
