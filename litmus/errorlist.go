package litmus

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.File == "" {
		if e.Pos.IsValid() {
			return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return e.Msg
	}
	if !e.Pos.IsValid() {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is the problems of a file, sorted by position once Sort is called.
type ErrorList []*Error

// MaxErrors is how many errors Parse reports for one file before it stops listing them.
const MaxErrors = 20

func (l ErrorList) Len() int { return len(l) }

func (l ErrorList) Less(i, j int) bool {
	a, b := l[i], l[j]
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line < b.Pos.Line
	}
	if a.Pos.Col != b.Pos.Col {
		return a.Pos.Col < b.Pos.Col
	}
	return a.Msg < b.Msg
}

func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Sort sorts the list by file, position and message.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error joins the messages, one a line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Add appends an error. Long string arguments (a garbage token) are shortened.
func (l *ErrorList) Add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, capArgs(args)...)})
}

// dedupSortCap sorts, drops exact duplicates and caps the list at MaxErrors.
func (l ErrorList) dedupSortCap() ErrorList {
	l.Sort()
	var out ErrorList
	for i, e := range l {
		if i > 0 && *e == *l[i-1] {
			continue
		}
		out = append(out, e)
	}
	if len(out) > MaxErrors {
		more := len(out) - MaxErrors
		last := out[MaxErrors]
		out = append(out[:MaxErrors:MaxErrors], &Error{File: last.File, Pos: last.Pos,
			Msg: fmt.Sprintf("too many errors (%d more not shown)", more)})
	}
	return out
}
