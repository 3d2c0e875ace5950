package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// events of a package whose TestSlow/b was stopped while running, and whose TestBad
// failed beside a passing TestGood.
const sample = `{"Time":"2026-11-28T10:00:00Z","Action":"start","Package":"p"}
{"Time":"2026-11-28T10:00:00Z","Action":"run","Package":"p","Test":"TestGood"}
{"Time":"2026-11-28T10:00:00Z","Action":"output","Package":"p","Test":"TestGood","Output":"good chatter\n"}
{"Time":"2026-11-28T10:00:01Z","Action":"pass","Package":"p","Test":"TestGood","Elapsed":1}
{"Time":"2026-11-28T10:00:01Z","Action":"run","Package":"p","Test":"TestBad"}
{"Time":"2026-11-28T10:00:01Z","Action":"output","Package":"p","Test":"TestBad","Output":"bad: want 1, got 2\n"}
{"Time":"2026-11-28T10:00:02Z","Action":"fail","Package":"p","Test":"TestBad","Elapsed":1}
{"Time":"2026-11-28T10:00:02Z","Action":"run","Package":"p","Test":"TestSlow"}
{"Time":"2026-11-28T10:00:03Z","Action":"run","Package":"p","Test":"TestSlow/a"}
{"Time":"2026-11-28T10:00:04Z","Action":"pass","Package":"p","Test":"TestSlow/a","Elapsed":1}
{"Time":"2026-11-28T10:00:10Z","Action":"run","Package":"p","Test":"TestSlow/b"}
{"Time":"2026-11-28T10:01:10Z","Action":"output","Package":"p","Output":"SIGQUIT: quit\n"}
`

func writeSample(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(path, []byte(sample+"build error text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPrintRunning(t *testing.T) {
	var b strings.Builder
	if err := printRunning(&b, writeSample(t)); err != nil {
		t.Fatal(err)
	}
	want := "\tTestSlow (1m8s)\n\tTestSlow/b (1m0s)\n"
	if b.String() != want {
		t.Errorf("running:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestPrintOutput(t *testing.T) {
	var b strings.Builder
	if err := printOutput(&b, writeSample(t)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"bad: want 1, got 2\n", "SIGQUIT: quit\n", "build error text\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "good chatter") {
		t.Errorf("output has a passing test's lines:\n%s", got)
	}
}

// TestGotestStopsAHang runs scripts/gotest.sh on a package whose test hangs, with a
// 10-second limit: the script must stop it, fail, and name the hanging test with how
// long it had run.
func TestGotestStopsAHang(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a package for 10 s")
	}
	cmd := exec.Command("bash", "../../scripts/gotest.sh", "-count=1", "./tools/testtimes/testdata/hang/")
	cmd.Env = append(os.Environ(), "TWINTORUS_TEST_SLOWDOWN=1", "MIN_TIMEOUT=10", "MARGIN=1", "DEFAULT_BUDGET=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("gotest.sh passed a hanging package:\n%s", out)
	}
	for _, want := range []string{
		"tools/testtimes/testdata/hang ran out of time",
		"\tTestHang (", "\tTestHang/forever (",
		"SIGQUIT", // Go's goroutine dump
		"gotest: 1 packages failed",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("gotest.sh's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "\tTestQuick (") {
		t.Errorf("a test that ended is listed as running:\n%s", out)
	}
}
