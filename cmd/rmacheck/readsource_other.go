//go:build !unix

package main

import "github.com/rmacheck/rmacheck/litmus"

// readSource reads a test file: litmus.ReadFile.
func readSource(path string, limit int64) ([]byte, error) { return litmus.ReadFile(path, limit) }
