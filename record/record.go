// Package record is rmacheck's versioned JSON records, written and read back by the
// same types: a search (`run --json`, one line each: Run), a conformance run
// (`conform --json`, one line each, a failed or refused run included: Conform) and a
// library's probe (`probe --json`: the indented conform.Probe). Reports read these
// records and nothing else.
package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// FormatVersion is the version of the records; a change that removes or renames a
// field raises it.
const FormatVersion = 1

// WriteLine writes one record as a line of JSON.
func WriteLine(w io.Writer, rec any) error { return json.NewEncoder(w).Encode(rec) }

// MaxFileBytes bounds a file of records: `report --conform <(yes '{...}')` grew
// without end until the process died of "out of memory".
const MaxFileBytes = 256 << 20

// checked is a record that can say whether it makes sense (Conform.Check).
type checked interface{ Check() error }

// readLines reads a file of JSON records, one a line (blank lines ignored), each
// checked, within MaxFileBytes. Errors name the file (and the line).
func readLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeLines[T](path, f, MaxFileBytes)
}

// decodeLines is readLines on a reader, with a bound on the bytes read.
func decodeLines[T any](path string, r io.Reader, limit int64) ([]T, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	var recs []T
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if lr.N <= 0 {
			return nil, fmt.Errorf("%s: larger than %d MiB: not a file of rmacheck records", path, limit>>20)
		}
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec T
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if c, ok := any(rec).(checked); ok {
			if err := c.Check(); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a file of rmacheck records", path, limit>>20)
	}
	return recs, nil
}
