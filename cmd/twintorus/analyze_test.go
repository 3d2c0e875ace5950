package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the command line in-process, as main does, and returns what it wrote.
func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.Execute()
	return out.String(), errOut.String(), err
}

func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, _, err := run(t, args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

func TestAnalyzeJSON(t *testing.T) {
	var r struct {
		Topology            string   `json:"topology"`
		Switches            int      `json:"switches"`
		Terminals           int      `json:"terminals"`
		Links               int      `json:"links"`
		Diameter            int      `json:"diameter"`
		AvgDistance         float64  `json:"avg_distance"`
		AvgDistanceInclSelf float64  `json:"avg_distance_incl_self"`
		LoadBound           *float64 `json:"load_bound"`
		AvgDORHops          *float64 `json:"avg_dor_hops"`
		Paths               *struct {
			Configuration    string    `json:"configuration"`
			Transit          int64     `json:"transit"`
			CrossingInternal int64     `json:"crossing_internal"`
			Ports            []string  `json:"ports"`
			R                [][]int64 `json:"r"`
		} `json:"paths"`
	}
	runJSON(t, &r, "analyze", "twin:4x4x4/A", "--paths", "--json")
	if r.Topology != "twin:4x4x4/A" || r.Switches != 128 || r.Terminals != 128 || r.Links != 256 || r.Diameter != 8 ||
		round(r.AvgDistance, 3) != 4.126 || round(r.AvgDistanceInclSelf, 3) != 4.094 {
		t.Errorf("analyze twin:4x4x4/A: %+v", r)
	}
	if r.LoadBound == nil || round(*r.LoadBound, 4) != 0.2515 || r.AvgDORHops == nil || round(*r.AvgDORHops, 3) != 5.488 {
		t.Errorf("analyze twin:4x4x4/A: load bound %v, avg hops %v; want 0.2515, 5.488", r.LoadBound, r.AvgDORHops)
	}
	p := r.Paths
	if p == nil || p.Transit != 129 || p.CrossingInternal != 93 || p.Configuration != "A" || strings.Join(p.Ports, " ") != "x+ x- y+ y- z+ z-" || len(p.R) != 6 {
		t.Fatalf("analyze --paths: %+v", p)
	}
	var sum int64
	for _, row := range p.R {
		for _, v := range row {
			sum += v
		}
	}
	if sum != 129 || p.R[1][0] != 16 { // x- → x+: 16 routes go straight through along x
		t.Errorf("R sums to %d, R[x-][x+] = %d; want 129, 16", sum, p.R[1][0])
	}

	runJSON(t, &r, "analyze", "twin:4x4x2x4x4/cbest", "--paths", "--json")
	if r.Paths == nil || r.Paths.Transit != 1793 || r.Paths.CrossingInternal != 225 || r.Terminals != 1024 {
		t.Errorf("analyze twin:4x4x2x4x4/cbest --paths: %+v", r.Paths)
	}
	r.Paths = nil
	runJSON(t, &r, "analyze", "torus:32x32", "--json")
	if r.Paths != nil || r.Diameter != 32 || r.AvgDistanceInclSelf != 16 || r.LoadBound == nil || round(*r.LoadBound, 4) != 0.2351 {
		t.Errorf("analyze torus:32x32: %+v", r)
	}
}

func TestAnalyzeText(t *testing.T) {
	out, stderr, err := run(t, "analyze", "twin:4x4x4/D", "--paths")
	if err != nil || stderr != "" {
		t.Fatalf("analyze: %v, stderr %q", err, stderr)
	}
	for _, want := range []string{"switches                     128", "diameter                     8 hops",
		"4.2205", "4.1875", "0.4394 flits/cycle/PE", "4.7953", "transit paths per node       129", "49 (38.0 %) under configuration D",
		"in\\out  x+  x-  y+  y-  z+  z-", "x-      16   0  16   8   4   2"} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze output lacks %q:\n%s", want, out)
		}
	}
	// A big torus skips the load bound unless asked.
	out, _, err = run(t, "analyze", "torus:128x128x64")
	if err != nil || !strings.Contains(out, "diameter                     160 hops") || !strings.Contains(out, "--load computes it") {
		t.Errorf("analyze torus:128x128x64: %v\n%s", err, out)
	}
}

// A family with its own deterministic routing (FamilyDef.LoadRouting) reports its
// channel loads: dimension order on the twisted tori's records, Algorithm R on TCT. The
// RTT's average distance is the closed form (4a²−1)/(6a) = 63/24 at a = 4.
func TestAnalyzeFamilyLoadRouting(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"twisted:rtt:4", "load bound (uniform, TWISTED-DOR)"},
		{"twisted:rtt:4", "average distance incl. self        2.6250"},
		{"twisted:rtt:4", "average TWISTED-DOR hops           2.7097 (2.7097 external"},
		{"tct:3,4", "load bound (uniform, TCT)"},
		{"torus:4x4", "load bound (uniform, DOR)"},
	} {
		out, _, err := run(t, "analyze", c.spec)
		if err != nil || !strings.Contains(out, c.want) {
			t.Errorf("analyze %s lacks %q: %v\n%s", c.spec, c.want, err, out)
		}
	}
}

func TestConfigs(t *testing.T) {
	var r struct {
		Topology       string `json:"topology"`
		Transit        int64  `json:"transit"`
		Configurations []struct {
			Rank             int    `json:"rank"`
			Name             string `json:"name"`
			Spec             string `json:"spec"`
			CrossingInternal int64  `json:"crossing_internal"`
			CBest            bool   `json:"cbest"`
		} `json:"configurations"`
	}
	runJSON(t, &r, "configs", "twin:4x4x4/A", "--json")
	cs := r.Configurations
	if r.Topology != "twin:4x4x4" || r.Transit != 129 || len(cs) != 10 {
		t.Fatalf("configs twin:4x4x4: %+v", r)
	}
	if cs[0].Name != "D" || cs[0].Spec != "twin:4x4x4/D" || cs[0].CrossingInternal != 49 || !cs[0].CBest || cs[0].Rank != 1 ||
		cs[9].Name != "A" || cs[9].CrossingInternal != 93 || cs[9].Rank != 10 {
		t.Errorf("configs twin:4x4x4: first %+v, last %+v", cs[0], cs[9])
	}
	for i := 1; i < len(cs); i++ {
		if cs[i].CrossingInternal < cs[i-1].CrossingInternal {
			t.Errorf("configs not sorted at %d: %+v", i, cs)
		}
	}
	runJSON(t, &r, "configs", "twin:5x5x5x5x5x5x5", "--json")
	if len(r.Configurations) != 1716 || r.Configurations[0].CrossingInternal != 108626 || r.Configurations[2].CrossingInternal != 139378 {
		t.Errorf("configs 7DT: %d configurations, best %+v", len(r.Configurations), r.Configurations[:3])
	}
	// A dragonfly's global-link arrangements: both reach the closed form
	// h·a·p·(a·p+2p) = 5,120 routes under groupshift:h (sim/analysis's test derives it).
	out, _, err := run(t, "configs", "dragonfly:4")
	if err != nil || !strings.Contains(out, "dragonfly:4: 2 global-link arrangements") ||
		!strings.Contains(out, "1     consecutive  5120            992            5.161  4            0.194             dragonfly:4/consecutive  (the paper's)") ||
		!strings.Contains(out, "dragonfly:4/relative") {
		t.Errorf("configs dragonfly:4: %v\n%s", err, out)
	}
	out, _, err = run(t, "configs", "twin:3x3x3")
	if err != nil || !strings.Contains(out, "twin:3x3x3: 10 configurations, 28 transit paths per node") ||
		!strings.Contains(out, "1     A     14                 50.0 %  twin:3x3x3/A") || !strings.Contains(out, "twin:3x3x3/G  (cbest)") {
		t.Errorf("configs twin:3x3x3: %v\n%s", err, out)
	}
}

// Bad input: an error (main prints it on one line and exits 1), nothing on stdout or
// stderr from cobra, and a message that says what is wrong and what is accepted.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"analyze"}, []string{"needs a TOPOLOGY", "twin:4x4x4/D"}},
		{[]string{"configs"}, []string{"needs a TOPOLOGY", "twin:4x4x4"}},
		{[]string{"analyze", "torus:4x4", "mesh:4x4"}, []string{"one TOPOLOGY argument"}},
		{[]string{"analyze", "ring:8"}, []string{"unknown family", "torus, mesh, twin, twisted, tct, toroid, tcc, tofu, ktree, fattree, kns, flatfly, hyperx, slimfly, dragonfly, file and anynet"}},
		{[]string{"analyze", "torus:0x4"}, []string{"radix 0", "accepted are 2 to"}},
		{[]string{"analyze", "torus:1x4"}, []string{"radix 1", "accepted are 2 to"}},
		{[]string{"analyze", "twin:4x4x4/x+,x+,y+"}, []string{"listed twice"}},
		{[]string{"configs", "twin:4x4x4/x+,y+"}, []string{"has 3 external ports"}},
		{[]string{"analyze", "twin:4x4x4x4/D"}, []string{"letter", "cbest"}},
		{[]string{"analyze", "garbage"}, []string{"no family", "accepted"}},
		{[]string{"analyze", "torus:8x8", "--paths"}, []string{"--paths", "twin torus", "twin:8x8/cbest"}},
		{[]string{"configs", "mesh:4x4"}, []string{"configs has no variants for this family", "twin (e.g. twin:4x4)", "mesh:4x4 is of family mesh"}},
		// Issue 39: families without a grid shape once panicked in the k-ary n-tree
		// formatter while the message borrowed their shape for its examples.
		{[]string{"configs", "file:net.json"}, []string{"configs has no variants for this family", "file:net.json is of family file", "twin (e.g. twin:4x4x4)", "ktree (e.g. ktree:4,3)"}},
		{[]string{"configs", "anynet:mesh.txt"}, []string{"configs has no variants for this family", "anynet:mesh.txt is of family anynet"}},
		{[]string{"configs", "torus:8"}, []string{"configs has no variants for this family", "twin (e.g. twin:4x4x4)"}},
		{[]string{"configs", "flatfly:4,3"}, []string{"configs has no variants for this family", "twin (e.g. twin:4x4x4)", "ktree (e.g. ktree:4,3)"}},
		{[]string{"analyze", "torus:4x4", "--tie", "sideways"}, []string{"--tie", "plus, minus, mirror and random"}},
		{[]string{"configs", "twin:4x4x4", "--tie", "up"}, []string{"--tie", "plus, minus, mirror and random"}},
		// Node-level transit counts have one route per pair of nodes; mirror gives two.
		{[]string{"configs", "twin:4x4x4", "--tie", "mirror"}, []string{"tie mirror", "one per pair of nodes", "use plus or minus"}},
		{[]string{"analyze", "twin:4x4x4", "--paths", "--tie", "mirror"}, []string{"--paths", "tie mirror", "use plus or minus"}},
		{[]string{"analyze", "torus:4x4", "--bogus"}, []string{"bogus"}},
	} {
		out, stderr, err := run(t, c.args...)
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || out != "" || stderr != "" {
			t.Errorf("%v: error %q (one line?), stdout %q, stderr %q", c.args, msg, out, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: error %q lacks %q", c.args, msg, w)
			}
		}
	}
}

// On the EXTOLL paper's 1,024-PE 5DT: TSDOR beside DORT (the hop table, claim R4 of
// docs/references.md: 5.474 hops with 0.970 internal, DORT 5.944 with 1.440), and the
// tori the papers pair it with.
func TestAnalyzeTSDORAndEquivalents(t *testing.T) {
	type load struct {
		Routing         string  `json:"routing"`
		AvgHops         float64 `json:"avg_hops"`
		AvgInternalHops float64 `json:"avg_internal_hops"`
	}
	var r struct {
		AvgDistance float64 `json:"avg_distance"`
		Load        load    `json:"load"`
		TSDOR       load    `json:"tsdor"`
		Equivalents []struct {
			Kind     string `json:"kind"`
			Topology string `json:"topology"`
		} `json:"equivalents"`
	}
	runJSON(t, &r, "analyze", "twin:4x4x2x4x4", "--json")
	if r.TSDOR.Routing != "tsdor" || round(r.TSDOR.AvgHops, 3) != 5.474 || round(r.TSDOR.AvgInternalHops, 3) != 0.970 || round(r.Load.AvgHops, 3) != 5.944 || r.TSDOR.AvgHops != r.AvgDistance {
		t.Errorf("analyze twin:4x4x2x4x4: TSDOR %+v, DORT %+v, distance %v", r.TSDOR, r.Load, r.AvgDistance)
	}
	if len(r.Equivalents) != 2 || r.Equivalents[0].Topology != "torus:16x8x8" || r.Equivalents[1].Topology != "torus:4x4x4x4x4" || r.Equivalents[0].Kind != "3D" {
		t.Errorf("equivalents %+v", r.Equivalents)
	}
	text, _, err := run(t, "analyze", "twin:4x4x2x4x4")
	if err != nil || !strings.Contains(text, "average TSDOR hops           5.4741 (4.5044 external + 0.9697 internal)") || !strings.Contains(text, "same cards, same PEs (3D)    torus:16x8x8, 6-port cards") {
		t.Errorf("analyze text: %v\n%s", err, text)
	}
}

// analyze --anynet writes BookSim2's anynet file of a network, which reads back as a
// network of the same size; a network the format cannot hold is refused.
func TestAnalyzeAnynet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "twin.anynet")
	out, _, err := run(t, "analyze", "twin:4x4x4/A", "--anynet", path)
	if err != nil || !strings.Contains(out, "128 routers (our switch ids), 128 nodes (our PE ids), 256 links") {
		t.Fatalf("%s %v", out, err)
	}
	var r struct {
		Switches, Terminals, Links, Diameter int
	}
	runJSON(t, &r, "analyze", "anynet:"+path, "--json")
	if r.Switches != 128 || r.Terminals != 128 || r.Links != 256 || r.Diameter != 8 {
		t.Errorf("read back: %+v, want twin:4x4x4/A's 128 switches and PEs, 256 links, diameter 8", r)
	}
	if _, _, err := run(t, "analyze", "torus:2x4", "--anynet", path); err == nil || !strings.Contains(err.Error(), "more than one link") {
		t.Errorf("torus:2x4: %v", err)
	}
}

// analyze reports the bisection (the family's formula, spectral bounds) and the KNS
// cost model's price of a HyperX and a Slim Fly.
func TestAnalyzeHyperXSlimFly(t *testing.T) {
	for spec, wants := range map[string][]string{
		"hyperx:4x4x4@4": {"diameter                     3 hops", "bisection (formula)          64 links", "bisection (spectral)         64 to",
			"64 of 13 ports", "(352 local, 192 global, 0 near)"},
		"slimfly:5": {"switches                     50", "diameter                     2 hops", "bisection (spectral)         63 to",
			"λ₂ = 5.0000", "50 of 11 ports", "375 cables", "(275 local, 100 global, 0 near)"},
	} {
		out, stderr, err := run(t, "analyze", spec)
		if err != nil || stderr != "" {
			t.Fatalf("analyze %s: %v, stderr %q", spec, err, stderr)
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("analyze %s lacks %q:\n%s", spec, want, out)
			}
		}
	}
}
