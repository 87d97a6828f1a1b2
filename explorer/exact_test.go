package explorer_test

import (
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/gen"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// The exactness property over the synchronization variants of issue 37: the
// reduced search (singleton rules, stubborn sets, quotient) finds what the plain
// one finds, and so does the reduced search without the quotient, on random
// programs that use each variant the reductions were extended to. Each variant is
// a subtest with rapid's count of checks (100 by default, in make test); the long
// run is
//
//	go test ./explorer -run TestExactnessVariants -rapid.checks=2000
//
// (make exact), 2,000 checks a variant.

// exactVariants are the variants, each a way to draw a program, a semantics and a hw.
var exactVariants = []struct {
	name string
	cfg  func(t *rapid.T) gen.Config
	// weak: the semantics has weak_progress on
	weak bool
}{
	{"lock", func(t *rapid.T) gen.Config { return exactCfg(t, "lock") }, false},
	{"lock_all", func(t *rapid.T) gen.Config { return exactCfg(t, "lock_all") }, false},
	{"pscw", func(t *rapid.T) gen.Config { return exactCfg(t, "pscw") }, false},
	{"fence", func(t *rapid.T) gen.Config { return exactCfg(t, "fence") }, false},
	{"rounds", func(t *rapid.T) gen.Config { return exactCfg(t, "rounds") }, false},
	// fencelock: windows both fenced and locked, where fence arrivals, issues and
	// unlocks are not local steps (model/exposure.go: FenceLocked, FenceTargeted)
	{"fencelock", func(t *rapid.T) gen.Config { return exactCfg(t, "fencelock") }, false},
	// requests: rput, rget, racc and rgacc with their local-completion step
	// (model/completion.go), completed by waitreq, testreq or not at all, in
	// lock_all epochs and in lock epochs (of a fenced window too)
	{"requests", func(t *rapid.T) gen.Config {
		cfg := exactCfg(t, rapid.SampledFrom([]string{"lock_all", "lock", "fencelock"}).Draw(t, "sync"))
		cfg.Tests, cfg.NoRMA = true, false
		return cfg
	}, false},
	{"separate", func(t *rapid.T) gen.Config {
		cfg := exactCfg(t, rapid.SampledFrom([]string{"fence", "lock_all", "pscw", "lock"}).Draw(t, "sync"))
		cfg.Separate, cfg.NoRMA = true, false
		return cfg
	}, false},
	{"asserts", func(t *rapid.T) gen.Config {
		cfg := exactCfg(t, rapid.SampledFrom([]string{"fence", "lock_all", "pscw", "lock"}).Draw(t, "sync"))
		cfg.Asserts = true
		return cfg
	}, false},
	{"weak_progress", func(t *rapid.T) gen.Config {
		cfg := exactCfg(t, rapid.SampledFrom([]string{"fence", "lock_all", "pscw", "lock", "fencelock", "barrier", "none"}).Draw(t, "sync"))
		cfg.Tests = rapid.Bool().Draw(t, "tests")
		return cfg
	}, true},
}

// exactCfg is a random program's bounds for one sync ("rounds": lock_all epochs
// with a barrier between, whose pairs across it model.Ordered leaves out): up to four processes of
// plain accesses (three with RMA calls), assertions and separate windows drawn.
func exactCfg(t *rapid.T, sync string) gen.Config {
	noRMA := rapid.Bool().Draw(t, "no-rma")
	procs := 3
	if noRMA {
		procs = 4
	}
	return gen.Config{MinProcs: 2, MaxProcs: procs, MaxInstrs: 4, Syncs: []string{sync}, NoRMA: noRMA,
		Asserts: rapid.Bool().Draw(t, "asserts"), Separate: rapid.Bool().Draw(t, "separate"),
		ConditionOnly: rapid.Bool().Draw(t, "condition-only")}
}

// TestExactnessVariants: reduced == plain, with the quotient on and off, in every
// variant (see above), under every preset and hw model.
func TestExactnessVariants(t *testing.T) {
	for _, v := range exactVariants {
		t.Run(v.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				lt := gen.Program(v.cfg(t)).Draw(t, "program")
				sem := rapid.SampledFrom(spec.AllPresets()).Draw(t, "sem")
				if v.weak {
					sem = sem.With(spec.WeakProgress, true)
				}
				hw := rapid.SampledFrom(spec.HWModels).Draw(t, "hw")
				checkExact(t, lt, sem, hw)
			})
		})
	}
}

// TestExactnessScalingVariants: the same on the scaling tests of every shape in
// every sync variant (gen --scaling) with 3 and 4 processes, every preset, every hw.
func TestExactnessScalingVariants(t *testing.T) {
	fam, err := gen.ScalingFamily([]string{"SB", "MPC", "IRIW", "RING"}, 3, 4, scalingSyncs()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, ft := range fam {
		for _, sem := range spec.AllPresets() {
			for _, hw := range spec.HWModels {
				if err := exactOnce(ft.Test, sem, hw); err != nil {
					t.Errorf("%s %s %s: %v", ft.Name, sem.Name, hw, err)
				}
			}
		}
	}
}

func scalingSyncs() []string {
	var out []string
	for _, s := range gen.ScalingSyncs {
		out = append(out, s.Name)
	}
	return out
}

// checkExact fails t when the reduced searches (quotient on and off) differ from
// the plain one; a draw whose plain search passes the bound is skipped.
func checkExact(t *rapid.T, lt *litmus.Test, sem spec.Semantics, hw spec.HW) {
	err := exactOnce(lt, sem, hw)
	var limit *explorer.ErrStateLimit
	if errors.As(err, &limit) {
		t.Skipf("the plain search passes %d states", limit.Limit)
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, litmus.Format(lt))
	}
}

// exactOnce runs the plain search and the reduced one with and without the
// quotient, and says how they differ; the reduced witnesses must replay.
func exactOnce(lt *litmus.Test, sem spec.Semantics, hw spec.HW) error {
	p, err := model.Compile(lt, sem, hw)
	if err != nil {
		return err
	}
	opt := explorer.Options{MaxStates: 1_000_000}
	plain, err := explorer.Explore(p, explorer.Options{MaxStates: opt.MaxStates, NoReduce: true})
	if err != nil {
		return err
	}
	for _, o := range []explorer.Options{opt, explorer.NoQuotient(opt)} {
		reduced, err := explorer.Explore(p, o)
		if err != nil {
			return err
		}
		if d := sameVerdict(plain, reduced); d != "" {
			return fmt.Errorf("reduced search (quotient %v) differs from plain (-plain +reduced):\n%s", o == opt, d)
		}
		var f firstFailure
		checkReplays(&f, p, reduced)
		if f.err != nil {
			return f.err
		}
	}
	return nil
}

// firstFailure is a fataler that keeps its first failure.
type firstFailure struct{ err error }

func (f *firstFailure) Fatalf(format string, args ...any) {
	if f.err == nil {
		f.err = fmt.Errorf(format, args...)
	}
}

// TestStubbornRandomSync: programs of plain accesses synchronized by fences,
// PSCW, barriers and lock/unlock per access (model/stubborn_sync.go), random ones
// and the scaling tests of 3 and 4 processes in that variant: the reduced search
// finds what the plain one finds, and the stubborn sets fire (fewer states than
// without them) in at least one draw in five (random barrier programs, which have
// no scaling test and are mostly reduced by the singleton rules: one in thirty).
func TestStubbornRandomSync(t *testing.T) {
	for _, sync := range []string{"fence", "pscw", "barrier", "lock"} {
		t.Run(sync, func(t *testing.T) {
			var family []gen.FamilyTest
			share := 30
			if sync != "barrier" {
				share = 5
				fam, err := gen.ScalingFamily([]string{"SB", "MPC", "IRIW"}, 3, 4, sync)
				if err != nil {
					t.Fatal(err)
				}
				family = fam
			}
			checkStubbornRandom(t, stubbornDraws{sems: spec.AllPresets(), syncs: []string{sync}, family: family, share: share})
		})
	}
}
