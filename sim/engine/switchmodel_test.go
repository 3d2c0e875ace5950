package engine

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// newRunRouting builds an engine for a spec with a named routing.
func newRunRouting(t testing.TB, spec, name string, scheme routing.Scheme, pattern string, p Params) *Engine {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := routing.New(name, net, scheme, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := traffic.ParsePattern(pattern, net)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TransitPriority: on a ring of four, PE 0 sends to PE 2 through switch 1, whose PE 1
// also sends to PE 2; both offer a full link's worth. Round-robin splits switch 1's x+
// link between them; with transit first, PE 0's packets take it whenever one is there.
func TestTransitPriority(t *testing.T) {
	share := func(priority bool) float64 {
		p := params(1, 1000, 10000, 3)
		p.TransitPriority = priority
		p.Channels = true
		e := newRun(t, "torus:4", routing.SchemeBubble, "pairs:0>2,1>2", p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// Switch 0's x+ link carries PE 0's flow only; switch 1's carries both.
		first := res.ChannelUtil[e.net.PortID(0, e.net.DimPort(0, 0, +1))]
		both := res.ChannelUtil[e.net.PortID(1, e.net.DimPort(1, 0, +1))]
		if both < 0.95 {
			t.Fatalf("priority %v: switch 1's x+ link is used %.3f of the time; the flows saturate it", priority, both)
		}
		return first / both
	}
	rr, tp := share(false), share(true)
	if rr < 0.4 || rr > 0.6 || tp < 0.9 {
		t.Errorf("PE 0's share of the shared link: %.3f round-robin (want about half), %.3f with transit priority (want nearly all)", rr, tp)
	}
}

// CrossbarPerVC lets the VCs of one input port forward at the same time: under
// adaptive routing with three VCs per link, saturation throughput rises (the port no
// longer holds a packet that could leave behind one going elsewhere), and the option
// is refused under wormhole switching.
func TestCrossbarPerVC(t *testing.T) {
	run := func(perVC bool) float64 {
		p := params(1, 2000, 10000, 5)
		p.PacketFlits = 16
		p.External, p.Terminal, p.Internal = Buffer{VCs: 3, Flits: 64}, Buffer{VCs: 1, Flits: 128}, Buffer{VCs: 3, Flits: 64}
		p.TransitPriority, p.CrossbarPerVC = true, perVC
		e := newRunRouting(t, "twisted:rt:8", "twisted-adaptive", routing.SchemeBubble, "uniform", p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res.Accepted
	}
	port, vc := run(false), run(true)
	if vc < 1.03*port {
		t.Errorf("saturation throughput %.4f with one crossbar input per port, %.4f with one per VC; want at least 3 %% more", port, vc)
	}
	p := Defaults()
	p.Switching, p.CrossbarPerVC = Wormhole, true
	p = p.withDefaults()
	if err := p.validate(); err == nil || !strings.Contains(err.Error(), "crossbar_per_vc") {
		t.Errorf("wormhole with per-VC crossbar inputs: %v", err)
	}
}

// inseeParams are the insee preset's router parameters (16-flit packets, 3 VCs of 4
// packets per link, an 8-packet injection queue, transit priority, a crossbar input per
// VC) with its consumption and output arbitration set as given.
func inseeParams(load float64, warmup, measure int64, consumeAll, reserve bool) Params {
	p := params(load, warmup, measure, 3)
	p.PacketFlits = 16
	p.External, p.Terminal, p.Internal = Buffer{VCs: 3, Flits: 64}, Buffer{VCs: 1, Flits: 128}, Buffer{VCs: 3, Flits: 64}
	p.TransitPriority, p.CrossbarPerVC = true, true
	p.ConsumeAll, p.ReserveOutputVCs = consumeAll, reserve
	return p
}

// ConsumeAll: the four neighbours of PE 0 on a 4x4 torus each send it half a link's
// worth, over four different links. One ejection port delivers at most one flit per
// cycle; with every input VC ejecting at once, PE 0 takes all of it.
func TestConsumeAll(t *testing.T) {
	run := func(all bool) float64 {
		p := inseeParams(0.5, 2000, 8000, all, false)
		e := newRunRouting(t, "torus:4x4", "dor", routing.SchemeBubble, "pairs:1>0,3>0,4>0,12>0", p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res.Accepted * 16 // flits per cycle into PE 0, the only destination
	}
	one, all := run(false), run(true)
	t.Logf("flits/cycle into PE 0: %.4f with one ejection port, %.4f with consume_all", one, all)
	if one > 1.001 {
		t.Errorf("one ejection port delivers %.4f flits/cycle to PE 0; it can take at most 1", one)
	}
	if math.Abs(all-2) > 0.05 {
		t.Errorf("with consume_all PE 0 takes %.4f flits/cycle; its neighbours offer 2", all)
	}
}

// ReserveOutputVCs: on the saturated 16x8 twisted torus RTT (a = 8), granting output
// VCs while their link is busy keeps links fuller, so throughput rises; and however
// many packets are granted one link, it never carries more than a flit per cycle.
func TestReserveOutputVCs(t *testing.T) {
	run := func(reserve bool) *Result {
		p := inseeParams(0.6, 3000, 6000, true, reserve)
		p.Channels = true
		e := newRunRouting(t, "twisted:rtt:8", "twisted-adaptive", routing.SchemeBubble, "uniform", p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ports, vcs := run(false), run(true)
	t.Logf("accepted %.4f arbitrating output ports, %.4f output VCs", ports.Accepted, vcs.Accepted)
	// 0.5752 and 0.5858 (+1.8 %). Before the timing wheel reached the reserved
	// packets' events (TestWheelReachesEveryEvent) output VCs gave 0.5988 (+4.1 %), and
	// this asked for 3 %: heads left before they had arrived.
	if vcs.Accepted < 1.01*ports.Accepted {
		t.Errorf("saturation throughput %.4f arbitrating output ports, %.4f output VCs; want at least 1 %% more", ports.Accepted, vcs.Accepted)
	}
	busiest := 0.0
	for g, u := range vcs.ChannelUtil {
		if u > 1 {
			t.Fatalf("port %d carries %.4f flits/cycle", g, u)
		}
		busiest = max(busiest, u)
	}
	if busiest < 0.9 {
		t.Errorf("busiest channel at saturation carries %.3f flits/cycle; want above 0.9", busiest)
	}
	p := inseeParams(0.1, 0, 1, false, true)
	p.CrossbarPerVC = false
	p = p.withDefaults()
	if err := p.validate(); err == nil || !strings.Contains(err.Error(), "crossbar_per_vc") {
		t.Errorf("reserve_output_vcs without a crossbar input per VC: %v", err)
	}
	p = inseeParams(0.1, 0, 1, true, false)
	p.Allocator = Allocator{ISLIP: true, Iterations: 1}
	p = p.withDefaults()
	if err := p.validate(); err == nil || !strings.Contains(err.Error(), "rr2") {
		t.Errorf("consume_all under iSLIP: %v", err)
	}
}
