package relay

import (
	"fmt"
	"strconv"
	"strings"
)

// VerboseEnv is the environment variable that makes the kernel's log verbose. Jupyter
// passes its own environment to kernels, so `TWINTORUS_KERNEL_VERBOSE=1 make run`
// (or make notebooks) turns it on for every kernel that server starts.
const VerboseEnv = "TWINTORUS_KERNEL_VERBOSE"

// ParseVerbose reads VerboseEnv's value: "" or "0" is quiet (the default), 1 is
// gonb's own log (a line per cell, gopls and shutdown, and its warnings) and the
// relay's debug lines, 2 to 9 add gonb's debug log at klog level -v=N-1 (2: a line per
// message).
func ParseVerbose(value string) (int, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 9 {
		return 0, fmt.Errorf("relay: %s=%q: want a number from 0 (quiet, the default) to 9", VerboseEnv, value)
	}
	return n, nil
}

// GonbLogFlags are the flags that give gonb's log (klog, which it writes to stderr,
// that is Jupyter's log and nbconvert's output) the verbosity ParseVerbose read.
//
// Quiet keeps klog's errors only: klog writes to stderr what is at or above
// -stderrthreshold only when it logs to files, so the files become one, /dev/null.
// (Without -log_file klog would create files in the temporary directory.)
func GonbLogFlags(verbose int) []string {
	switch {
	case verbose <= 0:
		return []string{"-logtostderr=false", "-log_file=/dev/null", "-stderrthreshold=ERROR"}
	case verbose == 1:
		return nil // gonb's default: every info line to stderr
	}
	return []string{"-v=" + strconv.Itoa(verbose-1)}
}
