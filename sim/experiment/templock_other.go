//go:build !unix

package experiment

import "os"

// lockTemp: no advisory locks here; stale temporary files are told by their age.
func lockTemp(*os.File) (bool, error) { return false, nil }

// removeAbandoned cannot tell without locks: the caller falls back on the file's age.
func removeAbandoned(string) (known bool) { return false }

// sameFile tells whether path still names the file f has open.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
