package offheap

import (
	"syscall"
)

const madvHugePage = 14 // MADV_HUGEPAGE, linux/mman.h

// mapHuge maps size bytes (a multiple of MinSize) of fresh memory aligned to a huge
// page and advises transparent huge pages for it: the kernel backs only aligned
// 2 MiB ranges with huge pages, so a block is mapped with a huge page to spare and
// trimmed. Blocks are unmapped with the system call itself, not syscall.Munmap,
// which knows only the untrimmed mappings.
func mapHuge(size int) ([]byte, error) {
	m, err := syscall.Mmap(-1, 0, size+MinSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	head := int(-base(m) & (MinSize - 1)) // bytes to the first huge-page boundary
	b := m[head : head+size : head+size]
	if head > 0 {
		munmap(base(m), uintptr(head))
	}
	if tail := MinSize - head; tail > 0 {
		munmap(base(b)+uintptr(size), uintptr(tail))
	}
	_ = syscall.Madvise(b, madvHugePage) // only advice: without THP the block has 4 KiB pages
	return b, nil
}

func unmapHuge(b []byte) { munmap(base(b), uintptr(cap(b))) }

func munmap(addr, n uintptr) { _, _, _ = syscall.Syscall(syscall.SYS_MUNMAP, addr, n, 0) }
