package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// run --engine axiomatic: the tests under the axiomatic models (axiom/, the model
// files of docs/axioms.md) instead of the operational model's search.

// axiomModels are the models a run uses: --model FILE, else the built-in model of
// each --sem preset (every preset without --sem). A preset's switches cannot be
// changed: the model file is the reading (copy it and edit it, then --model).
func axiomModels(sems []string, file string) ([]*axiom.Model, error) {
	if file != "" {
		if len(sems) > 0 {
			return nil, usageErrorf("--model names the model: --sem goes with the built-in ones")
		}
		m, err := axiom.LoadModel(file)
		if err != nil {
			return nil, usageErrorf("--model: %v", err)
		}
		return []*axiom.Model{m}, nil
	}
	names := axiom.PresetNames()
	if len(sems) > 0 {
		names = nil
		for _, a := range sems {
			for _, part := range splitSemList(a) {
				names = append(names, part)
			}
		}
	}
	var models []*axiom.Model
	for _, n := range names {
		m, err := axiom.Preset(n)
		if err != nil {
			return nil, usageErrorf("--sem %s: %v (the axiomatic engine has a model per preset; to change a reading, copy the preset's file and run it with --model)", n, err)
		}
		models = append(models, m)
	}
	return models, nil
}

func runAxiomatic(cmd *cobra.Command, args []string, f runFlags) error {
	if f.json || f.noReduce || f.assert != "check" || len(f.failOn) > 0 {
		return usageErrorf("--engine axiomatic takes --sem or --model, --hw, --show and --shard only")
	}
	switch f.show {
	case "", "outcomes", "witness", "all":
	default:
		return usageErrorf("--show %q: expected outcomes, witness or all", f.show)
	}
	models, err := axiomModels(f.sems, f.model)
	if err != nil {
		return err
	}
	var hws []spec.HW
	if f.hw != "" {
		hw, err := spec.ParseHW(f.hw)
		if err != nil {
			return usageErrorf("--hw: %v", err)
		}
		hws = []spec.HW{hw}
	}
	tests, bad, err := loadTestsOn(cmd, args, f.shard, f.jobs)
	if err != nil {
		return err
	}
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	runs, passed, failed, refused := 0, 0, 0, 0
	for _, t := range tests {
		th := hws
		if th == nil {
			th = testHWs(t)
		}
		for _, hw := range th {
			for _, m := range models {
				r, err := axiom.Run(t, m, hw)
				if err != nil {
					fmt.Fprintf(errw, "rmacheck: %s (%s, %s): %v\n", t.File, m.Name, hw, err)
					refused++
					continue
				}
				runs++
				var exp *litmus.ExpectItem
				if sem, ok := spec.Preset(spec.PresetName(m.Name)); ok && f.model == "" {
					exp = explorer.FindExpect(t, sem, hw)
				}
				output.AxiomBlock(out, r, exp, output.Show(f.show))
				switch {
				case exp == nil:
				case exp.Met(r.Verdict()):
					passed++
				default:
					failed++
				}
			}
		}
	}
	line := fmt.Sprintf("%s, %s (axiomatic), %s", output.Plural(len(tests), "test"), output.Plural(runs, "run"), output.Plural(passed+failed, "expectation"))
	if passed+failed > 0 {
		line += fmt.Sprintf(": %d passed, %d failed", passed, failed)
	}
	if refused > 0 {
		line += fmt.Sprintf("; %s refused", output.Plural(refused, "run"))
	}
	fmt.Fprintln(out, line)
	switch {
	case bad || refused > 0:
		return exitWith(exitBadInput)
	case failed > 0:
		return exitWith(exitFailed)
	}
	return nil
}

// testHWs are relaxed and the hw models a test's expect lines name.
func testHWs(t *litmus.Test) []spec.HW {
	hws := []spec.HW{spec.Relaxed}
	for _, e := range t.Expects {
		seen := false
		for _, h := range hws {
			seen = seen || h == e.HW
		}
		if !seen {
			hws = append(hws, e.HW)
		}
	}
	return hws
}
