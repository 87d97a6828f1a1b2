//go:build !unix

package main

import "os/exec"

// ownGroup: without process groups, cancelling kills the command alone.
func ownGroup(*exec.Cmd) {}
