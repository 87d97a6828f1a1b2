package explorer

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/rmacheck/rmacheck/internal/offheap"
)

// unknownMemory is the default bound where the machine's memory cannot be read.
const unknownMemory = 4 << 30

// DefaultMemory is the default --max-memory: the smallest of half of the machine's
// memory, a third of what the address-space limit (ulimit -v, RLIMIT_AS) leaves this
// process, and half of what its memory cgroup leaves it. The visited set is most of a
// search's memory, but not all: the Go heap may reach twice its live size between
// collections, and grown tables are kept until a level ends, so a budget equal to the
// limit would still die of "out of memory" instead of stopping with a message.
func DefaultMemory() int64 {
	limit := int64(unknownMemory)
	if total := memTotal(); total > 0 {
		limit = total / 2
	}
	if cap, _ := SystemMemory(); cap > 0 {
		limit = min(limit, cap)
	}
	return wholeMiB(limit)
}

// SystemMemory is the most the visited sets may take within the process's limits (a
// third of what RLIMIT_AS leaves, half of what the memory cgroup leaves), and which
// limit that is; 0 when neither is set. A --max-memory above it is lowered to it: asking
// for more would end in the runtime's fatal "out of memory", not in a message.
func SystemMemory() (int64, string) {
	var limit int64
	var why string
	if room := addressSpaceRoom(); room > 0 {
		limit, why = wholeMiB(room/3), "the address-space limit (ulimit -v) leaves room for "+FormatBytes(wholeMiB(room/3))
	}
	if room := cgroupRoom(); room > 0 && (limit == 0 || room/2 < limit) {
		limit, why = wholeMiB(room/2), "the memory cgroup's limit leaves room for "+FormatBytes(wholeMiB(room/2))
	}
	return limit, why
}

func wholeMiB(n int64) int64 { return max(n>>20<<20, 1<<20) }

// LimitHeap tells the Go runtime to collect harder before the process reaches the
// address-space or cgroup limit (runtime/debug.SetMemoryLimit), so that memory freed by
// finished searches is reused instead of new memory being asked of a system that would
// refuse it. Without such a limit it does nothing.
func LimitHeap() {
	room := int64(0)
	for _, r := range []int64{addressSpaceRoom(), cgroupRoom()} {
		if r > 0 && (room == 0 || r < room) {
			room = r
		}
	}
	heapRoom.Store(room)
	setHeapLimit()
}

// heapRoom is the room LimitHeap found: 0 without a limit.
var heapRoom atomic.Int64

// setHeapLimit gives the Go heap three quarters of the room LimitHeap found, less the
// blocks of the visited sets mapped outside it (offheap.Blocks), which the runtime's
// limit does not count; at least an eighth of the room, so that a full budget of
// blocks slows the collector down instead of stopping it in a collection loop. The
// visited sets call it when they take or give back a block (takeBlock, giveBlock),
// which may map or unmap memory.
func setHeapLimit() {
	if room := heapRoom.Load(); room > 0 {
		debug.SetMemoryLimit(max(room*3/4-offheap.Blocks.Mapped(), room/8))
	}
}

// memTotal is MemTotal of /proc/meminfo in bytes (0: unknown).
func memTotal() int64 {
	return procField("/proc/meminfo", "MemTotal:")
}

// addressSpaceRoom is what RLIMIT_AS leaves beyond the address space the process maps
// now (VmSize): 0 when there is no limit or it cannot be read.
func addressSpaceRoom() int64 {
	limit := rlimitAS()
	if limit <= 0 {
		return 0
	}
	used := procField("/proc/self/status", "VmSize:")
	return max(limit-used, 1)
}

// cgroupRoom is what the process's memory cgroup (v2 memory.max, or v1
// memory.limit_in_bytes) leaves beyond its current use: 0 when unlimited or unknown.
func cgroupRoom() int64 {
	for _, f := range cgroupFiles() {
		limit := readInt(f.limit)
		if limit <= 0 || limit >= 1<<60 { // "max", or v1's "no limit" (about 2^63)
			continue
		}
		return max(limit-readInt(f.usage), 1)
	}
	return 0
}

type cgroupFile struct{ limit, usage string }

// cgroupFiles are the limit/usage pairs to try, the process's own cgroup first.
func cgroupFiles() []cgroupFile {
	var files []cgroupFile
	data, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "": // v2
			dir := filepath.Join("/sys/fs/cgroup", parts[2])
			files = append(files, cgroupFile{filepath.Join(dir, "memory.max"), filepath.Join(dir, "memory.current")})
		case strings.Contains(","+parts[1]+",", ",memory,"): // v1
			dir := filepath.Join("/sys/fs/cgroup/memory", parts[2])
			files = append(files, cgroupFile{filepath.Join(dir, "memory.limit_in_bytes"), filepath.Join(dir, "memory.usage_in_bytes")})
		}
	}
	return append(files, cgroupFile{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"})
}

// readInt reads a file holding one integer (0 when absent or not a number, as "max").
func readInt(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// procField reads a "Key:  N kB" line of a /proc file, in bytes (0: absent).
func procField(path, key string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil && kb > 0 {
				return kb << 10
			}
		}
	}
	return 0
}

// AddressSpaceLimit is the soft address-space limit (ulimit -v) in bytes; 0 when none.
func AddressSpaceLimit() int64 { return rlimitAS() }
