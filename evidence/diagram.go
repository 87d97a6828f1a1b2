package evidence

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/output"
	"github.com/rmacheck/rmacheck/spec"
)

// The execution diagrams of the HTML page. One column per process, one row per step
// in the order the execution takes them (time runs down), and four kinds of edge,
// each in its own colour and dash so that they read apart in print too:
//
//   - reads-from (green, solid): the step that wrote a value to the step that read
//     it;
//   - RMA issue -> perform (blue, dashed) and perform -> completion at the origin
//     (blue, dotted);
//   - process synchronization (purple, dash-dot).
//
// The model finds the edges (model.Trace.Edges, model.EdgeKind says what each is).
//
// A step that runs before earlier rows of its process (model.TraceStep.Early: the hw
// model lets it pass them) is a red diamond with the rows it passes written under
// it, so that a load drawn above the barrier it follows reads as what it is. The two
// accesses of a race or conflict are marked with their rule.

const (
	diagFont    = 13  // px, step labels
	diagHead    = 15  // px, process names
	diagSmall   = 12  // px, legend and notes: the smallest text of a diagram
	diagCharW   = 7.9 // px, the advance of a 13 px monospace glyph
	diagLineH   = 17  // px between text lines
	diagNodeOff = 34  // px from a column's left edge to its timeline
	diagMaxW    = 1120
)

// Edge kinds, the model's.
const (
	edgeRF       = int(model.EdgeReadsFrom)
	edgeIssue    = int(model.EdgeIssue)
	edgeComplete = int(model.EdgeComplete)
	edgeSync     = int(model.EdgeSync)
)

var edgeStyle = [...]struct{ class, color, dash, marker, name string }{
	edgeRF:       {"rf", "#1a7f37", "", "rf", "reads-from: write → read"},
	edgeIssue:    {"issue", "#0b57d0", "7 4", "rma", "RMA issue → perform"},
	edgeComplete: {"complete", "#0b57d0", "2 3", "rma", "RMA perform → completion"},
	edgeSync:     {"sync", "#8250df", "9 3 2 3", "sync", "process synchronization"},
}

type diagStep struct {
	col   int
	kind  model.StepKind
	early bool
	lines []diagLine
}

type diagLine struct {
	text, class string
}

// Diagram draws an execution as SVG (see above); mark is the rule of the steps
// that are a flag's accesses. It is drawn for the HTML page: its colours, dashes
// and arrowheads are the page's style sheet (diagramCSS) and the key's markers
// (DiagramKeySVG), once a page, not once a diagram.
func Diagram(tr *model.Trace, mark spec.RuleID) string {
	err := tr.Err
	n := tr.Procs
	wrapW := int((float64(diagMaxW)/float64(n) - diagNodeOff - 16) / diagCharW)
	wrapW = max(24, min(wrapW, 54))

	ds := make([]diagStep, len(tr.Steps))
	for i := range tr.Steps {
		ds[i] = describeStep(tr, i, mark, wrapW)
	}

	// columns: as wide as their longest line
	colChars := make([]int, n)
	for c := range colChars {
		colChars[c] = 14
	}
	for _, s := range ds {
		for _, l := range s.lines {
			colChars[s.col] = max(colChars[s.col], len([]rune(l.text)))
		}
	}
	colX := make([]float64, n+1)
	const left = 8
	colX[0] = left
	for c := 0; c < n; c++ {
		colX[c+1] = colX[c] + diagNodeOff + float64(colChars[c])*diagCharW + 24
	}
	width := int(colX[n]) + left
	top := float64(28)
	ys := make([]float64, len(ds))
	y := top + 10
	for i, s := range ds {
		ys[i] = y + 8
		y += float64(max(len(s.lines), 1))*diagLineH + 12
	}
	height := int(y) + 10
	if err != nil {
		height += diagLineH
	}
	nodeX := func(c int) float64 { return colX[c] + diagNodeOff }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="diagram" width="%d" height="%d" role="img" aria-label="execution diagram">`, width, height)
	for c := 0; c < n; c++ {
		fmt.Fprintf(&b, `<text class="proc" x="%.0f" y="%.0f">P%d</text>`, nodeX(c)-8, top+4, c)
		fmt.Fprintf(&b, `<line class="life" x1="%.0f" y1="%.0f" x2="%.0f" y2="%d"/>`, nodeX(c), top+10, nodeX(c), height-6)
	}
	// edges under the labels, labels on a light ground over them, nodes on top
	for _, e := range tr.Edges {
		drawEdge(&b, e, nodeX(ds[e.From].col), ys[e.From], nodeX(ds[e.To].col), ys[e.To], colX[ds[e.To].col])
	}
	for i, s := range ds {
		x, yy := nodeX(s.col), ys[i]
		tx := x + 14
		chars := 0
		for _, l := range s.lines {
			chars = max(chars, len([]rune(l.text)))
		}
		fmt.Fprintf(&b, `<rect class="bg" x="%.0f" y="%.0f" width="%.0f" height="%d"/>`, tx-3, yy-diagFont+1, float64(chars)*diagCharW+6, len(s.lines)*diagLineH+2)
		for k, l := range s.lines {
			fmt.Fprintf(&b, `<text%s x="%.0f" y="%.0f">%s</text>`, classAttr(l.class), tx, yy+4+float64(k*diagLineH), html.EscapeString(l.text))
		}
		drawNode(&b, s, x, yy)
	}
	if err != nil {
		fmt.Fprintf(&b, `<text class="early" x="8" y="%d">replay stopped: %s</text>`, height-8, html.EscapeString(err.Error()))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// classAttr is ` class="C"`, or "" for none.
func classAttr(class string) string {
	if class == "" {
		return ""
	}
	return ` class="` + class + `"`
}

// diagramCSS is the diagrams' part of the page's style sheet: fonts, the kinds of
// line and node, and the edges' colours, dashes and arrowheads (the key's markers).
var diagramCSS = func() string {
	var b strings.Builder
	fmt.Fprintf(&b, `svg.diagram,svg.key{background:#fcfcfc;border:1px solid #ddd;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:%dpx}`, diagFont)
	fmt.Fprintf(&b, `svg .legend{font-family:system-ui,sans-serif;font-size:%dpx}svg .proc{font-size:%dpx;font-weight:bold}`, diagSmall, diagHead)
	b.WriteString(`svg .life{stroke:#c8c8c8;stroke-width:1.5}svg .bg{fill:#fff;fill-opacity:.86}`)
	fmt.Fprintf(&b, `svg .early{fill:#b00020;font-size:%dpx}svg .mark{fill:#b00020;font-weight:bold}svg .raised{fill:#8a1c1c;font-size:%dpx}svg .aside{fill:#555;font-size:%dpx}`, diagSmall, diagSmall, diagSmall)
	b.WriteString(`svg .exec{fill:#222}svg .perform{fill:#0b57d0}svg .return{fill:#fff;stroke:#222;stroke-width:2}svg .drain{fill:#888}`)
	for _, st := range edgeStyle {
		width := "1.8"
		if st.class == "rf" {
			width = "2.4"
		}
		fmt.Fprintf(&b, `svg .%s{fill:none;stroke:%s;stroke-width:%s;marker-end:url(#arrow-%s)`, st.class, st.color, width, st.marker)
		if st.dash != "" {
			b.WriteString(`;stroke-dasharray:` + st.dash)
		}
		b.WriteString(`}`)
	}
	b.WriteString(`svg .legend line{stroke-width:2.2}`)
	return b.String()
}()

// DiagramKeySVG is the key of a page's diagrams: the arrowheads their edges use
// (defined here once for the page) and what each kind of edge and node means.
func DiagramKeySVG() string {
	rows, height := legendLayout(0)
	width := legendWidth(rows)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="key" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="key of the execution diagrams"><defs>`, width, height, width, height)
	for _, m := range []struct{ id, color string }{{"rf", edgeStyle[edgeRF].color}, {"rma", edgeStyle[edgeIssue].color}, {"sync", edgeStyle[edgeSync].color}} {
		fmt.Fprintf(&b, `<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, m.id, m.color)
	}
	b.WriteString(`</defs>`)
	drawLegend(&b, rows)
	b.WriteString("</svg>")
	return b.String()
}

// describeStep is the column and the text lines of step i.
func describeStep(tr *model.Trace, i int, mark spec.RuleID, wrapW int) diagStep {
	st := &tr.Steps[i]
	s := diagStep{col: st.At, kind: st.Step.Kind, early: len(st.Early) > 0}
	text := st.Text
	if rest, ok := strings.CutPrefix(text, fmt.Sprintf("P%d ", st.Proc)); ok && st.Step.Kind != model.StepPerform {
		text = rest
	}
	label := fmt.Sprintf("%d. %s", i+1, text)
	if st.Marked {
		label += "  ◀ " + mark.String()
	}
	for k, l := range wrap(label, wrapW) {
		cls := ""
		if k == 0 && st.Marked && mark != spec.NoRule && strings.Contains(l, "◀") {
			cls = "mark"
		}
		s.lines = append(s.lines, diagLine{l, cls})
	}
	if st.Marked && !strings.Contains(s.lines[len(s.lines)-1].text, "◀") && !strings.Contains(s.lines[0].text, "◀") {
		s.lines = append(s.lines, diagLine{"◀ " + mark.String(), "mark"})
	}
	if s.early {
		var rows []string
		for _, e := range st.Early {
			rows = append(rows, fmt.Sprintf("row %d (%s)", e.Row, e.Text))
		}
		for _, l := range wrap("◆ early: runs before "+strings.Join(rows, ", ")+", not yet executed", wrapW) {
			s.lines = append(s.lines, diagLine{l, "early"})
		}
	}
	for _, rf := range st.ReadsFrom {
		switch {
		case rf.FwdRow > 0:
			for _, l := range wrap(output.ReadFromText(rf), wrapW) {
				s.lines = append(s.lines, diagLine{l, "aside"})
			}
		case rf.Step < 0: // a value another step wrote is an edge
			s.lines = append(s.lines, diagLine{output.ReadFromText(rf), "aside"})
		}
	}
	for _, d := range st.Raised {
		for _, l := range wrap("! "+d.Rule.String()+": "+d.Message, wrapW) {
			s.lines = append(s.lines, diagLine{l, "raised"})
		}
	}
	return s
}

// wrap breaks text into lines of at most w characters, at spaces where it can.
func wrap(text string, w int) []string {
	var lines []string
	r := []rune(text)
	for len(r) > w {
		cut := w
		for k := w; k > w/2; k-- {
			if r[k] == ' ' {
				cut = k
				break
			}
		}
		lines = append(lines, strings.TrimRight(string(r[:cut]), " "))
		r = []rune(strings.TrimLeft(string(r[cut:]), " "))
		if len(r) > 0 {
			r = append([]rune("  "), r...)
		}
	}
	return append(lines, string(r))
}

func drawEdge(b *strings.Builder, e model.Edge, x1, y1, x2, y2, colLeft float64) {
	st := edgeStyle[e.Kind]
	if x1 == x2 {
		// same process: an arc left of the timeline
		bx := colLeft + 8 + float64(e.Kind)*5
		fmt.Fprintf(b, `<path class="edge %s" d="M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f"/>`, st.class, x1-4, y1, bx, y1, bx, y2, x2-7, y2)
		return
	}
	// shorten the end so the arrowhead stops at the node
	dx, dy := x2-x1, y2-y1
	l := math.Sqrt(dx*dx + dy*dy)
	if l > 0 {
		x2, y2 = x2-dx/l*8, y2-dy/l*8
	}
	fmt.Fprintf(b, `<line class="edge %s" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/>`, st.class, x1, y1, x2, y2)
}

func drawNode(b *strings.Builder, s diagStep, x, y float64) {
	switch {
	case s.early:
		fmt.Fprintf(b, `<path class="node early" d="M%.0f,%.0fl7,7l-7,7l-7,-7z"/>`, x, y-7)
	case s.kind == model.StepPerform:
		fmt.Fprintf(b, `<rect class="node perform" x="%.0f" y="%.0f" width="11" height="11"/>`, x-5.5, y-5.5)
	case s.kind == model.StepReturn:
		fmt.Fprintf(b, `<circle class="node return" cx="%.0f" cy="%.0f" r="5.5"/>`, x, y)
	case s.kind == model.StepDrain:
		fmt.Fprintf(b, `<circle class="node drain" cx="%.0f" cy="%.0f" r="4.5"/>`, x, y)
	default:
		fmt.Fprintf(b, `<circle class="node exec" cx="%.0f" cy="%.0f" r="5.5"/>`, x, y)
	}
}

// The legend: edge kinds and node shapes, laid out in rows that fit the width.
type legendItem struct {
	edge  int // edge kind, or -1 for a node
	node  string
	label string
}

var legendItems = []legendItem{
	{edgeRF, "", edgeStyle[edgeRF].name},
	{edgeIssue, "", edgeStyle[edgeIssue].name},
	{edgeComplete, "", edgeStyle[edgeComplete].name},
	{edgeSync, "", edgeStyle[edgeSync].name},
	{-1, "exec", "instruction"},
	{-1, "early", "out of program order (early)"},
	{-1, "perform", "RMA performed at target"},
	{-1, "return", "call returns"},
	{-1, "drain", "store buffer drains"},
}

func legendItemWidth(it legendItem) float64 { return 46 + float64(len([]rune(it.label)))*7.3 + 22 }

func legendLayout(width int) ([][]legendItem, int) {
	avail := float64(max(width, 1040)) - 16
	var rows [][]legendItem
	var row []legendItem
	used := 0.0
	for _, it := range legendItems {
		w := legendItemWidth(it)
		if used+w > avail && len(row) > 0 {
			rows = append(rows, row)
			row, used = nil, 0
		}
		row = append(row, it)
		used += w
	}
	rows = append(rows, row)
	return rows, len(rows)*22 + 6
}

func legendWidth(rows [][]legendItem) int {
	w := 0.0
	for _, row := range rows {
		x := 16.0
		for _, it := range row {
			x += legendItemWidth(it)
		}
		w = max(w, x)
	}
	return int(w)
}

func drawLegend(b *strings.Builder, rows [][]legendItem) {
	b.WriteString(`<g class="legend">`)
	for r, row := range rows {
		y := 16 + float64(r*22)
		x := 10.0
		for _, it := range row {
			if it.edge >= 0 {
				fmt.Fprintf(b, `<line class="%s" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/>`, edgeStyle[it.edge].class, x, y-4, x+36, y-4)
			} else {
				drawNode(b, diagStep{early: it.node == "early", kind: map[string]model.StepKind{"perform": model.StepPerform, "return": model.StepReturn, "drain": model.StepDrain}[it.node]}, x+18, y-4)
			}
			fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text>`, x+46, y, html.EscapeString(it.label))
			x += legendItemWidth(it)
		}
	}
	b.WriteString(`</g>`)
}
