package kernel

import (
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTools makes a bin dir with executable stand-ins for gonb, goimports, gopls and
// twintorus (the relay), and returns gonb's path.
func fakeTools(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, name := range []string{"gonb", "goimports", "gopls", "twintorus"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(bin, "gonb")
}

// relayBeside is the stand-in twintorus binary fakeTools made beside gonb.
func relayBeside(gonb string) string { return filepath.Join(filepath.Dir(gonb), "twintorus") }

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestInstallWritesKernelspec(t *testing.T) {
	root := moduleRoot(t)
	gonb := fakeTools(t)
	data := t.TempDir()
	relay := relayBeside(gonb)
	dir, err := Install(InstallOptions{Root: root, Gonb: gonb, Relay: relay, DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "kernels", "twintorus"); dir != want {
		t.Errorf("installed in %s, want %s", dir, want)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec Kernelspec
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatalf("kernel.json: %v\n%s", err, raw)
	}
	if spec.DisplayName != "Go (twintorus)" || spec.Language != "go" {
		t.Errorf("display name %q, language %q", spec.DisplayName, spec.Language)
	}
	if got, want := strings.Join(spec.Argv, " "), relay+" kernel relay --gonb "+gonb+" --root "+root+" {connection_file}"; got != want {
		t.Errorf("argv = %q, want %q", got, want)
	}
	// TWINTORUS_ROOT is the relay's to set: the checkout the notebook is in.
	wantPath := filepath.Join(dir, "bin") + ":" + filepath.Dir(gonb) + ":${PATH}"
	if spec.Env["PATH"] != wantPath || len(spec.Env) != 1 {
		t.Errorf("env = %v, want PATH %s alone", spec.Env, wantPath)
	}

	// Installing again overwrites in place.
	if _, err := Install(InstallOptions{Root: root, Gonb: gonb, Relay: relay, DataDir: data}); err != nil {
		t.Errorf("second install: %v", err)
	}
}

// TestGoWrapper runs the installed wrapper the way gonb does: `go mod init gonb_<id>`
// in an empty directory must yield a module that requires and replaces ours.
func TestGoWrapper(t *testing.T) {
	root := moduleRoot(t)
	gonb := fakeTools(t)
	dir, err := Install(InstallOptions{Root: root, Gonb: gonb, Relay: relayBeside(gonb), DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(dir, "bin", "go")

	work := t.TempDir()
	cmd := exec.Command(wrapper, "mod", "init", "gonb_0e196e1e")
	// Without TWINTORUS_ROOT (which a test run from a notebook would inherit) the
	// wrapper uses the installing checkout.
	cmd.Dir, cmd.Env = work, withoutRoot(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wrapper mod init: %v\n%s", err, out)
	}
	gomod, err := os.ReadFile(filepath.Join(work, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"module gonb_0e196e1e",
		"require " + ModulePath + " " + zeroVersion,
		"replace " + ModulePath + " => " + root,
	} {
		if !strings.Contains(string(gomod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, gomod)
		}
	}
	sum, err := os.ReadFile(filepath.Join(work, "go.sum"))
	rootSum, rootErr := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil || rootErr != nil || string(sum) != string(rootSum) {
		t.Errorf("go.sum not copied from the checkout (errors %v, %v)", err, rootErr)
	}

	// Any other module name or command passes through untouched.
	other := t.TempDir()
	cmd = exec.Command(wrapper, "mod", "init", "example.com/other")
	cmd.Dir = other
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wrapper mod init example.com/other: %v\n%s", err, out)
	}
	if gomod, _ := os.ReadFile(filepath.Join(other, "go.mod")); strings.Contains(string(gomod), "replace") {
		t.Errorf("wrapper edited an unrelated module:\n%s", gomod)
	}
	// A cell's build (gonb's "go build -o DIR/gonb_ID") links without DWARF.
	cell := filepath.Join(work, "gonb_0e196e1e")
	if err := os.WriteFile(filepath.Join(work, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(wrapper, "build", "-o", cell)
	cmd.Dir, cmd.Env = work, withoutRoot(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wrapper build: %v\n%s", err, out)
	}
	if f, err := elf.Open(cell); err != nil {
		t.Error(err)
	} else {
		if f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil {
			t.Error("the cell's binary has DWARF: the wrapper did not add -ldflags=-w")
		}
		f.Close()
	}
	out, err := exec.Command(wrapper, "env", "GOROOT").Output()
	if err != nil || !strings.HasPrefix(string(out), "/") {
		t.Errorf("wrapper env GOROOT = %q, %v", out, err)
	}
}

// TestGoWrapperGetsOfflineFirst: gonb's `go get` before every cell runs with
// GOPROXY=off first (0.07 s against 0.8 s with a proxy to ask), and asks the user's
// proxy only when the offline one fails, so that a cell importing a module not yet
// downloaded still gets it.
func TestGoWrapperGetsOfflineFirst(t *testing.T) {
	root := moduleRoot(t)
	// The fake go logs the GOPROXY of each call, and its get fails offline when the
	// module it needs is "missing".
	fake := filepath.Join(t.TempDir(), "go")
	log := filepath.Join(t.TempDir(), "calls")
	script := "#!/bin/sh\necho \"$1 ${GOPROXY:-unset}\" >> " + log + "\n" +
		"if [ \"$1\" = get ] && [ \"$GOPROXY\" = off ] && [ -e missing ]; then echo 'module not in cache' >&2; exit 1; fi\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(wrapper, []byte(GoWrapper(fake, root)), 0o755); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	run := func() string {
		t.Helper()
		_ = os.Remove(log)
		cmd := exec.Command(wrapper, "get")
		cmd.Dir, cmd.Env = work, append(os.Environ(), "GOPROXY=https://proxy.example")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("wrapper get: %v\n%s", err, out)
		}
		b, _ := os.ReadFile(log)
		return string(b)
	}
	if got := run(); got != "get off\n" {
		t.Errorf("with everything in the cache the calls were %q, want one offline get", got)
	}
	if err := os.WriteFile(filepath.Join(work, "missing"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != "get off\nget https://proxy.example\n" {
		t.Errorf("with a module missing the calls were %q, want offline, then the user's proxy", got)
	}
}

func TestInstallErrors(t *testing.T) {
	root := moduleRoot(t)
	gonb := fakeTools(t)
	if _, err := Install(InstallOptions{Root: t.TempDir(), Gonb: gonb, Relay: relayBeside(gonb), DataDir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "not the checkout") {
		t.Errorf("root without go.mod: err = %v", err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(InstallOptions{Root: other, Gonb: gonb, Relay: relayBeside(gonb), DataDir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), `"example.com/x"`) {
		t.Errorf("root of another module: err = %v", err)
	}
	if err := os.Remove(filepath.Join(filepath.Dir(gonb), "goimports")); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(InstallOptions{Root: root, Gonb: gonb, Relay: relayBeside(gonb), DataDir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "goimports") || !strings.Contains(err.Error(), "scripts/setup.sh") {
		t.Errorf("missing goimports: err = %v", err)
	}
	gonb = fakeTools(t)
	if err := os.Remove(filepath.Join(filepath.Dir(gonb), "gopls")); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(InstallOptions{Root: root, Gonb: gonb, Relay: relayBeside(gonb), DataDir: t.TempDir()}); err == nil ||
		!strings.Contains(err.Error(), "gopls") {
		t.Errorf("missing gopls: err = %v", err)
	}
	if _, err := Install(InstallOptions{}); err == nil {
		t.Error("empty options: no error")
	}
}

func TestSpecDir(t *testing.T) {
	got, err := SpecDir("/opt/venv", "/ignored")
	if err != nil || got != "/opt/venv/share/jupyter/kernels/twintorus" {
		t.Errorf("SpecDir(prefix) = %q, %v", got, err)
	}
	t.Setenv("JUPYTER_DATA_DIR", "/srv/jupyter")
	if got, err := SpecDir("", ""); err != nil || got != "/srv/jupyter/kernels/twintorus" {
		t.Errorf("SpecDir with JUPYTER_DATA_DIR = %q, %v", got, err)
	}
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("HOME", "/home/ada")
	if got, err := SpecDir("", ""); err != nil || got != "/home/ada/.local/share/jupyter/kernels/twintorus" {
		t.Errorf("SpecDir for the user = %q, %v", got, err)
	}
}

func TestShellQuote(t *testing.T) {
	out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(`/it's a "path"/$HOME`)).Output()
	if err != nil || string(out) != `/it's a "path"/$HOME` {
		t.Errorf("quoted path came back as %q, %v", out, err)
	}
}

func withoutRoot(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TWINTORUS_ROOT=") {
			out = append(out, kv)
		}
	}
	return out
}
