package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/litmus"
)

// Exit statuses (DESIGN.md): 0 all expectations met, 1 an expectation failed, 2 bad input.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
)

// exitError makes a command end with a given exit status. When err is nil the command has
// already printed what went wrong and main prints nothing more.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e exitError) Unwrap() error { return e.err }

// exitWith returns an exitError with the given status and no further message.
func exitWith(code int) error { return exitError{code: code} }

// usageErrorf is a usage error: its message is printed with a hint at --help, status 2.
func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// usageError marks a mistake on the command line (flags, arguments).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode is the status a command's error asks for: that of an exitError, else 2
// (cobra's own errors are all usage errors: unknown flags, commands, wrong argument counts).
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var pe *exitError
	if errors.As(err, &pe) && pe != nil {
		return pe.code
	}
	return exitBadInput
}

// isUsage reports whether err is a command-line mistake, worth a hint at --help.
func isUsage(err error) bool {
	var ee exitError
	var pe *exitError
	if errors.As(err, &ee) || errors.As(err, &pe) {
		return false
	}
	return true
}

// printErrors writes every error in err on w, one a line: each entry of a litmus.ErrorList
// as FILE:LINE:COL: msg, each member of an errors.Join in turn, anything else as is.
func printErrors(w io.Writer, err error) {
	if err == nil {
		return
	}
	var list litmus.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, e.Error())
		}
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			printErrors(w, e)
		}
		return
	}
	fmt.Fprintln(w, err.Error())
}
