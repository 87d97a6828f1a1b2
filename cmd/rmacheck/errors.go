package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/litmus"
)

// Exit statuses, the same for every command (docs/commands.md#commands):
const (
	exitOK = 0
	// exitFailed: a finding or an incomplete result: an expectation broken, an outcome
	// the model forbids, two semantics that differ, a search stopped at --max-states.
	exitFailed = 1
	// exitBadInput: bad input, setup or an I/O error: a file that cannot be read,
	// parsed or validated, an output that cannot be written, a bad flag, argument or
	// rule name, an MPI library that is not installed.
	exitBadInput = 2
	// exitCannotRun (conform, fuzz, probe): the library could not run a test: it
	// refuses the ranks, times out, crashes, or stops at its spin limit where the
	// standard does not allow a hang. A hang MPI-4.1 allows (weak progress) is no
	// failure: status 0.
	exitCannotRun = 3
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
// (cobra's own errors are usage errors: unknown flags, commands, wrong argument counts;
// a command's plain errors are made exitErrors by classify).
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

// isUsage reports whether err is a command-line mistake, worth a hint at --help: a
// usageError, or one of cobra's own errors (a command's plain errors never reach here
// as such: classify makes them exitErrors).
func isUsage(err error) bool {
	var ue usageError
	if errors.As(err, &ue) {
		return true
	}
	var ee exitError
	var pe *exitError
	return !errors.As(err, &ee) && !errors.As(err, &pe)
}

// classify wraps the RunE of cmd and of every command below it: a plain error a
// command returns (writing its output failed, say) is an I/O error, status 2, and not
// a command-line mistake, so it gets no hint at --help.
func classify(cmd *cobra.Command) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			err := run(c, args)
			var ue usageError
			var ee exitError
			var pe *exitError
			if err == nil || errors.As(err, &ue) || errors.As(err, &ee) || errors.As(err, &pe) {
				return err
			}
			return exitError{code: exitBadInput, err: err}
		}
	}
	for _, sub := range cmd.Commands() {
		classify(sub)
	}
}

// ioError is the error of an output that cannot be written (status 2).
func ioError(err error) error { return exitError{code: exitBadInput, err: err} }

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

// exitStatusHelp is the "Exit status" paragraph of a command's --help: what 0 means for
// it, what 1 means ("" when the command has no such outcome), then 2, which is the same
// for every command, then any further codes, each given as "3 what it means".
func exitStatusHelp(ok, failed string, more ...string) string {
	var b strings.Builder
	b.WriteString("\nExit status:\n")
	line := func(code, text string) {
		indent := strings.Repeat(" ", len(code)+4)
		for i, l := range strings.Split(strings.TrimSuffix(wrapText(text, 80-len(indent)), "\n"), "\n") {
			if i == 0 {
				fmt.Fprintf(&b, "  %s  %s\n", code, l)
			} else {
				fmt.Fprintf(&b, "%s%s\n", indent, l)
			}
		}
	}
	line("0", ok)
	if failed != "" {
		line("1", failed)
	}
	line("2", "bad input or setup: a file that cannot be read, parsed or validated, an output that cannot be written, a bad flag or argument, an MPI library that is not installed")
	for _, m := range more {
		code, text, _ := strings.Cut(m, " ")
		line(code, text)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// atLeast refuses a flag value below min (status 2): negative counts, bounds and
// durations make no sense, and used to be taken silently (--max-states -1 meant no
// bound, --runs -1 printed a negative rate). what, when not "", says what the smallest
// value means.
func atLeast[T int | int64 | time.Duration](flag string, v, min T, what string) error {
	if v >= min {
		return nil
	}
	if what != "" {
		what = " (" + what + ")"
	}
	return usageErrorf("--%s %v: must be at least %v%s", flag, v, min, what)
}

// firstError is the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
