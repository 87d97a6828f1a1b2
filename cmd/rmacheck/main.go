// Command rmacheck is a memory-model checker and executable specification for MPI
// one-sided communication (RMA): it checks and formats litmus tests (.lit files),
// explores them under each reading of the standard (run, replay, diff, distinguish),
// runs them on real memory and real MPI libraries (conform, fuzz, probe, cgen), writes
// evidence reports (report), and explains every rule it names (explain, presets).
// This package parses flags and wires the others together; the output formats live
// in package output.
package main

import (
	"context"
	"fmt"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// version is the version string; a release build sets it with
// go build -ldflags "-X main.version=v0.1.0".
var version = "0.1.0-dev"

func main() {
	supervise.GuardMain() // the guard of MPI runs is this binary in a hidden mode
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args with the given output streams and returns the exit
// status. Tests call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(context.WithValue(context.Background(), argvKey{}, args))
	if out.err != nil && exitCode(err) < exitBadInput {
		// A result nobody could read is no result (/dev/full, a full disk, a closed
		// pipe): say so and fail as every other I/O error does.
		fmt.Fprintf(stderr, "rmacheck: writing standard output: %v\n", out.err)
		return exitBadInput
	}
	if err == nil {
		return exitOK
	}
	if msg := errorMessage(err); msg != "" {
		fmt.Fprintf(stderr, "rmacheck: %s\n", cutQuoted(msg))
	}
	if isUsage(err) && cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return exitCode(err)
}

// checkedWriter passes writes on and keeps the first error, which run reports once the
// command is done: commands write their output with fmt.Fprint* and do not check each call.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// longQuoted matches a quoted value of more than maxQuoted bytes in a message.
var longQuoted = regexp.MustCompile(`"((?:[^"\\]|\\.){` + strconv.Itoa(maxQuoted+1) + `,})"`)

// maxQuoted is the most of a value a message quotes (issue 38 row 19: a 100 KB --sem
// was echoed whole, twice).
const maxQuoted = 120

// cutQuoted cuts every quoted value of msg to its first maxQuoted bytes and says how
// long it was.
func cutQuoted(msg string) string {
	return longQuoted.ReplaceAllStringFunc(msg, func(q string) string {
		return q[:maxQuoted] + fmt.Sprintf(`..." (%d bytes)`, len(q)-2)
	})
}

func errorMessage(err error) string {
	if ee, ok := err.(exitError); ok && ee.err == nil {
		return ""
	}
	if ee, ok := err.(*exitError); ok && ee.err == nil {
		return ""
	}
	return err.Error()
}

// newRootCmd builds the whole command tree. Each call returns a fresh tree (flags included),
// so tests can run many command lines in one process.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "rmacheck",
		Short: "A memory-model checker for MPI one-sided communication (RMA)",
		Long: wrapText(`rmacheck is a formal memory-model checker and executable specification for MPI `+
			`one-sided communication (RMA). It does for MPI what herd7 and litmus7 do for CPU memory `+
			`models: a litmus test (a .lit file) is a small MPI program with windows, RMA calls, `+
			`synchronization and plain loads and stores, followed by a question about its final state; `+
			`rmacheck checks such files, explains every rule of the semantics with its citation of the `+
			`MPI-4.1 report, and runs them under each reading of the standard.`, 80) + "\n" +
			"A reading of the standard is a preset, changed with --sem PRESET[,switch=on|off...]:\n\n" +
			presetSummary() + "\n" +
			"Run 'rmacheck presets' for the switches of each preset and 'rmacheck explain RULE'\n" +
			"for the rule an error names.\n" + exitStatusHelp("success: every expectation met, nothing found",
			"a finding or an incomplete result: an expectation broken, an outcome the model forbids, two semantics that differ, a reproducer, a misaligned access, a search stopped at --max-states",
			"3 (conform, fuzz, probe) the MPI target could not run a test: missing, refused, timed out, crashed, or stopped at its spin limit",
			"130/143 (conform, fuzz, probe with an MPI library) interrupted by SIGINT or SIGTERM: the MPI processes are stopped and the temporary files removed") +
			"\n\n'rmacheck COMMAND --help' says what each status means for that command.",
		Example: `  rmacheck check litmus                # parse and validate the whole corpus
  rmacheck fmt -l litmus               # list files not in canonical form
  rmacheck explain E-EPOCH             # the rule, its class and its citation
  rmacheck presets                     # the preset x switch table`,
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("rmacheck version {{.Version}}\n")
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	maxFileSize = litmus.MaxFileSize
	root.PersistentFlags().Var((*byteSize)(&maxFileSize), "max-file-size",
		"refuse input files larger than this (a litmus test is a few hundred bytes): e.g. 64MiB, 512KiB, 100000")
	for _, newCmd := range commands {
		root.AddCommand(newCmd())
	}
	classify(root)
	return root
}

// argvKey keys the command line (the arguments after "rmacheck") in the context run
// gives the command tree, for commands that record it (report).
type argvKey struct{}

// commandLine is the command line that is running, as given to run: "rmacheck ARGS",
// each word quoted for a shell where it needs it.
// Without one (a tree built otherwise) it is "rmacheck" and the command's path and args.
func commandLine(cmd *cobra.Command, args []string) string {
	words := append([]string{cmd.CommandPath()}, args...)
	if argv, ok := cmd.Context().Value(argvKey{}).([]string); ok {
		words = append([]string{"rmacheck"}, argv...)
	}
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it, so a command line
// printed in a report can be pasted back (a --title holds spaces, '#' and '?').
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,:=@%+-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// commands are the constructors of the subcommands, in one list: newRootCmd calls
// each, so every tree gets fresh commands and flags. (cobra lists them sorted.)
var commands = []func() *cobra.Command{
	newCheckCmd, newFmtCmd, newExplainCmd, newPresetsCmd, // the language and the rules
	newRunCmd, newReplayCmd, newDiffCmd, newDistinguishCmd, newLayoutCmd, newCrosscheckCmd, // the model
	newConformCmd, newFuzzCmd, newProbeCmd, newCgenCmd, // targets
	newGenCmd, newReportCmd, // generated tests, reports
}

// presetSummary is one indented line per preset: its name and what it is.
func presetSummary() string {
	var b strings.Builder
	width := 0
	for _, p := range spec.Presets {
		width = max(width, len(p.Name))
	}
	for _, p := range spec.Presets {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, p.Name, p.About)
	}
	return b.String()
}

// maxFileSize bounds every input file (--max-file-size); newRootCmd resets it.
var maxFileSize int64 = litmus.MaxFileSize

// byteSize is a flag holding a positive number of bytes, with an optional unit: B,
// KiB, MiB or GiB (K, M, G and KB, MB, GB are read as the same binary units).
type byteSize int64

func (b *byteSize) String() string { return litmus.SizeString(int64(*b)) }
func (b *byteSize) Type() string   { return "SIZE" }

func (b *byteSize) Set(s string) error {
	num := strings.TrimRight(s, "BbKkMmGgIi")
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("%q: expected a positive size such as 16MiB, 512KiB or 100000", s)
	}
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30}
	sh, ok := shift[unit]
	if !ok || n > (1<<62)>>sh {
		return fmt.Errorf("%q: expected a positive size such as 16MiB, 512KiB or 100000", s)
	}
	*b = byteSize(n << sh)
	return nil
}
