//go:build linux || darwin

package sysmem

import (
	"runtime"
	"syscall"
)

// PeakRSS is the most memory this process has held resident so far (getrusage's
// maxrss), in bytes, and whether the system says.
func PeakRSS() (uint64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return uint64(ru.Maxrss), true // bytes there
	}
	return uint64(ru.Maxrss) << 10, true // kilobytes on Linux
}
