//go:build !linux

package kernel

import "os"

// unread cannot tell outside Linux; displays then do not wait for stdout.
func unread(*os.File) (int, bool) { return 0, false }
