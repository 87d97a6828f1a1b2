package evidence

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// MatrixColumn is one configuration of a conformance matrix: the records of one
// target (a library install over one transport, conform.TargetInfo), failed and
// refused runs included (conform writes a record for each).
type MatrixColumn []record.Conform

// MatrixColumns groups records into the columns of a matrix, one for each target
// (two installs of one family are two columns; records of one target from several
// files are one), ordered by family, then version (numerically: 4.0.10 after 4.0.9),
// then transport (the default first), so that a family's versions over one transport
// follow one another and MatrixChanges can compare neighbours.
func MatrixColumns(recs []record.Conform) []MatrixColumn {
	var cols []MatrixColumn
	for _, r := range recs {
		i := slices.IndexFunc(cols, func(c MatrixColumn) bool { return c[0].Target == r.Target })
		if i < 0 {
			i = len(cols)
			cols = append(cols, nil)
		}
		cols[i] = append(cols[i], r)
	}
	slices.SortStableFunc(cols, func(a, b MatrixColumn) int {
		x, y := a[0].Target, b[0].Target
		return cmp.Or(cmp.Compare(x.Family, y.Family), slices.Compare(versionNumbers(x.Version), versionNumbers(y.Version)),
			cmp.Compare(transportRank(x.Transport), transportRank(y.Transport)), strings.Compare(x.Transport, y.Transport))
	})
	return cols
}

var numberRE = regexp.MustCompile(`[0-9]+`)

// versionNumbers are the numbers of a version string ("MPICH 4.0.10" is 4 0 10).
func versionNumbers(v string) []int {
	var ns []int
	for _, s := range numberRE.FindAllString(v, -1) {
		n, _ := strconv.Atoi(s)
		ns = append(ns, n)
	}
	return ns
}

// transportRank orders the transport profiles as conform.Transports lists them,
// others after.
func transportRank(t string) int {
	if i := slices.Index(conform.Transports, t); i >= 0 {
		return i
	}
	return len(conform.Transports)
}

// name is the column's heading: the library and version as the records say, and the
// transport ("MPICH 4.0.2 over net"), or the target's name when they do not say the
// version. Where the install is and how it was launched are in the Columns table.
func (c MatrixColumn) name() string {
	t := c[0].Target
	name := cmp.Or(t.Version, t.Name())
	if t.Transport != "" {
		name += " over " + t.Transport
	}
	return name
}

// columnNames are the columns' headings: their names, and where two columns would
// have one name (two installs of one version), each with its prefix too.
func columnNames(cols []MatrixColumn) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name()
	}
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	for i, c := range cols {
		if p := c[0].Target.Prefix; count[c.name()] > 1 && p != "" {
			names[i] = c.name() + " at " + p
		}
	}
	for i := range names {
		names[i] = titleEscape(names[i]) // a library names itself: no markup (issue 38 row 17)
	}
	return names
}

// record is the column's record of the test file, if it ran it.
func (c MatrixColumn) record(file string) (record.Conform, bool) {
	i := slices.IndexFunc(c, func(r record.Conform) bool { return r.File == file })
	if i < 0 {
		return record.Conform{}, false
	}
	return c[i], true
}

// cell is what the column says about one test file: its status and run counts, and
// whether that is a finding (NON-CONFORMING, a spin limit, a failed run).
func (c MatrixColumn) cell(file string) (text string, finding bool) {
	r, ok := c.record(file)
	if !ok {
		return "-", false
	}
	switch r.Status {
	case conform.StatusNonConforming:
		return fmt.Sprintf("**NON-CONFORMING** %d/%d", r.NonConforming, r.Runs), true
	case conform.StatusSpinLimit:
		return "**SPIN-LIMIT**", true
	case conform.StatusFailed:
		reason, _, _ := strings.Cut(r.Error, "; ") // without the hint of what to do
		return "**failed**: " + mdEscape(reason), true
	case conform.StatusOK:
		return fmt.Sprintf("ok %d", r.Runs), false
	}
	return r.Status.String(), false
}

// verdict classes a record for comparing versions: conforming (ok), not (a
// finding: NON-CONFORMING, a spin limit, a run that failed on an idle machine), or
// neither (skipped, refused, or a run that failed because the machine was loaded).
type verdict int

const (
	noVerdict verdict = iota
	conforming
	finding
)

func verdictOf(r record.Conform) verdict {
	switch r.Status {
	case conform.StatusOK:
		return conforming
	case conform.StatusNonConforming, conform.StatusSpinLimit:
		return finding
	case conform.StatusFailed:
		if !strings.Contains(r.Error, "on a loaded machine") {
			return finding
		}
	}
	return noVerdict
}

// MatrixChange is a test whose verdict differs between two versions of one family
// over one transport: a fix when the later version conforms where the earlier did
// not, a regression when the other way round.
type MatrixChange struct {
	File       string
	From, To   int  // the columns compared (indexes into the matrix's columns)
	Regression bool // false: a fix
	// Hang: the side with the finding is a run that did not finish. A library's start-up
	// can hang now and then (MPICH's TCP path does: reports/matrix/NOTES.md), so such a
	// change is named apart, to be run again before it is called a fix or a regression.
	Hang bool
}

// Kind is the change's name: "fix" or "regression", with "(a hang)" when the finding
// is a run that did not finish.
func (ch MatrixChange) Kind() string {
	kind := "fix"
	if ch.Regression {
		kind = "regression"
	}
	if ch.Hang {
		kind += " (a hang)"
	}
	return kind
}

// timedOut tells a run that did not finish within conform's bound.
func timedOut(r record.Conform) bool {
	return r.Status == conform.StatusFailed && strings.Contains(r.Error, "did not finish within")
}

// MatrixChanges are the tests whose verdict changes from a version of a family to
// the next one (over one transport) that has a verdict on the test: each change once,
// at the first version where it shows. Columns of other families, or transports, are
// never compared: a library is compared with its own earlier releases only.
func MatrixChanges(cols []MatrixColumn) []MatrixChange {
	var changes []MatrixChange
	for _, file := range matrixFiles(cols) {
		last := map[[2]string]int{} // family and transport -> the last column with a verdict
		for i, c := range cols {
			r, ok := c.record(file)
			if !ok || verdictOf(r) == noVerdict || c[0].Target.Family == conform.NoFamily {
				continue
			}
			key := [2]string{c[0].Target.Family.String(), c[0].Target.Transport}
			if j, seen := last[key]; seen {
				prev, _ := cols[j].record(file)
				if verdictOf(prev) != verdictOf(r) {
					regression, found := verdictOf(r) == finding, prev
					if regression {
						found = r
					}
					changes = append(changes, MatrixChange{File: file, From: j, To: i, Regression: regression, Hang: timedOut(found)})
				}
			}
			last[key] = i
		}
	}
	slices.SortStableFunc(changes, func(a, b MatrixChange) int { return cmp.Or(cmp.Compare(a.To, b.To), strings.Compare(a.File, b.File)) })
	return changes
}

// generatedDir is where the generated family's tests are (make gen): the matrix
// counts them in a table of their own instead of a row each.
const generatedDir = "bench/generated/"

// matrixFiles are the test files of the columns, the generated family's excluded.
func matrixFiles(cols []MatrixColumn) []string {
	var files []string
	for _, c := range cols {
		for _, r := range c {
			if !strings.HasPrefix(r.File, generatedDir) {
				files = append(files, r.File)
			}
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// tally counts a column's records: tests, runs, the runs' seconds (the targets'
// wall time of execution), the NON-CONFORMING tests and their distinct shapes.
type tally struct {
	tests, runs, nonConforming int
	seconds                    float64
	shapes                     []string
}

func tallyOf(recs []record.Conform) tally {
	var t tally
	for _, r := range recs {
		t.tests++
		t.runs += r.Runs
		t.seconds += r.TimeS
		if r.Status == conform.StatusNonConforming {
			t.nonConforming++
			t.shapes = append(t.shapes, shape(r.Test))
		}
	}
	slices.Sort(t.shapes)
	t.shapes = slices.Compact(t.shapes)
	return t
}

// rate is runs per second of the targets' execution, or "-" when none ran.
func (t tally) rate() string {
	if t.seconds <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(t.runs)/t.seconds)
}

// shape is a generated test's shape: its name without the window's flavor and the
// placement of its locations (the last two parts: +alloc+local), that is the
// communication pattern and its synchronization, which make gen varies them over.
func shape(test string) string {
	parts := strings.Split(test, "+")
	if len(parts) > 3 {
		parts = parts[:len(parts)-2]
	}
	return strings.Join(parts, "+")
}

// Matrix is the conformance matrix in Markdown: the columns (what each target is, its
// tests, runs and runs per second), the tests whose verdict changes between versions
// of a family (fixes and regressions), a row for each test with a finding in some
// column (NON-CONFORMING rows first), and the generated family's counts per column.
func Matrix(title string, cols []MatrixColumn) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	names := columnNames(cols)
	writeMatrixColumns(&b, cols, names)
	writeMatrixChanges(&b, cols, names)
	writeMatrixRows(&b, cols, names)
	writeMatrixGenerated(&b, cols, names)
	return []byte(b.String())
}

func writeMatrixColumns(b *strings.Builder, cols []MatrixColumn, names []string) {
	b.WriteString("## Columns\n\n| column | family | version | transport | prefix | launcher | tests | runs | runs/s | NON-CONFORMING tests |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for i, c := range cols {
		t, n := c[0].Target, tallyOf(c)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %d | %d | %s | %d |\n", names[i], cmp.Or(t.Family.Name(), t.Name()), titleEscape(cmp.Or(t.Version, "-")),
			cmp.Or(t.Transport, "-"), codeOr(t.Prefix), codeOr(t.Launcher), n.tests, n.runs, n.rate(), n.nonConforming)
	}
	b.WriteString("\nruns/s: runs per second of the target's execution (each launch's wall time, set-up included, compiles excluded).\n\n")
}

func codeOr(s string) string {
	if s == "" {
		return "-"
	}
	return "`" + mdEscape(s) + "`"
}

func writeMatrixChanges(b *strings.Builder, cols []MatrixColumn, names []string) {
	changes := MatrixChanges(cols)
	b.WriteString("## Changes between versions of a family\n\n")
	if len(changes) == 0 {
		b.WriteString("No test's verdict changes between versions of a family over one transport.\n\n")
		return
	}
	b.WriteString("A change marked \"(a hang)\" is a run that did not finish on one side: run it again before calling it a fix or a regression, since a library's start-up can hang now and then.\n\n")
	b.WriteString("| change | test | from | to |\n|---|---|---|---|\n")
	for _, ch := range changes {
		from, _ := cols[ch.From].cell(ch.File)
		to, _ := cols[ch.To].cell(ch.File)
		fmt.Fprintf(b, "| **%s** in %s | `%s` | %s: %s | %s: %s |\n", ch.Kind(), names[ch.To], ch.File,
			names[ch.From], from, names[ch.To], to)
	}
	b.WriteString("\n")
}

func writeMatrixRows(b *strings.Builder, cols []MatrixColumn, names []string) {
	files := matrixFiles(cols)
	type row struct {
		text          string
		nonConforming bool
	}
	var rows []row
	for _, file := range files {
		text, any, nc := "| `"+file+"` |", false, false
		for _, c := range cols {
			cell, found := c.cell(file)
			text += " " + cell + " |"
			any = any || found
			nc = nc || strings.HasPrefix(cell, "**NON-CONFORMING**")
		}
		if any {
			rows = append(rows, row{text, nc})
		}
	}
	slices.SortStableFunc(rows, func(x, y row) int {
		if x.nonConforming == y.nonConforming {
			return 0
		}
		if x.nonConforming {
			return -1
		}
		return 1
	})
	b.WriteString("## Tests with a finding in some column\n\nNON-CONFORMING rows first, then spin limits and failed runs.\n\n| test |")
	for _, name := range names {
		fmt.Fprintf(b, " %s |", name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, r := range rows {
		b.WriteString(r.text + "\n")
	}
	fmt.Fprintf(b, "\n%d of %d test files have a finding in some column; the other %d are ok, skipped or not run in every column.\n",
		len(rows), len(files), len(files)-len(rows))
}

func writeMatrixGenerated(b *strings.Builder, cols []MatrixColumn, names []string) {
	var lines []string
	for i, c := range cols {
		gen := slices.DeleteFunc(slices.Clone(c), func(r record.Conform) bool { return !strings.HasPrefix(r.File, generatedDir) })
		if len(gen) == 0 {
			continue
		}
		n := tallyOf(gen)
		lines = append(lines, fmt.Sprintf("| %s | %d | %d | %s | %d | %d | %s |", names[i], n.tests, n.runs, n.rate(), n.nonConforming,
			len(n.shapes), cmp.Or(strings.Join(n.shapes, ", "), "-")))
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n## The generated family (" + generatedDir + ")\n\nA shape is a test's pattern and synchronization, over every window flavor and placement.\n\n")
	b.WriteString("| column | tests | runs | runs/s | NON-CONFORMING tests | NON-CONFORMING shapes | shapes |\n|---|---|---|---|---|---|---|\n")
	b.WriteString(strings.Join(lines, "\n") + "\n")
}
