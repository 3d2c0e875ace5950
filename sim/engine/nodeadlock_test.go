package engine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// bufferSplit is the VCs of each port class and the flits of each input port, split
// evenly among its VCs; 0 VCs means what the routing needs.
type bufferSplit struct {
	terminal, external, internal, portFlits int
}

// Deadlock avoidance must hold far past saturation whatever the buffers: tori with
// even and odd radices (ties at k/2 sent either way) and twin tori with every dimension split (SC0) and one split
// (SC1); virtual cut-through under both schemes and wormhole under dateline VCs; one
// to eight VCs per port class (several VCs on the terminal port is what broke
// wormhole in issue 9), with VCs from one flit (wormhole) to 128. Every run offers 1
// flit/cycle/PE, beyond what any of these networks accepts, for 40,000 measured cycles
// (100,000 under TWINTORUS_LONG=1, make test-long); it must be saturated, find no
// deadlock, and keep its throughput: no window (a quarter of the run) below 80 % of
// the best.
func TestNoDeadlockEveryBufferSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("about 120 runs of 41,000 cycles; run without -short")
	}
	splits := []bufferSplit{
		{1, 0, 0, 128}, {2, 2, 0, 128}, {4, 4, 0, 128}, {8, 8, 8, 128}, {4, 0, 8, 128},
		{1, 0, 0, 8}, {4, 4, 0, 8}, {8, 8, 8, 8}, {2, 0, 8, 32}, {4, 4, 8, 32},
	}
	modes := []struct {
		sw     Switching
		scheme routing.Scheme
	}{{CutThrough, routing.SchemeVC}, {CutThrough, routing.SchemeBubble}, {Wormhole, routing.SchemeVC}}
	for _, c := range []struct {
		spec string
		tie  routing.Tie
	}{{"torus:4x4", routing.TiePlus}, {"torus:4x4", routing.TieMinus}, {"torus:5x3", routing.TiePlus},
		{"twin:4x2x2/A", routing.TiePlus}, {"twin:4x4x2/D", routing.TiePlus}} {
		spec, tie := c.spec, c.tie
		for _, m := range modes {
			for _, sp := range splits {
				net := topology.MustNew(spec)
				rt := routing.NewDeterministic(net, m.scheme, tie)
				p := params(1, 1000, acceptanceCycles(40000), 3)
				p.Switching = m.sw
				ok := true
				for _, c := range []struct {
					kind topology.PortKind
					vcs  int
					buf  *Buffer
				}{{topology.Terminal, sp.terminal, &p.Terminal}, {topology.External, sp.external, &p.External}, {topology.Internal, sp.internal, &p.Internal}} {
					v := max(c.vcs, rt.VCs(c.kind), 1)
					*c.buf = Buffer{VCs: v, Flits: sp.portFlits / v}
					need := 1
					if m.sw == CutThrough {
						need = p.PacketFlits
						if m.scheme == routing.SchemeBubble && c.kind != topology.Terminal {
							need *= 2
						}
					}
					ok = ok && c.buf.Flits >= need
				}
				if !ok {
					continue // virtual cut-through needs room for a packet (two under bubble)
				}
				name := fmt.Sprintf("%s,tie%+d/%s/%s/t%s,e%s,i%s", strings.ReplaceAll(spec, "/", ":"), tie, m.sw, m.scheme, p.Terminal, p.External, p.Internal)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					checkNoDeadlock(t, net, rt, p)
				})
			}
		}
	}
}

// checkNoDeadlock runs a saturated point and requires no deadlock and a steady
// throughput over four windows of the measurement.
func checkNoDeadlock(t *testing.T, net *topology.Network, rt routing.Func, p Params) {
	p = p.StationaryOff() // its own four windows, over Warmup + Measure cycles
	pat, err := traffic.ParsePattern("uniform", net)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	const windows = 4
	win := p.Measure / windows
	var delivered [windows + 1]int64
	e.beforeAlloc = func() {
		if k := e.now - p.Warmup; k >= 0 && k%win == 0 && k/win <= windows {
			delivered[k/win] = e.m.ejectAll
		}
	}
	r, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock != nil {
		t.Fatalf("%v", r.Deadlock)
	}
	if !r.Saturated {
		t.Fatalf("offered %.3f, accepted %.3f: not saturated, so not the regime this test is about", r.Offered, r.Accepted)
	}
	delivered[windows] = e.m.ejectAll
	acc := make([]float64, windows)
	for i := range acc {
		acc[i] = float64(delivered[i+1]-delivered[i]) / float64(win) / float64(e.net.Terminals())
	}
	checkThroughputHeld(t, acc, "")
	t.Logf("offered %.3f, accepted per window %.4f %.4f %.4f %.4f", r.Offered, acc[0], acc[1], acc[2], acc[3])
}

// acceptanceCycles is the length of a no-deadlock acceptance run: 100,000 cycles
// under TWINTORUS_LONG=1 (make test-long), else short, the length make test runs: long
// enough for the buffers to fill and a partial deadlock to show in the windows'
// throughput, a fraction of the CPU.
func acceptanceCycles(short int64) int64 {
	if os.Getenv("TWINTORUS_LONG") == "1" {
		return 100000
	}
	return short
}

// acceptedWindows steps e through cycles cycles in four equal windows, failing at
// once when it deadlocks (what names the run), and returns the traffic accepted in
// each window, in flits per cycle per PE.
func acceptedWindows(t testing.TB, e *Engine, cycles int64, what string) []float64 {
	t.Helper()
	var windows []float64
	for w := 0; w < 4; w++ {
		before := e.m.ejectAll
		for end := e.now + cycles/4; e.now < end; {
			e.Step()
			if e.dl != nil {
				t.Fatalf("%s: %v", what, e.dl)
			}
		}
		windows = append(windows, float64(e.m.ejectAll-before)/float64(cycles/4)/float64(e.net.Terminals()))
	}
	return windows
}

// checkThroughputHeld fails (what names the run) when a window accepted less than
// 80 % of the best window, and returns the best.
func checkThroughputHeld(t testing.TB, windows []float64, what string) float64 {
	t.Helper()
	best := slices.Max(windows)
	for i, a := range windows {
		if a < 0.8*best {
			t.Errorf("%saccepted traffic fell to %.4f in window %d (best %.4f): %v", what, a, i, best, windows)
		}
	}
	return best
}
