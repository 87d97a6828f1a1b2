// Package upstream embeds status.json, the recorded library findings and their
// status upstream, so that rmacheck conform can say of a NON-CONFORMING result or a
// failed run that it is a known finding (evidence.Upstream.Known) without the
// repository beside the binary. The file stays the one hand-kept copy: make reports
// reads it from here too.
package upstream

import _ "embed"

// Status is status.json as committed.
//
//go:embed status.json
var Status []byte
