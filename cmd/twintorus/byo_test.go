package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/topology"
)

// A network from a file runs and is analysed like a family's; its default routing is
// min with the escape VC, and min alone is refused with its cycle named.
func TestRunNetworkFile(t *testing.T) {
	b := topology.NewBuilder("ring")
	for i := 0; i < 6; i++ {
		b.AddSwitch("")
		b.AttachPE(i)
	}
	for i := 0; i < 6; i++ {
		b.Link(i, topology.LabelRole("cw"), (i+1)%6, topology.LabelRole("ccw"))
	}
	ring, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ring.json")
	if err := ring.WriteJSONFile(path); err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	runJSON(t, &r, "run", path, "--load", "0.1", "--warmup", "500", "--cycles", "2000", "--json")
	point := r["point"].(map[string]any)
	if r["routing"] != "min+escape" || point["deadlock"] != "escape" || r["topology"] != "file:"+path || r["deadlock"] != nil {
		t.Errorf("run %s: routing %v, deadlock scheme %v, topology %v", path, r["routing"], point["deadlock"], r["topology"])
	}
	_, _, err = run(t, "run", "file:"+path, "--routing", "min", "--deadlock", "none")
	if err == nil || !strings.Contains(err.Error(), "can deadlock: its channel dependencies close the cycle s0 cw vc0 -> s1 cw vc0") {
		t.Errorf("min without escape on a ring: %v", err)
	}
	_, _, err = run(t, "run", "file:"+path, "--routing", "min", "--deadlock", "bubble")
	if err == nil || !strings.Contains(err.Error(), "accepted here are escape") {
		t.Errorf("min with bubble: %v", err)
	}
	out, _, err := run(t, "analyze", "file:"+path)
	if err != nil || !strings.Contains(out, "load bound (uniform, MIN)") || !strings.Contains(out, "diameter                     3 hops") {
		t.Errorf("analyze %s: %v\n%s", path, err, out)
	}
	anynet := filepath.Join(t.TempDir(), "pair.txt")
	if err := os.WriteFile(anynet, []byte("router 0 node 0 router 1 3\nrouter 1 node 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runJSON(t, &r, "run", "anynet:"+anynet, "--routing", "updown", "--load", "0.05", "--warmup", "0", "--cycles", "2000", "--json")
	if r["routing"] != "updown" || r["packets_delivered"].(float64) < 10 {
		t.Errorf("run anynet: %v, %v packets", r["routing"], r["packets_delivered"])
	}
}
