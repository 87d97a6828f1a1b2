package evidence

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rmacheck/rmacheck/conform"
	"github.com/rmacheck/rmacheck/record"
)

// MatrixColumn is one configuration of a conformance matrix: the records of one
// target (a library install over one transport, conform.TargetInfo), failed and
// refused runs included (conform writes a record for each).
type MatrixColumn []record.Conform

// MatrixColumns groups records into the columns of a matrix, one for each target in
// the order their records come: two installs of one family are two columns.
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
	return cols
}

// name is the column's heading: the library and version, where it is installed (when
// not the Debian package) and the transport, as the records say ("MPICH 4.0.2 over
// net"), or the target's name when they do not say the version.
func (c MatrixColumn) name() string {
	t := c[0].Target
	name := cmp.Or(t.Version, t.Name())
	if t.Prefix != "" {
		name += " at " + t.Prefix
	}
	if t.Transport != "" {
		name += " over " + t.Transport
	}
	return name
}

// cell is what the column says about one test file: its status and run counts, and
// whether that is a finding (NON-CONFORMING, a spin limit, a failed run).
func (c MatrixColumn) cell(file string) (text string, finding bool) {
	i := slices.IndexFunc(c, func(r record.Conform) bool { return r.File == file })
	if i < 0 {
		return "-", false
	}
	r := c[i]
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

// Matrix is the conformance matrix in Markdown: a column for each configuration, a
// row for each test with a finding (NON-CONFORMING, a spin limit, a failed run) in
// some column, each cell the status with its run counts.
func Matrix(title string, cols []MatrixColumn) []byte {
	var files []string
	for _, c := range cols {
		for _, r := range c {
			files = append(files, r.File)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	b.WriteString("| test |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s |", titleEscape(c.name())) // a library names itself: no markup (issue 38 row 17)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(cols)) + "\n")
	clean := 0
	for _, file := range files {
		row, any := "| `"+file+"` |", false
		for _, c := range cols {
			text, finding := c.cell(file)
			row += " " + text + " |"
			any = any || finding
		}
		if !any {
			clean++
			continue
		}
		b.WriteString(row + "\n")
	}
	fmt.Fprintf(&b, "\n%d of %d test files have a finding in some column; the other %d are ok, skipped or not run in every column.\n",
		len(files)-clean, len(files), clean)
	return []byte(b.String())
}
