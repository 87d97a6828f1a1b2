package main

import "testing"

// The command line a report prints can be pasted back into a shell.
func TestShellQuote(t *testing.T) {
	cases := map[string]string{
		"--sem":                          "--sem",
		"mpi-3.0,lock_ls=on":             "mpi-3.0,lock_ls=on",
		"../shared/acceptance/01-SB.lit": "../shared/acceptance/01-SB.lit",
		"Ticket #435: are they RMA?":     "'Ticket #435: are they RMA?'",
		"it's":                           `'it'\''s'`,
		"":                               "''",
	}
	for in, want := range cases {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
