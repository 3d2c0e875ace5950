package relay_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/kernel/jupytertest"
)

// client is a Jupyter client (jupyter_client, Debian's python3-jupyter-client) that
// starts the "twintorus" kernel in its working directory, as Jupyter starts a kernel
// in its notebook's, sends it the requests on the command line at once, with no
// warm-up, and prints each reply's content as a JSON line.
const client = `
import json, sys
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="twintorus", startup_timeout=120)
try:
    for req in json.loads(sys.argv[1]):
        if req["type"] == "complete":
            kc.complete(req["code"], req["pos"])
        else:
            kc.inspect(req["code"], req["pos"])
        print(json.dumps(kc.get_shell_msg(timeout=120)["content"]), flush=True)
finally:
    # A shutdown request, not a kill: gonb then stops its gopls, which lives in a
    # process group of its own.
    km.shutdown_kernel(now=False)
    kc.stop_channels()
`

// TestFirstCompletionAfterStart is issue 37's first-completion bug, live: gonb gives
// gopls two seconds, and the first request after a kernel starts, which makes gopls
// load the packages the cell imports (figures and its plotting libraries here), used
// to come back empty. The relay asks gonb again until gopls answers. The second
// request, inline documentation in a cell with other imports, needs gopls to see the
// changed main.go and go.mod: without the gopls proxy (gopls.go) it answered "no
// package metadata" for good. Its links name the module's symbols on pkg.go.dev by
// module path, not by the checkout's directory. Under a minute, most of it building
// gopls and starting the kernel.
func TestFirstCompletionAfterStart(t *testing.T) {
	env := jupytertest.Setup(t)
	python, err := jupytertest.Python()
	if err != nil {
		t.Fatal(err)
	}
	const completeCode = "import (\n\t\"github.com/twintorus/twintorus/figures\"\n\t\"github.com/twintorus/twintorus/kernel\"\n)\n\n%%\nkernel.Show(figures.Late"
	const inspectCode = "import \"github.com/twintorus/twintorus/sim/topology\"\n\n%%\nnet := topology.MustNew(\"twin:4x4x4/D\")\n_ = net\n"
	requests, err := json.Marshal([]map[string]any{
		{"type": "complete", "code": completeCode, "pos": len(completeCode)},
		{"type": "inspect", "code": inspectCode, "pos": strings.Index(inspectCode, "MustNew") + 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "client.py")
	if err := os.WriteFile(script, []byte(client), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, script, string(requests))
	cmd.Dir = t.TempDir() // outside the checkout: the kernelspec's checkout serves it
	cmd.Env = env.Vars
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s\n%s", err, out, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two replies, got:\n%s\nstderr:\n%s", out, stderr.String())
	}
	var complete struct {
		Status  string   `json:"status"`
		Matches []string `json:"matches"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &complete); err != nil {
		t.Fatal(err)
	}
	if complete.Status != "ok" || !contains(complete.Matches, "Latency") {
		t.Errorf("first completion after start: %s\nkernel log:\n%s", lines[0], stderr.String())
	}
	var inspect struct {
		Data map[string]string `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &inspect); err != nil {
		t.Fatal(err)
	}
	md := inspect.Data["text/markdown"]
	if !strings.Contains(md, "func topology.MustNew(spec string) *topology.Network") ||
		!strings.Contains(md, "(https://pkg.go.dev/github.com/twintorus/twintorus/sim/topology#MustNew)") || strings.Contains(md, "pkg.go.dev//") {
		t.Errorf("inline documentation of topology.MustNew: %s", lines[1])
	}
	// The kernel's log says which checkout it serves, and quietly: no gonb info lines.
	if log := stderr.String(); !strings.Contains(log, "twintorus kernel: checkout "+env.Root+" at ") || strings.Contains(log, "] kernel created") {
		t.Errorf("kernel log:\n%s", log)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
