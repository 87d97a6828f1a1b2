package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

func newProbeCmd() *cobra.Command {
	var target targetFlags
	var asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "probe --target mpich|openmpi",
		Short: "Ask a real MPI library what it does where the standard changed or is vague",
		Long: wrapText(`probe compiles and runs a small C program (2 ranks) with a library and reports: its `+
			`MPI_Get_library_version and MPI version; MPI_WIN_MODEL for each window flavor; what `+
			`MPI_Win_shared_query does on create, allocate, allocate_shared and dynamic windows (size or error `+
			`class); the alignment of the memory MPI_Alloc_mem, MPI_Win_allocate and MPI_Win_allocate_shared `+
			`(contiguous and noncontig) return for odd sizes (1, 3, 7, 17 bytes), with and without `+
			`mpi_minimum_memory_alignment=64, and whether MPI_Win_get_info reports that key. Each result is `+
			`compared with what MPI-4.0/4.1 require: "ok", or what it violates.`, 80) + "\n" + exitStatusHelp("every result is what the MPI version the library claims requires", "some result violates it", "3 the probe could not be built or run with the library"),
		Example: `  rmacheck probe --target mpich
  rmacheck probe --target openmpi --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := atLeast("timeout", timeout, time.Millisecond, ""); err != nil {
				return err
			}
			lib, err := target.library()
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			pr, err := conform.RunProbe(ctx, lib, timeout)
			if exit, ok := interruptedExit(err); ok {
				return exit
			}
			if err != nil {
				return exitError{code: exitCannotRun, err: err}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if err := record.WriteProbe(out, pr); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(out, "Probe %s: %s (MPI %s)\n", lib.Family, pr.Library, pr.Version)
				for _, r := range pr.Results {
					if r.Topic == "library" {
						continue
					}
					fmt.Fprintf(out, "%-13s %-70s %-22s %s\n", r.Topic, r.Item, r.Value, r.Verdict)
				}
			}
			if n := pr.Violations(); n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "rmacheck: %s: %d results violate a version of MPI the library claims (MPI %s)\n", lib.Family, n, pr.Version)
				return exitWith(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&target.name, "target", "", "the library: mpich or openmpi")
	addLibraryFlags(cmd.Flags(), &target)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as one JSON object")
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "bound on compiling and running the probe")
	return cmd
}
