// Package jupytertest sets up Debian's Jupyter with the "twintorus" kernel for tests,
// the way a user's machine has it after scripts/setup.sh, but private to the test:
// gonb, goimports, gopls and twintorus built from this checkout into a temporary
// directory, the kernelspec installed by `twintorus kernel install` into a temporary
// Jupyter data directory (where `jupyter trust` also keeps its signatures), and
// GOPROXY=off, so that cells must build from the module cache as they do offline.
// Start runs scripts/jupyter.sh, what `make run` runs, on a free port.
//
// Tests skip when Jupyter is not installed, and fail instead when
// TWINTORUS_BROWSER_REQUIRED=1 (make test), so that CI cannot pass by skipping.
package jupytertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Jupyter is Debian's jupyter command, which scripts/setup.sh installs.
const Jupyter = "/usr/bin/jupyter"

// Env is a private Jupyter setup with the twintorus kernel.
type Env struct {
	Root    string   // the checkout
	Bin     string   // gonb, goimports, gopls, twintorus
	DataDir string   // JUPYTER_DATA_DIR: the kernelspec, notebook signatures
	Vars    []string // the environment for jupyter commands and their kernels
}

// Python is the interpreter of Debian's jupyter command, the one that has
// jupyter_client (python3-jupyter-client) for tests that talk to a kernel directly.
func Python() (string, error) {
	b, err := os.ReadFile(Jupyter)
	if err != nil {
		return "", fmt.Errorf("jupytertest: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(fields) == 0 {
		return "", fmt.Errorf("jupytertest: %s does not start with #!interpreter", Jupyter)
	}
	return fields[0], nil
}

// Setup builds the kernel's tools and installs the kernelspec; it skips the test
// when Jupyter is missing (fails with TWINTORUS_BROWSER_REQUIRED=1) or under -short.
func Setup(t testing.TB) *Env {
	t.Helper()
	if _, err := os.Stat(Jupyter); err != nil {
		if os.Getenv("TWINTORUS_BROWSER_REQUIRED") == "1" {
			t.Fatalf("Debian's Jupyter is not installed (%s): run scripts/setup.sh", Jupyter)
		}
		t.Skipf("Debian's Jupyter is not installed (%s): run scripts/setup.sh to run the notebook tests", Jupyter)
	}
	if testing.Short() {
		t.Skip("running notebooks is slow; skipped with -short")
	}
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{Root: root, Bin: t.TempDir(), DataDir: t.TempDir()}
	for _, tool := range []struct{ out, pkg string }{
		{"gonb", "github.com/janpfeifer/gonb"},
		{"goimports", "golang.org/x/tools/cmd/goimports"},
		{"gopls", "golang.org/x/tools/gopls"},
		{"twintorus", "./cmd/twintorus"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(e.Bin, tool.out), tool.pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", tool.pkg, err, out)
		}
	}
	// TWINTORUS is the twintorus binary scripts/jupyter.sh asks which checkout the
	// kernel runs: the test's, not whatever bin/ holds.
	e.Vars = append(os.Environ(), "JUPYTER_DATA_DIR="+e.DataDir, "JUPYTER_CONFIG_DIR="+t.TempDir(),
		"JUPYTER_RUNTIME_DIR="+t.TempDir(), "GOPROXY=off", "TWINTORUS="+filepath.Join(e.Bin, "twintorus"))
	e.Run(t, filepath.Join(e.Bin, "twintorus"), "kernel", "install", "--root", root, "--gonb", filepath.Join(e.Bin, "gonb"))
	return e
}

// Run runs a command in the environment and fails the test if it fails.
func (e *Env) Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = e.Vars, e.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Trust signs notebooks as trusted in this environment, with the script setup uses.
func (e *Env) Trust(t testing.TB, notebooks ...string) {
	t.Helper()
	e.Run(t, filepath.Join(e.Root, "scripts", "trust-notebooks.sh"), notebooks...)
}

// Server is a running Jupyter Notebook server.
type Server struct {
	URL   string // http://127.0.0.1:PORT
	Token string
	Host  string // 127.0.0.1:PORT
	log   *syncBuffer
}

// Start runs scripts/jupyter.sh (what `make run` runs) serving dir, on a free port
// with a random token, waits until it answers, and stops it when the test ends.
// Its log is shown if the test fails.
func (e *Env) Start(t testing.TB, dir string) *Server {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	s := &Server{Token: hex.EncodeToString(tok[:]), Host: fmt.Sprintf("127.0.0.1:%d", port), log: &syncBuffer{}}
	s.URL = "http://" + s.Host
	cmd := exec.Command(filepath.Join(e.Root, "scripts", "jupyter.sh"), fmt.Sprintf("--port=%d", port),
		"--NotebookApp.token="+s.Token, "--NotebookApp.port_retries=0")
	cmd.Env = append(append([]string{}, e.Vars...), "TWINTORUS_NOTEBOOKS="+dir)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the server and its kernels stop together
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("jupyter log:\n%s", s.log.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/api/status?token="+s.Token, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("jupyter did not answer on %s within a minute:\n%s", s.URL, s.log.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// NotebookURL is the address that opens a notebook of the served directory.
func (s *Server) NotebookURL(name string) string {
	return s.URL + "/notebooks/" + name + "?token=" + s.Token
}

// Log is what the server has written so far.
func (s *Server) Log() string { return s.log.String() }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// findRoot walks up from the working directory to this module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/twintorus/twintorus\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("jupytertest: no twintorus checkout above the working directory")
		}
		dir = parent
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
