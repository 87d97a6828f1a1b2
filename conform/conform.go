// Package conform runs litmus tests many times on a Target — the reference runtime
// (Reference) or an MPI library (MPI, through conform/cgen) — and compares what
// happened with what the model allows for the same semantics and hw model.
package conform

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

// Options of a conformance run, the same for every target. What belongs to one
// target (the reference runtime's options, a library's launcher and timeout) is a
// field of that target's value (Reference, MPI).
type Options struct {
	Runs int // iterations; 0: the target's default (Target.DefaultRuns)
	Seed int64
	// IncludeErroneous runs tests that some execution makes erroneous (undefined
	// behaviour); by default they are skipped.
	IncludeErroneous bool
	Progress         func(done, total int)
	// Search bounds the model's search of the allowed outcomes.
	Search explorer.Options
	// HW is the hardware model the observed outcomes are compared with (nil: the
	// machine's, MachineHW).
	HW *spec.HW
	// Context, when not nil, stops a run when it ends (an interrupt): a library's
	// launcher and its ranks are stopped, the temporary files removed, and Check
	// returns its cause.
	Context context.Context
}

// Bin is one observed outcome.
type Bin struct {
	Values  []int64
	Count   int
	Allowed bool // the model allows it
	Sat     bool // it satisfies the test's condition
}

// Report is the result of one test on one target.
type Report struct {
	Test          *litmus.Test
	Target        TargetInfo
	Sem           spec.Semantics
	HW            spec.HW // the hw model the target is compared with
	Runs          int
	Bins          []Bin
	Positive      int // runs whose outcome satisfies the condition
	Negative      int
	NonConforming int       // runs whose outcome the model forbids
	Unseen        [][]int64 // outcomes the model allows that no run showed
	Rate          float64   // iterations per wall second of the target's execution (the launch, for MPI)
	Elapsed       time.Duration
	Seed          int64
	Skipped       string // why the test was not run, if it was not
	// SpinLimit: a spin loop of the test did not exit on the target within its spin
	// bound (cgen's SPIN-LIMIT line): the run stopped, there is no histogram.
	SpinLimit string
	Model     *explorer.Result
	// Models: MPI_WIN_MODEL of each window as a real library reports it ("W unified").
	Models []string
	// Placement (real-MPI targets): the launcher and the node of each rank.
	Placement *Placement
	// Starvation (reference target): the part of the run the ranks spent ready to run
	// but off a CPU (reference.Result.Starvation; 0 when unknown). Starved when it is
	// over a quarter: the machine was loaded, so outcomes that need the ranks side by
	// side were rare.
	Starvation float64
	Starved    bool
}

// MachineHW is the hardware model the reference runtime is compared with.
func MachineHW() spec.HW {
	return reference.MachineHW
}

// ComparedHW is the hardware model opt says to compare with.
func (opt Options) ComparedHW() spec.HW {
	if opt.HW == nil {
		return MachineHW()
	}
	return *opt.HW
}

// Check runs t on target under sem and compares what happened with the outcomes the
// model allows for sem on opt's hardware model: the model is searched once, the
// target executes, and the histogram is compared once, the same for every target. A
// test the model finds erroneous is skipped unless opt.IncludeErroneous.
func Check(target Target, t *litmus.Test, sem spec.Semantics, opt Options) (*Report, error) {
	rep := &Report{Test: t, Target: target.Info(), Sem: sem, HW: opt.ComparedHW(), Seed: opt.Seed}
	allowed := explorer.Job{Test: t, Sem: sem, HW: rep.HW}.Run(opt.Search)
	if allowed.Err != nil {
		return nil, allowed.Err
	}
	rep.Model = allowed.Result
	if allowed.Result.Erroneous() && !opt.IncludeErroneous {
		rep.Skipped = "skipped: the model finds it " + allowed.Result.Verdict().ObsString() + " (undefined behaviour); --include-erroneous runs it anyway"
		return rep, nil
	}
	p, err := model.Compile(t, sem, spec.SC)
	if err != nil {
		return nil, err
	}
	x := Execution{Test: t, Program: p, Runs: cmp.Or(opt.Runs, target.DefaultRuns(p)), Seed: opt.Seed, Context: opt.Context}
	if x.Context == nil {
		x.Context = context.Background()
	}
	if opt.Progress != nil {
		x.Progress = func(done int) { opt.Progress(done, x.Runs) }
	}
	h, err := target.Execute(x)
	if re := (*RunError)(nil); errors.As(err, &re) && re.Test == "" {
		re.Test = t.Name
	}
	if err != nil {
		return nil, err
	}
	rep.compare(h, allowed.Result)
	return rep, nil
}

// Reference is the reference runtime as a target: the program on real shared memory,
// one OS thread per rank, with Runtime's further options (its Runs, Seed and
// Progress come from the Execution).
type Reference struct {
	Runtime reference.Options
}

// Info says it is the reference runtime.
func (Reference) Info() TargetInfo { return TargetInfo{Kind: KindReference} }

// DefaultRuns is 10^6 for programs without MPI calls, 10^4 for the others.
func (Reference) DefaultRuns(p *model.Program) int {
	if hasMPI(p) {
		return 10_000
	}
	return 1_000_000
}

// Execute runs the program on the reference runtime.
func (r Reference) Execute(x Execution) (*Histogram, error) {
	ropt := r.Runtime
	ropt.Runs, ropt.Seed, ropt.Progress = x.Runs, x.Seed, x.Progress
	res, err := reference.Run(x.Program, ropt)
	if se := (*reference.SpinError)(nil); errors.As(err, &se) {
		// a loop that never exits (LIVELOCK shown, or past the spin bound): the run's
		// finding, as a library's SPIN-LIMIT line is, so that it means the same on
		// every target (the model's verdict says whether the standard allows it)
		return &Histogram{SpinLimit: se.Line()}, nil
	}
	if err != nil {
		// A deadlock or livelock of the runtime is the target not running the test, as
		// a library's timeout is: one meaning of exit status 3 whatever the target.
		return nil, &RunError{Lib: "the reference runtime", Reason: err.Error()}
	}
	return &Histogram{Runs: res.Runs, Elapsed: res.Elapsed, Bins: res.Bins, Starvation: res.Starvation(), Starved: res.Starved()}, nil
}

// hasMPI reports whether the program makes an MPI call.
func hasMPI(p *model.Program) bool {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			if p.Procs[i].Code[k].IsMPI {
				return true
			}
		}
	}
	return false
}

// compare fills the report from a histogram and the model's allowed outcomes.
func (rep *Report) compare(h *Histogram, allowed *explorer.Result) {
	rep.SpinLimit, rep.Skipped, rep.Models, rep.Placement = h.SpinLimit, h.Skipped, h.Models, h.Placement
	rep.Starvation, rep.Starved = h.Starvation, h.Starved
	if h.SpinLimit != "" || h.Skipped != "" {
		return
	}
	rep.Runs, rep.Elapsed = h.Runs, h.Elapsed
	if h.Elapsed > 0 {
		rep.Rate = float64(h.Runs) / h.Elapsed.Seconds()
	}
	allowedSet := map[model.OutcomeKey]bool{}
	for _, o := range allowed.Outcomes {
		allowedSet[model.KeyOf(o.Values)] = true
	}
	p := allowed.Program
	seen := map[model.OutcomeKey]bool{}
	for _, b := range h.Bins {
		if !p.Keep(b.Values) {
			continue // dropped before the condition, as the model does
		}
		k := model.KeyOf(b.Values)
		bin := Bin{Values: b.Values, Count: b.Count, Allowed: allowedSet[k], Sat: p.Sat(b.Values)}
		seen[k] = true
		if bin.Sat {
			rep.Positive += b.Count
		} else {
			rep.Negative += b.Count
		}
		if !bin.Allowed {
			rep.NonConforming += b.Count
		}
		rep.Bins = append(rep.Bins, bin)
	}
	for _, o := range allowed.Outcomes {
		if !seen[model.KeyOf(o.Values)] {
			rep.Unseen = append(rep.Unseen, o.Values)
		}
	}
}

// Observation is litmus7's: Never, Sometimes or Always, over the runs.
func (rep *Report) Observation() string {
	return litmus.ObsOf(rep.Positive, rep.Negative).String()
}
