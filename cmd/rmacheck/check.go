package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/output"
)

func newCheckCmd() *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "check [-v] FILE|DIR...",
		Short: "Parse and validate litmus tests",
		Long: `Check parses and validates each .lit file and prints every error it finds, one a
line, as FILE:LINE:COL: message, on standard error. A directory is searched
recursively for *.lit files (testdata and hidden directories are skipped).
Every file is checked, even after a bad one; a summary line follows ("checked N
files, M bad").` + "\n" + exitStatusHelp("every file is good", ""),
		Example: `  rmacheck check litmus/ticket435/SB+fence.lit
  rmacheck check -v litmus`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			files, cerr := collectFiles(args)
			printErrors(stderr, cerr)
			bad := 0
			for _, f := range files {
				if _, err := loadTest(f); err != nil {
					printErrors(stderr, err)
					bad++
				} else if verbose {
					fmt.Fprintf(stdout, "ok %s\n", f)
				}
			}
			fmt.Fprintf(stderr, "checked %s, %d bad\n", output.Plural(len(files), "file"), bad)
			if bad > 0 || cerr != nil {
				return exitWith(exitBadInput)
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print an \"ok FILE\" line for each good file")
	return cmd
}
