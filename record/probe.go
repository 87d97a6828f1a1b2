package record

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/conform"
)

// WriteProbe writes a probe's record: one indented JSON object (`probe --json`).
func WriteProbe(w io.Writer, pr *conform.Probe) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(pr)
}

// ParseProbe reads a record WriteProbe wrote, the contents of file path.
func ParseProbe(path string, data []byte) (*conform.Probe, error) {
	var pr conform.Probe
	if err := json.Unmarshal(data, &pr); err != nil {
		return nil, fmt.Errorf("%s: %v (want rmacheck probe --json output)", path, err)
	}
	return &pr, nil
}
