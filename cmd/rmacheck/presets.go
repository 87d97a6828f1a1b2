package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/spec"
)

func newPresetsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "presets [--json]",
		Short: "Show the presets and their switches",
		Long: `Presets prints the table of docs/semantics.md (Presets and switches): one row per preset, one column per
switch, "on" or "-", followed by what each switch means when it is on. A run
takes a preset and may change any switch: --sem PRESET[,switch=on|off...].
With --json it prints the same as a JSON object.` + "\n" + exitStatusHelp("the table was printed", ""),
		Example: `  rmacheck presets
  rmacheck presets --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return presetsJSON(cmd.OutOrStdout())
			}
			return presetsTable(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func presetsTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprint(tw, "preset")
	for _, si := range spec.Switches {
		fmt.Fprintf(tw, "\t%s", si.Name)
	}
	fmt.Fprintln(tw)
	for _, p := range spec.Presets {
		fmt.Fprint(tw, p.Name)
		for _, si := range spec.Switches {
			v := "-"
			if p.Switches.Has(si.Switch) {
				v = "on"
			}
			fmt.Fprintf(tw, "\t%s", v)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "switches:")
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, si := range spec.Switches {
		fmt.Fprintf(tw, "  %s\t%s\n", si.Name, si.Meaning)
	}
	return tw.Flush()
}

// presetsDoc is the JSON form of `rmacheck presets` (format version 1).
type presetsDoc struct {
	Version  int          `json:"version"`
	Presets  []presetJSON `json:"presets"`
	Switches []switchJSON `json:"switches"`
}

type presetJSON struct {
	Name     spec.PresetName `json:"name"`
	About    string          `json:"about"`
	Switches map[string]bool `json:"switches"` // every switch, on or off
}

type switchJSON struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
	Basis   string `json:"basis"`
}

func presetsJSON(w io.Writer) error {
	doc := presetsDoc{Version: 1}
	for _, p := range spec.Presets {
		pj := presetJSON{Name: p.Name, About: p.About, Switches: map[string]bool{}}
		for _, si := range spec.Switches {
			pj.Switches[si.Name] = p.Switches.Has(si.Switch)
		}
		doc.Presets = append(doc.Presets, pj)
	}
	for _, si := range spec.Switches {
		doc.Switches = append(doc.Switches, switchJSON{si.Name, si.Meaning, si.Basis})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
