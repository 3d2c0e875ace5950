package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

const (
	// ModulePath is the module whose checkout the kernel's cells import.
	ModulePath = "github.com/twintorus/twintorus"
	// KernelName is the kernelspec's directory name, used by
	// `jupyter nbconvert --ExecutePreprocessor.kernel_name=twintorus` and in notebooks' metadata.
	KernelName = "twintorus"
	// DisplayName is what Jupyter's kernel menu shows.
	DisplayName = "Go (twintorus)"

	// zeroVersion is the version Go gives a required module that a replace directive
	// points at a directory: no proxy, no checksum database is ever asked for it.
	zeroVersion = "v0.0.0-00010101000000-000000000000"
)

// InstallOptions says which checkout and binaries the kernelspec uses and where it goes.
type InstallOptions struct {
	// Root is the checkout whose packages cells import: the directory holding this
	// module's go.mod. Required.
	Root string
	// Gonb is the gonb binary; default Root/bin/gonb. goimports and gopls must sit
	// beside it (gonb runs goimports on every cell, and gopls for completion and
	// inline documentation; it finds both on PATH).
	Gonb string
	// Relay is the twintorus binary whose `kernel relay` command runs gonb (see
	// package kernel/relay); default Root/bin/twintorus.
	Relay string
	// Go is the go command gonb should call; default the "go" on PATH.
	Go string
	// Prefix installs into Prefix/share/jupyter/kernels, like `jupyter kernelspec
	// install --prefix` (for a virtualenv's or conda's Jupyter).
	Prefix string
	// DataDir installs into DataDir/kernels. Default: $JUPYTER_DATA_DIR, else
	// ~/.local/share/jupyter, which every Jupyter of this user reads (`--user`).
	DataDir string
}

// Kernelspec is the kernel.json Jupyter reads.
type Kernelspec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env"`
}

// Install writes the "twintorus" kernelspec and returns its directory. Running it
// again overwrites the previous one, whichever checkout wrote it: there is one
// kernelspec per user (notebooks name it), but it does not tie every notebook to the
// checkout that installed it last. The relay it starts serves the checkout its
// notebook sits in (see ServedFor); Root serves only notebooks outside any checkout.
//
// How cells import the checkout: gonb compiles each cell in a temporary module it
// creates with `go mod init gonb_<id>`, and has no hook for adding to that go.mod.
// So the kernelspec puts a small `go` wrapper first on gonb's PATH. For that one
// command the wrapper also requires ModulePath, replaces it with the checkout the
// relay chose ($TWINTORUS_ROOT, else Root), and copies its go.sum; every other go
// command passes straight to the real go. With the module's dependencies in the
// module cache (scripts/setup.sh runs `go mod download`) cells build offline, and
// edits in the checkout show at the next cell run.
func Install(o InstallOptions) (string, error) {
	root, err := checkRoot(o.Root)
	if err != nil {
		return "", err
	}
	gonb := o.Gonb
	if gonb == "" {
		gonb = filepath.Join(root, "bin", "gonb")
	}
	if gonb, err = filepath.Abs(gonb); err != nil {
		return "", fmt.Errorf("kernel install: gonb path: %w", err)
	}
	relay := o.Relay
	if relay == "" {
		relay = filepath.Join(root, "bin", "twintorus")
	}
	if relay, err = filepath.Abs(relay); err != nil {
		return "", fmt.Errorf("kernel install: relay path: %w", err)
	}
	tools := filepath.Dir(gonb)
	for _, bin := range []string{gonb, filepath.Join(tools, "goimports"), filepath.Join(tools, "gopls"), relay} {
		if err := checkExecutable(bin); err != nil {
			return "", fmt.Errorf("kernel install: %w (scripts/setup.sh builds gonb, goimports, gopls and twintorus into bin/)", err)
		}
	}
	goCmd, err := realGo(o.Go)
	if err != nil {
		return "", err
	}
	dir, err := SpecDir(o.Prefix, o.DataDir)
	if err != nil {
		return "", err
	}
	binDir := filepath.Join(dir, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return "", fmt.Errorf("kernel install: %w", err)
	}
	if err := os.WriteFile(filepath.Join(binDir, "go"), []byte(GoWrapper(goCmd, root)), 0o755); err != nil {
		return "", fmt.Errorf("kernel install: writing go wrapper: %w", err)
	}
	spec := NewKernelspec(relay, gonb, binDir, tools, root)
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("kernel install: encoding kernel.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("kernel install: writing kernel.json: %w", err)
	}
	return dir, nil
}

// NewKernelspec returns the kernel.json that runs gonb behind the relay (the
// twintorus binary) with wrapperDir (the go wrapper) and toolsDir (goimports, gopls)
// first on PATH. root is the installing checkout, which the relay serves to
// notebooks outside any checkout; the relay sets TWINTORUS_ROOT (which notebooks
// read to find the checkout's files) to the checkout it serves, so the kernelspec
// does not fix it.
func NewKernelspec(relay, gonb, wrapperDir, toolsDir, root string) Kernelspec {
	return Kernelspec{
		Argv:          []string{relay, "kernel", "relay", "--gonb", gonb, "--root", root, "{connection_file}"},
		DisplayName:   DisplayName,
		Language:      "go",
		InterruptMode: "message", // the relay passes interrupt_request to gonb, which handles it
		Env: map[string]string{
			// Jupyter expands ${PATH} from its own environment when it starts the kernel.
			"PATH": wrapperDir + string(os.PathListSeparator) + toolsDir + string(os.PathListSeparator) + "${PATH}",
		},
	}
}

// ReadKernelspec reads the kernel.json in dir.
func ReadKernelspec(dir string) (Kernelspec, error) {
	var spec Kernelspec
	raw, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		return spec, fmt.Errorf("kernel: reading the kernelspec: %w", err)
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return spec, fmt.Errorf("kernel: %s: %w", filepath.Join(dir, "kernel.json"), err)
	}
	return spec, nil
}

// GoWrapper returns the POSIX shell script installed as the kernel's `go`.
func GoWrapper(goCmd, root string) string {
	return `#!/bin/sh
# Written by "twintorus kernel install" (kernel/install.go). Do not edit: reinstall.
# gonb creates the temporary module it compiles cells in with "go mod init gonb_<id>".
# After that command this wrapper points the module at the twintorus checkout, so
# cells import it offline; every other go command runs unchanged. The checkout is
# the one the kernel's relay chose for the notebook (TWINTORUS_ROOT), else the one
# that installed the kernelspec.
GO=` + shellQuote(goCmd) + `
ROOT=` + shellQuote(root) + `
if [ -n "${TWINTORUS_ROOT:-}" ]; then
	ROOT=$TWINTORUS_ROOT
fi
if [ "$#" -eq 3 ] && [ "$1" = mod ] && [ "$2" = init ]; then
	case "$3" in
	gonb_*)
		"$GO" "$@" || exit
		"$GO" mod edit -require=` + ModulePath + `@` + zeroVersion + ` -replace=` + ModulePath + `="$ROOT" || exit
		if [ -f "$ROOT/go.sum" ]; then
			cp "$ROOT/go.sum" go.sum || exit
		fi
		exit 0
		;;
	esac
fi
# A cell's binary is built, run once and thrown away: without DWARF (-w; panics still
# name their lines, from the binary's line table) its link takes 15 % less.
if [ "${1:-}" = build ] && [ "${2:-}" = -o ] && [ "$#" -eq 3 ]; then
	case "$3" in
	*/gonb_*) exec "$GO" build -ldflags=-w -o "$3" ;;
	esac
fi
# gonb runs "go get" before every cell's build. Offline it takes 0.07 s; with a module
# proxy set it asks the proxy even when the module cache has everything, 0.8 s per
# cell here. So it is tried offline first, and asks the proxy only when that fails:
# a cell that imports a module not yet downloaded still gets it.
if [ "${1:-}" = get ] && [ "${GOPROXY:-}" != off ]; then
	GOPROXY=off "$GO" "$@" 2>/dev/null && exit 0
fi
exec "$GO" "$@"
`
}

// SpecDir is the kernelspec directory Install writes: under prefix if given, else
// under dataDir, $JUPYTER_DATA_DIR or ~/.local/share/jupyter.
func SpecDir(prefix, dataDir string) (string, error) {
	if prefix != "" {
		p, err := filepath.Abs(prefix)
		if err != nil {
			return "", fmt.Errorf("kernel install: prefix: %w", err)
		}
		return filepath.Join(p, "share", "jupyter", "kernels", KernelName), nil
	}
	if dataDir == "" {
		dataDir = os.Getenv("JUPYTER_DATA_DIR")
	}
	if dataDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("kernel install: no home directory for the user kernelspec (set JUPYTER_DATA_DIR or use --prefix): %w", err)
		}
		dataDir = filepath.Join(home, ".local", "share", "jupyter")
	}
	d, err := filepath.Abs(dataDir)
	if err != nil {
		return "", fmt.Errorf("kernel install: data dir: %w", err)
	}
	return filepath.Join(d, "kernels", KernelName), nil
}

// FindRoot walks up from dir to the checkout of this module: the nearest directory
// whose go.mod declares ModulePath. The go.mod of another module on the way (a
// project of the user's inside the checkout, say) does not stop it.
func FindRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding the %s checkout: %w", ModulePath, err)
	}
	for {
		if _, err := checkRoot(d); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no checkout of %s at or above %s", ModulePath, dir)
		}
		d = parent
	}
}

// checkRoot returns root as an absolute path if it holds this module's go.mod.
func checkRoot(root string) (string, error) {
	if root == "" {
		return "", errors.New("kernel install: no checkout root given")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("kernel install: checkout root: %w", err)
	}
	data, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("kernel install: %s is not the checkout of %s: %w", abs, ModulePath, err)
	}
	if got := modfile.ModulePath(data); got != ModulePath {
		return "", fmt.Errorf("kernel install: %s/go.mod is module %q, want %q", abs, got, ModulePath)
	}
	return abs, nil
}

func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("missing %s", path)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}

// realGo returns the go binary inside GOROOT. Asking go itself, rather than taking the
// first "go" on PATH, keeps a reinstall run from a notebook (whose PATH starts with the
// wrapper) from making the wrapper call itself.
func realGo(goCmd string) (string, error) {
	if goCmd == "" {
		goCmd = "go"
	}
	path, err := exec.LookPath(goCmd)
	if err != nil {
		return "", fmt.Errorf("kernel install: go command: %w", err)
	}
	out, err := exec.Command(path, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("kernel install: %s env GOROOT: %w", path, err)
	}
	real := filepath.Join(strings.TrimSpace(string(out)), "bin", "go")
	if err := checkExecutable(real); err != nil {
		return "", fmt.Errorf("kernel install: go binary in GOROOT: %w", err)
	}
	return real, nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
