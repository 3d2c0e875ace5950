package sysmem

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on x86-64 and most arm64 kernels.
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the whole 2 MiB pages inside [p, p+n) with
// transparent huge pages (MADV_HUGEPAGE). A kernel whose setting is "never", or that
// refuses, leaves the memory as it was: the advice is an optimisation only.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	start := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + n) &^ (hugePage - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
}
