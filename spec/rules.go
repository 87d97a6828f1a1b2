package spec

import "strings"

// Class says what raising a rule means for a test's verdict (docs/semantics.md, Verdicts).
type Class int

const (
	// ClassRule is a rule of the semantics that the model executes (R1-R6); it is never raised.
	ClassRule Class = iota
	// ClassErroneous: an execution that raises it is erroneous MPI.
	ClassErroneous
	// ClassRace: concurrent accesses the standard does not forbid, whose values are unpredictable.
	ClassRace
)

// Meaning says in a few words what a rule of the class means for a test.
func (c Class) Meaning() string {
	switch c {
	case ClassErroneous:
		return "an execution that raises it is erroneous MPI"
	case ClassRace:
		return "allowed by MPI, but the values read are unpredictable"
	default:
		return "a rule the model executes; it is never raised as a flag"
	}
}

func (c Class) String() string {
	switch c {
	case ClassErroneous:
		return "erroneous"
	case ClassRace:
		return "race"
	default:
		return "rule"
	}
}

// Rule is one entry of the catalogue: an id, a title, a paragraph that explains it,
// the nodes of the MPI-4.1 report it rests on, and the sentences of those pages (or
// of pages beside them) that say it. Its example is a file of examples/ (Example).
type Rule struct {
	ID     RuleID
	Title  string
	Text   string
	Nodes  []string // e.g. "node337"
	Class  Class
	Quotes []Quote
}

// Quote is a sentence of the MPI-4.1 report as its page prints it, word for word:
// no word left out or changed (the HTML pages' spacing aside), so that a reader can
// find it on the page. Node is the page, e.g. "node337".
type Quote struct {
	Node string
	Text string
}

// URL is the address of the quote's page.
func (q Quote) URL() string { return NodeURL(q.Node) }

// ReportBase is the address of the MPI-4.1 report's HTML pages.
const ReportBase = "https://www.mpi-forum.org/docs/mpi-4.1/mpi41-report/"

// NodeURL turns "node337" into the address of that page of the MPI-4.1 report.
func NodeURL(node string) string { return ReportBase + node + ".htm" }

// URLs returns the report addresses of the rule's nodes.
func (r Rule) URLs() []string {
	urls := make([]string, len(r.Nodes))
	for i, n := range r.Nodes {
		urls[i] = NodeURL(n)
	}
	return urls
}

// Cite is the short citation used in error messages: "node337" or "node327, node330".
func (r Rule) Cite() string { return strings.Join(r.Nodes, ", ") }

// LookupRule finds a rule by id, ignoring case: for ids a person types (explain,
// replay --flag). Files and records spell ids exactly (ParseRuleID).
func LookupRule(id string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID.String(), id) {
			return r, true
		}
	}
	return Rule{}, false
}
