package main

import (
	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/conform/cgen"
)

func newCgenCmd() *cobra.Command {
	var runs, jitter int
	maxWindowBytes := byteSize(cgen.DefaultMaxWindowBytes)
	cmd := &cobra.Command{
		Use:   "cgen FILE",
		Short: "Print the C program that runs a litmus test on a real MPI library",
		Long: wrapText(`cgen translates a litmus test into one readable C program for MPICH or Open MPI, the `+
			`program that 'rmacheck conform --target mpich|openmpi' compiles and runs: the windows are created `+
			`as declared, each rank runs its column as real MPI calls and volatile loads and stores, the `+
			`iterations are released together by a spin barrier in shared memory, and rank 0 prints one `+
			`"OUTCOME count values..." line per observed outcome. Comments map each block to its row, so `+
			`the program can be sent to a library's developers as it is.`, 80) + "\n" + exitStatusHelp("the C program was printed", ""),
		Example: `  rmacheck cgen litmus/ticket435/SB+fence.lit > sb.c
  mpicc.mpich -O2 -Wall -Werror -o sb sb.c && mpiexec.mpich -n 2 ./sb 100000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := firstError(atLeast("runs", runs, 0, "0: 10000"), atLeast("jitter", jitter, -1, "-1: none")); err != nil {
				return err
			}
			t, err := loadTest(args[0])
			if err != nil {
				printErrors(cmd.ErrOrStderr(), err)
				return exitWith(exitBadInput)
			}
			src, err := cgen.Generate(t, cgen.Options{Runs: runs, Jitter: jitter, MaxWindowBytes: int(maxWindowBytes)})
			if err != nil {
				printErrors(cmd.ErrOrStderr(), err) // FILE:LINE:COL: cgen: ..., as check prints
				return exitWith(exitBadInput)
			}
			_, err = cmd.OutOrStdout().Write(src)
			return err
		},
	}
	cmd.Flags().IntVar(&runs, "runs", 10000, "iterations when the program's command line gives none")
	cmd.Flags().IntVar(&jitter, "jitter", 4, "default bound of each rank's random start delay, in pause instructions (-1: none)")
	cmd.Flags().Var(&maxWindowBytes, "max-window-bytes", "refuse a test whose window segment on one rank is larger than this (e.g. 16MiB)")
	return cmd
}
