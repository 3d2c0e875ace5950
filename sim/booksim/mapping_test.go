package booksim

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
)

func mapText(t *testing.T, file, text string) (Mapped, error) {
	t.Helper()
	c, err := Parse(file, []byte(text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return Map(c)
}

// example is an example file's text with lines appended (later keys override).
func example(t *testing.T, name string, extra ...string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n" + strings.Join(extra, "\n") + "\n"
}

func hasNote(m Mapped, prefix string) bool {
	for _, n := range m.Notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// BookSim2's torus88 maps field by field: an 8x8 torus with dateline VCs, 2 VCs of 8
// flits (vc_buf_size's default), 1-flit packets at 0.15 packets/cycle = 0.15
// flits/cycle, 2-cycle torus links (use_noc_latency), a 1+1+1+0+1 = 4-cycle router,
// iSLIP with one iteration (our rr2), 3 warm-up periods and 3 measured periods of 1000 cycles.
func TestMapTorus88(t *testing.T) {
	c := readExample(t, "torus88")
	m, err := Map(c)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Defaults()
	want.Switching = engine.Wormhole
	want.PacketFlits = 1
	// BookSim2's channels (torus 2, PE 1) plus the cycle its routers read them later.
	want.LinkLatency, want.TerminalLatency = 3, 2
	want.RoutingDelay = 1  // routing + VC allocation - 1: the head's VC allocation
	want.SwitchAfterVC = 1 // switch allocation
	want.CrossbarDelay = 1 // st_prepare + st_final
	want.FrontDelay = 2    // routing + VC allocation after the tail before it
	want.EjectVCs = 2      // num_vcs
	want.ClassVCs, want.KeepRingClass = true, true
	want.SwitchISLIP = true // sw_allocator = islip, one iteration
	want.VCISLIP = true     // vc_allocator = islip
	b := engine.Buffer{VCs: 2, Flits: 8}
	want.Terminal, want.External, want.Internal = b, b, b
	want.Allocator = engine.Allocator{} // rr2: our iSLIP is for virtual cut-through
	want.Warmup, want.Measure = 3000, 3000
	want.Load, want.Seed = 0.15, 0
	if m.Topology != "torus:8x8" || m.Routing != "dor" || m.Deadlock != "vc" || m.Tie != "random" || m.Traffic != "uniform+self" || m.Sizes != "1" || m.Load != 0.15 || m.Seed != 0 {
		t.Errorf("torus88 maps to %s %s %s %s sizes %s load %v seed %d", m.Topology, m.Routing, m.Deadlock, m.Traffic, m.Sizes, m.Load, m.Seed)
	}
	if m.Engine != want {
		t.Errorf("engine\n got %+v\nwant %+v", m.Engine, want)
	}
	for _, n := range []string{"dor: both split", "router:", "switch:", "seed:"} {
		if !hasNote(m, n) {
			t.Errorf("no note %q in %q", n, m.Notes)
		}
	}
}

// mesh88_lat maps once the keys we refuse are set back to BookSim2's defaults (later
// assignments override): transpose on an 8x8 mesh, 20-flit packets at 0.005
// packets/cycle = 0.1 flits/cycle, 8 VCs of 8 flits, lookahead routing (0) + 1 + 1 +
// 0 + 1 = 3 cycles, 1-cycle mesh links.
func TestMapMesh88Lat(t *testing.T) {
	_, err := mapText(t, "mesh88_lat", example(t, "mesh88_lat"))
	if err == nil || !strings.Contains(err.Error(), "mesh88_lat:42: wait_for_tail_credit: = 1") ||
		!strings.Contains(err.Error(), "(also refused: credit_delay, input_speedup)") {
		t.Errorf("mesh88_lat: got %v, want wait_for_tail_credit on line 42 refused, credit_delay and input_speedup too", err)
	}
	m, err := mapText(t, "mesh88_lat", example(t, "mesh88_lat", "wait_for_tail_credit = 0;", "credit_delay = 0;", "input_speedup = 1;"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Topology != "mesh:8x8" || m.Routing != "dor" || m.Deadlock != "none" || m.Traffic != "transpose+self" || m.Load != 0.1 {
		t.Errorf("mesh88_lat maps to %s %s %s %s load %v", m.Topology, m.Routing, m.Deadlock, m.Traffic, m.Load)
	}
	e := m.Engine
	if e.PacketFlits != 20 || e.RoutingDelay != 0 || e.SwitchAfterVC != 1 || e.CrossbarDelay != 1 || e.FrontDelay != 1 || !e.ClassVCs || e.KeepRingClass || e.LinkLatency != 2 || e.TerminalLatency != 2 ||
		e.External != (engine.Buffer{VCs: 8, Flits: 8}) || e.Allocator != (engine.Allocator{}) || e.Load != 0.1 {
		t.Errorf("mesh88_lat engine %+v", e)
	}
}

// anynet_config: the network file beside it, shortest-path routing without deadlock
// avoidance, separable input-first allocation (our rr2), 1 VC of 3 flits.
func TestMapAnynet(t *testing.T) {
	m, err := Map(readExample(t, "anynet_config"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Topology != "anynet:"+filepath.Join("testdata", "anynet_file") || m.Routing != "min" || m.Deadlock != "none" || m.Load != 0.01 {
		t.Errorf("anynet_config maps to %s %s %s load %v", m.Topology, m.Routing, m.Deadlock, m.Load)
	}
	e := m.Engine
	if e.Allocator != (engine.Allocator{}) || e.External != (engine.Buffer{VCs: 1, Flits: 3}) || e.Warmup != 30000 || e.Measure != 30000 {
		t.Errorf("anynet_config engine %+v", e)
	}
}

// injection_rate_uses_flits: the rate is already flits/cycle; otherwise packets/cycle
// times packet_size. The list form wins over the real, whatever the order (BookSim2
// reads the string first).
func TestMapLoad(t *testing.T) {
	base := example(t, "torus88")
	for _, tc := range []struct {
		extra string
		load  float64
	}{
		{"packet_size = 4; injection_rate = 0.05;", 0.2},
		{"packet_size = 4; injection_rate = 0.2; injection_rate_uses_flits = 1;", 0.2},
		{"injection_rate = {0.3}; injection_rate = 0.1;", 0.3},
		{"packet_size = {5}; injection_rate = 0.1;", 0.5},
	} {
		m, err := mapText(t, "t.cfg", base+tc.extra)
		if err != nil {
			t.Errorf("%s: %v", tc.extra, err)
			continue
		}
		if d := m.Load - tc.load; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: load %v, want %v", tc.extra, m.Load, tc.load)
		}
	}
}

// Other mappings: allocator iterations, link latency without use_noc_latency, the
// measurement window under max_samples, hotspot, seed, inert keys.
func TestMapVariants(t *testing.T) {
	base := example(t, "torus88")
	for _, tc := range []struct {
		extra string
		check func(Mapped) bool
	}{
		{"use_noc_latency = 0;", func(m Mapped) bool { return m.Engine.LinkLatency == 2 }}, // 1-cycle channels, read a cycle later
		{"max_samples = 5; sample_period = 200;", func(m Mapped) bool { return m.Engine.Warmup == 600 && m.Engine.Measure == 400 }},
		{"warmup_periods = 1;", func(m Mapped) bool { return m.Engine.Warmup == 1000 && m.Engine.Measure == 3000 }},
		{"traffic = hotspot({0,63});", func(m Mapped) bool { return m.Traffic == "hotspot:1@0,63" }},
		{"traffic = hotspot({5},{2});", func(m Mapped) bool { return m.Traffic == "hotspot:1@5" }},
		{"traffic = bitcomp;", func(m Mapped) bool { return m.Traffic == "complement+self" }},
		{"traffic = tornado;", func(m Mapped) bool { return m.Traffic == "tornado+self" }},
		{"seed = 42;", func(m Mapped) bool { return m.Seed == 42 && m.Engine.Seed == 42 }},
		{"topology = mesh; routing_function = min_adapt; num_vcs = 4;", func(m Mapped) bool { return m.Routing == "adaptive" && m.Deadlock == "vc" }},
		{"n = 3;", func(m Mapped) bool { return m.Topology == "torus:8x8x8" }},
		{"num_vcs = 4;", func(m Mapped) bool { return m.Engine.ClassVCs && m.Engine.External.VCs == 4 }},
		{"k = 5;", func(m Mapped) bool { return m.Topology == "torus:5x5" && m.Tie == "" }},
		{"hold_switch_for_packet = 1;", func(m Mapped) bool { return hasNote(m, "switch: BookSim2 (hold_switch_for_packet = 1)") }},
		{"topology = mesh; routing_function = min_adapt; num_vcs = 4; traffic = bitrev;", func(m Mapped) bool { return !m.Engine.ClassVCs && m.Traffic == "bitrev+self" }},
		{"watch_out = -; stats_out = out.m; batch_size = 5; read_request_end_vc = 3; x = 4; perm_seed = 9;", func(m Mapped) bool { return m.Topology == "torus:8x8" }},
		{"routing_delay = 0; st_final_delay = 2; st_prepare_delay = 1;", func(m Mapped) bool {
			return m.Engine.RoutingDelay == 0 && m.Engine.FrontDelay == 1 && m.Engine.CrossbarDelay == 3
		}},
		{"sw_allocator = separable_input_first;", func(m Mapped) bool { return m.Engine.Allocator == engine.Allocator{} && !m.Engine.SwitchISLIP }},
		{"topology = fattree; k = 4; n = 3; routing_function = nca;", func(m Mapped) bool {
			return m.Topology == "ktree:4,3" && m.Routing == "nca" && m.Deadlock == "none" && m.Engine.ClassVCs && hasNote(m, "nca: ")
		}},
		{"credit_delay = 0; class_priority = {3}; measure_stats = {1}; latency_thres = {500.0};", func(m Mapped) bool { return m.Topology == "torus:8x8" }},
	} {
		m, err := mapText(t, "t.cfg", base+tc.extra)
		if err != nil {
			t.Errorf("%s: %v", tc.extra, err)
			continue
		}
		if !tc.check(m) {
			t.Errorf("%s: mapped to %+v", tc.extra, m)
		}
	}
}

// Refusals by name: every key we do not model, set to another value than BookSim2's
// default, is one line naming the file, the line and the key, and what we would need.
func TestMapRefusals(t *testing.T) {
	base := example(t, "torus88")
	lines := strings.Count(base, "\n")
	for _, tc := range []struct {
		extra, key, says string
	}{
		{"credit_delay = 2;", "credit_delay", "credit processing delay"},
		{"input_speedup = 2;", "input_speedup", "speedup"},
		{"internal_speedup = 2.0;", "internal_speedup", "speedup"},
		{"speculative = 1;", "speculative", "speculative"},
		{"classes = 2;", "classes", "traffic classes"},
		{"use_read_write = 1;", "use_read_write", "request-reply"},
		{"sim_type = throughput;", "sim_type", "throughput"},
		{"router = event;", "router", "event-driven"},
		{"arb_type = matrix;", "arb_type", "arbiters"},
		{"subnets = 2;", "subnets", "subnetworks"},
		{"wait_for_tail_credit = 1;", "wait_for_tail_credit", "tail"},
		{"priority = age;", "priority", "priorities"},
		{"stopping_thres = 0.1;", "stopping_thres", "convergence test"},
		{"buffer_policy = shared;", "buffer_policy", "shared"},
		{"routing_function = min_adapt;", "routing_function", "single adaptive VC"},
		{"routing_function = valiant;", "routing_function", "Valiant"},
		{"routing_function = dor;", "routing_function", "no routing function dor_torus"},
		{"traffic = randperm;", "traffic", "random permutation"},
		{"traffic = diagonal;", "traffic", "no equivalent"},
		{"traffic = zipf;", "traffic", "no such pattern"},
		{"traffic = hotspot;", "traffic", "name the hot nodes"},
		{"traffic = hotspot({1,2},{1,3});", "traffic", "unequal"},
		{"traffic = {uniform,transpose};", "traffic", "one pattern per traffic class"},
		{"traffic = tornado(8,2,1);", "traffic", "without parameters"},
		{"injection_process = on_off;", "injection_process", "on/off"},
		{"injection_rate = {0.1,0.2};", "injection_rate", "one value per traffic class"},
		{"injection_rate = 1.5;", "injection_rate", "0 to 1"},
		{"measure_stats = {0};", "measure_stats", "classes left out"},
		{"packet_size = 0;", "packet_size", "1 to 4096"},
		{"packet_size = {{1,2}};", "packet_size", "want an integer"},
		{"topology = dragonflynew; k = 2; n = 2;", "n", "k^n routers"},
		{"topology = dragonflynew; k = 2; n = 1; routing_function = min;", "topology", "100-cycle global channels"},
		{"topology = cmesh;", "topology", "express"},
		{"topology = fly;", "topology", "no equivalent"},
		{"topology = ring;", "topology", "no such topology"},
		{"topology = fattree; k = 4; n = 3; routing_function = anca;", "routing_function", "adaptive nearest-common-ancestor"},
		{"topology = flatfly;", "use_noc_latency", "per-link latencies"},
		{"topology = flatfly; use_noc_latency = 0; routing_function = ran_min; traffic = transpose;", "traffic", "flatfly_transformation"},
		{"c = 4;", "c", "ignores c"},
		{"xr = 2;", "xr", "xr = 1"},
		{"network_file = a.net;", "network_file", "anynet"},
		{"topology = anynet;", "network_file", "needs network_file"},
		{"num_vcs = 1;", "num_vcs", "at least 2 VCs"},
		{"num_vcs = 100;", "num_vcs", "1 to 64"},
		{"k = 1;", "k", "from 2"},
		{"warmup_periods = 0;", "warmup_periods", "settle"},
		{"max_samples = 3;", "max_samples", "no period"},
		{"seed = time;", "seed", "unrepeatable"},
		{"seed = -1;", "seed", ">= 0"},
		{"vc_allocator = wavefront;", "vc_allocator", "no VC allocator"},
		{"sw_allocator = wavefront;", "sw_allocator", "wavefront allocator"},
		{"sw_allocator = separable_input_first; alloc_iters = 2;", "alloc_iters", "one pass"},
		{"hold_switch_for_packet = 2;", "hold_switch_for_packet", "0 and 1"},
		{"alloc_iters = 2;", "alloc_iters", "wormhole iSLIP"},
	} {
		t.Run(tc.extra, func(t *testing.T) {
			_, err := mapText(t, "t.cfg", base+tc.extra)
			if err == nil {
				t.Fatal("mapped")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "t.cfg") || !strings.Contains(msg, " "+tc.key+": ") || !strings.Contains(msg, tc.says) {
				t.Errorf("error %q: want one line naming t.cfg and %s, saying %q", msg, tc.key, tc.says)
			}
			// A key the file gives is refused at its line: the appended one.
			if strings.Contains(tc.extra, tc.key+" =") && !strings.Contains(msg, "t.cfg:"+strconv.Itoa(lines+1)+":") {
				t.Errorf("error %q does not name line %d", msg, lines+1)
			}
		})
	}
}

// The other example configurations are refused at their first key we do not model.
func TestMapExamplesRefused(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"fattree_config", "fattree_config:42: credit_delay: = 2"},
		{"flatflyconfig", "flatflyconfig:45: credit_delay: = 2"},
		{"meshconfig", "meshconfig:35: wait_for_tail_credit: = 1"},
	} {
		_, err := Map(readExample(t, tc.file))
		if err == nil || !strings.Contains(err.Error(), filepath.Join("testdata", tc.want)) {
			t.Errorf("%s: got %v, want %q", tc.file, err, tc.want)
		}
	}
}

// The engine's booksim preset is what a BookSim2 configuration that leaves every router
// key at its default maps to (a torus with 1-cycle channels): the same router, by name.
func TestBookSimPresetIsTheDefaultRouter(t *testing.T) {
	m, err := mapText(t, "default.cfg", "topology = torus; k = 8; n = 2; routing_function = dim_order; use_noc_latency = 0;")
	if err != nil {
		t.Fatal(err)
	}
	pre, err := engine.LookupPreset("booksim")
	if err != nil {
		t.Fatal(err)
	}
	got, want := pre.Params(), m.Engine
	// The router's fields; packets, load, seed and the window are the run's.
	got.PacketFlits, got.Load, got.Seed, got.Warmup, got.Measure = want.PacketFlits, want.Load, want.Seed, want.Warmup, want.Measure
	if got != want {
		t.Errorf("preset booksim\n%+v\nthe default BookSim2 router maps to\n%+v", got, want)
	}
	if pre.Deadlock != m.Deadlock {
		t.Errorf("preset deadlock %q, mapping %q", pre.Deadlock, m.Deadlock)
	}
}

// BookSim2's dragonflynew (dragonfly.cpp, DragonFlyNew::_BuildNet) joins global output
// port i of router r, in group G of a = 2p routers, to group o = (r mod a)·p + i when
// o < G, else to group o + 1; our dragonfly:K joins the same groups, port by port (its
// routers' global ports follow their a − 1 local ones), so that mapping dragonflynew
// needs only its channel latencies (the refusal says so).
func TestDragonflyWiringIsBookSim2s(t *testing.T) {
	for _, p := range []int{1, 2, 3} {
		net, err := topology.New(fmt.Sprintf("dragonfly:%d", p))
		if err != nil {
			t.Fatal(err)
		}
		a := 2 * p
		if g := a*p + 1; net.Groups() != g || net.Switches() != a*g {
			t.Fatalf("dragonfly:%d: %d groups, %d routers; BookSim2 builds %d and %d", p, net.Groups(), net.Switches(), g, a*g)
		}
		for s := 0; s < net.Switches(); s++ {
			grp, r := s/a, s%a
			for i := 0; i < p; i++ {
				want := r*p + i
				if want >= grp {
					want++
				}
				port := net.Port(s, a-1+i)
				if !port.Connected() || net.Group(int(port.Peer)) != want {
					t.Fatalf("dragonfly:%d router %d global port %d leads to group %d; BookSim2's to group %d", p, s, i, net.Group(int(port.Peer)), want)
				}
			}
		}
	}
}
