package main

import (
	"github.com/rmacheck/rmacheck/internal/supervise"
	"os"
	"testing"
)

// TestMain lets a test run this binary as rmacheck itself (RMACHECK_AS_MAIN=1): under a
// file size limit (write_test.go), or to send it signals (signal_test.go, kill_test.go).
func TestMain(m *testing.M) {
	supervise.GuardMain() // MPI runs of the tests get the guard of rmacheck's (the binary again)
	if os.Getenv("RMACHECK_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
