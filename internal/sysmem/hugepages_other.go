//go:build !linux

package sysmem

import "unsafe"

// adviseHuge does nothing where transparent huge pages are not known.
func adviseHuge(unsafe.Pointer, uintptr) {}
