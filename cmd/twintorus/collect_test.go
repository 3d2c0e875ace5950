package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
)

// TestCollectKeepsWhatIsThere: collect's outputs are written through a symbolic link,
// into a named pipe and into a device, each left what it was; only a regular file is
// replaced by a rename (issue 39: a rename made them regular files, and as root
// --csv /dev/full replaced the device). A directory, a link to nothing and two outputs
// with one path are refused before anything is written.
func TestCollectKeepsWhatIsThere(t *testing.T) {
	tmp, _, dir, _ := smallStore(t)
	want := storeCSV(t, dir)
	lstat := func(p string) fs.FileMode {
		t.Helper()
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode()
	}

	// A link to a regular file: the file gets the table, the link stays.
	real := filepath.Join(tmp, "real.csv")
	writeFile(t, real, "old\n")
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link.csv")
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "collect", dir, "--csv", link); err != nil {
		t.Fatal(err)
	}
	if lstat(link)&fs.ModeSymlink == 0 {
		t.Errorf("the link %s became a %v", link, lstat(link))
	}
	if got, _ := os.ReadFile(real); string(got) != want {
		t.Errorf("the file the link names holds %q", got)
	}
	if m := lstat(real); m.Perm() != 0o600 {
		t.Errorf("the replaced file's mode is %v, was 0600", m)
	}

	// A link to a device: written through; the link and the device stay.
	null := filepath.Join(tmp, "null.csv")
	if err := os.Symlink("/dev/null", null); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "collect", dir, "--summary", null); err != nil {
		t.Fatal(err)
	}
	if lstat(null)&fs.ModeSymlink == 0 || lstat("/dev/null")&fs.ModeCharDevice == 0 {
		t.Errorf("%s is a %v, /dev/null a %v", null, lstat(null), lstat("/dev/null"))
	}

	// A named pipe: a reader gets the table; the pipe stays.
	fifo := filepath.Join(tmp, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if _, _, err := run(t, "collect", dir, "--csv", fifo); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != want {
			t.Errorf("the pipe's reader got %q", s)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Error("the pipe's reader got nothing: collect did not write into the pipe")
	}
	if lstat(fifo)&fs.ModeNamedPipe == 0 {
		t.Errorf("the named pipe became a %v", lstat(fifo))
	}

	// Refused, and nothing written.
	out := filepath.Join(tmp, "out.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--csv", out, "--summary", out}, "--csv and --summary both write " + out},
		{[]string{"--csv", out, "--saturation", filepath.Join(tmp, ".", "out.csv")}, "--csv and --saturation both write"},
		{[]string{"--csv", link, "--parquet", real}, "--csv and --parquet both write"},
		{[]string{"--csv", "-", "--summary", "-"}, "--csv and --summary both write standard output"},
		{[]string{"--csv", tmp}, "is a directory"},
		{[]string{"--csv", out, "--summary", filepath.Join(tmp, "dangling.csv")}, "a symbolic link to nothing"},
	} {
		if c.want == "a symbolic link to nothing" {
			if err := os.Symlink("nowhere/x.csv", filepath.Join(tmp, "dangling.csv")); err != nil {
				t.Fatal(err)
			}
		}
		writeFile(t, real, "old\n")
		os.Remove(out)
		stdout, _, err := run(t, append([]string{"collect", dir}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line saying %q", c.args, err, c.want)
		}
		if _, err := os.Stat(out); err == nil || stdout != "" {
			t.Errorf("%v: wrote before refusing", c.args)
		}
		if b, _ := os.ReadFile(real); string(b) != "old\n" {
			t.Errorf("%v: wrote %s before refusing", c.args, real)
		}
	}
}
