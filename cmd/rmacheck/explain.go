package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

func newExplainCmd() *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "explain RULE|SWITCH|PRESET|HW | explain hw | explain --all",
		Short: "Explain a rule of the semantics, a switch, a preset or a hardware model",
		Long: `Explain prints a rule of the catalogue, as docs/rules.md does: its id, title and
class, what it says, the sentences of the MPI-4.1 report it rests on with their
pages, and an example program. Rule ids are matched ignoring case. Given the
name of a --sem switch it prints what the switch means and the sentence of the
standard it rests on; given a preset, its switches; given a hardware model (sc,
tso, relaxed), what it allows, and "hw" describes all three. With --all it
lists every rule.` + "\n" + exitStatusHelp("the rule, switch, preset or hw model was found", ""),
		Example: `  rmacheck explain E-EPOCH
  rmacheck explain c-conflict
  rmacheck explain fence_ls
  rmacheck explain relaxed
  rmacheck explain hw
  rmacheck explain --all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if all {
				if len(args) > 0 {
					return usageErrorf("explain --all takes no argument, found %q", args[0])
				}
				return explainAll(out)
			}
			if len(args) == 0 {
				return usageErrorf("explain needs a rule id, a switch or a preset name, or --all")
			}
			name := strings.TrimSpace(args[0])
			if r, ok := spec.LookupRule(name); ok {
				explainRule(out, r)
				return nil
			}
			for _, si := range spec.Switches {
				if strings.EqualFold(si.Name, name) {
					explainSwitch(out, si)
					return nil
				}
			}
			for _, p := range spec.Presets {
				if strings.EqualFold(string(p.Name), name) {
					explainPreset(out, p)
					return nil
				}
			}
			if strings.EqualFold(name, "hw") {
				for i, h := range spec.HWModels {
					if i > 0 {
						fmt.Fprintln(out)
					}
					explainHW(out, h)
				}
				return nil
			}
			if h, err := spec.ParseHW(strings.ToLower(name)); err == nil {
				explainHW(out, h)
				return nil
			}
			return exitError{exitBadInput, unknownName(name)}
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "list every rule: id, class, title and nodes")
	return cmd
}

func unknownName(name string) error {
	ids := make([]string, len(spec.Rules))
	for i, r := range spec.Rules {
		ids[i] = r.ID.String()
	}
	sws := make([]string, len(spec.Switches))
	for i, si := range spec.Switches {
		sws[i] = si.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "unknown rule, switch or preset %q\n", name)
	b.WriteString(wrapIndent("rules: "+strings.Join(ids, " "), 80, "  "))
	b.WriteString(wrapIndent("switches: "+strings.Join(sws, " "), 80, "  "))
	b.WriteString(wrapIndent("presets: "+strings.Join(spec.PresetNames(), " "), 80, "  "))
	b.WriteString(wrapIndent("hardware models: "+spec.HWNames(" ")+" (and hw for all three)", 80, "  "))
	return fmt.Errorf("%s", strings.TrimSuffix(b.String(), "\n"))
}

func explainHW(w io.Writer, hw spec.HW) {
	h := hw.Info()
	fmt.Fprintf(w, "%s: a hardware model of --hw: %s\n\n", hw, h.About)
	fmt.Fprint(w, wrapText(h.Text, 80))
}

// explainRule prints a rule's entry of docs/rules.md (spec.RulesMarkdown) as text:
// title and class, what it says, the report's sentences under their pages, and the
// example program, unindented so that it can be copied to a file and run.
func explainRule(w io.Writer, r spec.Rule) {
	fmt.Fprintf(w, "%s: %s\n", r.ID, r.Title)
	fmt.Fprintf(w, "class: %s (%s)\n\n", r.Class, r.Class.Meaning())
	fmt.Fprint(w, wrapText(r.Text, 80))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "MPI-4.1 report:")
	for _, node := range quotedNodes(r) {
		fmt.Fprintf(w, "  %s\n", spec.NodeURL(node))
		for _, q := range r.Quotes {
			if q.Node == node {
				fmt.Fprint(w, indented(`"`+q.Text+`"`, 80, "    "))
			}
		}
	}
	if len(r.Nodes) == 0 {
		fmt.Fprint(w, indented(spec.NoPage, 80, "  "))
	}
	if ex := r.Example(); ex != "" {
		fmt.Fprintf(w, "\nExample (%s):\n\n%s", r.ExamplePath(), ex)
	}
}

// indented fills text into lines of at most width columns, each starting with indent.
func indented(text string, width int, indent string) string {
	return indent + wrapIndent(text, width-len(indent), indent)
}

// quotedNodes are the rule's nodes, then the nodes of its quotes that are not among
// them, each once.
func quotedNodes(r spec.Rule) []string {
	nodes := slices.Clone(r.Nodes)
	for _, q := range r.Quotes {
		if !slices.Contains(nodes, q.Node) {
			nodes = append(nodes, q.Node)
		}
	}
	return nodes
}

func explainSwitch(w io.Writer, si spec.SwitchInfo) {
	var on, off []string
	for _, p := range spec.Presets {
		if p.Switches.Has(si.Switch) {
			on = append(on, string(p.Name))
		} else {
			off = append(off, string(p.Name))
		}
	}
	fmt.Fprintf(w, "%s: a switch of --sem\n", si.Name)
	fmt.Fprint(w, wrapIndent("on: "+si.Meaning, 80, "  "))
	fmt.Fprint(w, wrapIndent("basis: "+si.Basis, 80, "  "))
	fmt.Fprintf(w, "on in presets: %s\n", listOrNone(on))
	fmt.Fprintf(w, "off in presets: %s\n", listOrNone(off))
}

func explainPreset(w io.Writer, p spec.PresetInfo) {
	var on, off []string
	for _, si := range spec.Switches {
		if p.Switches.Has(si.Switch) {
			on = append(on, si.Name)
		} else {
			off = append(off, si.Name)
		}
	}
	fmt.Fprintf(w, "%s: a preset of --sem\n", p.Name)
	fmt.Fprint(w, wrapText(p.About, 80))
	fmt.Fprintln(w)
	fmt.Fprint(w, wrapIndent("switches on: "+listOrNone(on), 80, "  "))
	fmt.Fprint(w, wrapIndent("switches off: "+listOrNone(off), 80, "  "))
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func explainAll(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCLASS\tTITLE\tNODES")
	for _, r := range spec.Rules {
		nodes := "-"
		if len(r.Nodes) > 0 {
			nodes = strings.Join(r.Nodes, " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Class, r.Title, nodes)
	}
	return tw.Flush()
}

// wrapText fills text into lines of at most width columns (a longer word stands alone),
// each ending with a newline.
func wrapText(text string, width int) string { return wrapIndent(text, width, "") }

// wrapIndent is wrapText with every line after the first indented by indent ("" for
// a text of blanks).
func wrapIndent(text string, width int, indent string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return output.Wrap("", text, width, indent)
}
