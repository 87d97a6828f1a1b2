package evidence

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// The execution diagrams of the HTML page. One column per process, one row per step
// in the order the execution takes them (time runs down), and four kinds of edge,
// each in its own colour and dash so that they read apart in print too:
//
//   - reads-from (green, solid): the step that wrote a value to the step that read
//     it (model.Trace's ReadsFrom: a store, a put's perform, an accumulate);
//   - RMA issue -> perform (blue, dashed) and perform -> completion at the origin
//     (blue, dotted);
//   - process synchronization (purple, dash-dot): send -> receive, the last arrival
//     at a fence or barrier -> each other process's return, post -> start (when
//     start waits), complete -> wait, unlock -> the next conflicting lock.
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

// Edge kinds.
const (
	edgeRF = iota
	edgeIssue
	edgeComplete
	edgeSync
)

var edgeStyle = [...]struct{ class, color, dash, marker, name string }{
	edgeRF:       {"rf", "#1a7f37", "", "rf", "reads-from: write → read"},
	edgeIssue:    {"issue", "#0b57d0", "7 4", "rma", "RMA issue → perform"},
	edgeComplete: {"complete", "#0b57d0", "2 3", "rma", "RMA perform → completion"},
	edgeSync:     {"sync", "#8250df", "9 3 2 3", "sync", "process synchronization"},
}

type diagEdge struct{ from, to, kind int }

type diagStep struct {
	col   int
	kind  model.StepKind
	early bool
	lines []diagLine
}

type diagLine struct {
	text, class string
}

// Diagram draws an execution as SVG (see above); marks are the steps that are a
// flag's accesses (index -> rule).
func Diagram(p *model.Program, steps []model.Step, marks map[int]spec.RuleID) string {
	tr, _, err := p.Trace(steps)
	n := p.NProcs
	wrapW := int((float64(diagMaxW)/float64(n) - diagNodeOff - 16) / diagCharW)
	wrapW = max(24, min(wrapW, 54))

	ds := make([]diagStep, len(tr))
	for i := range tr {
		ds[i] = describeStep(p, tr, i, marks, wrapW)
	}
	edges := diagramEdges(p, tr)

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
	legendRows, legendH := legendLayout(width)
	width = max(width, legendWidth(legendRows))

	top := float64(legendH + 34)
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
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="%d" height="%d" viewBox="0 0 %d %d" font-family="ui-monospace,DejaVu Sans Mono,monospace" font-size="%d" role="img" aria-label="execution diagram">`,
		width, height, width, height, diagFont)
	b.WriteString(`<defs>`)
	for _, m := range []struct{ id, color string }{{"rf", edgeStyle[edgeRF].color}, {"rma", edgeStyle[edgeIssue].color}, {"sync", edgeStyle[edgeSync].color}} {
		fmt.Fprintf(&b, `<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, m.id, m.color)
	}
	b.WriteString(`</defs>`)
	drawLegend(&b, legendRows)
	for c := 0; c < n; c++ {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="%d" font-weight="bold">P%d</text>`, nodeX(c)-8, top+4, diagHead, c)
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%d" stroke="#c8c8c8" stroke-width="1.5"/>`, nodeX(c), top+10, nodeX(c), height-6)
	}
	// edges under the labels, labels on a light ground over them, nodes on top
	for _, e := range edges {
		drawEdge(&b, e, nodeX(ds[e.from].col), ys[e.from], nodeX(ds[e.to].col), ys[e.to], colX[ds[e.to].col])
	}
	for i, s := range ds {
		x, yy := nodeX(s.col), ys[i]
		tx := x + 14
		chars := 0
		for _, l := range s.lines {
			chars = max(chars, len([]rune(l.text)))
		}
		fmt.Fprintf(&b, `<g><title>%s</title>`, html.EscapeString(tr[i].Text))
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%d" fill="#fff" fill-opacity="0.86"/>`, tx-3, yy-diagFont+1, float64(chars)*diagCharW+6, len(s.lines)*diagLineH+2)
		for k, l := range s.lines {
			fmt.Fprintf(&b, `<text x="%.0f" y="%.0f"%s>%s</text>`, tx, yy+4+float64(k*diagLineH), lineAttrs(l.class), html.EscapeString(l.text))
		}
		b.WriteString(`</g>`)
		drawNode(&b, s, x, yy, false)
	}
	if err != nil {
		fmt.Fprintf(&b, `<text x="8" y="%d" font-size="%d" fill="#b00020">replay stopped: %s</text>`, height-8, diagSmall, html.EscapeString(err.Error()))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func lineAttrs(class string) string {
	switch class {
	case "early":
		return ` fill="#b00020" font-size="12"`
	case "mark":
		return ` fill="#b00020" font-weight="bold"`
	case "raised":
		return ` fill="#8a1c1c" font-size="12"`
	case "note":
		return ` fill="#555" font-size="12"`
	}
	return ""
}

// describeStep is the column and the text lines of step i.
func describeStep(p *model.Program, tr []model.TraceStep, i int, marks map[int]spec.RuleID, wrapW int) diagStep {
	st := &tr[i]
	s := diagStep{col: st.Proc, kind: st.Step.Kind, early: len(st.Early) > 0}
	if st.Step.Kind == model.StepPerform {
		sl := p.Slots[st.Step.Index]
		s.col = int(p.Procs[sl.Proc].Code[sl.Instr].Target)
	}
	text := st.Text
	if rest, ok := strings.CutPrefix(text, fmt.Sprintf("P%d ", st.Proc)); ok && st.Step.Kind != model.StepPerform {
		text = rest
	}
	label := fmt.Sprintf("%d. %s", i+1, text)
	if m, ok := marks[i]; ok {
		label += "  ◀ " + m.String()
	}
	for k, l := range wrap(label, wrapW) {
		cls := ""
		if k == 0 && marks[i] != spec.NoRule && strings.Contains(l, "◀") {
			cls = "mark"
		}
		s.lines = append(s.lines, diagLine{l, cls})
	}
	if _, ok := marks[i]; ok && !strings.Contains(s.lines[len(s.lines)-1].text, "◀") && !strings.Contains(s.lines[0].text, "◀") {
		s.lines = append(s.lines, diagLine{"◀ " + marks[i].String(), "mark"})
	}
	if s.early {
		var rows []string
		for _, row := range st.Early {
			rows = append(rows, fmt.Sprintf("row %d (%s)", row, p.InstrAt(model.Site{Proc: st.Proc, Row: row}).Text))
		}
		for _, l := range wrap("◆ early: runs before "+strings.Join(rows, ", ")+", not yet executed", wrapW) {
			s.lines = append(s.lines, diagLine{l, "early"})
		}
	}
	for _, rf := range st.ReadsFrom {
		name := p.Cells[rf.Copy.Cell].Name
		if rf.Copy.Private {
			name += " (private copy)"
		}
		switch {
		case rf.FwdRow > 0:
			for _, l := range wrap(fmt.Sprintf("%s forwarded from row %d, not yet executed", name, rf.FwdRow), wrapW) {
				s.lines = append(s.lines, diagLine{l, "note"})
			}
		case rf.Step < 0:
			s.lines = append(s.lines, diagLine{name + ": the initial value", "note"})
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

// diagramEdges finds the edges of a trace.
func diagramEdges(p *model.Program, tr []model.TraceStep) []diagEdge {
	var edges []diagEdge
	issued := map[int]int{} // slot -> the step that issued it
	sends := map[[2]int][]int{}
	instrOf := func(i int) *model.Instr {
		st := tr[i].Step
		if st.Kind != model.StepExec && st.Kind != model.StepReturn {
			return nil
		}
		return &p.Procs[st.Proc].Code[st.Index]
	}
	// latest finds the last step before i of process proc (any process but not when
	// proc < 0 and not other) executing an instruction that ok accepts.
	latest := func(i, proc, not int, kind model.StepKind, ok func(*model.Instr) bool) int {
		for j := i - 1; j >= 0; j-- {
			st := tr[j].Step
			if st.Kind != kind || (proc >= 0 && int(st.Proc) != proc) || int(st.Proc) == not {
				continue
			}
			if ok(&p.Procs[st.Proc].Code[st.Index]) {
				return j
			}
		}
		return -1
	}
	for i := range tr {
		st := tr[i].Step
		for _, rf := range tr[i].ReadsFrom {
			if rf.Step >= 0 && rf.Step != i && rf.FwdRow == 0 {
				edges = append(edges, diagEdge{rf.Step, i, edgeRF})
			}
		}
		switch st.Kind {
		case model.StepPerform:
			if from, ok := issued[int(st.Index)]; ok {
				edges = append(edges, diagEdge{from, i, edgeIssue})
			}
			sl := p.Slots[st.Index]
			if c := p.Procs[sl.Proc].Code[sl.Instr].Completer; c >= 0 {
				done := -1
				for j := i + 1; j < len(tr); j++ {
					if s := tr[j].Step; (s.Kind == model.StepExec || s.Kind == model.StepReturn) && int(s.Proc) == sl.Proc && s.Index == c {
						done = j
					}
				}
				if done >= 0 {
					edges = append(edges, diagEdge{i, done, edgeComplete})
				}
			}
			continue
		case model.StepDrain:
			continue
		}
		in := instrOf(i)
		proc := int(st.Proc)
		if st.Kind == model.StepReturn {
			// the last arrival at the call releases the others
			if j := latest(i, -1, proc, model.StepExec, func(x *model.Instr) bool { return x.Kind == in.Kind && x.Win == in.Win }); j >= 0 {
				edges = append(edges, diagEdge{j, i, edgeSync})
			}
			continue
		}
		switch {
		case in.Slot >= 0:
			issued[int(in.Slot)] = i
		case in.Kind == model.KSend:
			key := [2]int{proc, int(in.Target)}
			sends[key] = append(sends[key], i)
		case in.Kind == model.KRecv:
			key := [2]int{int(in.Target), proc}
			if q := sends[key]; len(q) > 0 {
				edges = append(edges, diagEdge{q[0], i, edgeSync})
				sends[key] = q[1:]
			}
		case in.Kind == model.KStart && p.Sem.Has(spec.PostStartLS):
			for t := 0; t < p.NProcs; t++ {
				if in.Group&(1<<uint(t)) == 0 || t == proc {
					continue
				}
				if j := latest(i, t, -1, model.StepExec, func(x *model.Instr) bool { return x.Kind == model.KPost && x.Win == in.Win }); j >= 0 {
					edges = append(edges, diagEdge{j, i, edgeSync})
				}
			}
		case in.Kind == model.KWait:
			group := in.Group
			if group == 0 { // the group of the post the wait ends
				if j := latest(i, proc, -1, model.StepExec, func(x *model.Instr) bool { return x.Kind == model.KPost && x.Win == in.Win }); j >= 0 {
					group = instrOf(j).Group
				}
			}
			for o := 0; o < p.NProcs; o++ {
				if group&(1<<uint(o)) == 0 || o == proc {
					continue
				}
				if j := latest(i, o, -1, model.StepExec, func(x *model.Instr) bool { return x.Kind == model.KComplete && x.Win == in.Win }); j >= 0 {
					edges = append(edges, diagEdge{j, i, edgeSync})
				}
			}
		case in.Kind == model.KLock:
			excl := in.LockType == litmus.LockExclusive
			if j := latest(i, -1, proc, model.StepExec, func(x *model.Instr) bool {
				return x.Kind == model.KUnlock && x.Win == in.Win && x.Target == in.Target
			}); j >= 0 {
				// the unlock's own lock decides whether the two conflict
				u := instrOf(j)
				if excl || u.LockType == litmus.LockExclusive {
					edges = append(edges, diagEdge{j, i, edgeSync})
				}
			}
		}
	}
	return edges
}

func drawEdge(b *strings.Builder, e diagEdge, x1, y1, x2, y2, colLeft float64) {
	st := edgeStyle[e.kind]
	dash := ""
	if st.dash != "" {
		dash = ` stroke-dasharray="` + st.dash + `"`
	}
	width := "1.8"
	if e.kind == edgeRF {
		width = "2.4"
	}
	if x1 == x2 {
		// same process: an arc left of the timeline
		bx := colLeft + 8 + float64(e.kind)*5
		fmt.Fprintf(b, `<path class="edge %s" d="M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f" fill="none" stroke="%s" stroke-width="%s"%s marker-end="url(#arrow-%s)"/>`,
			st.class, x1-4, y1, bx, y1, bx, y2, x2-7, y2, st.color, width, dash, st.marker)
		return
	}
	// shorten the end so the arrowhead stops at the node
	dx, dy := x2-x1, y2-y1
	l := math.Sqrt(dx*dx + dy*dy)
	if l > 0 {
		x2, y2 = x2-dx/l*8, y2-dy/l*8
	}
	fmt.Fprintf(b, `<line class="edge %s" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="%s"%s marker-end="url(#arrow-%s)"/>`,
		st.class, x1, y1, x2, y2, st.color, width, dash, st.marker)
}

func drawNode(b *strings.Builder, s diagStep, x, y float64, legend bool) {
	cls := ` class="node early"`
	if legend {
		cls = ""
	}
	switch {
	case s.early:
		fmt.Fprintf(b, `<path%s d="M%.0f,%.0fl7,7l-7,7l-7,-7z" fill="#b00020"/>`, cls, x, y-7)
	case s.kind == model.StepPerform:
		fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="11" height="11" fill="#0b57d0"/>`, x-5.5, y-5.5)
	case s.kind == model.StepReturn:
		fmt.Fprintf(b, `<circle cx="%.0f" cy="%.0f" r="5.5" fill="#fff" stroke="#222" stroke-width="2"/>`, x, y)
	case s.kind == model.StepDrain:
		fmt.Fprintf(b, `<circle cx="%.0f" cy="%.0f" r="4.5" fill="#888"/>`, x, y)
	default:
		fmt.Fprintf(b, `<circle cx="%.0f" cy="%.0f" r="5.5" fill="#222"/>`, x, y)
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
	fmt.Fprintf(b, `<g class="legend" font-size="%d" font-family="system-ui,sans-serif">`, diagSmall)
	for r, row := range rows {
		y := 16 + float64(r*22)
		x := 10.0
		for _, it := range row {
			if it.edge >= 0 {
				st := edgeStyle[it.edge]
				dash := ""
				if st.dash != "" {
					dash = ` stroke-dasharray="` + st.dash + `"`
				}
				fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="2.2"%s marker-end="url(#arrow-%s)"/>`, x, y-4, x+36, y-4, st.color, dash, st.marker)
			} else {
				drawNode(b, diagStep{early: it.node == "early", kind: map[string]model.StepKind{"perform": model.StepPerform, "return": model.StepReturn, "drain": model.StepDrain}[it.node]}, x+18, y-4, true)
			}
			fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text>`, x+46, y, html.EscapeString(it.label))
			x += legendItemWidth(it)
		}
	}
	b.WriteString(`</g>`)
}
