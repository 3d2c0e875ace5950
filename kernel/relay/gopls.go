package relay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// gonb v0.11.1 tells gopls of every change to a file it has opened (the cell's
// main.go, the temporary module's go.mod) with textDocument/didChange carrying the
// whole new text, but also a range, 0:0 to 0:0, because its LSP library's range is
// not optional. gopls takes that as an edit: it inserts the new text before the old.
// main.go then grows by a copy at every completion, and go.mod, once `go get` has
// changed it, holds two module statements, after which gopls loads nothing ("no
// package metadata for file") and completion and inline documentation stay broken
// until the kernel restarts. gonb never sends real incremental edits, so the proxy
// below, which gonb starts as its gopls, drops that range: a change with no range is
// the whole text, as gonb meant.

// GoplsArgs reads the arguments gonb starts gopls with, "-listen unix;PATH", and
// returns the socket to listen on.
func GoplsArgs(args []string) (string, error) {
	var addr string
	switch {
	case len(args) == 2 && (args[0] == "-listen" || args[0] == "--listen"):
		addr = args[1]
	case len(args) == 1 && (strings.HasPrefix(args[0], "-listen=") || strings.HasPrefix(args[0], "--listen=")):
		_, addr, _ = strings.Cut(args[0], "=")
	default:
		return "", fmt.Errorf("relay: gopls proxy: arguments %q, want -listen unix;PATH (as gonb passes)", args)
	}
	path, ok := strings.CutPrefix(addr, "unix;")
	if !ok || path == "" {
		return "", fmt.Errorf("relay: gopls proxy: -listen %q, want unix;PATH (as gonb passes)", addr)
	}
	return path, nil
}

// ServeGopls listens on the Unix socket socket, as `gopls -listen` would, and for
// each connection runs gopls (the command line of a gopls serving one client on its
// standard input and output) and relays between them, fixing gonb's didChange
// notifications on the way (FixDidChange). It returns when ctx ends or listening
// fails.
func ServeGopls(ctx context.Context, socket string, gopls []string) error {
	if len(gopls) == 0 {
		return errors.New("relay: gopls proxy: no gopls command")
	}
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "unix", socket)
	if err != nil {
		return fmt.Errorf("relay: gopls proxy: %w", err)
	}
	go func() {
		<-ctx.Done()
		_ = l.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("relay: gopls proxy: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			_ = proxyGopls(ctx, conn, gopls)
		}()
	}
}

// proxyGopls serves one connection with its own gopls until either side closes.
func proxyGopls(ctx context.Context, conn net.Conn, gopls []string) error {
	cmd := exec.CommandContext(ctx, gopls[0], gopls[1:]...)
	cmd.Stderr = io.Discard // as gonb's own gopls: its log goes nowhere
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("relay: gopls proxy: starting %s: %w", gopls[0], err)
	}
	done := make(chan struct{}, 2)
	go func() {
		_ = CopyLSP(in, conn, FixDidChange)
		_ = in.Close() // gopls on standard input exits at its end
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(conn, out)
		_ = conn.Close()
		done <- struct{}{}
	}()
	<-done
	// One side has closed: close the other, give gopls a moment to see its input
	// end, then stop it.
	_ = conn.Close()
	_ = in.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return cmd.Wait()
}

// CopyLSP copies LSP messages (a Content-Length header, a blank line, the JSON body)
// from src to dst, each body passed through fix.
func CopyLSP(dst io.Writer, src io.Reader, fix func([]byte) []byte) error {
	r := bufio.NewReader(src)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if err == io.EOF && line == "" && length == -1 {
					return nil
				}
				return fmt.Errorf("relay: LSP header: %w", err)
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if name, value, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
				n, err := strconv.Atoi(strings.TrimSpace(value))
				if err != nil || n < 0 {
					return fmt.Errorf("relay: LSP header %q", line)
				}
				length = n
			}
		}
		if length < 0 {
			return errors.New("relay: LSP message without Content-Length")
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("relay: LSP body: %w", err)
		}
		body = fix(body)
		if _, err := fmt.Fprintf(dst, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			return err
		}
	}
}

// FixDidChange turns a textDocument/didChange whose one change has an empty range
// at 0:0 and no rangeLength, which is how gonb sends a file's whole new text, into
// the full-text change it means, by dropping the range. Any other message is
// returned as it is.
func FixDidChange(body []byte) []byte {
	if !bytes.Contains(body, []byte(`"textDocument/didChange"`)) {
		return body
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil || string(msg["method"]) != `"textDocument/didChange"` {
		return body
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(msg["params"], &params) != nil {
		return body
	}
	var changes []map[string]json.RawMessage
	if json.Unmarshal(params["contentChanges"], &changes) != nil || len(changes) != 1 {
		return body
	}
	var rng struct {
		Start, End struct{ Line, Character int }
	}
	if _, ok := changes[0]["rangeLength"]; ok || json.Unmarshal(changes[0]["range"], &rng) != nil ||
		rng.Start.Line != 0 || rng.Start.Character != 0 || rng.End.Line != 0 || rng.End.Character != 0 {
		return body
	}
	delete(changes[0], "range")
	var err error
	if params["contentChanges"], err = json.Marshal(changes); err != nil {
		return body
	}
	if msg["params"], err = json.Marshal(params); err != nil {
		return body
	}
	fixed, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return fixed
}

// goplsShim is the script the relay puts first on gonb's PATH as "gopls": it runs
// the proxy command with "--parent" and gonb's process id (the script's parent), so
// that the proxy can end when gonb does, and gonb's arguments after "--".
func goplsShim(proxy []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by the twintorus kernel's relay: gonb's gopls, through a proxy that fixes\n# gonb's file-change notifications (kernel/relay/gopls.go).\nexec")
	for _, a := range proxy {
		b.WriteString(" '" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	b.WriteString(" --parent \"$PPID\" -- \"$@\"\n")
	return b.String()
}

// writeGoplsShim writes goplsShim(proxy) as dir/gopls.
func writeGoplsShim(dir string, proxy []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gopls"), []byte(goplsShim(proxy)), 0o755); err != nil {
		return fmt.Errorf("relay: writing the gopls shim: %w", err)
	}
	return nil
}
