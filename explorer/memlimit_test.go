package explorer

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/rmacheck/rmacheck/internal/offheap"
)

// TestHeapLimitLeavesOffHeap: under a limit, the Go heap's memory limit is three
// quarters of the room less what the visited sets mapped outside the heap, which
// the runtime does not count; never under an eighth of the room; and no limit is
// set without one.
func TestHeapLimitLeavesOffHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1)) // restore the limit as it was
	defer heapRoom.Store(heapRoom.Load())

	heapRoom.Store(0)
	debug.SetMemoryLimit(math.MaxInt64)
	setHeapLimit()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("without a limit: memory limit %d, want none", got)
	}

	b, _ := offheap.Blocks.Get(offheap.MinSize)
	defer offheap.Blocks.Put(b)
	mapped := offheap.Blocks.Mapped()
	for _, room := range []int64{64 * mapped, mapped} {
		heapRoom.Store(room)
		setHeapLimit()
		want := max(room*3/4-mapped, room/8)
		if got := debug.SetMemoryLimit(-1); got != want {
			t.Errorf("room %d, %d mapped: memory limit %d, want %d", room, mapped, got, want)
		}
	}
}
