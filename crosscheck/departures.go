package crosscheck

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Departures are the known disagreements between the engines, each with which engine
// is wrong and the rule that decides it (axiom/testdata/known-departures.txt), so
// that a crosscheck reports them apart from new ones until their issue lands.
type Departures struct {
	entries []departure
}

type departure struct {
	file, preset, hw string // "*": any
	why              string
}

// ParseDepartures reads lines "FILE PRESET HW | why" ('#' comments, blank lines
// ignored); PRESET and HW may be '*'. FILE is the path from the repository root
// (litmus/errors/NAME.lit, bench/generated/NAME.lit) or acceptance/NAME.lit.
func ParseDepartures(r io.Reader) (*Departures, error) {
	d := &Departures{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, why, ok := strings.Cut(line, "|")
		f := strings.Fields(key)
		if !ok || len(f) != 3 || strings.TrimSpace(why) == "" {
			return nil, fmt.Errorf("known departures, line %d: want \"FILE PRESET HW | why\", found %q", n, line)
		}
		d.entries = append(d.entries, departure{file: f[0], preset: f[1], hw: f[2], why: strings.TrimSpace(why)})
	}
	return d, sc.Err()
}

// Lookup returns why a case is a known departure ("" when it is not one); file is
// the case's path as the departures name it.
func (d *Departures) Lookup(file, preset, hw string) string {
	if d == nil {
		return ""
	}
	for _, e := range d.entries {
		if e.file == file && (e.preset == "*" || e.preset == preset) && (e.hw == "*" || e.hw == hw) {
			return e.why
		}
	}
	return ""
}
