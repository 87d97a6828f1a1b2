package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/spec"
)

// Allows says that one side of a difference allows an outcome the other does not:
// "only B allows X", or, when the other side's executions break a rule (so theirs is
// no outcome to compare), "A: erroneous (E-EPOCH, witness under only A raises); B:
// allows X".
func Allows(side, other explorer.Side, outcome string) string {
	if v := other.Result.Verdict(); v.IsErroneous() {
		return fmt.Sprintf("%s: erroneous (%s, witness under only %s raises); %s: allows %s",
			other.Name, strings.Join(spec.RuleNames(v.Erroneous), ","), other.Name, side.Name, outcome)
	}
	return fmt.Sprintf("only %s allows %s", side.Name, outcome)
}

// Diff prints how two semantics answer a test: both verdicts, then each outcome only
// one allows and each rule only one raises, with its witness.
func Diff(w io.Writer, d *explorer.Diff) {
	fmt.Fprintf(w, "Test %s (%s): %s %s, %s %s\n", d.Test.Name, d.Test.File, d.SemA.Name, d.A.Verdict(), d.SemB.Name, d.B.Verdict())
	sides := d.Sides()
	for k, s := range sides {
		other := sides[1-k]
		for _, o := range s.Only {
			sat := ""
			if o.Sat {
				sat = " (satisfies the condition)"
			}
			fmt.Fprintf(w, "  %s%s\n", Allows(s, other, s.Result.Program.OutcomeString(o.Values)), sat)
			WriteTrace(w, o.Trace(), "      ", spec.NoRule)
		}
		for i := range s.Flags {
			fl := &s.Flags[i]
			fmt.Fprintf(w, "  only %s raises %s\n", s.Name, DiagnosticLine(d.Test.File, &fl.Diagnostic))
			WriteTrace(w, fl.Trace(), "      ", fl.Rule)
		}
	}
}
