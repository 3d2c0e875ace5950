package kernel

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestSetupChecksGoFirst runs scripts/setup.sh with stand-ins for go: a go older
// than go.mod's go line, or none, stops it before anything else (apt included) with
// the version it needs and how to install it; a go new enough passes the check.
func TestSetupChecksGoFirst(t *testing.T) {
	root := moduleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil || f.Go == nil {
		t.Fatalf("go.mod's go line: %v", err)
	}
	need := f.Go.Version
	setup := func(t *testing.T, goVersion string, args ...string) (string, int) {
		t.Helper()
		// Only the tools the script needs up to the check, so that no go of the
		// machine's is found.
		bin := t.TempDir()
		for _, tool := range []string{"bash", "dirname", "sed", "head", "uname", "cat"} {
			path, err := exec.LookPath(tool)
			if err != nil {
				t.Skipf("no %s: %v", tool, err)
			}
			if err := os.Symlink(path, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
		if goVersion != "" {
			script := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = version ]; then echo 'go version go%s linux/amd64'; exit 0; fi\necho \"stand-in go: $*\" >&2\nexit 3\n", goVersion)
			if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(filepath.Join(root, "scripts", "setup.sh"), args...)
		cmd.Env = append(os.Environ(), "PATH="+bin)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	for _, c := range []struct{ name, version string }{{"too old", "1.19.8"}, {"missing", ""}} {
		t.Run(c.name, func(t *testing.T) {
			out, code := setup(t, c.version)
			if code != 1 || !strings.Contains(out, "go.mod asks for Go "+need+" or newer") ||
				!strings.Contains(out, "https://go.dev/dl/go"+need+".linux-") || !strings.Contains(out, "/usr/local/go") ||
				strings.Contains(out, "Debian packages") || strings.Contains(out, "stand-in go") {
				t.Errorf("setup with go %q: exit %d\n%s", c.version, code, out)
			}
		})
	}
	out, code := setup(t, need, "--kernel-only")
	if code != 3 || !strings.Contains(out, "setup: go "+need+" at ") || !strings.Contains(out, "stand-in go: env GOMODCACHE") {
		t.Errorf("setup with go %s: exit %d (want the stand-in's 3 after the check)\n%s", need, code, out)
	}
}
