package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twintorus/twintorus/kernel"
)

// fakeCheckout is a directory with this module's go.mod and stand-ins for the
// tools scripts/setup.sh builds into bin/; relay is bin/twintorus's script.
func fakeCheckout(t *testing.T, relay string) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module "+kernel.ModulePath+"\n")
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, script := range map[string]string{"gonb": "#!/bin/sh\n", "goimports": "#!/bin/sh\n", "gopls": "#!/bin/sh\n", "twintorus": relay} {
		if err := os.WriteFile(filepath.Join(root, "bin", name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestKernelRelayHandsOver: a kernel started in a notebook directory of another
// checkout than the kernelspec's runs that checkout's own relay, with only the
// flags every version of it knows, and the environment that points gonb and the go
// wrapper at that checkout.
func TestKernelRelayHandsOver(t *testing.T) {
	bin := twintorusBinary(t)
	record := filepath.Join(t.TempDir(), "handed-over")
	b := fakeCheckout(t, "#!/bin/sh\n{ printf '%s\\n' \"$@\"; echo \"ROOT=$TWINTORUS_ROOT\"; echo \"PATH=$PATH\"; echo \"HANDOFF=$TWINTORUS_RELAY_HANDOFF\"; } >\"$RECORD\"\n")
	a := fakeCheckout(t, "#!/bin/sh\nexit 9\n")
	notebooks := filepath.Join(b, "notebooks")
	if err := os.Mkdir(notebooks, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "kernel", "relay", "--gonb", filepath.Join(a, "bin", "gonb"), "--root", a, "/run/kernel-1.json")
	cmd.Dir = notebooks
	cmd.Env = append(os.Environ(), "RECORD="+record, "TWINTORUS_ROOT=/stale")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("relay: %v\n%s", err, &stderr)
	}
	if want := "twintorus kernel: checkout " + b + " at "; !strings.HasPrefix(stderr.String(), want) ||
		!strings.Contains(stderr.String(), "handing over to its relay "+filepath.Join(b, "bin", "twintorus")) {
		t.Errorf("log %q, want it to start %q and name the relay", &stderr, want)
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("B's relay did not run: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	want := []string{"kernel", "relay", "--gonb", filepath.Join(b, "bin", "gonb"), "/run/kernel-1.json", "ROOT=" + b}
	if len(lines) != 8 || strings.Join(lines[:6], " ") != strings.Join(want, " ") ||
		!strings.HasPrefix(lines[6], "PATH="+filepath.Join(b, "bin")+":") || lines[7] != "HANDOFF=1" {
		t.Errorf("B's relay ran with\n%s\nwant %q, PATH starting with B's bin, HANDOFF=1", got, want)
	}
}

// TestKernelRelayErrors: bad settings end the kernel with a clear error.
func TestKernelRelayErrors(t *testing.T) {
	t.Setenv("TWINTORUS_KERNEL_VERBOSE", "loud")
	if _, _, err := run(t, "kernel", "relay", "conn.json"); err == nil || !strings.Contains(err.Error(), `TWINTORUS_KERNEL_VERBOSE="loud"`) {
		t.Errorf("bad verbosity: err = %v", err)
	}
	t.Setenv("TWINTORUS_KERNEL_VERBOSE", "")
	if _, _, err := run(t, "kernel", "relay", "--gonb", filepath.Join(t.TempDir(), "gonb"), "conn.json"); err == nil || !strings.Contains(err.Error(), "--gonb") {
		t.Errorf("missing gonb: err = %v", err)
	}
}

func TestKernelWhich(t *testing.T) {
	a := fakeCheckout(t, "#!/bin/sh\n")
	spec := kernel.NewKernelspec(filepath.Join(a, "bin", "twintorus"), filepath.Join(a, "bin", "gonb"), "/spec/bin", filepath.Join(a, "bin"), a)
	list := `{"kernelspecs": {"python3": {"resource_dir": "/usr/share/jupyter/kernels/python3", "spec": {"argv": ["python3"]}},
	  "twintorus": {"resource_dir": "/spec", "spec": ` + mustJSON(t, spec) + `}}}`
	jupyter := filepath.Join(t.TempDir(), "jupyter")
	writeFile(t, jupyter+".json", list)
	if err := os.WriteFile(jupyter, []byte("#!/bin/sh\n[ \"$*\" = 'kernelspec list --json' ] || exit 2\ncat \""+jupyter+".json\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	out, _, err := run(t, "kernel", "which", "--jupyter", jupyter, outside)
	if err != nil || !strings.HasPrefix(out, "checkout "+a+" at ") || !strings.Contains(out, outside+" is not inside a checkout") ||
		!strings.Contains(out, "relay "+filepath.Join(a, "bin", "twintorus")) {
		t.Errorf("which %s = %q, %v", outside, out, err)
	}
	b := fakeCheckout(t, "#!/bin/sh\n")
	if out, _, err := run(t, "kernel", "which", "--jupyter", jupyter, b); err != nil || !strings.HasPrefix(out, "checkout "+b+" at ") {
		t.Errorf("which %s = %q, %v", b, out, err)
	}
	if _, _, err := run(t, "kernel", "which", "--jupyter", jupyter, filepath.Join(outside, "missing")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("which of a missing directory: err = %v", err)
	}
	writeFile(t, jupyter+".json", `{"kernelspecs": {}}`)
	if _, _, err := run(t, "kernel", "which", "--jupyter", jupyter, b); err == nil || !strings.Contains(err.Error(), "run scripts/setup.sh") {
		t.Errorf("which without the kernelspec: err = %v", err)
	}
	if _, _, err := run(t, "kernel", "which", "--jupyter", filepath.Join(outside, "no-jupyter"), b); err == nil || !strings.Contains(err.Error(), "kernelspec list") {
		t.Errorf("which without jupyter: err = %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKernelGoplsEndsWithItsParent: the gopls proxy gonb starts outlives a gonb that
// is killed (it runs in a process group of its own, as gopls does), so it ends by
// itself once its parent is gone.
func TestKernelGoplsEndsWithItsParent(t *testing.T) {
	bin := twintorusBinary(t)
	socket := filepath.Join(t.TempDir(), "gopls_socket")
	// The shell stands for gonb: it starts the proxy, sees it listen, and ends.
	out, err := exec.Command("sh", "-c", `"$0" kernel gopls --gopls cat --parent $$ -- -listen "unix;$1" >/dev/null 2>&1 &
echo $!
for i in 1 2 3 4 5 6 7 8 9 10; do test -S "$1" && echo listening && exit; sleep 0.5; done`, bin, socket).Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, listening, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if listening != "listening" {
		t.Fatalf("the proxy (pid %s) did not listen on %s", pid, socket)
	}
	gone := func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		// A zombie is gone too: only its parent's reaping is missing.
		return err != nil || strings.Contains(string(stat), ") Z ")
	}
	deadline := time.Now().Add(15 * time.Second)
	for !gone() {
		if time.Now().After(deadline) {
			if p, err := strconv.Atoi(pid); err == nil {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("the proxy (pid %s) still runs 15 s after its parent ended", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
