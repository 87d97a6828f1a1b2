//go:build linux

package hugeheap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdvise: after Advise, the heap has a mapping of at least hugeHeapSize bytes
// with the huge-page advice (VmFlags "hg" in /proc/self/smaps), and objects
// allocated then land in it.
func TestAdvise(t *testing.T) {
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	if limited() {
		t.Skip("an address-space limit (ulimit -v): Advise does nothing under it")
	}
	Advise()
	Advise() // once a process: a second call changes nothing
	var keep [][]byte
	for range 64 {
		keep = append(keep, make([]byte, 64<<10)) // 4 MiB in spans of their own
	}
	advised := advisedRanges(t)
	var big uint64
	for _, r := range advised {
		big = max(big, r[1]-r[0])
	}
	if big < hugeHeapSize {
		t.Fatalf("largest advised mapping %d bytes, want >= %d; advised: %x", big, hugeHeapSize, advised)
	}
	in := 0
	for _, b := range keep {
		for _, r := range advised {
			if a := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))); a >= r[0] && a < r[1] {
				in++
				break
			}
		}
	}
	if in < len(keep)/2 {
		t.Errorf("%d of %d objects allocated after Advise are in an advised mapping", in, len(keep))
	}
}

// advisedRanges are the [start, end) of the mappings with the huge-page advice.
func advisedRanges(t *testing.T) [][2]uint64 {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var out [][2]uint64
	var cur [2]uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				cur = [2]uint64{a, b}
			}
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && strings.Contains(" "+flags+" ", " hg ") {
			out = append(out, cur)
		}
	}
	return out
}
