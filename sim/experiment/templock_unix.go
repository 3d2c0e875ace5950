//go:build unix

package experiment

import (
	"errors"
	"os"
	"syscall"
)

// lockTemp takes the advisory lock that tells a live writer's temporary file from a
// killed one's: a killed process's locks go with it. It reports whether the file
// system gave the lock (false where locks are not supported, as on some parallel
// file systems, and then the age rule decides).
func lockTemp(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false, err // another process holds it: not ours to write
	}
	return false, nil
}

// removeAbandoned removes the temporary file at path when no live writer holds its
// lock, and reports whether the file system could tell (false where locks are not
// supported: the caller then falls back on the file's age). It removes the file while
// holding the lock, so that a writer that made the file a moment ago and locks it
// after finds its path gone and starts another (writeAtomic).
func removeAbandoned(path string) (known bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return true // a named pipe or the like: not a temporary file of ours
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		if sameFile(f, path) {
			_ = os.Remove(path)
		}
		return true
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true // a live writer's
	}
	return false
}

// sameFile tells whether path still names the file f has open.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
