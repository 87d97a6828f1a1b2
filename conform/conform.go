// Package conform runs litmus tests many times on a Target — the reference runtime
// (Reference) or an MPI library (MPI, through conform/cgen) — and compares what
// happened with what the model allows for the same semantics and hw model.
package conform

import (
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
	Runs int // iterations; 0: the target's default (Target.Run)
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
	// launcher and its ranks are stopped, the temporary files removed, and Run
	// returns its cause.
	Context context.Context
}

// Target is where conform runs a test: the reference runtime or one MPI library.
// Each is a value (Reference, MPI), so a new target, such as a library installed at
// a prefix of the user's, is one more value and needs no change here or in cmd.
type Target interface {
	// Name is the target's short name, as reports and JSON records show it
	// ("reference", "mpich", "openmpi").
	Name() string
	// Describe is what runs the tests: the library and its version ("MPICH 4.0.2"),
	// or "" for the reference runtime.
	Describe() string
	// Transport is the library's transport profile (shm, net; Library.Over), or ""
	// for the reference runtime.
	Transport() string
	// Run runs t opt.Runs times under sem and compares the histogram with the
	// outcomes the model allows.
	Run(t *litmus.Test, sem spec.Semantics, opt Options) (*Report, error)
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
	Target        string
	Library       string // the MPI library and version, for real-MPI targets
	Transport     string // the library's transport profile (Library.Transport)
	Sem           spec.Semantics
	HW            spec.HW // the hw model the target is compared with
	Runs          int
	Bins          []Bin
	Positive      int // runs whose outcome satisfies the condition
	Negative      int
	NonConforming int       // runs whose outcome the model forbids
	Unseen        [][]int64 // outcomes the model allows that no run showed
	Rate          float64   // iterations/s
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

	raw *reference.Result // the parsed histogram of a real-MPI run, before compare
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

// Reference is the reference runtime as a target: the program on real shared memory,
// one OS thread per rank, with Runtime's further options (its Runs, Seed and
// Progress come from Options).
type Reference struct {
	Runtime reference.Options
}

// ReferenceName is the reference runtime's target name: what --target names it by and
// what its records say (the one spelling of the word; Reference.Name prints it).
const ReferenceName = "reference"

// Name is ReferenceName.
func (Reference) Name() string { return ReferenceName }

// Describe is "": the runtime is this program's own.
func (Reference) Describe() string { return "" }

// Transport is "": the ranks are threads of this program.
func (Reference) Transport() string { return "" }

// Run runs t on the reference runtime under sem; 0 runs: 10^6 for programs without
// MPI calls, 10^4 for the others.
func (r Reference) Run(t *litmus.Test, sem spec.Semantics, opt Options) (*Report, error) {
	rep, allowed, err := begin(t, sem, r.Name(), opt.ComparedHW(), opt)
	if err != nil || rep.Skipped != "" {
		return rep, err
	}
	// The runtime takes the model's MPI steps; plain accesses are the machine's own,
	// so the program is compiled without a hw model's store buffers.
	p, err := model.Compile(t, sem, spec.SC)
	if err != nil {
		return nil, err
	}
	runs := opt.Runs
	if runs == 0 {
		runs = defaultRuns(p)
	}
	var progress func(int)
	if opt.Progress != nil {
		progress = func(done int) { opt.Progress(done, runs) }
	}
	ropt := r.Runtime
	ropt.Runs, ropt.Seed, ropt.Progress = runs, opt.Seed, progress
	res, err := reference.Run(p, ropt)
	if se := (*reference.SpinError)(nil); errors.As(err, &se) {
		// a loop that never exits (LIVELOCK shown, or past the spin bound): the run's
		// finding, as a library's SPIN-LIMIT line is, so that it means the same on
		// every target (the model's verdict says whether the standard allows it)
		rep.SpinLimit = se.Line()
		return rep, nil
	}
	if err != nil {
		// A deadlock or livelock of the runtime is the target not running the test, as
		// a library's timeout is: one meaning of exit status 3 whatever the target.
		return nil, &RunError{Test: t.Name, Lib: "the reference runtime", Reason: err.Error()}
	}
	rep.compare(res, allowed)
	rep.Starvation, rep.Starved = res.Starvation(), res.Starved()
	return rep, nil
}

// begin is what every target does first: the report, the model's allowed outcomes for
// sem and hw, and the skipping of tests the model finds erroneous.
func begin(t *litmus.Test, sem spec.Semantics, target string, hw spec.HW, opt Options) (*Report, *explorer.Result, error) {
	rep := &Report{Test: t, Target: target, Sem: sem, HW: hw, Seed: opt.Seed}
	allowed := explorer.Job{Test: t, Sem: sem, HW: hw}.Run(opt.Search)
	if allowed.Err != nil {
		return nil, nil, allowed.Err
	}
	rep.Model = allowed.Result
	if allowed.Result.Erroneous() && !opt.IncludeErroneous {
		rep.Skipped = "skipped: the model finds it " + allowed.Result.Verdict().ObsString() + " (undefined behaviour); --include-erroneous runs it anyway"
	}
	return rep, allowed.Result, nil
}

func defaultRuns(p *model.Program) int {
	for i := range p.Procs {
		for k := range p.Procs[i].Code {
			if p.Procs[i].Code[k].IsMPI {
				return 10_000
			}
		}
	}
	return 1_000_000
}

// compare fills the report from a histogram and the model's allowed outcomes.
func (rep *Report) compare(res *reference.Result, allowed *explorer.Result) {
	rep.Runs, rep.Elapsed, rep.Rate = res.Runs, res.Elapsed, res.Rate()
	allowedSet := map[model.OutcomeKey]bool{}
	for _, o := range allowed.Outcomes {
		allowedSet[model.KeyOf(o.Values)] = true
	}
	p := allowed.Program
	seen := map[model.OutcomeKey]bool{}
	for _, b := range res.Bins {
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
