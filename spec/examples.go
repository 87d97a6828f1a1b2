package spec

import (
	"embed"
	"strings"
)

// examples holds one small program per rule of the catalogue, examples/ID.lit:
// under every preset it raises the rule (an erroneous or race-class rule), or shows
// what the rule guarantees (R1-R6), and its expect line says so. docs/rules.md and
// `rmacheck explain ID` print it; cmd/rmacheck's tests run each against its expect line.
//
//go:embed examples/*.lit
var examples embed.FS

// ExampleDir is where the examples live, relative to the repository's root.
const ExampleDir = "spec/examples"

// Example is the text of the rule's example program ("" when it has none).
func (r Rule) Example() string {
	b, err := examples.ReadFile("examples/" + r.ID.String() + ".lit")
	if err != nil {
		return ""
	}
	return string(b)
}

// ExamplePath is the example's path relative to the repository's root.
func (r Rule) ExamplePath() string { return ExampleDir + "/" + r.ID.String() + ".lit" }

// ExampleFiles lists the names of the example files (ID.lit), for the test that
// every file belongs to a rule.
func ExampleFiles() []string {
	entries, _ := examples.ReadDir("examples")
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lit") {
			names = append(names, e.Name())
		}
	}
	return names
}
