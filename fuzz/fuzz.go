// Package fuzz runs random race-free programs (gen.Program) on a conformance target
// and shrinks any that shows an outcome the model forbids (gen.Shrink) to a small
// reproducer. gen draws and shrinks programs; running them is this package's.
package fuzz

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// forbiddenOn runs t on the target and lists the outcomes it showed that the model
// forbids.
func forbiddenOn(target conform.Target, t *litmus.Test, sem spec.Semantics, runs int, seed int64, opt Options) ([][]int64, error) {
	return forbidden(conform.Check(target, t, sem, conform.Options{Runs: runs, Seed: seed, Search: gen.SmallSearch(opt.Search), Context: opt.Context}))
}

// forbidden lists the outcomes of a conformance run that the model forbids.
func forbidden(rep *conform.Report, err error) ([][]int64, error) {
	if err != nil {
		return nil, err
	}
	var bad [][]int64
	for _, b := range rep.Bins {
		if !b.Allowed {
			bad = append(bad, b.Values)
		}
	}
	return bad, nil
}

// Options configure a fuzzing campaign.
type Options struct {
	Sem      spec.Semantics
	Target   conform.Target // default conform.Reference{}; its name goes into the reproducer
	Config   gen.Config     // the programs drawn (gen.Program)
	Time     time.Duration
	Programs int   // at most this many programs drawn (0: until Time)
	Runs     int   // runs of each program on the target (default 2000)
	Recheck  int   // runs of the shrunk program before it is reported (default 10 x Runs)
	Seed     int64 // the first program is gen.Program(Config).Example(Seed)
	// ShrinkBudget bounds the target runs spent shrinking one program (default 300).
	ShrinkBudget int
	// Search bounds the model's searches (MaxStates 0: 1,000,000).
	Search explorer.Options
	// Context, when not nil, stops a run on a library when it ends (conform.Options).
	Context context.Context
	Log     func(format string, args ...any)
}

// Finding is a reproducer: a race-free program on which the target shows outcomes
// the model forbids.
type Finding struct {
	Original  *litmus.Test
	Test      *litmus.Test // shrunk
	Source    []byte       // canonical .lit text of Test
	Forbidden [][]int64    // outcomes of the recheck the model forbids
	Program   int          // index of the program drawn (seed = Seed + Program)
}

// Result is what a campaign did.
type Result struct {
	Programs, RaceFree, Runs int
	Findings                 []Finding
	Unconfirmed              int // findings whose shrunk program showed nothing on the recheck
	Elapsed                  time.Duration
}

// Fuzz draws random programs, keeps those the explorer finds race-free (no flag at
// all under Sem on the machine's hw model), runs each on the target, and on any
// outcome the model forbids shrinks the program (Shrink: it must stay race-free and
// still show a forbidden outcome) and re-checks it with Recheck runs. It stops at
// the first confirmed finding, after Programs programs, or when Time is up.
func Fuzz(opt Options) (*Result, error) {
	if opt.Target == nil {
		opt.Target = conform.Reference{}
	}
	if opt.Runs == 0 {
		opt.Runs = 2000
	}
	if opt.Recheck == 0 {
		opt.Recheck = 10 * opt.Runs
	}
	if opt.ShrinkBudget == 0 {
		opt.ShrinkBudget = 300
	}
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	hw := conform.MachineHW()
	start := time.Now()
	res := &Result{}
	programs := gen.Program(opt.Config)
	raceFree := func(t *litmus.Test) bool {
		jr := explorer.Job{Test: t, Sem: opt.Sem, HW: hw}.Run(gen.SmallSearch(opt.Search))
		return jr.Err == nil && len(jr.Result.Flags) == 0
	}
	for i := 0; (opt.Programs == 0 || i < opt.Programs) && (opt.Time == 0 || time.Since(start) < opt.Time); i++ {
		seed := opt.Seed + int64(i)
		lt := programs.Example(int(seed))
		res.Programs++
		if !raceFree(lt) {
			continue
		}
		res.RaceFree++
		bad, err := forbiddenOn(opt.Target, lt, opt.Sem, opt.Runs, seed, opt)
		res.Runs += opt.Runs
		if err != nil {
			return res, fmt.Errorf("program %d: %w", i, err)
		}
		if len(bad) == 0 {
			continue
		}
		logf("program %d shows %d forbidden outcomes; shrinking", i, len(bad))
		small := gen.Shrink(lt, func(t *litmus.Test) bool {
			if !raceFree(t) {
				return false
			}
			b, err := forbiddenOn(opt.Target, t, opt.Sem, opt.Runs, seed, opt)
			res.Runs += opt.Runs
			return err == nil && len(b) > 0
		}, opt.ShrinkBudget)
		again, err := forbiddenOn(opt.Target, small, opt.Sem, opt.Recheck, seed+1, opt)
		res.Runs += opt.Recheck
		if err != nil || len(again) == 0 {
			res.Unconfirmed++
			logf("program %d: the shrunk program shows nothing forbidden in %d runs; going on", i, opt.Recheck)
			continue
		}
		renamed := *small // Shrink's copy, whose name and doc change below
		small = &renamed
		small.Name = fmt.Sprintf("fuzz-%s-%s-%d", opt.Target.Info().Name(), opt.Sem.Name, seed)
		p, _ := model.Compile(small, opt.Sem, hw)
		var shown []string
		for _, v := range again {
			shown = append(shown, p.OutcomeString(v))
		}
		sort.Strings(shown)
		small.Doc = fmt.Sprintf("Found by rmacheck fuzz on target %s (semantics %s, hw %s, program seed %d): a race-free program on which the target shows %s, which the model forbids.",
			opt.Target.Info().Name(), opt.Sem.Name, hw, seed, strings.Join(shown, " / "))
		small.HasDoc = true
		small.Meta = []litmus.Meta{{Key: "Generator", Value: fmt.Sprintf("rmacheck fuzz --target %s --sem %s --seed %d", opt.Target.Info().Name(), opt.Sem.Name, seed)}}
		src := litmus.Format(small)
		final, err := litmus.Parse(small.Name+".lit", src)
		if err != nil {
			return res, fmt.Errorf("gen: the reproducer does not parse: %v\n%s", err, src)
		}
		res.Findings = append(res.Findings, Finding{Original: lt, Test: final, Source: src, Forbidden: again, Program: i})
		break
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
