package output

import (
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/explorer"
)

// Diff prints how two semantics answer a test: both verdicts, then each outcome only
// one allows and each rule only one raises, with its witness.
func Diff(w io.Writer, d *explorer.Diff) {
	fmt.Fprintf(w, "Test %s (%s): %s %s, %s %s\n", d.Test.Name, d.Test.File, d.SemA.Name, d.A.Verdict(), d.SemB.Name, d.B.Verdict())
	for _, s := range d.Sides() {
		for _, o := range s.Only {
			sat := ""
			if o.Sat {
				sat = " (satisfies the condition)"
			}
			fmt.Fprintf(w, "  only %s allows %s%s\n", s.Name, s.Result.Program.OutcomeString(o.Values), sat)
			WriteTrace(w, s.Result.Program, o.Witness, "      ")
		}
		for i := range s.Flags {
			fl := &s.Flags[i]
			fmt.Fprintf(w, "  only %s raises %s\n", s.Name, DiagnosticLine(d.Test.File, &fl.Diagnostic))
			WriteTrace(w, s.Result.TraceProgram(fl), fl.Trace, "      ")
		}
	}
}
