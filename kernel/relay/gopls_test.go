package relay

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gonbDidChange is what gonb v0.11.1 sends when main.go changes: the whole text,
// with the empty range its LSP library always fills in.
const gonbDidChange = `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///tmp/gonb_1/main.go","version":2},` +
	`"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"package main\n"}]}}`

func TestFixDidChange(t *testing.T) {
	fixed := string(FixDidChange([]byte(gonbDidChange)))
	if strings.Contains(fixed, `"range"`) || !strings.Contains(fixed, `"contentChanges":[{"text":"package main\n"}]`) ||
		!strings.Contains(fixed, `"version":2`) || !strings.Contains(fixed, `"method":"textDocument/didChange"`) {
		t.Errorf("FixDidChange(gonb's change) = %s", fixed)
	}
	for _, keep := range []string{
		// A real edit: a range that is not empty at 0:0, or a rangeLength, or several changes.
		`{"method":"textDocument/didChange","params":{"contentChanges":[{"range":{"start":{"line":3,"character":1},"end":{"line":3,"character":1}},"text":"x"}]}}`,
		`{"method":"textDocument/didChange","params":{"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"rangeLength":0,"text":"x"}]}}`,
		`{"method":"textDocument/didChange","params":{"contentChanges":[{"text":"a"},{"text":"b"}]}}`,
		`{"method":"textDocument/didOpen","params":{"textDocument":{"text":"textDocument/didChange"}}}`,
		`{"method":"textDocument/didChange","params":"not an object"}`,
		`not json, "textDocument/didChange"`,
	} {
		if got := string(FixDidChange([]byte(keep))); got != keep {
			t.Errorf("FixDidChange(%s) = %s, want it unchanged", keep, got)
		}
	}
}

func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

func TestCopyLSP(t *testing.T) {
	in := lspFrame(`{"id":1}`) + "Content-Length: 8\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"id\":2}" + lspFrame(gonbDidChange)
	var out bytes.Buffer
	if err := CopyLSP(&out, strings.NewReader(in), FixDidChange); err != nil {
		t.Fatal(err)
	}
	want := lspFrame(`{"id":1}`) + lspFrame(`{"id":2}`) + lspFrame(string(FixDidChange([]byte(gonbDidChange))))
	if out.String() != want {
		t.Errorf("CopyLSP wrote %q, want %q", out.String(), want)
	}
	for in, msg := range map[string]string{
		"Content-Length: 10\r\n\r\n{}":   "LSP body",
		"Content-Length: x\r\n\r\n{}":    `LSP header "Content-Length: x"`,
		"Content-Type: text\r\n\r\n{}":   "without Content-Length",
		"Content-Length: 2\r\n":          "LSP header",
		"Content-Length: -1\r\n\r\n{}\n": "LSP header",
	} {
		if err := CopyLSP(io.Discard, strings.NewReader(in), FixDidChange); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("CopyLSP(%q): err = %v, want %q", in, err, msg)
		}
	}
}

func TestGoplsArgs(t *testing.T) {
	for _, args := range [][]string{{"-listen", "unix;/tmp/g/gopls_socket"}, {"--listen=unix;/tmp/g/gopls_socket"}} {
		if got, err := GoplsArgs(args); err != nil || got != "/tmp/g/gopls_socket" {
			t.Errorf("GoplsArgs(%q) = %q, %v", args, got, err)
		}
	}
	for _, args := range [][]string{nil, {"serve"}, {"-listen", "127.0.0.1:4389"}, {"-listen", "unix;"}} {
		if _, err := GoplsArgs(args); err == nil || !strings.Contains(err.Error(), "unix;PATH") {
			t.Errorf("GoplsArgs(%q): err = %v", args, err)
		}
	}
}

// TestServeGopls runs the proxy as gonb meets it, a gopls listening on a Unix socket,
// with cat as the gopls: what comes back is what the real gopls would have read.
func TestServeGopls(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "gopls_socket")
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeGopls(ctx, socket, []string{"cat"}) }()
	var conn net.Conn
	for i := 0; ; i++ {
		var err error
		if conn, err = net.Dial("unix", socket); err == nil {
			break
		}
		if i == 100 {
			t.Fatalf("the proxy does not listen: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := io.WriteString(conn, lspFrame(`{"id":1,"method":"initialize"}`)+lspFrame(gonbDidChange)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var back bytes.Buffer
	pr, pw := io.Pipe()
	go func() { _ = CopyLSP(pw, bufio.NewReader(conn), func(b []byte) []byte { return b }); pw.Close() }()
	want := lspFrame(`{"id":1,"method":"initialize"}`) + lspFrame(string(FixDidChange([]byte(gonbDidChange))))
	if _, err := io.CopyN(&back, pr, int64(len(want))); err != nil || back.String() != want {
		t.Errorf("gopls read %q (%v), want %q", back.String(), err, want)
	}
	conn.Close()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeGopls: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeGopls did not return when its context ended")
	}
	if err := ServeGopls(context.Background(), socket, nil); err == nil {
		t.Error("ServeGopls without a gopls: no error")
	}
}

func TestGoplsShim(t *testing.T) {
	dir := t.TempDir()
	if err := writeGoplsShim(dir, []string{"printf", "[%s]", "it's"}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(dir, "gopls"), "-listen", "unix;/tmp/x y").Output()
	if err != nil || string(out) != fmt.Sprintf("[it's][--parent][%d][--][-listen][unix;/tmp/x y]", os.Getpid()) {
		t.Errorf("the shim ran %q, %v", out, err)
	}
	env := prependPath([]string{"HOME=/h", "PATH=/a:/b"}, "/shim")
	if strings.Join(env, " ") != "HOME=/h PATH=/shim:/a:/b" {
		t.Errorf("prependPath = %q", env)
	}
}
