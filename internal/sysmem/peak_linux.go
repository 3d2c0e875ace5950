package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// PeakRSS is the most memory this process has held resident so far, in bytes, and
// whether the system says: the high-water mark of its address space (VmHWM in
// /proc/self/status). Not getrusage's maxrss: that carries over the parent's high-water
// mark into a child started by fork and exec (Go starts children sharing the parent's
// memory until exec), so a run started by a large process reports that process's peak.
func PeakRSS() (uint64, bool) {
	if v, ok := vmHWM("/proc/self/status"); ok {
		return v, true
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0, false
	}
	return uint64(ru.Maxrss) << 10, true // kilobytes on Linux
}

// vmHWM reads VmHWM from a proc status file.
func vmHWM(path string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// VmHWM:	   20860 kB
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fields := strings.Fields(rest)
			if len(fields) == 2 && fields[1] == "kB" {
				if v, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
					return v << 10, true
				}
			}
		}
	}
	return 0, false
}
