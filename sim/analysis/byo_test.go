package analysis_test

// The acceptance tests of "bring your own network": a network built in a cell, a
// BookSim2 anynet file, user routing tables refused or protected, bad files.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/topology/topotest"
	"github.com/twintorus/twintorus/sim/traffic"
)

// handTorus builds a k0×k1 torus with the public Builder API, as a notebook cell would:
// a grid of switches, dimension ports in the order x+, x-, y+, y-, a PE each, and
// links from every x+ and y+ port to the next switch's x- and y- port.
func handTorus(t *testing.T, k0, k1 int) *topology.Network {
	t.Helper()
	b := topology.NewBuilder("torus by hand")
	b.Grid([]int{k0, k1}, 1)
	for y := 0; y < k1; y++ {
		for x := 0; x < k0; x++ {
			s := b.At(x, y)
			for d := 0; d < 2; d++ {
				b.AddPort(s, topology.DimRole(d, +1))
				b.AddPort(s, topology.DimRole(d, -1))
			}
			b.AttachPE(s)
		}
	}
	for y := 0; y < k1; y++ {
		for x := 0; x < k0; x++ {
			b.Connect(topology.PortRef{Switch: b.At(x, y), Port: 0}, topology.PortRef{Switch: b.At((x+1)%k0, y), Port: 1})
			b.Connect(topology.PortRef{Switch: b.At(x, y), Port: 2}, topology.PortRef{Switch: b.At(x, (y+1)%k1), Port: 3})
		}
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func run(t *testing.T, net *topology.Network, rt routing.Func, pattern string, p engine.Params) *engine.Result {
	t.Helper()
	pat, err := traffic.ParsePattern(pattern, net)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.Config{Net: net, Routing: rt, Pattern: pat, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Topology, r.Elapsed = "", 0
	return r
}

// Acceptance: torus:8x8 built through the Builder API gives the family's analysis and
// simulation results, bit for bit.
func TestBuilderTorusMatchesFamily(t *testing.T) {
	ctx := context.Background()
	hand, fam := handTorus(t, 8, 8), topology.MustNew("torus:8x8")
	a, b := hand.Export(), fam.Export()
	a.Topology, a.Family, b.Topology, b.Family = "", "", "", ""
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the hand-built torus is not the family's graph")
	}
	if hand.Translational() || hand.Classes() != nil {
		t.Fatal("a hand-built network claims a symmetry")
	}

	// Distances: the hand-built one by BFS from every switch, the family's by symmetry.
	dh, err := analysis.Distances(ctx, hand)
	if err != nil {
		t.Fatal(err)
	}
	df, err := analysis.Distances(ctx, fam)
	if err != nil {
		t.Fatal(err)
	}
	if dh.Sources != 64 || df.Sources != 1 || dh.Diameter != df.Diameter || dh.AvgDistance != df.AvgDistance ||
		dh.AvgDistanceInclSelf != df.AvgDistanceInclSelf || !reflect.DeepEqual(dh.Histogram, df.Histogram) {
		t.Errorf("distances: by hand %+v, family %+v", dh, df)
	}
	// Channel loads: every pair routed on the hand-built one, node 0's on the family's.
	for _, tie := range []routing.Tie{routing.TiePlus, routing.TieMinus} {
		lh, err := analysis.Load(ctx, routing.NewDOR(hand, tie))
		if err != nil {
			t.Fatal(err)
		}
		lf, err := analysis.Load(ctx, routing.NewDOR(fam, tie))
		if err != nil {
			t.Fatal(err)
		}
		if lh.Symmetric || !lf.Symmetric || lh.MaxRoutes != lf.MaxRoutes || lh.Bound != lf.Bound || lh.AvgHops != lf.AvgHops || lh.MaxHops != lf.MaxHops {
			t.Errorf("tie %d: load by hand %+v, family %+v", tie, *lh, *lf)
		}
	}
	// The CDG check and the simulation, under both schemes.
	for _, scheme := range []routing.Scheme{routing.SchemeVC, routing.SchemeBubble} {
		rh, err := routing.New(routing.Default(hand), hand, scheme, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		rf, err := routing.New("dor", fam, scheme, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := analysis.CheckCDG(hand, rh, rh.(*routing.Deterministic).Ring)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := analysis.CheckCDG(fam, rf, rf.(*routing.Deterministic).Ring)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ch, cf) || !ch.Acyclic {
			t.Errorf("%s: CDG by hand %+v, family %+v", scheme, ch, cf)
		}
		p := engine.Defaults()
		p.Load, p.Warmup, p.Measure, p.Channels = 0.35, 1000, 4000, true
		got, want := run(t, hand, rh, "uniform", p), run(t, fam, rf, "uniform", p)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: simulation by hand %+v\nfamily %+v", scheme, got, want)
		}
		if got.PacketsDelivered < 10000 {
			t.Errorf("%s: only %d packets delivered", scheme, got.PacketsDelivered)
		}
	}
}

// meshAnynet writes a k×k mesh in BookSim2's anynet format, each router's links in
// the order x+, x-, y+, y- and then its node (router and node ids x + k·y).
func meshAnynet(t *testing.T, k int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("// a 4x4 mesh, written as BookSim2's anynet_file documents\n")
	for r := 0; r < k*k; r++ {
		x, y := r%k, r/k
		fmt.Fprintf(&b, "router %d", r)
		for _, nb := range []struct {
			ok bool
			id int
		}{{x < k-1, r + 1}, {x > 0, r - 1}, {y < k-1, r + k}, {y > 0, r - k}} {
			if nb.ok {
				fmt.Fprintf(&b, " router %d", nb.id)
			}
		}
		fmt.Fprintf(&b, " node %d\n", r)
	}
	path := filepath.Join(t.TempDir(), "mesh4x4.anynet")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Acceptance: a 4×4 mesh in anynet form imports, and minimal routing whose tie rule
// (lowest port first) makes it DOR reproduces the mesh family's zero-load latency.
func TestAnynetMeshZeroLoadLatency(t *testing.T) {
	path := meshAnynet(t, 4)
	net, err := topology.New("anynet:" + path)
	if err != nil {
		t.Fatal(err)
	}
	mesh := topology.MustNew("mesh:4x4")
	if net.Switches() != 16 || net.Terminals() != 16 || net.Links() != 24 || net.Dims() != 0 {
		t.Fatalf("%s: %d routers, %d nodes, %d links", net, net.Switches(), net.Terminals(), net.Links())
	}
	minimal, err := routing.NewMinimal(net, false)
	if err != nil {
		t.Fatal(err)
	}
	dor := routing.NewDOR(mesh, routing.TiePlus)
	// The same routes, switch by switch.
	for src := 0; src < 16; src++ {
		for dst := 0; dst < 16; dst++ {
			var a, b []int
			for _, st := range minimal.Path(src, dst, nil) {
				a = append(a, st.Switch)
			}
			for _, st := range dor.Path(src, dst, nil) {
				b = append(b, st.Switch)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("PE %d -> %d: min takes %v, DOR %v", src, dst, a, b)
			}
		}
	}
	// Zero-load latency: a load of 0.005 flits/cycle/PE, 100,000 cycles measured. Runs go
	// through experiment.Point, so min (scheme none) passes the CDG check first.
	var lat, hops [2]float64
	for i, pt := range []experiment.Point{experiment.NewPoint("anynet:"+path, 0.005), experiment.NewPoint("mesh:4x4", 0.005)} {
		if i == 0 {
			pt.Routing, pt.Deadlock = "min", "none"
		}
		pt.Warmup, pt.Measure = 1000, 100000
		r, err := pt.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if r.LatencyNetwork.Count < 1500 || r.Saturated {
			t.Fatalf("%s: %d packets", pt.Topology, r.LatencyNetwork.Count)
		}
		lat[i], hops[i] = r.LatencyNetwork.Mean, r.Hops
	}
	if lat[0] != lat[1] || hops[0] != hops[1] {
		t.Errorf("zero-load latency: anynet mesh with min %.4f (%.4f hops), mesh:4x4 with DOR %.4f (%.4f hops)", lat[0], hops[0], lat[1], hops[1])
	}
	// Independently, the model's zero-load latency (docs/model.md) of a packet crossing
	// h links between switches: h+2 links (with the PE links) and h+1 routing delays of
	// one cycle each, plus L−1 = 3 cycles for the tail: 2h + 6 on average over the
	// packets measured; the few packets that meet another at this load may add a few
	// hundredths of a cycle.
	if want := 2*hops[0] + 6; lat[0] < want || lat[0] > want+0.05 {
		t.Errorf("zero-load latency %.4f, want 2·%.4f hops + 6 = %.4f", lat[0], hops[0], want)
	}
	t.Logf("zero-load network latency %.4f cycles (anynet 4x4 mesh, min) = %.4f (mesh:4x4, DOR)", lat[0], lat[1])
}

// ringTable writes a routing table that sends everything clockwise around a ring.
func ringTable(t *testing.T, net *topology.Network) string {
	t.Helper()
	cw, err := routing.NewTable(net, "clockwise", func(s, dst int) []int {
		for p := 0; p < net.Ports(s); p++ {
			if net.PortName(s, p) == "cw" {
				return []int{p}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cw.table")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := cw.WriteTable(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// Acceptance: table routing with a cyclic dependency is refused by the CDG check with
// the cycle named; the same network with the up*/down* escape runs 100,000 cycles at
// twice its saturation load without deadlock.
func TestCyclicTableRefusedEscapeRuns(t *testing.T) {
	b := topology.NewBuilder("ring")
	const k = 8
	for i := 0; i < k; i++ {
		b.AddSwitch("")
	}
	for i := 0; i < k; i++ {
		b.Link(i, topology.LabelRole("cw"), (i+1)%k, topology.LabelRole("ccw"))
	}
	for i := 0; i < k; i++ {
		b.AttachPE(i)
		b.AttachPE(i)
	}
	ring, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	netPath := filepath.Join(dir, "ring.json")
	if err := ring.WriteJSONFile(netPath); err != nil {
		t.Fatal(err)
	}
	table := ringTable(t, ring)

	p := experiment.NewPoint("file:"+netPath, 0.1)
	p.Routing, p.Deadlock = "table:"+table, "none"
	_, err = p.Build()
	want := "can deadlock: its channel dependencies close the cycle s0 cw vc0 -> s1 cw vc0 -> s2 cw vc0 -> s3 cw vc0 -> s4 cw vc0 -> s5 cw vc0 -> s6 cw vc0 -> s7 cw vc0 -> s0 cw vc0"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("the clockwise table was not refused with its cycle: %v", err)
	}

	// Its saturation with the escape: accepted traffic at full offered load.
	p.Deadlock = "escape"
	p.Load, p.Warmup, p.Measure = 1, 2000, 10000
	sat, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sat.Deadlock != nil || sat.Accepted <= 0.05 || sat.Accepted >= 0.5 {
		t.Fatalf("saturation run: accepted %.3f, deadlock %v", sat.Accepted, sat.Deadlock)
	}
	p.Load, p.Warmup, p.Measure = 2*sat.Accepted, 0, 100000
	r, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock != nil || r.Cycles < 100000 || r.PacketsDelivered < 10000 || r.Accepted < 0.8*sat.Accepted {
		t.Fatalf("at %.3f (2x saturation %.3f): %d cycles, %d packets, accepted %.3f, deadlock %v", p.Load, sat.Accepted, r.Cycles, r.PacketsDelivered, r.Accepted, r.Deadlock)
	}
	t.Logf("clockwise table + up*/down* escape on an 8-ring with 2 PEs per switch: saturation %.4f flits/cycle/PE; at %.4f, %d cycles, %d packets, accepted %.4f, no deadlock",
		sat.Accepted, p.Load, r.Cycles, r.PacketsDelivered, r.Accepted)

	// Without the escape, the same overload deadlocks: the check was right to refuse.
	tbl, err := routing.ReadTableFile(ring, table)
	if err != nil {
		t.Fatal(err)
	}
	q := engine.Defaults()
	q.Load, q.Warmup, q.Measure = 2*sat.Accepted, 0, 100000
	if r := run(t, ring, tbl, "uniform", q); r.Deadlock == nil {
		t.Errorf("the clockwise table without escape ran %d cycles at 2x saturation without deadlock", r.Cycles)
	}
}

// Acceptance: bad files get one clear line with the file and line.
func TestBadNetworkFiles(t *testing.T) {
	dir := t.TempDir()
	var good strings.Builder
	if err := topology.MustNew("torus:2x2").WriteJSON(&good); err != nil {
		t.Fatal(err)
	}
	truncated := good.String()[:good.Len()*2/3]
	cases := []struct {
		family, name, text, want string
	}{
		{"anynet", "dangling.txt", "router 0 node 0 router 1\nrouter 1 node 1 router\n", "dangling.txt:2: dangling link"},
		{"anynet", "unknown.txt", "router 0 node 0 router 1\nrouter 1 node 1\nrouter 5 router 0\n", "unknown.txt:3: unknown router 5"},
		{"anynet", "negative.txt", "router 0 node 0 router 1 -2\nrouter 1 node 1\n", "negative.txt:1: negative latency -2"},
		{"file", "truncated.json", truncated, fmt.Sprintf("truncated.json:%d: the JSON ends too early", strings.Count(truncated, "\n")+1)},
		{"file", "dangling.json", strings.Replace(good.String(), `"b": 1,`, "", 1), "dangling.json:"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := topology.New(c.family + ":" + path)
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, c.want)) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line starting %s", c.name, err, c.want)
		}
	}
}

// Random networks (with one-way shortcuts, which the adaptive channels use and the
// escape does not) with adaptive minimal routing and the escape, at full load, under
// virtual cut-through and wormhole switching: no deadlock, ever.
func TestEscapeNeverDeadlocks(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		net, err := topotest.Random(seed, 16)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := routing.New("adaptive", net, routing.SchemeEscape, routing.TiePlus)
		if err != nil {
			t.Fatal(err)
		}
		if err := analysis.RequireDeadlockFree(context.Background(), net, rt); err != nil {
			t.Fatal(err)
		}
		for _, sw := range []engine.Switching{engine.CutThrough, engine.Wormhole} {
			p := engine.Defaults()
			p.Load, p.Warmup, p.Measure, p.Switching, p.Watchdog = 1, 0, 30000, sw, 2000
			if sw == engine.Wormhole {
				p.External, p.Terminal = engine.Buffer{VCs: 2, Flits: 6}, engine.Buffer{VCs: 1, Flits: 6}
			}
			r := run(t, net, rt, "uniform", p)
			if r.Deadlock != nil || r.PacketsDelivered < 1000 {
				t.Errorf("%s %s: %d packets, deadlock %v", net, sw, r.PacketsDelivered, r.Deadlock)
			}
		}
	}
}

// A link's own latency (from an anynet file) is what the engine charges: per
// direction, and for a node's link, both ways. Zero-load latency of one hop is the
// links' latencies (PE link, switch link, PE link) plus two routing delays plus L−1.
func TestLinkLatencyFromFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pair.anynet")
	if err := os.WriteFile(path, []byte("router 0 node 0 router 1 5\nrouter 1 node 1 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flow string
		want float64
	}{{"pairs:0>1", 1 + 5 + 3 + 2 + 3}, {"pairs:1>0", 3 + 1 + 1 + 2 + 3}} {
		p := experiment.NewPoint("anynet:"+path, 0.01)
		p.Routing, p.Deadlock, p.Traffic, p.Warmup, p.Measure = "min", "none", c.flow, 0, 20000
		r, err := p.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if r.LatencyNetwork.Count < 20 || r.LatencyNetwork.Mean != c.want || r.LatencyNetwork.P99 != c.want {
			t.Errorf("%s: latency mean %.3f p99 %.0f over %d packets, want %.0f", c.flow, r.LatencyNetwork.Mean, r.LatencyNetwork.P99, r.LatencyNetwork.Count, c.want)
		}
	}
}

// A routing from a Go function, run on a Builder's network through a Point: checked
// first and refused with its cycle; with the escape, it runs.
func TestRunWithChecksRouting(t *testing.T) {
	ring, err := topology.ReadAnynet(strings.NewReader("router 0 router 1 node 0\nrouter 1 router 2 node 1\nrouter 2 router 3 node 2\nrouter 3 router 0 node 3\n"), "ring")
	if err != nil {
		t.Fatal(err)
	}
	// Port 0 of every router is its link to the next one (its own line lists it first).
	cw, err := routing.NewTable(ring, "clockwise", func(s, dst int) []int { return []int{0} })
	if err != nil {
		t.Fatal(err)
	}
	p := experiment.NewPoint("", 0.2)
	p.Warmup, p.Measure = 500, 2000
	_, err = p.RunWith(context.Background(), ring, cw)
	if err == nil || !strings.Contains(err.Error(), "routing clockwise on ring can deadlock: its channel dependencies close the cycle s0 p0 vc0 -> s1 p0 vc0 -> s2 p0 vc0 -> s3 p0 vc0 -> s0 p0 vc0") {
		t.Fatalf("RunWith the clockwise table: %v", err)
	}
	safe, err := routing.WithEscape(ring, cw)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.RunWith(context.Background(), ring, safe)
	if err != nil || r.Deadlock != nil || r.PacketsDelivered < 100 || r.Routing != "clockwise+escape" {
		t.Fatalf("RunWith clockwise+escape: %v, %+v", err, r)
	}
}
