package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/sim/experiment"
)

// tmpfs mounts a tmpfs of the given size (e.g. "32k") on a new directory, for tests
// of full and read-only disks, and unmounts it when the test ends. It skips the test
// where mounting is not allowed (CI runs as root, as its Slurm test needs).
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s): run as root to test full and read-only disks", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// regularRecords counts the record files of a store that are regular files.
func regularRecords(dir string) int {
	paths, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	n := 0
	for _, p := range paths {
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
			n++
		}
	}
	return n
}

// TestSweepFullDisk: a sweep that runs out of disk says how many of its simulations
// are stored and how many are missing, and exits non-zero (it used to print
// "7 simulations: 0 stored, 7 run", as if the sweep were that small). Run again with
// room, it runs only the missing ones.
func TestSweepFullDisk(t *testing.T) {
	bin := twintorusBinary(t)
	disk := tmpfs(t, "32k") // the spec and about seven records
	spec := writeFile(t, filepath.Join(t.TempDir(), "small.yaml"), smallSpecYAML)
	dir := filepath.Join(disk, "results")
	cmd := exec.Command(bin, "sweep", spec, "--out", dir, "--workers", "2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("sweep on a full disk: %v, want exit status 1\n%s%s", err, &stdout, &stderr)
	}
	m := regexp.MustCompile(`sweep small: INCOMPLETE: (\d+) of its 12 simulations are in \S+ \(0 found there, (\d+) run now\); (\d+) missing: run the same command again`).FindStringSubmatch(stderr.String())
	if m == nil || !strings.Contains(stderr.String(), "no space left on device") || stdout.Len() != 0 {
		t.Fatalf("sweep on a full disk printed:\n%s\n%s", &stdout, &stderr)
	}
	have, _ := strconv.Atoi(m[1])
	missing, _ := strconv.Atoi(m[3])
	if have+missing != 12 || have != regularRecords(dir) || m[1] != m[2] || missing == 0 {
		t.Errorf("it says %s stored and %s missing; the store holds %d records", m[1], m[3], regularRecords(dir))
	}
	// Room again: the store moves to a roomy directory, and the sweep completes it.
	roomy := filepath.Join(t.TempDir(), "results")
	if out, err := exec.Command("cp", "-a", dir, roomy).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	out, err := exec.Command(bin, "sweep", spec, "--out", roomy).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sweep small: 12 simulations: "+m[1]+" stored, "+m[3]+" run") {
		t.Errorf("sweep with room: %v\n%s", err, out)
	}
}

// TestSweepReadOnlyStore: a sweep of a store that holds all its records only reads
// it, so it runs on a read-only file system (it used to rewrite the spec file), and
// collect reads it too.
func TestSweepReadOnlyStore(t *testing.T) {
	bin := twintorusBinary(t)
	disk := tmpfs(t, "1m")
	spec := writeFile(t, filepath.Join(t.TempDir(), "small.yaml"), smallSpecYAML)
	dir := filepath.Join(disk, "results")
	if out, err := exec.Command(bin, "sweep", spec, "--out", dir).CombinedOutput(); err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", disk).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o644); err == nil {
		t.Fatal("the store is still writable")
	}
	out, err := exec.Command(bin, "sweep", spec, "--out", dir).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "sweep small: 12 simulations: 12 stored, 0 run") {
		t.Errorf("sweep of a complete read-only store: %v\n%s", err, out)
	}
	csv := filepath.Join(t.TempDir(), "out.csv")
	if out, err := exec.Command(bin, "collect", dir, "--csv", csv).CombinedOutput(); err != nil {
		t.Errorf("collect of a read-only store: %v\n%s", err, out)
	}
	// A missing record cannot be made there: the sweep says so and fails.
	if out, err := exec.Command("mount", "-o", "remount,rw", disk).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*.json"))
	if err := os.Remove(paths[0]); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", disk).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	out, err = exec.Command(bin, "sweep", spec, "--out", dir).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "INCOMPLETE: 11 of its 12 simulations") || !strings.Contains(string(out), "read-only file system") {
		t.Errorf("sweep of an incomplete read-only store: %v\n%s", err, out)
	}
}

// TestCollectReportsMissing: with a directory where a record should be, collect
// fails and names it (it used to leave the record out and exit 0); with a record
// simply gone, it says which spec lacks what.
func TestCollectReportsMissing(t *testing.T) {
	tmp, _, dir, paths := smallStore(t)
	if err := os.Remove(paths[3]); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, "collect", dir, "--csv", filepath.Join(tmp, "out.csv"))
	if err != nil || !regexp.MustCompile(`collect: spec small \(\S+\.yaml\): 11 of 12 simulations stored, 1 missing, e\.g\. [0-9a-f]{12}… \(torus:4x4 \w+ uniform at load 0\.\d, seed \d\); twintorus sweep \S+ --out \S+ runs them\n`).MatchString(stderr) {
		t.Errorf("collect with a record gone: %v\n%s", err, stderr)
	}
	if err := os.MkdirAll(filepath.Join(paths[3], "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err = run(t, "collect", dir, "--csv", filepath.Join(tmp, "out.csv"))
	if err == nil || !strings.Contains(err.Error(), paths[3]+": a directory where record files should be") {
		t.Errorf("collect with a directory for a record: %v", err)
	}
}

// TestCollectSkipsNamedPipe: a named pipe named like a record is skipped with a
// warning; collect used to block on it for ever.
func TestCollectSkipsNamedPipe(t *testing.T) {
	tmp, _, dir, paths := smallStore(t)
	if err := os.Remove(paths[0]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(paths[0], 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	type result struct {
		stderr string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, err := run(t, "collect", dir, "--csv", filepath.Join(tmp, "out.csv"))
		done <- result{stderr, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || !strings.Contains(r.stderr, "collect: skipped "+paths[0]+": a named pipe (FIFO), not a regular file\n") ||
			!strings.Contains(r.stderr, "11 of 12 simulations stored, 1 missing") {
			t.Errorf("collect with a named pipe: %v\n%s", r.err, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("collect hangs on a named pipe named like a record")
	}
}

// TestSweepNamedPipeSignal: a sweep whose store has a named pipe where its first
// record should be neither hangs nor ignores signals: it reports the pipe,
// simulates, and SIGTERM stops it cleanly within seconds, with every finished record
// stored. It used to block opening the pipe, with SIGINT and SIGTERM caught and never
// acted on.
func TestSweepNamedPipeSignal(t *testing.T) {
	bin := twintorusBinary(t)
	spec, err := experiment.ReadSpec(acceptanceSpec)
	if err != nil {
		t.Fatal(err)
	}
	curves, err := spec.Curves()
	if err != nil {
		t.Fatal(err)
	}
	first := curves[0].Point
	first.Load, first.Seed = spec.Loads.Values[0], spec.Seed
	dir := filepath.Join(t.TempDir(), "results")
	fifo := (&experiment.Store{Dir: dir}).Path(first.Key())
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	cmd := exec.Command(bin, "sweep", acceptanceSpec, "--out", dir, "--workers", "2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Signal once a few records are in, or after 20 s if none come (the old hang).
	for deadline := time.Now().Add(20 * time.Second); regularRecords(dir) < 3 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-done:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the sweep ignored SIGTERM (records stored: %d)\n%s%s", regularRecords(dir), &stdout, &stderr)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("sweep after SIGTERM: %v, want exit status 1\n%s%s", err, &stdout, &stderr)
	}
	if !strings.Contains(stderr.String(), fifo+": a named pipe (FIFO), not a regular file; recomputing it") ||
		!strings.Contains(stderr.String(), "sweep stopped after ") {
		t.Errorf("sweep said:\n%s%s", &stdout, &stderr)
	}
	c, err := experiment.Load(dir)
	if err != nil || c.Err() != nil || len(c.Records) == 0 || len(c.Records) >= 120 {
		t.Errorf("store after SIGTERM: %v, %v, %d records", err, c.Err(), len(c.Records))
	}
}
