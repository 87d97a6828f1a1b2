package main

import (
	"fmt"
	"io"

	"github.com/rmacheck/rmacheck/explorer"
)

// warnAddressSpace says at start when the address-space limit (ulimit -v) is under
// what this build needs to start reliably (startFloor): the Go runtime reserves
// address space before main (its page summaries, about 600 MiB; with cgo, thread
// stacks and malloc arenas too), and under the floor a run dies there or at its next
// thread with the runtime's "failed to reserve page summary memory", "pthread_create
// failed" or "out of memory" (issue 38 row 21). Nothing can catch that before main;
// what started is told that its next thread or search may not.
func warnAddressSpace(w io.Writer, limit int64) {
	if limit > 0 && limit < startFloor {
		fmt.Fprintf(w, "rmacheck: warning: the address-space limit (ulimit -v) is %s, under the %s this build needs to start reliably (%s): raise it, or a thread or a search may die with the Go runtime's \"out of memory\"\n",
			explorer.FormatBytes(limit), explorer.FormatBytes(startFloor), buildKind)
	}
}
