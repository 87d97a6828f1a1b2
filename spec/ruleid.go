package spec

import "fmt"

// RuleID names one rule of the catalogue (docs/rules.md). Every package holds rule ids
// as this type; strings exist only where an id is parsed (ParseRuleID, UnmarshalText)
// or printed (String, MarshalText), as herdtools7 keeps parse_kind and pp_kind beside
// its type. A misspelt id does not compile.
//
// The rules a state can hold in its flag word come first, in the order of their bits
// (bit id-1), so FlagBit is a shift and FlagRules lists a word in the order it always
// has. NoRule, the zero value, is no rule (Erroneous without a rule).
type RuleID uint8

const (
	NoRule RuleID = iota

	// Held in a state's flag word: raised by steps, or at the end of an execution.
	EEpoch
	EEpochMix
	ESyncEpoch
	EOriginBuf
	ESQFlavor
	ELSAccess
	ESeparateSHM
	EInfo
	EAlign
	Deadlock
	EAssert
	Livelock
	EEpochEnd
	ETarget

	// Never held in a state: the rules the model executes (R1-R6), the window rules
	// of node337 and the conflicts and races the pair checks find (docs/semantics.md, Concurrency).
	R1
	R2
	R3
	R4
	R5
	R6
	U1
	U2
	U3
	U4
	U5
	S1
	S2
	S3
	CConflict
	Race

	numRuleIDs
)

// lastFlagRule is the last rule with a bit in a state's flag word.
const lastFlagRule = ETarget

// ruleNames spell the ids as docs/rules.md does: the print edge, and the parse edge's table.
var ruleNames = [numRuleIDs]string{
	EEpoch: "E-EPOCH", EEpochMix: "E-EPOCH-MIX", ESyncEpoch: "E-SYNC-EPOCH",
	EOriginBuf: "E-ORIGIN-BUF", ESQFlavor: "E-SQ-FLAVOR", ELSAccess: "E-LS-ACCESS",
	ESeparateSHM: "E-SEPARATE-SHM", EInfo: "E-INFO", EAlign: "E-ALIGN", Deadlock: "DEADLOCK",
	EAssert: "E-ASSERT", Livelock: "LIVELOCK", EEpochEnd: "E-EPOCH-END", ETarget: "E-TARGET",
	R1: "R1", R2: "R2", R3: "R3", R4: "R4", R5: "R5", R6: "R6",
	U1: "U1", U2: "U2", U3: "U3", U4: "U4", U5: "U5", S1: "S1", S2: "S2", S3: "S3",
	CConflict: "C-CONFLICT", Race: "RACE",
}

// String is the id as docs/rules.md spells it ("" for NoRule).
func (r RuleID) String() string {
	if r < numRuleIDs {
		return ruleNames[r]
	}
	return fmt.Sprintf("RuleID(%d)", uint8(r))
}

// ParseRuleID reads an id spelled exactly as docs/rules.md spells it.
func ParseRuleID(s string) (RuleID, bool) {
	for r := NoRule + 1; r < numRuleIDs; r++ {
		if ruleNames[r] == s {
			return r, true
		}
	}
	return NoRule, false
}

// MarshalText prints the id in JSON records.
func (r RuleID) MarshalText() ([]byte, error) {
	if r == NoRule || r >= numRuleIDs {
		return nil, fmt.Errorf("spec: no rule id %d to print", uint8(r))
	}
	return []byte(ruleNames[r]), nil
}

// UnmarshalText reads the id of a JSON record.
func (r *RuleID) UnmarshalText(b []byte) error {
	id, ok := ParseRuleID(string(b))
	if !ok {
		return fmt.Errorf("spec: unknown rule id %q", b)
	}
	*r = id
	return nil
}

// Rule is the id's catalogue entry (the zero Rule for NoRule).
func (r RuleID) Rule() Rule {
	if i := catalogueIndex[r]; i >= 0 {
		return Rules[i]
	}
	return Rule{}
}

// Class is the class of the id's rule.
func (r RuleID) Class() Class { return r.Rule().Class }

// Raisable reports whether some execution can raise the rule as a flag (it is not one
// of the rules the model executes, R1-R6).
func (r RuleID) Raisable() bool { return r != NoRule && r.Class() != ClassRule }

// Order is the rule's place in the catalogue, the order every listing of rules keeps.
func (r RuleID) Order() int { return catalogueIndex[r] }

// catalogueIndex is the index in Rules of each id (-1: none).
var catalogueIndex = indexRules()

func indexRules() [numRuleIDs]int {
	var idx [numRuleIDs]int
	for i := range idx {
		idx[i] = -1
	}
	for i, r := range Rules {
		idx[r.ID] = i
	}
	return idx
}

// RuleNames prints ids, for lists such as "E-EPOCH,E-ASSERT".
func RuleNames(ids []RuleID) []string {
	out := make([]string, len(ids))
	for i, r := range ids {
		out[i] = r.String()
	}
	return out
}

// FlagBit is the bit of a rule in a state's flag word. It panics for a rule that has
// none: asking for one is a bug in the model, not an input error.
func FlagBit(r RuleID) uint32 {
	if r == NoRule || r > lastFlagRule {
		panic("spec: rule " + r.String() + " has no flag bit")
	}
	return 1 << (r - 1)
}

// FlagRules turns a flag word into rule ids, in bit order.
func FlagRules(word uint32) []RuleID {
	var out []RuleID
	for r := NoRule + 1; r <= lastFlagRule; r++ {
		if word&FlagBit(r) != 0 {
			out = append(out, r)
		}
	}
	return out
}
