package engine

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden results in testdata/")

// goldenCases are the fixed points whose results are stored bit for bit (testdata/).
var goldenCases = []struct {
	name, spec, traffic string
	scheme              routing.Scheme
	change              func(*Params)
}{
	{"torus-vc", "torus:8x8", "uniform", routing.SchemeVC, func(p *Params) {}},
	{"twin-bubble", "twin:4x4x4/D", "uniform", routing.SchemeBubble, func(p *Params) {}},
	{"twin-a-bitrev-wormhole", "twin:4x4x2/A", "bitrev", routing.SchemeVC, func(p *Params) {
		p.Switching = Wormhole
		p.External, p.Terminal, p.Internal = Buffer{VCs: 2, Flits: 6}, Buffer{VCs: 1, Flits: 6}, Buffer{VCs: 8, Flits: 6}
	}},
	{"mesh-hotspot-latency3", "mesh:6x4@2", "hotspot:0.2", routing.SchemeVC, func(p *Params) { p.LinkLatency, p.RoutingDelay = 3, 2 }},
}

// Results for a few fixed points are stored bit for bit. A change that alters any of
// them changes the simulation model: if it is intended, bump ModelVersion (stored
// experiment results then recompute) and rerun with -update.
func TestGoldenResults(t *testing.T) {
	for _, c := range goldenCases {
		// The model without the stationarity check, as the golden files were made
		// (TestStationaryCheckKeepsResults compares the check's runs with these).
		p := params(0.35, 1000, 4000, 42).StationaryOff()
		p.Channels = true
		c.change(&p)
		e := newRun(t, c.spec, c.scheme, c.traffic, p)
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r.Elapsed = 0
		got, err := json.MarshalIndent(r, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden-"+c.name+".json")
		if *updateGolden {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run TestGoldenResults -update to create it)", err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: results changed (first difference near %q). If the model changed on purpose, bump engine.ModelVersion and rerun with -update.",
				c.name, firstDiff(string(got), string(want)))
		}
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range la {
		if i >= len(lb) || la[i] != lb[i] {
			return strings.TrimSpace(la[i])
		}
	}
	return ""
}
