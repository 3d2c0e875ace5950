package engine

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// params are the defaults with a load, window and seed.
func params(load float64, warmup, measure int64, seed uint64) Params {
	p := Defaults()
	p.Load, p.Warmup, p.Measure, p.Seed = load, warmup, measure, seed
	return p
}

// newRun builds an engine for a spec with DOR/DORT under a scheme and a traffic pattern.
func newRun(t testing.TB, spec string, scheme routing.Scheme, pattern string, p Params) *Engine {
	t.Helper()
	net := topology.MustNew(spec)
	rt, err := routing.New(routing.Default(net), net, scheme, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	return newEngine(t, Config{Net: net, Routing: rt, Params: p}, pattern)
}

// newEngine builds an engine from cfg with a traffic pattern for its network.
func newEngine(t testing.TB, cfg Config, pattern string) *Engine {
	t.Helper()
	pat, err := traffic.ParsePattern(pattern, cfg.Net)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Pattern = pat
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestInvariantsEveryCycle(t *testing.T) {
	cases := []struct {
		spec   string
		scheme routing.Scheme
		sw     Switching
		load   float64
	}{
		{"torus:4x4", routing.SchemeVC, CutThrough, 0.3},
		{"torus:4x4", routing.SchemeBubble, CutThrough, 0.9},
		{"mesh:4x3@2", routing.SchemeVC, Wormhole, 0.4},
		{"torus:4x4", routing.SchemeVC, Wormhole, 0.9}, // two VCs of one injection port want one output VC
		{"twin:3x3x3/D", routing.SchemeBubble, CutThrough, 0.8},
		{"twin:4x4x2/A", routing.SchemeVC, CutThrough, 0.8},
		{"twin:4x4x2/A", routing.SchemeVC, Wormhole, 0.8},
	}
	for _, c := range cases {
		p := params(c.load, 200, 1800, 7)
		p.Switching = c.sw
		if c.sw == Wormhole {
			p.External, p.Terminal, p.Internal = Buffer{4, 6}, Buffer{4, 6}, Buffer{8, 6}
			if c.spec == "torus:4x4" {
				p.Terminal = Buffer{2, 6}
			}
		}
		e := newRun(t, c.spec, c.scheme, "uniform", p)
		stepChecked(t, e, 2000, fmt.Sprintf("%s %s %s", c.spec, c.scheme, c.sw))
		if e.m.ejectAll == 0 {
			t.Fatalf("%s: nothing delivered", c.spec)
		}
	}
}

// stepChecked runs e at the flit level (every flit visible to check) until cycle until,
// checking the invariants every cycle; it fails, naming label, at the first broken
// invariant or deadlock.
func stepChecked(t *testing.T, e *Engine, until int64, label string) {
	t.Helper()
	e.packetLevel = false
	for e.now < until {
		e.Step()
		if err := e.check(); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if e.dl != nil {
			t.Fatalf("%s: unexpected %v", label, e.dl)
		}
	}
}

// avgDORHops is the mean switch-to-switch hop count of DOR/DORT over all ordered pairs
// of distinct PEs, by walking every path.
func avgDORHops(net *topology.Network) float64 {
	dor := routing.NewDOR(net, routing.TiePlus)
	var sum, n float64
	var buf []routing.Step
	for s := 0; s < net.Terminals(); s++ {
		for d := 0; d < net.Terminals(); d++ {
			if s != d {
				buf = dor.Path(s, d, buf[:0])
				sum += float64(len(buf) - 1)
				n++
			}
		}
	}
	return sum / n
}

// At zero load no packet ever waits, so network latency is exact: the injection link,
// then for each of the H+1 switches a routing delay and a link, then L-1 more cycles
// for the tail: 1 + 2(H+1) + 3 = 2H + 6 with the default delays.
func TestZeroLoadLatency(t *testing.T) {
	for _, spec := range []string{"torus:8x8x8", "twin:4x4x4/D", "twin:5x5x5/A"} {
		e := newRun(t, spec, routing.SchemeBubble, "uniform", params(0.0005, 1000, 400000, 1))
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hops := avgDORHops(e.net)
		want := 1 + (hops+1)*2 + 3
		got := r.LatencyNetwork.Mean
		if math.Abs(got-want)/want > 0.01 {
			t.Errorf("%s: zero-load network latency %.3f, analytic %.3f (DOR hops %.3f, measured %.3f)", spec, got, want, hops, r.Hops)
		}
		// Against the hops the packets really took: only the rare collisions of
		// packets at this tiny load can add anything.
		if exact := 2*r.Hops + 6; got < exact-1e-9 || got > exact*1.001 {
			t.Errorf("%s: mean latency %.6f, 2·mean hops + 6 = %.6f", spec, got, exact)
		}
		t.Logf("%s: %d packets, network latency %.3f cycles, analytic %.3f", spec, r.LatencyNetwork.Count, got, want)
	}
}

func TestDeterminism(t *testing.T) {
	run := func(seed uint64) *Result {
		e := newRun(t, "twin:4x4x4/C", routing.SchemeVC, "uniform", params(0.35, 1000, 5000, seed))
		r, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r.Elapsed = 0
		return r
	}
	a, b, c := run(3), run(3), run(4)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different results:\n%+v\n%+v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds gave identical results")
	}
}

// The engine's shortcuts must not change a single result. The reference is the plain
// model: every switch allocates every cycle and every flit moves one by one. The
// packet-level path (virtual cut-through) and the wake-ups that let allocation visit
// only switches with work must both reproduce it exactly: same latencies, same counts,
// same channel loads.
func TestShortcutsMatchPlainModel(t *testing.T) {
	cases := []struct {
		spec   string
		scheme routing.Scheme
		load   float64
	}{
		{"torus:8x8", routing.SchemeVC, 0.2},
		{"torus:8x8", routing.SchemeVC, 0.9},
		{"torus:4x4x4@2", routing.SchemeBubble, 0.5},
		{"mesh:5x4", routing.SchemeVC, 0.6},
		{"twin:4x4x4/D", routing.SchemeBubble, 0.6},
		{"twin:4x4x4/A", routing.SchemeVC, 0.5},
		{"twin:5x5x5/G", routing.SchemeBubble, 0.45},
		{"torus:3x3@62", routing.SchemeVC, 0.3}, // 66 ports: wider than the ready masks
	}
	// Wormhole runs only at the flit level; its wake-ups must match allocation every cycle.
	for _, c := range []struct {
		spec string
		load float64
	}{{"torus:8x8", 0.6}, {"twin:4x4x4/A", 0.5}, {"mesh:4x4", 0.7}} {
		run := func(everyCycle bool) *Result {
			p := params(c.load, 500, 3000, 11)
			smallWormhole(&p)
			e := newRun(t, c.spec, routing.SchemeVC, "uniform", p)
			e.allocEveryCycle = everyCycle
			return runClean(t, e)
		}
		if d := diffFields(*run(false), *run(true)); d != "" {
			t.Errorf("%s wormhole load %g: wake-ups differ from the plain model in %s", c.spec, c.load, d)
		}
	}
	for _, c := range cases {
		for _, lat := range []int{1, 3} {
			run := func(packetLevel, everyCycle bool) *Result {
				p := params(c.load, 500, 3000, 11)
				p.LinkLatency = lat
				p.Channels = true
				e := newRun(t, c.spec, c.scheme, "uniform", p)
				e.packetLevel, e.allocEveryCycle = packetLevel, everyCycle
				return runClean(t, e)
			}
			matchesPlainModel(t, fmt.Sprintf("%s %s load %g latency %d", c.spec, c.scheme, c.load, lat), run)
		}
	}
}

// smallWormhole is the wormhole switch of the shortcut tests: 3-flit VCs, channel loads kept.
func smallWormhole(p *Params) {
	p.Switching = Wormhole
	p.Channels = true
	p.External, p.Terminal, p.Internal = Buffer{VCs: 4, Flits: 3}, Buffer{VCs: 2, Flits: 3}, Buffer{VCs: 8, Flits: 3}
}

// runClean runs e to its end and clears the wall time, so results compare exactly.
func runClean(t testing.TB, e *Engine) *Result {
	t.Helper()
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	return r
}

// matchesPlainModel runs run in the plain model (the flit level, every switch
// allocating every cycle) and in each of its shortcuts (the flit level with wake-ups,
// the packet level, both), and reports every shortcut whose result differs from the
// plain model's (what names the case). It returns the plain model's result.
func matchesPlainModel(t *testing.T, what string, run func(packetLevel, everyCycle bool) *Result) *Result {
	t.Helper()
	ref := run(false, true)
	for _, v := range []struct {
		name               string
		packet, everyCycle bool
	}{{"flit level with wake-ups", false, false}, {"packet level", true, true}, {"packet level with wake-ups", true, false}} {
		if d := diffFields(*run(v.packet, v.everyCycle), *ref); d != "" {
			t.Errorf("%s: %s differs from the plain model in %s", what, v.name, d)
		}
	}
	return ref
}

// diffFields names the fields in which two results differ, with both values.
func diffFields(a, b Result) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := 0; i < va.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			x, y := fmt.Sprint(va.Field(i).Interface()), fmt.Sprint(vb.Field(i).Interface())
			if len(x) > 80 {
				x, y = x[:80]+"...", y[:80]+"..."
			}
			out = append(out, fmt.Sprintf("%s (%s vs %s)", va.Type().Field(i).Name, x, y))
		}
	}
	return strings.Join(out, ", ")
}

// A switch with more than 64 ports is scanned 64 ports at a time: every input port is
// allocated, under each allocator and switching. (Only the first 64 were: on
// torus:3x3@62, 66 ports with PEs on ports 4 to 65, the last two PEs' packets never
// left, and 60/62 of the offered traffic was accepted.)
func TestWideSwitchServesEveryPort(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(*Params)
	}{
		{"rr2", func(*Params) {}},
		{"islip:2", func(p *Params) { p.Allocator = Allocator{ISLIP: true, Iterations: 2} }},
		{"wormhole", smallWormhole},
	} {
		p := params(0.02, 1000, 4000, 5)
		c.setup(&p)
		r := runClean(t, newRun(t, "torus:3x3@62", routing.SchemeVC, "uniform", p))
		if r.Accepted < 0.99*r.Offered {
			t.Errorf("%s: accepted %.4f of %.4f offered, far below saturation: some input ports are never served", c.name, r.Accepted, r.Offered)
		}
	}
}
