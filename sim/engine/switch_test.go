package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// runWith runs a point with a hook on the engine before it starts.
func runWith(t *testing.T, spec string, scheme routing.Scheme, pattern string, p Params, hook func(*Engine)) *Result {
	t.Helper()
	e := newRun(t, spec, scheme, pattern, p)
	if hook != nil {
		hook(e)
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	return r
}

// Output queues keep every shortcut exact: the packet level and the wake-ups give the
// plain model's results (every flit moved one by one, every switch allocating every
// cycle), bit for bit, on tori, twin tori, KNS networks and T-switch fat-trees.
func TestOutputQueuesMatchPlainModel(t *testing.T) {
	cases := []struct {
		spec   string
		scheme routing.Scheme
		load   float64
		oq     int
	}{
		{"torus:8x8", routing.SchemeVC, 0.5, 8},
		{"mesh:5x4", routing.SchemeVC, 0.6, 4},
		{"twin:4x4x4/D", routing.SchemeBubble, 0.6, 8},
		{"kns:16,2,2,ruft", routing.SchemeNone, 0.45, 8},
		{"kns:8,2,1@2", routing.SchemeNone, 0.4, 12},
		{"ktree:4,3/cswitch:2", routing.SchemeNone, 0.7, 4},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		for _, lat := range []int{1, 3} {
			run := func(packetLevel, everyCycle bool) *Result {
				p := params(c.load, 500, 2500, 11)
				p.LinkLatency, p.OutputFlits, p.Channels = lat, c.oq, true
				return runWith(t, c.spec, c.scheme, "uniform", p, func(e *Engine) { e.packetLevel, e.allocEveryCycle = packetLevel, everyCycle })
			}
			ref := matchesPlainModel(t, fmt.Sprintf("%s load %g latency %d, output queues", c.spec, c.load, lat), run)
			if ref.PacketsDelivered == 0 || ref.Hops <= 0 {
				t.Errorf("%s: nothing delivered", c.spec)
			}
		}
	}
}

// Flits and credits are conserved every cycle with output queues too.
func TestOutputQueuesInvariants(t *testing.T) {
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
	}{{"torus:4x4", routing.SchemeVC}, {"twin:3x3x3/D", routing.SchemeBubble}, {"kns:16,2,2,ruft", routing.SchemeNone}} {
		p := params(0.8, 200, 1300, 7)
		p.OutputFlits = 8
		e := newRun(t, c.spec, c.scheme, "uniform", p)
		e.packetLevel = false
		for e.now < 1500 {
			e.Step()
			if err := e.check(); err != nil {
				t.Fatalf("%s: %v", c.spec, err)
			}
		}
		if e.m.ejectAll == 0 {
			t.Fatalf("%s: nothing delivered", c.spec)
		}
	}
}

// Virtual output queues keep the wake-ups exact: the packet level with wake-ups gives
// the results of every switch allocating every cycle, bit for bit (virtual output
// queues exist at the packet level only).
func TestVOQMatchesPlainModel(t *testing.T) {
	cases := []struct {
		spec   string
		scheme routing.Scheme
		load   float64
		oq     int
	}{
		{"torus:8x8", routing.SchemeVC, 0.6, 0},
		{"twin:4x4x4/D", routing.SchemeBubble, 0.5, 0},
		{"ktree:4,3/cswitch", routing.SchemeNone, 0.8, 0},
		{"kns:16,2,1", routing.SchemeNone, 0.6, 8},
		{"torus:3x3@62", routing.SchemeVC, 0.3, 0}, // wider than the ready masks
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		run := func(everyCycle bool) *Result {
			p := params(c.load, 500, 3000, 5)
			p.VOQ, p.OutputFlits, p.Channels = true, c.oq, true
			return runWith(t, c.spec, c.scheme, "uniform", p, func(e *Engine) { e.allocEveryCycle = everyCycle })
		}
		a, b := run(false), run(true)
		if d := diffFields(*a, *b); d != "" {
			t.Errorf("%s load %g, VOQ: wake-ups differ from allocation every cycle in %s", c.spec, c.load, d)
		}
		fifo := runWith(t, c.spec, c.scheme, "uniform", func() Params {
			p := params(c.load, 500, 3000, 5)
			p.OutputFlits, p.Channels = c.oq, true
			return p
		}(), nil)
		if reflectEqual(a, fifo) {
			t.Errorf("%s: VOQ changed nothing at load %g", c.spec, c.load)
		}
	}
}

func reflectEqual(a, b *Result) bool { return diffFields(*a, *b) == "" }

// With buffers of one packet no packet can pass another, and virtual output queues
// give the results of the plain input-queued switch, bit for bit.
func TestVOQWithOnePacketBuffersIsFIFO(t *testing.T) {
	for _, spec := range []string{"torus:6x6", "ktree:4,3/bad", "kns:16,2,2,fattree"} {
		scheme := routing.SchemeNone
		if spec == "torus:6x6" {
			scheme = routing.SchemeVC
		}
		p := params(0.9, 500, 3000, 3)
		p.Channels = true
		p.Terminal, p.External, p.Internal = Buffer{VCs: 2, Flits: 4}, Buffer{VCs: 2, Flits: 4}, Buffer{VCs: 2, Flits: 4}
		plain := runWith(t, spec, scheme, "uniform", p, nil)
		p.VOQ = true
		voq := runWith(t, spec, scheme, "uniform", p, nil)
		if !strings.HasSuffix(voq.Buffers, ", virtual output queues") {
			t.Errorf("%s: buffers %q do not say they are virtual output queues", spec, voq.Buffers)
		}
		voq.Buffers = plain.Buffers // the label differs, nothing else may
		if d := diffFields(*voq, *plain); d != "" {
			t.Errorf("%s: one-packet buffers, VOQ differs from FIFO in %s", spec, d)
		}
	}
}

// Head-of-line blocking: a single 16-port switch under uniform traffic saturates near
// 2 − √2 ≈ 0.586 of its ports' bandwidth with FIFO input queues (Karol, Hluchyj and
// Morgan 1987; about 0.60 for 16 ports), and well above with virtual output queues,
// whose round-robin pointers desynchronise as iSLIP's do.
func TestVOQRemovesHeadOfLineBlocking(t *testing.T) {
	b := topology.NewBuilder("star16")
	s := b.AddSwitch("")
	for range 16 {
		b.AttachPE(s)
	}
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := routing.NewMinimal(net, false)
	if err != nil {
		t.Fatal(err)
	}
	pat, _ := traffic.ParsePattern("uniform", net)
	run := func(voq bool) float64 {
		p := params(1, 2000, 20000, 9)
		p.VOQ = voq
		p.Terminal = Buffer{VCs: 1, Flits: 64}
		e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return r.Accepted
	}
	fifo, voq := run(false), run(true)
	t.Logf("16-port switch, uniform, saturated: FIFO %.3f, VOQ %.3f flits/cycle/PE", fifo, voq)
	if fifo < 0.55 || fifo > 0.68 {
		t.Errorf("FIFO input queues accept %.3f, the HOL limit is about 0.60", fifo)
	}
	if voq < 0.85 {
		t.Errorf("virtual output queues accept %.3f, want above 0.85", voq)
	}
}

// At zero load nothing waits: under the KNS paper's model a packet's network latency is
// its tail (L−1), the PE links at both ends, a routing delay and a crossbar crossing
// into the output queue at every switch, and the fly time of every link between
// switches: L−1 + 2·1 + 21·(H+1) + 8·H for H hops.
func TestZeroLoadLatencyKNSPreset(t *testing.T) {
	pre, err := LookupPreset("kns")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"kns:16,2,1", "kns:16,2,2,ruft", "kns:16,2,2,fattree"} {
		p := pre.Params()
		p.Load, p.Warmup, p.Measure = 0.0001, 2000, 4000000 // 256-flit packets hold ports long: collisions must be rare
		r := runWith(t, spec, routing.SchemeNone, "uniform", p, nil)
		lat := 8.0
		want := 255 + 2 + 21*(r.Hops+1) + lat*r.Hops
		if spec == "kns:16,2,2,ruft" { // the last link of each dimension is 2 links long
			want += lat * r.Hops / 3
		}
		if got := r.LatencyNetwork.Mean; math.Abs(got-want) > 0.002*want {
			t.Errorf("%s: zero-load latency %.2f, want %.2f for %.3f hops", spec, got, want, r.Hops)
		}
		t.Logf("%s: %.3f hops, latency %.2f (from generation %.2f)", spec, r.Hops, r.LatencyNetwork.Mean, r.LatencyE2E.Mean)
	}
}

// No deadlock at twice the saturation load for 40,000 cycles (100,000 under
// TWINTORUS_LONG=1, make test-long) on the networks,
// under the default model and each network's paper model (their routings run with no
// deadlock scheme: their channel dependency graphs are acyclic, which
// analysis.TestIndirectRoutingsDeadlockFree checks). The saturation throughput comes
// from a first run at full load.
func TestNoDeadlockIndirect(t *testing.T) {
	if testing.Short() {
		t.Skip("40,000 cycles per network")
	}
	cycles := acceptanceCycles(40000)
	cs, _ := LookupPreset("cswitch")
	kns, _ := LookupPreset("kns")
	for _, c := range []struct {
		spec string
		p    Params
	}{
		{"ktree:4,3/cswitch", Defaults()}, {"ktree:4,3/cswitch", cs.Params()},
		{"kns:8,2,1", Defaults()}, {"kns:8,2,1", kns.Params()},
		{"kns:16,2,2,fattree", Defaults()}, {"kns:16,2,2,fattree", kns.Params()},
		{"kns:16,2,2,ruft", Defaults()}, {"kns:16,2,2,ruft", kns.Params()},
	} {
		p := c.p
		p.Load, p.Warmup, p.Measure, p.Seed = 1, 2000, 8000, 3
		sat := runWith(t, c.spec, routing.SchemeNone, "uniform", p, nil).Accepted
		p.Load = min(2*sat, float64(p.PacketFlits))
		p.Warmup, p.Measure = 0, cycles
		r := runWith(t, c.spec, routing.SchemeNone, "uniform", p, nil)
		if r.Deadlock != nil || r.Accepted < 0.9*sat {
			t.Errorf("%s (packets of %d flits): at load %.3f (twice saturation) for %d cycles: deadlock %v, accepted %.3f", c.spec, p.PacketFlits, p.Load, cycles, r.Deadlock, r.Accepted)
		}
		t.Logf("%s, %d-flit packets: saturation %.3f; at %.3f for %d cycles accepted %.3f, no deadlock", c.spec, p.PacketFlits, sat, p.Load, cycles, r.Accepted)
	}
}

// TestRotateReady holds the round-robin rotation of a port's ready mask to the plain
// definition (bit i of the result is VC (r+i) mod n) for every port width and pointer.
func TestRotateReady(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := uint(1); n <= 64; n++ {
		for r := uint(0); r < n; r++ {
			for range 8 {
				ready := rng.Uint64()
				if n < 64 {
					ready &= 1<<n - 1
				}
				var want uint64
				for i := uint(0); i < n; i++ {
					want |= (ready >> ((r + i) % n) & 1) << i
				}
				if got := rotateReady(ready, r, n); got != want {
					t.Fatalf("rotateReady(%#x, %d, %d) = %#x, want %#x", ready, r, n, got, want)
				}
			}
		}
	}
}
