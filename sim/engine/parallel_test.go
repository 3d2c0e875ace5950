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
	if e.par != nil {
		e.par.checkRegions = true
		if minList >= 0 {
			e.par.minList = minList
		}
	}
	b := runJSON(t, e)
	var phases int64
	if e.par != nil {
		phases = e.par.phases
	}
	return b, phases
}

// runJSON runs e to the end and returns its result as JSON, without the wall-clock
// time (the one field that differs between equal runs).
func runJSON(t *testing.T, e *Engine) []byte {
	t.Helper()
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Several threads give the one-thread result byte for byte: the networks under
// both deadlock schemes and both switchings, smaller ones through every feature the
// packet level and wormhole have, and every switch preset. oneCore marks the runs that
// must stay on one core whatever Threads says (threadsUsable): a crossbar input per VC
// with port arbitration (model version 2's order-dependent rule).
func TestThreadsBitIdentical(t *testing.T) {
	short := func(p *Params) { p.Warmup, p.Measure = 150, 250 }  // 32,768 switches
	long := func(p *Params) { p.Warmup, p.Measure = 2000, 3000 } // 16- and 256-flit packets
	cases := []struct {
		name, spec, routing string // routing "name:selection" is adaptive
		preset              string // a switch preset's parameters, else params()
		scheme              routing.Scheme
		pattern             string
		load                float64
		threads, minList    int
		oneCore             bool
		change              func(*Params)
	}{
		{"torus32-vc", "torus:32x32x32", "", "", routing.SchemeVC, "uniform", 0.03, 2, -1, false, short},
		{"torus32-bubble", "torus:32x32x32", "", "", routing.SchemeBubble, "uniform", 0.05, 2, -1, false, short},
		{"torus32-vc-wormhole", "torus:32x32x32", "", "", routing.SchemeVC, "uniform", 0.02, 2, -1, false, func(p *Params) { p.Warmup, p.Measure, p.Switching = 100, 150, Wormhole }},
		{"twin8-vc", "twin:8x8x8/D", "", "", routing.SchemeVC, "uniform", 0.5, 2, -1, false, nil},
		{"twin8-bubble", "twin:8x8x8/D", "", "", routing.SchemeBubble, "uniform", 0.5, 2, -1, false, nil},
		{"twin8-vc-wormhole", "twin:8x8x8/D", "", "", routing.SchemeVC, "uniform", 0.3, 2, -1, false, func(p *Params) { p.Switching = Wormhole }},
		// Wormhole packets spread over several regions: past saturation, adaptive
		// (Duato, and an escape VC), long links and routing delays, variable lengths.
		{"twin4-wormhole-past-saturation", "twin:4x4x4/D", "", "", routing.SchemeVC, "uniform", 0.8, 3, 0, false, func(p *Params) { p.Switching = Wormhole }},
		{"torus8-wormhole-adaptive", "torus:8x8x8", "adaptive:3prio", "", routing.SchemeVC, "uniform", 0.6, 2, 0, false, func(p *Params) { p.Switching = Wormhole }},
		// BookSim2's router as the booksim mapping sets it up (classvc.go), with messages to self.
		{"torus8-booksim", "torus:8x8x8", "", "", routing.SchemeVC, "bitrev+self", 0.5, 2, 0, false, func(p *Params) {
			p.Switching, p.ClassVCs, p.FrontDelay, p.RoutingDelay, p.LinkLatency, p.TerminalLatency = Wormhole, true, 3, 4, 2, 1
			b := Buffer{VCs: 4, Flits: 8}
			p.Terminal, p.External, p.Internal = b, b, b
		}},
		{"torus6-wormhole-escape", "torus:6x6@2", "adaptive:first", "", routing.SchemeEscape, "uniform", 0.8, 2, 0, false, func(p *Params) { p.Switching = Wormhole }},
		{"mesh-wormhole-latency3-lengths", "mesh:8x8@2", "", "", routing.SchemeVC, "hotspot:0.2", 0.4, 3, 0, false, func(p *Params) {
			p.Switching, p.LinkLatency, p.RoutingDelay = Wormhole, 3, 2
			p.PacketFlits, p.PacketLengths = 8, LengthsUniform
		}},
		{"twin4-bubble-3threads", "twin:4x4x4/D", "", "", routing.SchemeBubble, "bitrev", 0.6, 3, 0, false, nil},
		{"torus8-adaptive-3prio", "torus:8x8x8", "adaptive:3prio", "", routing.SchemeVC, "uniform", 0.6, 2, 0, false, nil},
		{"twin4-adaptive-random", "twin:4x4x4/D", "adaptive:random", "", routing.SchemeBubble, "uniform", 0.6, 2, 0, false, nil},
		{"twin4-adaptive-switch-pointer", "twin:4x4x4/D", "adaptive:rr:pointer=switch", "", routing.SchemeVC, "uniform", 0.7, 3, 0, false, nil},
		{"torus6-escape-first", "torus:6x6@2", "adaptive:first", "", routing.SchemeEscape, "uniform", 0.8, 2, 0, false, nil},
		{"torus8-islip", "torus:8x8x8", "", "", routing.SchemeVC, "uniform", 0.7, 2, 0, false, func(p *Params) { p.Allocator = Allocator{ISLIP: true, Iterations: 2} }},
		{"torus8-output-queues", "torus:8x8x8", "", "", routing.SchemeBubble, "uniform", 0.6, 4, 0, false, func(p *Params) { p.OutputFlits = 16 }},
		{"torus8-crossbar-per-vc", "torus:8x8x8", "", "", routing.SchemeVC, "uniform", 0.7, 2, 0, true, func(p *Params) { p.CrossbarPerVC, p.TransitPriority = true, true }},
		// Output VCs reserved: a granted packet leaves after those granted the link before
		// it, and its credits start returning the cycle after it starts to leave.
		{"torus8-reserve-output-vcs", "torus:8x8x8", "", "", routing.SchemeVC, "uniform", 0.7, 3, 0, false, func(p *Params) { p.CrossbarPerVC, p.ReserveOutputVCs = true, true }},
		{"mesh-latency3", "mesh:8x8@2", "", "", routing.SchemeVC, "hotspot:0.2", 0.4, 2, 0, false, func(p *Params) { p.LinkLatency, p.RoutingDelay = 3, 2 }},
		// The presets main added: the EXTOLL card (iSLIP, one iteration) with TSDOR on a
		// 5D twin torus beyond saturation; the KNS switch (output queues, 256-flit
		// packets, long links) on networks whose routers have no PEs; the C-switch
		// (virtual output queues, DESTRO through the routing's own Route) and the twisted
		// tori's insee router (a crossbar input per VC, output VC reservation, every
		// packet ejecting at once), each also on a larger network past saturation with
		// the parallel phases' usual threshold (C-switch) or none (insee); the insee
		// router without them.
		{"twin5d-extoll-tsdor", "twin:4x4x2x2x2", "tsdor", "extoll", routing.SchemeVC, "uniform", 0.9, 2, 0, false, long},
		{"kns-fattree", "kns:16,2,2,fattree", "", "kns", routing.SchemeNone, "uniform", 0.6, 2, 0, false, long},
		{"kns-ruft", "kns:16,2,2,ruft", "", "kns", routing.SchemeNone, "uniform", 0.45, 3, 0, false, long},
		{"ktree-plain", "ktree:4,3/cswitch", "", "", routing.SchemeNone, "uniform", 0.8, 2, 0, false, nil},
		{"ktree-cswitch-voq", "ktree:4,3/cswitch", "", "cswitch", routing.SchemeNone, "uniform", 0.8, 2, 0, false, nil},
		{"ktree-cswitch-1024-past-saturation", "ktree:4,5/0,2,3,5", "", "cswitch", routing.SchemeNone, "uniform", 0.5, 3, -1, false, func(p *Params) {
			long(p)
			p.Internal = Buffer{VCs: 2, Flits: 128} // DESTRO's second VC on the joining link (cswitch-bbmin-classes)
		}},
		{"twisted-insee", "twisted:rtt:8", "twisted-adaptive:random", "insee", routing.SchemeBubble, "uniform", 0.5, 2, 0, false, nil},
		{"twisted-insee-pt-past-saturation", "twisted:pt:8", "twisted-adaptive:random", "insee", routing.SchemeBubble, "uniform", 0.8, 3, 0, false, func(p *Params) { p.Warmup, p.Measure = 800, 1200 }},
		{"twisted-insee-one-crossbar-input", "twisted:rtt:8", "twisted-adaptive:random", "insee", routing.SchemeBubble, "uniform", 0.5, 2, 0, false, func(p *Params) {
			p.CrossbarPerVC, p.ConsumeAll, p.ReserveOutputVCs = false, false, false
		}},
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
			p := params(c.load, 300, 700, 7)
			if c.preset != "" {
				pre, err := LookupPreset(c.preset)
				if err != nil {
					t.Fatal(err)
				}
				p = pre.Params()
				p.Load, p.Warmup, p.Measure, p.Seed = c.load, 300, 700, 7
			}
			if c.change != nil {
				c.change(&p)
			}
			// A selection function keeps state (pointers, random streams): one per run.
			config := func() Config {
				cfg := Config{Net: net, Routing: rt, Params: p}
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
				return cfg
			}
			one, _ := threadsResult(t, config(), c.pattern, 1, c.minList)
			many, phases := threadsResult(t, config(), c.pattern, c.threads, c.minList)
			if !bytes.Equal(one, many) {
				t.Fatalf("%d threads differ from one:\n%s\n%s", c.threads, many, one)
			}
			if c.oneCore != (phases == 0) {
				t.Fatalf("%d cycles allocated in parallel; want none exactly when the run must stay on one core (%v)", phases, c.oneCore)
			}
			var r Result
			if err := json.Unmarshal(one, &r); err != nil || r.Accepted <= 0 {
				t.Fatalf("nothing delivered (%v): %s", err, one)
			}
			t.Logf("offered %.3f, accepted %.3f, saturated %v, %d cycles allocated in parallel", r.Offered, r.Accepted, r.Saturated, phases)
		})
	}
}

// A closed-loop run on several threads gives the one-thread result, field for field
// (execution time, per-flit latencies, switch utilisation): collectives, an
// application trace (computations, idle cycles jumped over), output queues and virtual
// output queues, wormhole, with every cycle's allocation in parallel (minList 0).
func TestThreadsClosedLoop(t *testing.T) {
	cases := []struct {
		spec, workload string
		tasks          int
		scheme         routing.Scheme
		threads        int
		change         func(*Params)
	}{
		{"torus:4x4", "allreduce:recursive_doubling:4KiB", 16, routing.SchemeVC, 2, nil},
		{"torus:4x4x4", "alltoall:pairwise:1KiB", 64, routing.SchemeVC, 2, nil},
		{"twin:4x4x4/D", "allreduce:nonoverlapping:64KiB", 128, routing.SchemeBubble, 3, nil},
		{"torus:4x4x4", "trace:../../datasets/traces/graph500-64.trace.gz", 64, routing.SchemeBubble, 2, nil},
		{"twin:4x4x4/D", "bcast:binomial:16KiB", 128, routing.SchemeVC, 2, nil},
		// switch utilisation with output queues (a queue's busy cycles are its switch's)
		// and virtual output queues
		{"torus:4x4x4", "alltoall:pairwise:4KiB", 64, routing.SchemeBubble, 2, func(p *Params) { p.OutputFlits, p.VOQ = 16, true }},
		{"twin:4x4x4/D", "allreduce:recursive_doubling:16KiB", 128, routing.SchemeVC, 3, func(p *Params) { p.Switching = Wormhole }},
	}
	for _, c := range cases {
		t.Run(c.spec+"/"+c.workload, func(t *testing.T) {
			run := func(threads int) (*Result, int64) {
				p := params(0, 0, 1, 1)
				p.Threads = threads
				if c.change != nil {
					c.change(&p)
				}
				e, _ := closedRun(t, c.spec, buildWorkload(t, c.workload, c.tasks), c.scheme, p)
				if (e.par != nil) != (threads > 1) {
					t.Fatalf("%d threads: parallel phases %v", threads, e.par != nil)
				}
				if e.par != nil {
					e.par.minList, e.par.checkRegions = 0, true
				}
				r := runClean(t, e)
				if e.par != nil {
					return r, e.par.phases
				}
				return r, 0
			}
			one, _ := run(1)
			many, phases := run(c.threads)
			if d := diffFields(*one, *many); d != "" {
				t.Errorf("closed loop on %d threads differs from one in %s", c.threads, d)
			}
			if phases == 0 || one.Closed == nil || one.Closed.ExecutionCycles <= 0 {
				t.Fatalf("%d cycles allocated in parallel, closed-loop result %+v", phases, one.Closed)
			}
			t.Logf("%d cycles, %d in parallel", one.Closed.ExecutionCycles, phases)
		})
	}
}

// Virtual output queues need one port per hop; a routing that offers several stops the
// run with an error that says so, on one thread and on several (a worker's error
// reaches the engine after the phase).
func TestVOQSeveralPortsRefusedOnEveryThreadCount(t *testing.T) {
	net := topology.MustNew("torus:8x8")
	rt, err := routing.New("adaptive", net, routing.SchemeVC, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		p := params(0.5, 100, 200, 3)
		p.VOQ, p.Threads = true, threads
		sel, err := routing.ParseSelection("first")
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Net: net, Routing: rt, Params: p}
		if cfg.Selector, err = sel.Resolve(rt).New(net, 3); err != nil {
			t.Fatal(err)
		}
		e := newEngine(t, cfg, "uniform")
		if threads > 1 && e.par == nil {
			t.Fatalf("%d threads: the run is on one core", threads)
		}
		if e.par != nil {
			e.par.minList = 0
		}
		_, err = e.Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), "virtual output queues need a routing that gives one port per hop") {
			t.Fatalf("%d threads: error %v; want virtual output queues refusing several ports", threads, err)
		}
	}
}
