package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/rmacheck/rmacheck/explorer"
)

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
			out := s.Result.Program.OutcomeString(o.Values)
			if v := other.Result.Verdict(); v.IsErroneous() {
				// no difference of outcomes: the other side's executions break a rule
				fmt.Fprintf(w, "  %s: erroneous (%s, witness under only %s raises); %s: allows %s%s\n",
					other.Name, strings.Join(v.Erroneous, ","), other.Name, s.Name, out, sat)
			} else {
				fmt.Fprintf(w, "  only %s allows %s%s\n", s.Name, out, sat)
			}
			WriteTrace(w, s.Result.Program, o.Witness, "      ", nil)
		}
		for i := range s.Flags {
			fl := &s.Flags[i]
			fmt.Fprintf(w, "  only %s raises %s\n", s.Name, DiagnosticLine(d.Test.File, &fl.Diagnostic))
			WriteTrace(w, s.Result.TraceProgram(fl), fl.Trace, "      ", Marks(&fl.Diagnostic))
		}
	}
}
