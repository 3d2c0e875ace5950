package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Devices, named pipes and directories are refused at once (a pipe's open does not
// wait for a writer), and a file larger than the limit before it is read.
func TestRefusesWhatIsNoRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: a device, not a regular file"},
		{fifo, fifo + ": a named pipe (FIFO), not a regular file"},
		{dir, dir + ": a directory, not a regular file"},
	} {
		var nr *NotRegularError
		if _, err := ReadFile(c.path, 1<<20); !errors.As(err, &nr) || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("refusing took %v: something blocked", time.Since(start))
	}
	var tl *TooLargeError
	if _, err := ReadFile(big, 99); !errors.As(err, &tl) || !strings.Contains(err.Error(), "accepted are files of at most 99 bytes") {
		t.Errorf("a 100-byte file under a 99-byte limit: %v", err)
	}
	if b, err := ReadFile(big, 100); err != nil || len(b) != 100 {
		t.Errorf("a 100-byte file under a 100-byte limit: %d bytes, %v", len(b), err)
	}
}
