package hugeheap

import (
	"runtime"
	"sync"
	"syscall"
)

// hugeHeapSize is the Go heap's address space that Advise advises: more than a run
// over bench/generated (70-80 MiB at -j 2) or the plain family (300-350 MiB)
// touches. At 128 MiB the plain family still took 17-32 k minor faults, at 512 MiB
// 3 k. Address space that is never touched costs nothing.
const hugeHeapSize = 512 << 20

const madvHugePage = 14 // MADV_HUGEPAGE, linux/mman.h

// Advise asks the kernel for transparent huge pages under the first hugeHeapSize
// bytes the Go heap maps, before anything touches them. The machine's THP mode is
// often "madvise" (this one's is), which gives huge pages only to memory that asks,
// and the Go runtime no longer asks for its heap. In a virtual machine a 4 KiB page
// fault is costly (25-80 us here, against 2-10 us per 4 KiB within a 2 MiB page), and
// a run over many small tests faults its whole heap in: bench/generated took 14-17 k
// minor faults, 0.25-0.3 s of system time in 1.7 CPU-s, and the faults of two workers
// did not overlap, so they capped run -j 2. With the advice: about 2.5 k faults.
//
// The trick: a large slice is mapped fresh for it (fresh heap memory is not touched
// by the allocator), advised, and dropped; the collection returns its pages to the
// heap, which places later spans in them. Memory that is never touched costs
// nothing, and the advice outlives the slice. Under an address-space limit (ulimit
// -v), which counts untouched memory too, it does nothing.
//
// It costs a collection and the mapping, 3-10 ms here, once a process: the
// commands that search call it, not the others (fmt, check, explain), which
// touch little memory.
func Advise() { once() }

var once = sync.OnceFunc(func() {
	if limited() {
		return
	}
	adviseFresh()
	runtime.GC()
})

//go:noinline
func adviseFresh() {
	b := make([]byte, hugeHeapSize)
	_ = syscall.Madvise(b, madvHugePage) // only advice: without THP nothing changes
}

// limited reports an address-space limit (ulimit -v), which counts untouched
// memory too, or that none can be read.
func limited() bool {
	var r syscall.Rlimit
	return syscall.Getrlimit(syscall.RLIMIT_AS, &r) != nil || r.Cur < 1<<62
}
