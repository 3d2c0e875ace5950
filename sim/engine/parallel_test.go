package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// threadsResult runs cfg with the given threads and returns its result as JSON, and how
// many cycles allocated in parallel. minList, when not negative, replaces the smallest
// allocation list that runs in parallel, so that small networks use the parallel path.
func threadsResult(t *testing.T, cfg Config, pattern string, threads, minList int) ([]byte, int64) {
	t.Helper()
	cfg.Params.Threads = threads
	e := newEngine(t, cfg, pattern)
	if e.par != nil && minList >= 0 {
		e.par.minList = minList
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var phases int64
	if e.par != nil {
		phases = e.par.phases
	}
	return b, phases
}

// Several threads give the one-thread result byte for byte: the networks under
// both deadlock schemes and both switchings (wormhole runs on one core whatever the
// thread count), and smaller ones through every feature the packet level has.
func TestThreadsBitIdentical(t *testing.T) {
	short := func(p *Params) { p.Warmup, p.Measure = 150, 250 } // 32,768 switches
	cases := []struct {
		name, spec, routing string
		scheme              routing.Scheme
		pattern             string
		load                float64
		threads, minList    int
		change              func(*Params)
	}{
		{"torus32-vc", "torus:32x32x32", "", routing.SchemeVC, "uniform", 0.03, 2, -1, short},
		{"torus32-bubble", "torus:32x32x32", "", routing.SchemeBubble, "uniform", 0.05, 2, -1, short},
		{"torus32-vc-wormhole", "torus:32x32x32", "", routing.SchemeVC, "uniform", 0.02, 2, -1, func(p *Params) { p.Warmup, p.Measure, p.Switching = 100, 150, Wormhole }},
		{"twin8-vc", "twin:8x8x8/D", "", routing.SchemeVC, "uniform", 0.5, 2, -1, nil},
		{"twin8-bubble", "twin:8x8x8/D", "", routing.SchemeBubble, "uniform", 0.5, 2, -1, nil},
		{"twin8-vc-wormhole", "twin:8x8x8/D", "", routing.SchemeVC, "uniform", 0.3, 2, -1, func(p *Params) { p.Switching = Wormhole }},
		{"twin4-bubble-3threads", "twin:4x4x4/D", "", routing.SchemeBubble, "bitrev", 0.6, 3, 0, nil},
		{"torus8-adaptive-3prio", "torus:8x8x8", "adaptive:3prio", routing.SchemeVC, "uniform", 0.6, 2, 0, nil},
		{"twin4-adaptive-random", "twin:4x4x4/D", "adaptive:random", routing.SchemeBubble, "uniform", 0.6, 2, 0, nil},
		{"torus8-islip", "torus:8x8x8", "", routing.SchemeVC, "uniform", 0.7, 2, 0, func(p *Params) { p.Allocator = Allocator{ISLIP: true, Iterations: 2} }},
		{"torus8-output-queues", "torus:8x8x8", "", routing.SchemeBubble, "uniform", 0.6, 4, 0, func(p *Params) { p.OutputFlits = 16 }},
		{"torus8-crossbar-per-vc", "torus:8x8x8", "", routing.SchemeVC, "uniform", 0.7, 2, 0, func(p *Params) { p.CrossbarPerVC, p.TransitPriority = true, true }},
		{"mesh-latency3", "mesh:8x8@2", "", routing.SchemeVC, "hotspot:0.2", 0.4, 2, 0, func(p *Params) { p.LinkLatency, p.RoutingDelay = 3, 2 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net := topology.MustNew(c.spec)
			name, selection, adaptive := strings.Cut(c.routing, ":")
			if name == "" {
				name = routing.Default(net)
			}
			rt, err := routing.New(name, net, c.scheme, routing.TiePlus)
			if err != nil {
				t.Fatal(err)
			}
			// A selection function keeps state (pointers, random streams): one per run.
			config := func() Config {
				cfg := Config{Net: net, Routing: rt, Params: params(c.load, 300, 700, 7)}
				if adaptive {
					s, err := routing.ParseSelection(selection)
					if err != nil {
						t.Fatal(err)
					}
					s = s.Resolve(rt)
					if cfg.Selector, err = s.New(net, 7); err != nil {
						t.Fatal(err)
					}
					cfg.SelectOnce = s.Once
				}
				if c.change != nil {
					c.change(&cfg.Params)
				}
				return cfg
			}
			cfg := config()
			one, _ := threadsResult(t, cfg, c.pattern, 1, c.minList)
			many, phases := threadsResult(t, config(), c.pattern, c.threads, c.minList)
			if !bytes.Equal(one, many) {
				t.Fatalf("%d threads differ from one:\n%s\n%s", c.threads, many, one)
			}
			if wantParallel := cfg.Params.Switching == CutThrough && !cfg.Params.CrossbarPerVC; wantParallel != (phases > 0) {
				t.Fatalf("%d cycles allocated in parallel; want some exactly under virtual cut-through", phases)
			}
			var r Result
			if err := json.Unmarshal(one, &r); err != nil || r.Accepted <= 0 {
				t.Fatalf("nothing delivered (%v): %s", err, one)
			}
		})
	}
}
