package relay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConnection(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("kernel-1.json", `{"transport": "tcp", "ip": "127.0.0.1", "shell_port": 5001, "control_port": 5002,
		"stdin_port": 5003, "iopub_port": 5004, "hb_port": 5005, "key": "k", "signature_scheme": "hmac-sha256"}`)
	c, err := ReadConnection(good)
	if err != nil || c.endpoint(c.ShellPort) != "tcp://127.0.0.1:5001" || c.Key != "k" {
		t.Errorf("ReadConnection = %+v, %v", c, err)
	}
	if c := (Connection{Transport: "ipc", IP: "/tmp/k"}); c.endpoint(3) != "ipc:///tmp/k-3" {
		t.Errorf("ipc endpoint %s", c.endpoint(3))
	}
	for body, want := range map[string]string{
		`{"transport": "udp"}`:                                 `transport "udp", want tcp or ipc`,
		`{"transport": "tcp", "signature_scheme": "hmac-md5"}`: `signature scheme "hmac-md5", want hmac-sha256`,
		`{"transport": `:                                       "unexpected end of JSON input",
	} {
		if _, err := ReadConnection(write("bad.json", body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("connection %s: err = %v, want %q", body, err, want)
		}
	}
	if _, err := ReadConnection(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing connection file: no error")
	}
	if _, err := Run(context.Background(), Options{ConnectionFile: good}); err == nil || !strings.Contains(err.Error(), "no gonb command") {
		t.Errorf("Run without gonb: %v", err)
	}
}
