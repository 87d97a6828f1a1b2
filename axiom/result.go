package axiom

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/axiom/cat"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Execution is a candidate execution the model allows: its events in an order that
// extends ob, who reads from whom, the values, and (for a deadlock) where the stuck
// processes wait. It is the axiomatic engine's witness.
type Execution struct {
	u      *universe
	order  []int
	rf     map[int]int
	values map[int]int64
	stuck  []int
	Values []int64 // the outcome items' values
}

// String prints the execution one event a line, reads with the write they read.
func (x *Execution) String() string {
	var b strings.Builder
	u := x.u
	for _, g := range x.order {
		e := u.events[g]
		if e.kind == eNever || e.kind == eProgram || e.kind == eInit && !x.readFrom(g) {
			continue
		}
		fmt.Fprintf(&b, "  %s", u.describe(g))
		switch {
		case e.read:
			w := x.rf[g]
			fmt.Fprintf(&b, "  reads %s=%d from %s", u.p.cells[e.cell].name, x.values[g], u.describe(w))
		case e.write && e.kind != eInit:
			fmt.Fprintf(&b, "  writes %s=%d", u.p.cells[e.cell].name, x.values[g])
		}
		b.WriteByte('\n')
	}
	for _, g := range x.stuck {
		fmt.Fprintf(&b, "  %s  waits for ever\n", u.describe(g))
	}
	return b.String()
}

func (x *Execution) readFrom(g int) bool {
	for _, w := range x.rf {
		if w == g {
			return true
		}
	}
	return false
}

// accumulator gathers the executions' outcomes and flags into a Result.
type accumulator struct {
	p        *program
	r        *Result
	outcomes map[string]int
	flags    map[string]int
}

func (a *accumulator) record(s *search, x *Execution) error {
	var own []spec.RuleID
	if s.outcomes {
		fl, err := s.f.Flags(false, nil)
		if err != nil {
			return err
		}
		for _, f := range fl {
			rule := s.m.flagRule[f.Flag.Name]
			if !slices.Contains(own, rule) {
				own = append(own, rule)
			}
			a.flag(rule, false, x, s, f)
		}
		if a.p.keep(x.Values) {
			slices.SortFunc(own, func(p, q spec.RuleID) int { return p.Order() - q.Order() })
			key := keyOf(x.Values)
			if len(own) > 0 {
				key += "!"
			}
			if k, ok := a.outcomes[key]; ok {
				o := &a.r.Outcomes[k]
				for _, rule := range own {
					if !slices.Contains(o.Flags, rule) {
						o.Flags = append(o.Flags, rule)
					}
				}
				slices.SortFunc(o.Flags, func(p, q spec.RuleID) int { return p.Order() - q.Order() })
			} else {
				a.outcomes[key] = len(a.r.Outcomes)
				a.r.Outcomes = append(a.r.Outcomes, Outcome{Values: x.Values, Flags: own, Sat: a.p.sat(x.Values), Witness: x})
			}
		}
	}
	if s.relaxedFlags {
		fl, err := s.f.Flags(true, func(f *cat.Flag) bool { return a.raised(s.m.flagRule[f.Name]) })
		if err != nil {
			return err
		}
		for _, f := range fl {
			a.flag(s.m.flagRule[f.Flag.Name], true, x, s, f)
		}
	}
	return nil
}

// raised reports whether some execution raised rule already.
func (a *accumulator) raised(rule spec.RuleID) bool {
	_, ok := a.flags[rule.String()]
	return ok
}

// flag records a rule raised, once a rule (its first witness).
func (a *accumulator) flag(rule spec.RuleID, relaxed bool, x *Execution, s *search, f cat.FlagResult) {
	key := rule.String()
	if _, ok := a.flags[key]; ok {
		return
	}
	var events []string
	for _, li := range someEvents(f.Value) {
		events = append(events, s.u.describe(s.evs[li]))
	}
	a.flags[key] = len(a.r.Flags)
	a.r.Flags = append(a.r.Flags, Flag{Rule: rule, Relaxed: relaxed, Witness: x, Events: events})
}

func someEvents(v cat.Value) []int {
	var out []int
	if v.Typ == cat.TSet {
		v.Set.Each(func(i int) {
			if out == nil {
				out = []int{i}
			}
		})
		return out
	}
	v.Rel.Each(func(i, j int) {
		if out == nil {
			out = []int{i, j}
		}
	})
	return out
}

// finish orders the outcomes (clean first, by values), the flags by the catalogue,
// and counts the observation over distinct values.
func (a *accumulator) finish() {
	r := a.r
	slices.SortFunc(r.Outcomes, func(x, y Outcome) int {
		if (len(x.Flags) > 0) != (len(y.Flags) > 0) {
			if len(x.Flags) == 0 {
				return -1
			}
			return 1
		}
		return slices.Compare(x.Values, y.Values)
	})
	counted := map[string]bool{}
	for _, o := range r.Outcomes {
		k := keyOf(o.Values)
		if counted[k] {
			continue
		}
		counted[k] = true
		if o.Sat {
			r.Positive++
		} else {
			r.Negative++
		}
	}
	r.Observation = litmus.ObsOf(r.Positive, r.Negative)
	slices.SortStableFunc(r.Flags, func(x, y Flag) int { return x.Rule.Order() - y.Rule.Order() })
}

// OutcomeString prints outcome values as herd7 does: "0:r0=0; x=1;".
func (r *Result) OutcomeString(vals []int64) string {
	var b strings.Builder
	for i, name := range r.Items {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d;", name, vals[i])
	}
	return b.String()
}

func keyOf(vals []int64) string { return fmt.Sprint(vals) }
