package main

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestParseMatrix: the options after -- go to each cell's command, conform unless
// -probe asks for probe, which has no --runs (so no --runs over net either).
func TestParseMatrix(t *testing.T) {
	tests := []struct {
		args                []string
		command, netRuns    string
		transports, perCell []string
	}{
		{[]string{"-net-runs", "50", "--", "--runs", "200", "a.lit"}, "conform", "50", []string{"shm", "net"}, []string{"--runs", "200", "a.lit"}},
		{[]string{"-probe", "-net-runs", "50", "-transports", "shm", "--"}, "probe", "", []string{"shm"}, []string{}},
	}
	for _, tt := range tests {
		o, err := parseMatrix(tt.args)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		got := []any{o.command, o.netRuns, o.transports, o.conform}
		if diff := gocmp.Diff([]any{tt.command, tt.netRuns, tt.transports, tt.perCell}, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.args, diff)
		}
	}
	if _, err := parseMatrix([]string{"-probe"}); err == nil {
		t.Error("no -- is accepted")
	}
}
