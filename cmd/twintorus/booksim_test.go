package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run --booksim runs BookSim2's torus88 as the file says: the point carries the
// mapped topology, routing, traffic, load and engine parameters, flags given beside it
// win, and the notes go to standard error.
func TestRunBookSim(t *testing.T) {
	cfg := filepath.Join("..", "..", "sim", "booksim", "testdata", "torus88")
	out, stderr, err := run(t, "run", "--booksim", cfg, "--cycles", "2000", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	p := r["point"].(map[string]any)
	for k, want := range map[string]any{
		"topology": "torus:8x8", "routing": "dor", "deadlock": "vc", "tie": "random", "traffic": "uniform+self",
		"load": 0.15, "seed": 0.0, "packet_flits": 1.0, "link_latency": 2.0, "terminal_latency": 1.0,
		"routing_delay": 4.0, "switching": "wormhole", "external_buffer": "2x8", "terminal_buffer": "2x8",
		"warmup": 3000.0, "measure": 2000.0, "class_vcs": true, "front_delay": 3.0,
	} {
		if p[k] != want {
			t.Errorf("point %s = %v, want %v", k, p[k], want)
		}
	}
	if acc := r["accepted"].(float64); acc < 0.14 || acc > 0.16 || r["saturated"].(bool) {
		t.Errorf("accepted %v (saturated %v) at 0.15 flits/cycle/PE", acc, r["saturated"])
	}
	if !strings.Contains(stderr, "booksim: note: router: BookSim2's pipeline") {
		t.Errorf("notes missing from stderr:\n%s", stderr)
	}
}

// A configuration with a key BookSim2 does not know fails in one line naming the file,
// the line and the key; so does one we cannot map, and the flags that do not fit.
func TestRunBookSimBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	unknown := write("unknown.cfg", "topology = torus;\nrouting_function = dim_order;\nlimit = 64;\n")
	refused := write("refused.cfg", "topology = torus;\nrouting_function = dim_order;\ncredit_delay = 2;\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--booksim", unknown}, unknown + ":3: limit: unknown key"},
		{[]string{"run", "--booksim", refused}, refused + ":3: credit_delay: = 2: we model only BookSim2's default 0"},
		{[]string{"run", "--booksim", refused, "torus:4x4"}, "give no TOPOLOGY argument"},
		{[]string{"run", "--booksim", unknown, "--switch", "kns"}, "--switch does not apply with --booksim"},
		{[]string{"run", "--booksim", filepath.Join(dir, "missing.cfg")}, "read BookSim2 configuration"},
	} {
		wantOneLineError(t, c.want, c.args...)
	}
}
