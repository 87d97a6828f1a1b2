package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

func newLayoutCmd() *cobra.Command {
	var sem, abi string
	cmd := &cobra.Command{
		Use:   "layout FILE",
		Short: "Print each window's segments with offset, size and guaranteed alignment, and check typed accesses",
		Long: wrapText(`layout places every segment of every window the way docs/semantics.md (Layout and alignment) describes: `+
			`allocate gives each rank its own allocation, contiguous allocate_shared one allocation with rank r after the `+
			`bytes of the ranks below it, alloc_shared_noncontig one per rank, and create and dynamic use user memory. `+
			`An allocation's base is aligned to the largest alignment of a predefined type of the ABI (or `+
			`mpi_minimum_memory_alignment if larger) when the semantics has align_guarantee (MPI-4.0), and to 8 bytes `+
			`otherwise. Then every typed access of the program is checked: an address the guarantee does not align `+
			`for its type is E-ALIGN (node251).`, 80) + "\n" + exitStatusHelp("every typed access is aligned", "some typed access is misaligned (E-ALIGN)"),
		Example: `  rmacheck layout litmus/layout/align-int64-contig.lit
  rmacheck layout --sem mpi-3.0 litmus/layout/align-longdouble-allocate.lit`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sems, err := parseSems([]string{sem})
			if err != nil {
				return err
			}
			a, err := parseABI(abi)
			if err != nil {
				return err
			}
			t, err := loadTest(args[0])
			if err != nil {
				printErrors(cmd.ErrOrStderr(), err)
				return exitWith(exitBadInput)
			}
			segs, locs := model.WindowLayout(t, sems[0], a)
			writeLayout(cmd.OutOrStdout(), t.Name, sems[0].Name, a, segs, locs)
			for _, l := range locs {
				if !l.OK {
					return exitWith(exitFailed)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&sem, "sem", string(spec.DefaultPreset), "semantics PRESET[,switch=on|off...] (align_guarantee decides the guarantee)")
	addABIFlag(cmd.Flags(), &abi)
	return cmd
}

func writeLayout(w io.Writer, test, sem string, abi model.ABI, segs []model.Segment, locs []model.LocationAlign) {
	fmt.Fprintf(w, "Layout of %s under %s (abi %s)\n", test, sem, abi.Name)
	rows := [][]string{{"window", "flavor", "rank", "bytes", "allocation", "offset", "start aligned to"}}
	for _, s := range segs {
		align := "its type (user memory)"
		if a := s.StartAlign(); a > 0 {
			align = fmt.Sprint(a)
		}
		rows = append(rows, []string{s.Window, s.Flavor.String(), fmt.Sprint(s.Rank), fmt.Sprint(s.Bytes), s.Allocation, fmt.Sprint(s.Offset), align})
	}
	output.Columns(w, rows)
	if len(locs) == 0 {
		return
	}
	fmt.Fprintln(w)
	rows = [][]string{{"access", "location", "type", "needs", "offset", "aligned to", "verdict"}}
	for _, l := range locs {
		verdict, aligned := "ok", "-"
		if l.Segment.Align > 0 {
			aligned = fmt.Sprint(l.Aligned)
		}
		if !l.OK {
			verdict = spec.EAlign.String()
		}
		rows = append(rows, []string{fmt.Sprintf("P%d row %d: %s", l.Proc, l.Row, l.Instr), l.Loc, l.Type.String(),
			fmt.Sprint(abi.Align(l.Type)), fmt.Sprint(l.Offset), aligned, verdict})
	}
	output.Columns(w, rows)
}
