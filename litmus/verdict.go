package litmus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/spec"
)

// The vocabulary of answers, shared by every tool that prints or checks one (run,
// diff, distinguish, the reports, expect lines), as herdtools keeps its verdict words
// in the library all its tools use: one spelling, one meaning.

// String spells an observation as .lit files do: Never, Sometimes, Always, Erroneous.
func (o Obs) String() string {
	switch o {
	case ObsAlways:
		return "Always"
	case ObsSometimes:
		return "Sometimes"
	case ObsErroneous:
		return "Erroneous"
	}
	return "Never"
}

// ObsOf is herd7's observation of a condition over the outcomes (or runs): Never when
// none satisfies it, Always when all do, Sometimes otherwise.
func ObsOf(positive, negative int) Obs {
	switch {
	case positive == 0:
		return ObsNever
	case negative == 0:
		return ObsAlways
	}
	return ObsSometimes
}

// VerdictWord is herd7's word for the quantifier's question: exists asks whether the
// outcome is Allowed, ~exists whether it is Forbidden, forall whether it is Required.
func (q Quant) VerdictWord() string {
	switch q {
	case NotExists:
		return "Forbidden"
	case Forall:
		return "Required"
	}
	return "Allowed"
}

// Holds is herd7's Ok: exists holds when some outcome (or run) satisfies the
// condition, ~exists when none does, forall when all do.
func (q Quant) Holds(positive, negative int) bool {
	switch q {
	case NotExists:
		return positive == 0
	case Forall:
		return negative == 0
	}
	return positive > 0
}

// Verdict is the answer for one test under one semantics and hw model (docs/semantics.md#verdicts): the observation of the condition, the erroneous-class rules some
// execution raises, and the race-class rules, each list in catalogue order.
type Verdict struct {
	Obs       Obs // Never, Sometimes or Always
	Erroneous []spec.RuleID
	Race      []spec.RuleID
}

// String spells the verdict as an expect line does: Erroneous(E-EPOCH,E-ASSERT) when
// some execution is erroneous, else the observation followed by each race-class
// rule (Sometimes+RACE+U2).
func (v Verdict) String() string {
	if len(v.Erroneous) > 0 {
		return v.ObsString()
	}
	s := v.Obs.String()
	for _, r := range v.Race {
		s += "+" + r.String()
	}
	return s
}

// ObsString is the verdict without its race-class rules: Never, Sometimes, Always or
// Erroneous(RULES).
func (v Verdict) ObsString() string {
	if len(v.Erroneous) > 0 {
		return "Erroneous(" + strings.Join(spec.RuleNames(v.Erroneous), ",") + ")"
	}
	return v.Obs.String()
}

// IsErroneous reports whether some execution breaks an erroneous-class rule.
func (v Verdict) IsErroneous() bool { return len(v.Erroneous) > 0 }

// Met reports whether the verdict meets an expectation (docs/semantics.md#verdicts, docs/language.md):
//   - Erroneous(RULE): some execution raises RULE (others may raise more);
//   - Erroneous: some execution raises an erroneous-class rule;
//   - Always, Sometimes, Never: that observation, and no erroneous-class rule; race-
//     class rules are not checked, unless the item lists them (Never+U2: exactly
//     {U2}) or says +none (no race-class rule at all).
func (e ExpectItem) Met(v Verdict) bool {
	if e.Obs == ObsErroneous {
		if e.Rule != spec.NoRule {
			return slices.Contains(v.Erroneous, e.Rule)
		}
		return v.IsErroneous()
	}
	if v.IsErroneous() || v.Obs != e.Obs {
		return false
	}
	if !e.RaceChecked {
		return true
	}
	return sameSet(e.Race, v.Race)
}

// sameSet reports whether a and b hold the same rules (neither repeats one).
func sameSet(a, b []spec.RuleID) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(x spec.RuleID) bool { return !slices.Contains(b, x) })
}

// Atoms lists the atoms of a condition, left to right (none for nil): the one walk
// over conditions that every user of their atoms shares.
func Atoms(c Cond) []*Atom {
	var out []*Atom
	var walk func(Cond)
	walk = func(c Cond) {
		switch x := c.(type) {
		case *Atom:
			out = append(out, x)
		case *Not:
			walk(x.C)
		case *And:
			walk(x.L)
			walk(x.R)
		case *Or:
			walk(x.L)
			walk(x.R)
		case *Implies:
			walk(x.L)
			walk(x.R)
		}
	}
	walk(c)
	return out
}

// CondRefs lists the items the atoms of conditions name, left to right (both of an
// atom that compares two), for those that show or check them.
func CondRefs(conds ...Cond) []*Ref {
	var out []*Ref
	for _, c := range conds {
		for _, a := range Atoms(c) {
			out = append(out, a.Refs()...)
		}
	}
	return out
}

// Eval evaluates a condition, an atom's truth given by atom.
func Eval(c Cond, atom func(*Atom) bool) bool {
	switch x := c.(type) {
	case *Atom:
		return atom(x)
	case *Not:
		return !Eval(x.C, atom)
	case *And:
		return Eval(x.L, atom) && Eval(x.R, atom)
	case *Or:
		return Eval(x.L, atom) || Eval(x.R, atom)
	case *Implies:
		return !Eval(x.L, atom) || Eval(x.R, atom)
	case *Bool:
		return x.V
	}
	return true
}

// ExpectStatus says whether a search met the expectation of the test's expect lines
// for its preset and hw: there was none, it was met, or it was broken. Its words
// (none, met, broken) are printed by String and read back by UnmarshalText only.
type ExpectStatus uint8

const (
	NoExpect ExpectStatus = iota
	ExpectMet
	ExpectBroken
)

var expectStatusWords = [...]string{NoExpect: "none", ExpectMet: "met", ExpectBroken: "broken"}

func (s ExpectStatus) String() string {
	if int(s) < len(expectStatusWords) {
		return expectStatusWords[s]
	}
	return fmt.Sprintf("ExpectStatus(%d)", uint8(s))
}

// MarshalText prints the status in JSON records.
func (s ExpectStatus) MarshalText() ([]byte, error) {
	if int(s) >= len(expectStatusWords) {
		return nil, fmt.Errorf("litmus: no expectation status %d", uint8(s))
	}
	return []byte(expectStatusWords[s]), nil
}

// UnmarshalText reads the status of a JSON record.
func (s *ExpectStatus) UnmarshalText(b []byte) error {
	i := slices.Index(expectStatusWords[:], string(b))
	if i < 0 {
		return fmt.Errorf("litmus: unknown expectation status %q", b)
	}
	*s = ExpectStatus(i)
	return nil
}
