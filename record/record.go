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

// readLines reads a file of JSON records, one a line (blank lines ignored).
func readLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}
