package sysmem

import "syscall"

// PeakRSS is the most memory this process has held resident so far (getrusage's
// maxrss, in bytes on macOS), and whether the system says.
func PeakRSS() (uint64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0, false
	}
	return uint64(ru.Maxrss), true
}
