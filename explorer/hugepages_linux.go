package explorer

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on amd64 and arm64 Linux.
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the whole huge pages inside b with huge pages
// (madvise MADV_HUGEPAGE; the machine's THP mode is often "madvise", which gives
// them to no one who does not ask). A large visited set is probed at random: with
// 4 KiB pages nearly every probe missed the TLB, and faulting its hundreds of MiB in
// 4 KiB at a time took a third of a large search's time in the kernel. It is only
// advice: an error (no THP, another kernel) changes nothing.
func adviseHuge(b []byte) {
	if len(b) < 2*hugePage {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	first := (start + hugePage - 1) &^ (hugePage - 1)
	last := (start + uintptr(len(b))) &^ (hugePage - 1)
	if last <= first {
		return
	}
	_ = syscall.Madvise(b[first-start:last-start], madvHugePage)
}

const madvHugePage = 14 // MADV_HUGEPAGE, linux/mman.h
