package main

import (
	"regexp"
	"testing"
)

// maskTime hides the Time lines of herd7 blocks (they vary from run to run).
func maskTime(s string) string {
	return regexp.MustCompile(`(?m)^Time (\S+) [0-9.]+$`).ReplaceAllString(s, "Time $1 T")
}

// The axiomatic engine's commands: run --engine axiomatic (a preset's model, a
// user's model file, a model file with an error at its line and column) and
// crosscheck (agreement, a test out of scope, known departures).
func TestAxiomaticGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"run_axiomatic", []string{"run", "--engine", "axiomatic", "--sem", "mpi-3.0", "--sem", "mpi-4.1", "--show", "witness", "testdata/good.lit"}, exitOK},
		{"run_axiomatic_model", []string{"run", "--engine", "axiomatic", "--model", "testdata/axiom-mine.cat", "--hw", "relaxed", "testdata/good.lit"}, exitOK},
		{"run_axiomatic_bad_model", []string{"run", "--engine", "axiomatic", "--model", "testdata/axiom-bad.cat", "testdata/good.lit"}, exitBadInput},
		{"run_axiomatic_out_of_scope", []string{"run", "--engine", "axiomatic", "--sem", "A", "testdata/mp-flush-poll.lit"}, exitBadInput},
		{"crosscheck", []string{"crosscheck", "testdata/good.lit", "testdata/mp-flush-poll.lit"}, exitOK},
		{"crosscheck_model", []string{"crosscheck", "--witness", "--sem", "mpi-3.0", "--model", "testdata/axiom-mine.cat", "--hw", "relaxed", "testdata/good.lit"}, exitFailed},
	} {
		t.Run(c.name, func(t *testing.T) { checkGolden(t, c.name, c.args, c.code, maskTime) })
	}
}
