package spec

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// catalogueTable is every id of docs/semantics.md with its class and nodes, written out
// independently of Rules.
var catalogueTable = []struct {
	id    string
	class Class
	nodes []string
}{
	{"R1", ClassRule, []string{"node337"}},
	{"R2", ClassRule, []string{"node337"}},
	{"R3", ClassRule, []string{"node337"}},
	{"R4", ClassRule, []string{"node337"}},
	{"R5", ClassRule, []string{"node337"}},
	{"R6", ClassRule, []string{"node337"}},
	{"U1", ClassErroneous, []string{"node337"}},
	{"U2", ClassRace, []string{"node337"}},
	{"U3", ClassRace, []string{"node337"}},
	{"U4", ClassErroneous, []string{"node337"}},
	{"U5", ClassErroneous, []string{"node337"}},
	{"S1", ClassErroneous, []string{"node337"}},
	{"S2", ClassErroneous, []string{"node337"}},
	{"S3", ClassErroneous, []string{"node337"}},
	{"C-CONFLICT", ClassErroneous, []string{"node316", "node338", "node315"}},
	{"E-EPOCH", ClassErroneous, []string{"node327"}},
	{"E-EPOCH-MIX", ClassErroneous, []string{"node327", "node330", "node328"}},
	{"E-SYNC-EPOCH", ClassErroneous, []string{"node331"}},
	{"E-ORIGIN-BUF", ClassErroneous, []string{"node337"}},
	{"E-ASSERT", ClassErroneous, []string{"node332"}},
	{"E-INFO", ClassErroneous, []string{"node315"}},
	{"E-SQ-FLAVOR", ClassErroneous, []string{"node311"}},
	{"E-LS-ACCESS", ClassErroneous, []string{"node311"}},
	{"E-SEPARATE-SHM", ClassErroneous, []string{"node311"}},
	{"E-ALIGN", ClassErroneous, []string{"node251"}},
	{"DEADLOCK", ClassErroneous, nil},
	{"LIVELOCK", ClassErroneous, nil},
	{"E-EPOCH-END", ClassErroneous, []string{"node313", "node327"}},
	{"E-TARGET", ClassErroneous, []string{"node316", "node317"}},
	{"RACE", ClassRace, nil},
}

func TestCatalogueComplete(t *testing.T) {
	if len(Rules) != len(catalogueTable) {
		t.Errorf("catalogue has %d rules, docs/semantics.md has %d ids", len(Rules), len(catalogueTable))
	}
	for _, want := range catalogueTable {
		t.Run(want.id, func(t *testing.T) {
			r, ok := LookupRule(want.id)
			if !ok {
				t.Fatalf("rule %s missing", want.id)
			}
			if r.ID.String() != want.id {
				t.Errorf("LookupRule(%q).ID = %q", want.id, r.ID)
			}
			if id, ok := ParseRuleID(want.id); !ok || id != r.ID {
				t.Errorf("ParseRuleID(%q) = %v, %v; want %v", want.id, id, ok, r.ID)
			}
			if r.Class != want.class {
				t.Errorf("%s: class %v, want %v", want.id, r.Class, want.class)
			}
			if got, w := strings.Join(r.Nodes, ","), strings.Join(want.nodes, ","); got != w {
				t.Errorf("%s: nodes %q, want %q", want.id, got, w)
			}
			if got, w := r.ID.Raisable(), want.class != ClassRule; got != w {
				t.Errorf("%s.Raisable() = %v, want %v", want.id, got, w)
			}
		})
	}
}

func TestCatalogueWellFormed(t *testing.T) {
	idRE := regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$`)
	nodeRE := regexp.MustCompile(`^node[0-9]{3}$`)
	seen := map[string]bool{}
	for _, r := range Rules {
		if !idRE.MatchString(r.ID.String()) {
			t.Errorf("id %q is not an upper-case rule id", r.ID)
		}
		if seen[strings.ToUpper(r.ID.String())] {
			t.Errorf("duplicate id %s", r.ID)
		}
		seen[strings.ToUpper(r.ID.String())] = true

		if strings.TrimSpace(r.Title) == "" {
			t.Errorf("%s: empty title", r.ID)
		}
		if strings.HasSuffix(r.Title, ".") {
			t.Errorf("%s: title %q ends with a period", r.ID, r.Title)
		}
		if strings.TrimSpace(r.Text) == "" {
			t.Errorf("%s: empty text", r.ID)
		} else if !strings.HasSuffix(r.Text, ".") {
			t.Errorf("%s: text does not end with a period: ...%q", r.ID, tail(r.Text))
		}
		if strings.Contains(r.Text, "  ") || strings.TrimSpace(r.Text) != r.Text {
			t.Errorf("%s: text has doubled or surrounding spaces", r.ID)
		}
		if strings.ContainsAny(r.Text, "\n\t") {
			t.Errorf("%s: text is not one paragraph", r.ID)
		}

		switch {
		case r.ID == Deadlock || r.ID == Livelock || r.ID == Race:
			if len(r.Nodes) != 0 {
				t.Errorf("%s cites %v; docs/semantics.md gives it no node", r.ID, r.Nodes)
			}
		case len(r.Nodes) == 0:
			t.Errorf("%s cites no node of the report", r.ID)
		}
		nodes := map[string]bool{}
		for _, n := range r.Nodes {
			if !nodeRE.MatchString(n) {
				t.Errorf("%s: node %q is not nodeNNN", r.ID, n)
			}
			if nodes[n] {
				t.Errorf("%s: node %s cited twice", r.ID, n)
			}
			nodes[n] = true
		}
		urls := r.URLs()
		if len(urls) != len(r.Nodes) {
			t.Errorf("%s: %d urls for %d nodes", r.ID, len(urls), len(r.Nodes))
		}
		for i, u := range urls {
			pu, err := url.Parse(u)
			if err != nil {
				t.Errorf("%s: url %q: %v", r.ID, u, err)
				continue
			}
			if pu.Scheme != "https" || pu.Host != "www.mpi-forum.org" ||
				pu.Path != "/docs/mpi-4.1/mpi41-report/"+r.Nodes[i]+".htm" {
				t.Errorf("%s: url %q is not the MPI-4.1 report page of %s", r.ID, u, r.Nodes[i])
			}
		}
		if got, want := r.Cite(), strings.Join(r.Nodes, ", "); got != want {
			t.Errorf("%s: Cite() = %q, want %q", r.ID, got, want)
		}
	}
}

// U4 and S2 are never raised under their own names: their text must say they restate
// C-CONFLICT, and C-CONFLICT must say it covers them.
func TestRestatedRules(t *testing.T) {
	for _, id := range []RuleID{U4, S2} {
		if r := id.Rule(); !strings.Contains(r.Text, "restates C-CONFLICT") {
			t.Errorf("%s text does not say it restates C-CONFLICT: %q", id, r.Text)
		}
	}
	c := CConflict.Rule()
	if !strings.Contains(c.Text, "U4 and S2") {
		t.Errorf("C-CONFLICT text does not mention U4 and S2: %q", c.Text)
	}
}

func TestLookupRule(t *testing.T) {
	tests := []struct {
		in    string
		id    RuleID
		ok    bool
		exact bool // ParseRuleID accepts it too
	}{
		{"R1", R1, true, true},
		{"r1", R1, true, false},
		{"c-conflict", CConflict, true, false},
		{"E-Epoch-Mix", EEpochMix, true, false},
		{"race", Race, true, false},
		{"Deadlock", Deadlock, true, false},
		{"E-EPOCH-END", EEpochEnd, true, true},
		{"R7", NoRule, false, false},
		{"", NoRule, false, false},
		{"E-EPOCH ", NoRule, false, false},
		{"fence_ls", NoRule, false, false},
	}
	for _, tt := range tests {
		r, ok := LookupRule(tt.in)
		if ok != tt.ok || r.ID != tt.id {
			t.Errorf("LookupRule(%q) = %v, %v; want %v, %v", tt.in, r.ID, ok, tt.id, tt.ok)
		}
		id, ok := ParseRuleID(tt.in)
		if want := map[bool]RuleID{true: tt.id}[tt.exact]; ok != tt.exact || id != want {
			t.Errorf("ParseRuleID(%q) = %v, %v; want %v, %v", tt.in, id, ok, want, tt.exact)
		}
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[Class]string{ClassRule: "rule", ClassErroneous: "erroneous", ClassRace: "race"} {
		if got := c.String(); got != want {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}

func TestNodeURL(t *testing.T) {
	if got, want := NodeURL("node337"), "https://www.mpi-forum.org/docs/mpi-4.1/mpi41-report/node337.htm"; got != want {
		t.Errorf("NodeURL = %q, want %q", got, want)
	}
}

func tail(s string) string {
	if len(s) > 20 {
		return s[len(s)-20:]
	}
	return s
}

// TestFlagBits: every rule a state can hold has its own bit, FlagRules reads the
// bits back in bit order, and every such rule is erroneous-class.
func TestFlagBits(t *testing.T) {
	var all uint32
	var held []RuleID
	for r := NoRule + 1; r <= lastFlagRule; r++ {
		b := FlagBit(r)
		if all&b != 0 {
			t.Errorf("%s shares a bit", r)
		}
		all |= b
		held = append(held, r)
		if got := FlagRules(b); len(got) != 1 || got[0] != r {
			t.Errorf("FlagRules(FlagBit(%s)) = %v", r, got)
		}
		if r.Class() != ClassErroneous {
			t.Errorf("%s: a state-held rule must be an erroneous-class rule of the catalogue", r)
		}
	}
	if got := FlagRules(all); !slices.Equal(got, held) {
		t.Errorf("FlagRules(all) = %v, want %v", got, held)
	}
	for _, r := range []RuleID{NoRule, U2, Race, CConflict, R1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("FlagBit(%v) did not panic: only erroneous rules a step or an end raises are held in a state", r)
				}
			}()
			FlagBit(r)
		}()
	}
}

// TestRuleIDsAreTheCatalogue: the constants and the catalogue name the same rules, each
// once, and each id prints and parses back (as text too, as JSON records hold it).
func TestRuleIDsAreTheCatalogue(t *testing.T) {
	if len(Rules) != int(numRuleIDs)-1 {
		t.Errorf("%d rules in the catalogue, %d ids", len(Rules), int(numRuleIDs)-1)
	}
	for r := NoRule + 1; r < numRuleIDs; r++ {
		if r.Order() < 0 || Rules[r.Order()].ID != r {
			t.Errorf("id %d (%q) has no catalogue entry", uint8(r), r)
			continue
		}
		text, err := r.MarshalText()
		var back RuleID
		if err != nil || back.UnmarshalText(text) != nil || back != r {
			t.Errorf("%s: text %q (%v) reads back as %v", r, text, err, back)
		}
	}
	if _, err := NoRule.MarshalText(); err == nil {
		t.Error("NoRule printed into a record")
	}
	var r RuleID
	if err := r.UnmarshalText([]byte("e-epoch")); err == nil {
		t.Error("a record's misspelt id was read")
	}
	if got := RuleID(200).String(); got != "RuleID(200)" {
		t.Errorf("RuleID(200).String() = %q", got)
	}
}
