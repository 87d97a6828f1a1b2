package reference

// The spin bound: a loop that does not exit within so many failed exit tests in a row
// stops the run, whatever its registers do (issue 25 row 10: spinAgain shows LIVELOCK
// only for a loop that reads the same values again and again, so a loop whose
// registers change on every pass, and never exit, ran forever).

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/model"
)

// Spin bounds of a loop, in failed exit tests in a row within one iteration: the C
// program's (conform/cgen), so that a loop stops at the same count on every target.
// A body that calls MPI spins about a microsecond a pass, a plain one a few
// nanoseconds.
const (
	SpinLimitPlain = 1 << 26
	SpinLimitMPI   = 1 << 21
)

// SpinError is a run stopped in a spin loop: LIVELOCK shown (the loop reads the same
// values again and again, and nothing left can change them), or a loop that passed
// its spin bound. The model's verdict on the test says which the standard allows
// (conform reports either as the run's SPIN-LIMIT, as it does a library's).
type SpinError struct {
	// Loops: where the ranks spin ("P1 row 1: until r0 == 1; ...").
	Loops string
	// Limit is the bound a loop passed (0: LIVELOCK shown before any bound).
	Limit int
	// Exit is the exit test of the loop that passed Limit.
	Exit string
}

func (e *SpinError) Error() string {
	if e.Limit == 0 {
		return fmt.Sprintf("LIVELOCK: %s: the loop reads the same values again and again, and nothing left can change them: it never exits (docs/semantics.md, Spin loops; rmacheck explain LIVELOCK)", e.Loops)
	}
	return e.Line()
}

// Line is the run's SPIN-LIMIT line, in the C program's words ("SPIN-LIMIT P0 row 3:
// the loop did not exit after 67108864 iterations"), or its LIVELOCK line.
func (e *SpinError) Line() string {
	if e.Limit == 0 {
		return e.Error()
	}
	return fmt.Sprintf("SPIN-LIMIT %s: the loop did not exit after %d iterations (%s)", e.Loops, e.Limit, e.Exit)
}

// spinBound is a machine's spin bound and the first loop that passed it.
type spinBound struct {
	limit  int // Options.SpinLimit (0: SpinLimitPlain or SpinLimitMPI by the body)
	passed atomic.Pointer[SpinError]
}

// pastSpinLimit reports whether r's loop that ends at row j has failed its exit test
// more times in a row than its bound; the first such loop is the run's SpinError.
func (m *machine) pastSpinLimit(r *rank, j int) bool {
	limit := m.spin.limit
	if limit == 0 {
		if r.spins < SpinLimitMPI {
			return false
		}
		limit = SpinLimitPlain
		for b := r.code[j].LoopBody; b != 0; b &= b - 1 {
			if r.code[bits.TrailingZeros64(b)].IsMPI {
				limit = SpinLimitMPI
			}
		}
	}
	if r.spins < limit {
		return false
	}
	m.spin.passed.CompareAndSwap(nil, &SpinError{Loops: fmt.Sprintf("P%d row %d", r.id, loopRow(r.code, j)), Limit: limit, Exit: r.code[j].Text})
	return true
}

// loopRow is the row where the loop that ends at code[j] begins, as the C program
// names it: its repeat's, or the await's own.
func loopRow(code []model.Instr, j int) int {
	until := &code[j]
	if until.LoopBody == 0 {
		return until.Row
	}
	first := code[bits.TrailingZeros64(until.LoopBody)].Row
	if first == until.Row { // an await: its load and its test are one row
		return first
	}
	return first - 1
}

// spinError is the run's SpinError: the loop that passed its bound first, else the
// loops of a LIVELOCK shown, else nil.
func (m *machine) spinError() *SpinError {
	if e := m.spin.passed.Load(); e != nil {
		return e
	}
	if l := m.spinning(); l != "" {
		return &SpinError{Loops: l}
	}
	return nil
}
