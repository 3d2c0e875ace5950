package sysmem

import "unsafe"

// HugeThreshold is the size from which MakeHuge asks for huge pages: below it a table
// fits in the 4 KiB pages the TLB already covers.
const HugeThreshold = 4 << 20

// MakeHuge makes a slice of n zero values, as make does, and when it takes at least
// HugeThreshold bytes asks the kernel to back it with transparent huge pages (Linux,
// where the machine's setting is "madvise" or "always"). A large simulation reads its
// tables at random: with 4 KiB pages nearly every such read also misses the TLB and
// walks the page table; with 2 MiB pages far fewer do. It does not change the values.
//
// The advice must come before the memory is first written, which make guarantees for
// allocations this large (the runtime takes fresh pages from the OS and does not
// clear them), so callers fill the slice after MakeHuge returns.
func MakeHuge[T any](n int) []T {
	s := make([]T, n)
	var zero T
	if size := uintptr(n) * unsafe.Sizeof(zero); size >= HugeThreshold {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(s)), size)
	}
	return s
}
