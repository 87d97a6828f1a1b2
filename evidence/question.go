package evidence

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// Question is the question a report answers and its one-line answer, from a small
// file kept beside the report (reports/NAME/question.txt):
//
//	question: What must a reader do after a flag poll?
//	answer: ...
//	check: MP+flush+poll hw=relaxed mpi-3.0 A B mpi-4.1 = Sometimes+U2
//	check: MP+flush+poll target=mpich = SPIN-LIMIT
//	check: exploit-fence-noput-load exploit=mpi-4.1 = adds
//	cite: node331 | "In the unified memory model, MPI_WIN_SYNC may be used to ..."
//
// The answer is the one sentence of a report written by hand, so it is checked: each
// check line is a verdict of the report's own results (model: the test's verdict
// under each semantics on that hw model, spelled as litmus.Verdict spells it; target:
// the status of every conformance record of the test on that target: ok,
// NON-CONFORMING, SPIN-LIMIT, skipped, failed; exploit: whether exploiting the
// assertions under that semantics adds outcomes, adds or none). A check that does not hold fails the
// report, and the report prints them all under the answer.
type Question struct {
	File     string
	Question Prose
	Answer   Prose
	Checks   []Check
	// Cites are the sentences of the standard the answer rests on (cite: NODE | TEXT).
	Cites []Cite
	// Elsewhere: the upstream findings (by id) this question does not bear on, each
	// with the page that tells it in full (elsewhere: ID | PAGE). A report names their
	// tests in one sentence that points there, so that a bug of window allocation met
	// by a polling test is not read as an answer about polling.
	Elsewhere map[string]string
}

// Cite is a sentence of the MPI-4.1 report, with its node.
type Cite struct {
	Node string
	Text Prose
}

// Check is one claim the answer rests on.
type Check struct {
	Line    int
	Test    string
	HW      spec.HW      // a model check: the hw model
	Sems    []string     // and the semantics
	Target  string       // a conformance check: the target, as written
	kind    conform.Kind // and as read (every install of a family: target=mpich)
	family  conform.Family
	Status  conform.Status // and the status every run must have
	Exploit string         // an exploit check: the semantics
	Want    string         // the verdict, the status, or adds/none
}

// ReadQuestion reads a question file.
func ReadQuestion(path string) (*Question, error) {
	data, err := litmus.ReadFile(path, litmus.MaxFileSize) // bounded, and errors name the file
	if err != nil {
		return nil, err
	}
	q := &Question{File: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		if !ok || val == "" {
			return nil, fmt.Errorf("%s:%d: want KEY: VALUE (question, answer, check)", path, n)
		}
		switch key {
		case "question":
			q.Question = ParseProse(val)
		case "answer":
			q.Answer = ParseProse(val)
		case "cite":
			node, text, ok := strings.Cut(val, "|")
			node, text = strings.TrimSpace(node), strings.TrimSpace(text)
			if !ok || !strings.HasPrefix(node, "node") || text == "" {
				return nil, fmt.Errorf("%s:%d: want cite: nodeNNN | the sentence", path, n)
			}
			q.Cites = append(q.Cites, Cite{node, ParseProse(text)})
		case "elsewhere":
			id, page, ok := strings.Cut(val, "|")
			id, page = strings.TrimSpace(id), strings.TrimSpace(page)
			if !ok || id == "" || page == "" {
				return nil, fmt.Errorf("%s:%d: want elsewhere: UPSTREAM-ID | PAGE", path, n)
			}
			if q.Elsewhere == nil {
				q.Elsewhere = map[string]string{}
			}
			q.Elsewhere[id] = page
		case "check":
			c, err := parseCheck(val)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			c.Line = n
			q.Checks = append(q.Checks, c)
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q (question, answer, check, cite, elsewhere)", path, n, key)
		}
	}
	if err := sc.Err(); err != nil {
		err = fmt.Errorf("%s: %v", path, err)
		return nil, err
	}
	if len(q.Question) == 0 || len(q.Answer) == 0 {
		return nil, fmt.Errorf("%s: a question and an answer are required", path)
	}
	if len(q.Checks) == 0 {
		return nil, fmt.Errorf("%s: the answer needs at least one check line", path)
	}
	return q, nil
}

func parseCheck(s string) (Check, error) {
	lhs, want, ok := strings.Cut(s, "=")
	// hw=... and target=... contain '=' too: the claim is after " = "
	if i := strings.LastIndex(s, " = "); i >= 0 {
		lhs, want, ok = s[:i], s[i+3:], true
	}
	f := strings.Fields(lhs)
	want = strings.TrimSpace(want)
	if !ok || len(f) < 2 || want == "" {
		return Check{}, fmt.Errorf("want check: TEST hw=HW SEM... = VERDICT, or TEST target=T = STATUS")
	}
	c := Check{Test: f[0], Want: want}
	switch {
	case strings.HasPrefix(f[1], "hw="):
		hw, err := spec.ParseHW(strings.TrimPrefix(f[1], "hw="))
		if err != nil {
			return c, err
		}
		c.HW = hw
		c.Sems = f[2:]
		if len(c.Sems) == 0 {
			return c, fmt.Errorf("a model check names the semantics after hw=")
		}
	case strings.HasPrefix(f[1], "target=") && len(f) == 2:
		c.Target = strings.TrimPrefix(f[1], "target=")
		var err error
		if c.kind, c.family, err = conform.ParseTargetName(c.Target); err != nil {
			return c, err
		}
		st, err := conform.ParseStatus(want)
		if err != nil || st == conform.StatusRefused { // a refused run proves nothing
			return c, fmt.Errorf("unknown status %q (ok, NON-CONFORMING, SPIN-LIMIT, skipped, failed)", want)
		}
		c.Status = st
	case strings.HasPrefix(f[1], "exploit=") && len(f) == 2:
		c.Exploit = strings.TrimPrefix(f[1], "exploit=")
		if want != "adds" && want != "none" {
			return c, fmt.Errorf("an exploit check says adds or none, not %q", want)
		}
	default:
		return c, fmt.Errorf("want hw=HW SEM..., target=T or exploit=SEM after the test name")
	}
	return c, nil
}

// String is the check as the report prints it.
func (c Check) String() string {
	if c.Target != "" {
		return fmt.Sprintf("%s on %s: %s in every run", c.Test, c.Target, c.Want)
	}
	if c.Exploit != "" {
		if c.Want == "adds" {
			return fmt.Sprintf("%s: exploiting its assertions under %s adds outcomes", c.Test, c.Exploit)
		}
		return fmt.Sprintf("%s: exploiting its assertions under %s adds none", c.Test, c.Exploit)
	}
	return fmt.Sprintf("%s (hw %s): %s under %s", c.Test, c.HW, c.Want, strings.Join(c.Sems, ", "))
}

// checkQuestion verifies every check of the question against the report's results.
func (r *Report) checkQuestion() error {
	q := r.Question
	if q == nil {
		return nil
	}
	for _, c := range q.Checks {
		tr := r.test(c.Test)
		if tr == nil {
			return fmt.Errorf("%s:%d: no test %s in this report", q.File, c.Line, c.Test)
		}
		if c.Target != "" {
			got := r.conformStatuses(tr, func(t conform.TargetInfo) bool { return t.Kind == c.kind && t.Family == c.family })
			if len(got) == 0 {
				return fmt.Errorf("%s:%d: no conformance data of %s on %s", q.File, c.Line, c.Test, c.Target)
			}
			for _, s := range got {
				if s != c.Status {
					return fmt.Errorf("%s:%d: the answer does not hold: %s on %s is %s, not %s", q.File, c.Line, c.Test, c.Target, s, c.Want)
				}
			}
			continue
		}
		if c.Exploit != "" {
			ex, def := tr.Exploit[c.Exploit], tr.Results[ResultKey{c.Exploit, spec.Relaxed}]
			if ex == nil || def == nil {
				return fmt.Errorf("%s:%d: %s was not run with --exploit under %s in this report", q.File, c.Line, c.Test, c.Exploit)
			}
			got := "none"
			if len(explorer.Compare(ex, def).OnlyX) > 0 {
				got = "adds"
			}
			if got != c.Want {
				return fmt.Errorf("%s:%d: the answer does not hold: exploiting %s under %s %s outcomes", q.File, c.Line, c.Test, c.Exploit, map[string]string{"adds": "adds", "none": "adds no"}[got])
			}
			continue
		}
		hw := c.HW
		for _, name := range c.Sems {
			res := tr.Results[ResultKey{name, hw}]
			if res == nil {
				return fmt.Errorf("%s:%d: %s was not run under %s on hw %s in this report", q.File, c.Line, c.Test, name, hw)
			}
			if got := res.Verdict().String(); got != c.Want {
				return fmt.Errorf("%s:%d: the answer does not hold: %s under %s (hw %s) is %s, not %s", q.File, c.Line, c.Test, name, hw, got, c.Want)
			}
		}
	}
	return nil
}
