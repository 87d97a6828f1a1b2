package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/litmus"
)

func newFmtCmd() *cobra.Command {
	var write, list bool
	cmd := &cobra.Command{
		Use:   "fmt [-w] [-l] [FILE|DIR...]",
		Short: "Print litmus tests in canonical form",
		Long: `Fmt prints each .lit file in its canonical form (the form the printer writes:
print(parse(x)) is a fixed point) on standard output. With -l it lists the files
whose formatting differs instead; with -w it rewrites those files in place.
Comments are kept, each before or at the end of the line it belonged to.
Directories are searched for *.lit files as by check. Without arguments it
formats standard input. A file that does not parse or validate is reported as by
check and left alone.` + "\n" + exitStatusHelp("every file parsed and validated (and, with -w, was written)", "-l without -w listed a file: its formatting differs (as CI scripts use gofmt -l)"),
		Example: `  rmacheck fmt litmus/rma/acc-arith+fence.lit
  rmacheck fmt -l litmus
  rmacheck fmt -w litmus`,
		RunE: func(cmd *cobra.Command, args []string) error {
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if len(args) == 0 {
				if write {
					return usageErrorf("cannot use -w with standard input")
				}
				src, err := litmus.ReadAll("<stdin>", cmd.InOrStdin(), maxFileSize)
				if err != nil {
					printErrors(stderr, err)
					return exitWith(exitBadInput)
				}
				t, err := litmus.Parse("<stdin>", src)
				if err != nil {
					printErrors(stderr, err)
					return exitWith(exitBadInput)
				}
				out := litmus.Format(t)
				if list {
					if !bytes.Equal(src, out) {
						fmt.Fprintln(stdout, "<stdin>")
						return exitWith(exitFailed)
					}
					return nil
				}
				_, err = stdout.Write(out)
				return err
			}
			files, cerr := collectFiles(args)
			printErrors(stderr, cerr)
			bad := cerr != nil
			unformatted := false
			for _, f := range files {
				t, src, err := readTest(f)
				if err != nil {
					printErrors(stderr, err)
					bad = true
					continue
				}
				out := litmus.Format(t)
				changed := !bytes.Equal(src, out)
				if list && changed {
					fmt.Fprintln(stdout, f)
					unformatted = true
				}
				if write && changed {
					if err := atomicfile.WriteFile(f, out, 0o644); err != nil {
						printErrors(stderr, err)
						bad = true
					}
				}
				if !list && !write {
					if _, err := stdout.Write(out); err != nil {
						return err
					}
				}
			}
			switch {
			case bad:
				return exitWith(exitBadInput)
			case unformatted && !write:
				return exitWith(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite files whose formatting differs, in place")
	cmd.Flags().BoolVarP(&list, "list", "l", false, "list files whose formatting differs")
	return cmd
}
