package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
	"github.com/twintorus/twintorus/sim/workload"
)

// uniformParams are the defaults with packets of 1 to L flits, uniformly.
func uniformParams(L int, load float64, warmup, measure int64, seed uint64) Params {
	p := params(load, warmup, measure, seed)
	p.PacketFlits, p.PacketLengths = L, LengthsUniform
	return p
}

// uniformLength takes every value of 1..max equally often: a chi-square test over
// 320,000 draws (31 degrees of freedom for max 32: the 99.9 % quantile is 61.1), and
// the mean within 4 standard errors of (1+max)/2.
func TestUniformLengthDistribution(t *testing.T) {
	for _, max := range []uint32{1, 2, 7, 32} {
		const draws = 320000
		count := make([]int, max+1)
		var sum float64
		for i := range draws {
			n := uniformLength(uint64(i/5)*0x2545f4914f6cdd1d, int32(i%5), max)
			if n < 1 || n > max {
				t.Fatalf("max %d: length %d", max, n)
			}
			count[n]++
			sum += float64(n)
		}
		want := float64(draws) / float64(max)
		chi := 0.0
		for v := uint32(1); v <= max; v++ {
			d := float64(count[v]) - want
			chi += d * d / want
		}
		if max == 32 && chi > 61.1 || max < 32 && chi > 25 {
			t.Errorf("max %d: chi-square %.1f over %d values", max, chi, max)
		}
		mean, sd := sum/draws, math.Sqrt(float64(max*max-1)/12)
		if exp := float64(1+max) / 2; math.Abs(mean-exp) > 4*sd/math.Sqrt(draws) {
			t.Errorf("max %d: mean %.4f, want %.4f", max, mean, exp)
		}
	}
}

// Open loop with uniform lengths: the generated packets' mean length is (1+L)/2 (33/2
// for L = 32, within 4 standard errors), the packet rate is the load over it, and
// below saturation the accepted traffic is the offered one.
func TestUniformLengthsOpenLoop(t *testing.T) {
	const L = 32
	p := uniformParams(L, 0.3, 2000, 30000, 5)
	p.PortFlits, p.BufferSplit = 512, SplitEqual
	e := newRun(t, "torus:4x4x4", routing.SchemeVC, "uniform", p)
	r := runClean(t, e)
	mean := float64(e.m.genFlits) / float64(r.PacketsGenerated)
	sd := math.Sqrt(float64(L*L-1) / 12)
	if exp := float64(1+L) / 2; math.Abs(mean-exp) > 4*sd/math.Sqrt(float64(r.PacketsGenerated)) {
		t.Errorf("mean generated length %.3f over %d packets, want %.1f", mean, r.PacketsGenerated, exp)
	}
	if got := float64(r.PacketsGenerated) / float64(p.Measure) / 64; math.Abs(got-0.3/p.MeanPacketFlits())/(0.3/p.MeanPacketFlits()) > 0.03 {
		t.Errorf("%.5f packets/cycle/PE generated, want load/mean length %.5f", got, 0.3/p.MeanPacketFlits())
	}
	if math.Abs(r.Offered-0.3)/0.3 > 0.02 || math.Abs(r.Accepted-r.Offered)/r.Offered > 0.02 || r.Saturated {
		t.Errorf("offered %.4f, accepted %.4f (saturated %v): want both 0.3 within 2 %%", r.Offered, r.Accepted, r.Saturated)
	}
	// Delivered flits are the delivered packets' own lengths, not L each.
	if mean := float64(e.m.delFlits) / float64(r.PacketsDelivered); mean > 17.5 || mean < 15.5 {
		t.Errorf("mean delivered length %.3f", mean)
	}
	t.Logf("%d packets, mean length %.3f, offered %.4f, accepted %.4f, latency %.2f", r.PacketsGenerated, mean, r.Offered, r.Accepted, r.LatencyNetwork.Mean)
}

// Variable lengths under every invariant of the flit level (flit and credit
// conservation, no overflow, live packets), under both switchings and deadlock schemes,
// into saturation.
func TestUniformLengthsInvariants(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
		sw     Switching
		load   float64
	}{
		{"torus:4x4", routing.SchemeVC, CutThrough, 0.5},
		{"torus:4x4", routing.SchemeBubble, CutThrough, 0.9},
		{"twin:3x3x3/D", routing.SchemeBubble, CutThrough, 0.8},
		{"mesh:4x3@2", routing.SchemeVC, Wormhole, 0.5},
		{"twin:4x4x2/A", routing.SchemeVC, Wormhole, 0.8},
	} {
		p := uniformParams(8, c.load, 200, 1800, 7)
		p.Switching = c.sw
		if c.sw == Wormhole {
			p.External, p.Terminal, p.Internal = Buffer{4, 6}, Buffer{4, 6}, Buffer{8, 6}
		}
		e := newRun(t, c.spec, c.scheme, "uniform", p)
		stepChecked(t, e, 2000, fmt.Sprintf("%s %s %s", c.spec, c.scheme, c.sw))
		if e.m.ejectAll == 0 {
			t.Fatalf("%s: nothing delivered", c.spec)
		}
	}
}

// The packet level and the wake-ups reproduce the plain flit-level model bit for bit
// with variable lengths too: credit ramps of packets of their own lengths, deferred
// ramps when credits take more than a cycle (link latency 3), bubbles (room for the
// packet and the longest one), adaptive routing, output queues and iSLIP; wormhole's
// and virtual output queues' wake-ups (the flit level has neither) against allocation
// every cycle.
func TestUniformLengthsMatchPlainModel(t *testing.T) {
	for _, c := range []struct {
		spec, rt string
		scheme   routing.Scheme
		load     float64
		change   func(*Params)
	}{
		{"torus:8x8", "", routing.SchemeVC, 0.3, nil},
		{"torus:8x8", "", routing.SchemeVC, 0.9, nil},
		{"torus:4x4x4@2", "", routing.SchemeBubble, 0.5, nil},
		{"twin:4x4x4/D", "", routing.SchemeBubble, 0.6, nil},
		{"twin:4x4x2x2x2", "tsdor", routing.SchemeVC, 0.6, func(p *Params) { p.Allocator = Allocator{ISLIP: true, Iterations: 1} }},
		{"torus:4x4x4", "adaptive", routing.SchemeVC, 0.7, nil},
		{"torus:4x4x4", "", routing.SchemeBubble, 0.6, func(p *Params) { p.OutputFlits = 24 }},
	} {
		for _, lat := range []int{1, 3} {
			run := func(packetLevel, everyCycle bool) *Result {
				p := uniformParams(12, c.load, 500, 3000, 11)
				p.LinkLatency, p.Channels = lat, true
				if c.change != nil {
					c.change(&p)
				}
				name := c.rt
				net := topology.MustNew(c.spec)
				if name == "" {
					name = routing.Default(net)
				}
				rt, err := routing.New(name, net, c.scheme, routing.TiePlus)
				if err != nil {
					t.Fatal(err)
				}
				e := newEngine(t, Config{Net: net, Routing: rt, Params: p}, "uniform")
				e.packetLevel, e.allocEveryCycle = packetLevel, everyCycle
				return runClean(t, e)
			}
			ref := matchesPlainModel(t, fmt.Sprintf("%s %s load %g latency %d", c.spec, c.scheme, c.load, lat), run)
			if ref.PacketsDelivered == 0 {
				t.Errorf("%s: nothing delivered", c.spec)
			}
		}
	}
	for _, c := range []struct {
		spec string
		voq  bool
	}{{"torus:8x8", false}, {"twin:4x4x4/A", false}, {"torus:8x8", true}, {"twin:4x4x4/D", true}} {
		run := func(everyCycle bool) *Result {
			p := uniformParams(6, 0.5, 500, 3000, 11)
			if c.voq {
				p.VOQ, p.Channels, p.LinkLatency = true, true, 2
			} else {
				smallWormhole(&p)
			}
			e := newRun(t, c.spec, routing.SchemeVC, "uniform", p)
			e.allocEveryCycle = everyCycle
			return runClean(t, e)
		}
		if d := diffFields(*run(false), *run(true)); d != "" {
			t.Errorf("%s (virtual output queues %v): wake-ups differ from the plain model in %s", c.spec, c.voq, d)
		}
	}
}

// Fixed lengths are the model without the parameter, bit for bit, whatever the
// packet length; uniform lengths are another model (fewer flits per packet).
func TestFixedLengthsAreTheDefault(t *testing.T) {
	p := params(0.4, 500, 2000, 3)
	p.PacketFlits = 8
	a := runClean(t, newRun(t, "torus:4x4x4", routing.SchemeVC, "uniform", p))
	p.PacketLengths = LengthsFixed
	b := runClean(t, newRun(t, "torus:4x4x4", routing.SchemeVC, "uniform", p))
	if d := diffFields(*a, *b); d != "" {
		t.Errorf("explicit fixed lengths differ: %s", d)
	}
	p.PacketLengths = LengthsUniform
	c := runClean(t, newRun(t, "torus:4x4x4", routing.SchemeVC, "uniform", p))
	// The same flits in packets of 4.5 flits on average: 8/4.5 times the packets.
	if ratio := float64(c.PacketsGenerated) / float64(a.PacketsGenerated); math.Abs(ratio-8/4.5) > 0.05 {
		t.Errorf("uniform lengths of at most 8 flits generated %d packets at the load that fixed 8-flit ones took %d for: ratio %.3f, want 8/4.5", c.PacketsGenerated, a.PacketsGenerated, ratio)
	}
}

// A closed-loop message of 17 flits with packets of at most 16 is a 16-flit packet and
// a 1-flit one under variable lengths (17 flits delivered), two 16-flit packets under
// fixed ones (32). On torus:2 (one hop, H = 1) a packet of n flits alone takes
// 1 + 2(H+1) + n−1 = n+4 cycles; the NIC starts the second packet at cycle 16, so the
// message is delivered at max(16+4, 16+1+4) = 21 cycles unpadded and 16+16+4 = 36 padded.
// Per-flit network latency: the first packet's flits arrive at 5..20 after leaving the
// NIC at 0..15 (5 each), the last one at 21 after leaving at 16 (5).
func TestClosedLoopLastPacketUnpadded(t *testing.T) {
	w := func() *workload.Workload {
		b, _ := workload.NewBuilder(2)
		b.Send(0, 1, 17*16)
		b.Recv(1, 0)
		w, err := b.Build("17 flits")
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, c := range []struct {
		lengths        PacketLengths
		cycles, flits  int64
		packets        int64
		flitLatencyNet float64
	}{{LengthsUniform, 21, 17, 2, 5}, {LengthsFixed, 36, 32, 2, 5}} {
		p := Defaults()
		p.PacketFlits, p.PacketLengths = 16, c.lengths
		e, r := closedRun(t, "torus:2", w(), routing.SchemeVC, p)
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s := r.Stats()
		if res.Closed.ExecutionCycles != c.cycles || e.m.delFlits != c.flits || res.PacketsDelivered != c.packets ||
			s.Flits != c.flits || s.Packets != c.packets || res.Closed.LatencyNetworkFlit.Mean != c.flitLatencyNet {
			t.Errorf("%s lengths: %d cycles, %d flits in %d packets delivered (program: %d in %d), flit latency %.3f; want %d, %d in %d, %.0f",
				c.lengths, res.Closed.ExecutionCycles, e.m.delFlits, res.PacketsDelivered, s.Flits, s.Packets, res.Closed.LatencyNetworkFlit.Mean, c.cycles, c.flits, c.packets, c.flitLatencyNet)
		}
	}
}

// Bad packet-length settings are refused with a one-line error naming what is accepted.
func TestPacketLengthsErrors(t *testing.T) {
	if _, err := ParsePacketLengths("exponential"); err == nil || err.Error() != `packet lengths "exponential": accepted are fixed (every packet packet_flits long, the default) and uniform (1 to packet_flits flits)` {
		t.Errorf("got %v", err)
	}
	for s, want := range map[string]PacketLengths{"": LengthsFixed, "fixed": LengthsFixed, " Uniform ": LengthsUniform} {
		if got, err := ParsePacketLengths(s); err != nil || got != want {
			t.Errorf("%q: %v %v", s, got, err)
		}
	}
	p := Defaults()
	p.PacketLengths = 7
	if err := p.validate(); err == nil {
		t.Error("packet lengths 7 accepted")
	}
	// A uniform-length VC of 65,534 flits may hold 65,534 one-flit packets: more than a
	// queue counts.
	p = uniformParams(4, 0.1, 0, 10, 1)
	p.External = Buffer{VCs: 2, Flits: 65534}
	net := topology.MustNew("torus:4x4")
	rt, _ := routing.New("dor", net, routing.SchemeVC, routing.TiePlus)
	pat, _ := traffic.ParsePattern("uniform", net)
	if err := Check(Config{Net: net, Routing: rt, Pattern: pat, Params: p}); err == nil || !strings.Contains(err.Error(), "65534 packets of 1 flit(s)") {
		t.Errorf("a 65,534-flit VC of one-flit packets: %v", err)
	}
}

// Bubble flow control with variable lengths: a hop entering a ring needs room for its
// packet and one of the longest, so rings of the smallest buffers bubble allows (two
// longest packets per VC) never deadlock, far beyond saturation, with packets of 1 to 8
// flits mixed. (Room for twice the packet, enough under fixed lengths, would let short
// packets fill a ring.)
func TestUniformLengthsBubbleNoDeadlock(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "torus:5x5x5", "twin:4x4x4/D"} {
		for seed := uint64(1); seed <= 3; seed++ {
			p := uniformParams(8, 1.0, 0, 20000, seed)
			p.External, p.Internal, p.Terminal = Buffer{VCs: 1, Flits: 16}, Buffer{VCs: 4, Flits: 16}, Buffer{VCs: 1, Flits: 16}
			p.Watchdog = 2000
			r := runClean(t, newRun(t, spec, routing.SchemeBubble, "uniform", p))
			if r.Deadlock != nil || r.Accepted < 0.05 {
				t.Fatalf("%s seed %d: %v, accepted %.3f", spec, seed, r.Deadlock, r.Accepted)
			}
		}
	}
}

// The network latency per flit (the EXTOLL paper's cell latency) against two
// independent measures. One flow (pairs: a fixed path, every packet alone on it once
// it leaves its NIC, which sends one flit per cycle) takes the same head latency D
// whatever a packet's length; D is the per-packet latency of 1-flit packets on that
// path. With packets of 1–32 flits every flit's latency is D, the per-packet latency is
// D plus the mean serialisation, mean length − 1, and the per-flit count is the
// delivered flits.
func TestFlitLatencyOpenLoop(t *testing.T) {
	const pattern = "pairs:0>42"
	one := params(0.05, 1000, 40000, 3)
	one.PacketFlits = 1
	r1 := runClean(t, newRun(t, "torus:4x4x4", routing.SchemeVC, pattern, one))
	D := r1.LatencyNetwork.Mean
	if r1.LatencyNetwork.Max != D || D < 4 || r1.LatencyNetworkFlit.Mean != D {
		t.Fatalf("1-flit packets: latency mean %.3f, max %.0f, per flit %.3f: want one value (a fixed path) of at least 4 cycles, per flit the same",
			D, r1.LatencyNetwork.Max, r1.LatencyNetworkFlit.Mean)
	}
	p := uniformParams(32, 0.05, 1000, 40000, 3)
	p.PortFlits, p.BufferSplit = 512, SplitEqual
	e := newRun(t, "torus:4x4x4", routing.SchemeVC, pattern, p)
	r := runClean(t, e)
	f := r.LatencyNetworkFlit
	if f.Mean != D || f.Max != D || f.P50 != D {
		t.Errorf("per flit: mean %.3f, median %.0f, max %.0f; want every flit at the head latency %.0f", f.Mean, f.P50, f.Max, D)
	}
	if f.Count != e.m.delFlits {
		t.Errorf("per-flit latency over %d flits, %d delivered", f.Count, e.m.delFlits)
	}
	serial := float64(e.m.delFlits)/float64(r.PacketsDelivered) - 1
	if got := r.LatencyNetwork.Mean - f.Mean; math.Abs(got-serial) > 1e-9 || serial < 10 {
		t.Errorf("per packet − per flit = %.6f cycles, want the mean serialisation %.6f (mean length − 1)", got, serial)
	}
}
