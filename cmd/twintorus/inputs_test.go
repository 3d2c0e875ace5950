package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
)

// Files a user names are refused at once, in one line, when they are no regular file
// (issue 39): /dev/zero was read without end (file:, anynet:, table:, a sweep's spec)
// and a named pipe blocked the open until a writer came (a trace's too).
func TestNonRegularInputsRefused(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	for _, c := range [][]string{
		{"analyze", "file:/dev/zero"},
		{"analyze", "anynet:/dev/zero"},
		{"run", "torus:4x4", "--routing", "table:/dev/zero"},
		{"sweep", "/dev/zero", "--out", filepath.Join(tmp, "out")},
		{"analyze", "file:" + fifo},
		{"analyze", "anynet:" + fifo},
		{"run", "torus:4x4", "--routing", "table:" + fifo},
		{"sweep", fifo, "--out", filepath.Join(tmp, "out")},
		{"run", "torus:4x4", "--workload", "trace:" + fifo},
		{"trace", "stats", fifo},
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := run(t, c...)
			done <- err
		}()
		select {
		case err := <-done:
			path := c[len(c)-1]
			if c[0] == "sweep" {
				path = c[1]
			}
			path = path[strings.Index(path, ":")+1:]
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path+": a ") || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%v: %v, want one line saying %s is not a regular file", c, err, path)
			}
		case <-time.After(testwait.Scale(10 * time.Second)):
			t.Errorf("%v: no answer after 10 s: the file is being read or waited on", c)
		}
	}
}
