package kernel

import (
	"os"

	"golang.org/x/sys/unix"
)

// unread is the number of bytes written to f that its reader has not read yet. Linux
// answers FIONREAD on either end of a pipe; ok is false for other files.
func unread(f *os.File) (n int, ok bool) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return 0, false
	}
	n, err = unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	return n, err == nil
}
