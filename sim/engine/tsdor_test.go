package engine

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// extollLikeParams are the EXTOLL-style card's parameters for TSDOR (docs/model.md):
// virtual cut-through, iSLIP with one iteration, 512-flit input ports split equally
// among the four VCs TSDOR uses (two traffic classes of two), 16-flit packets.
func extollLikeParams(load float64, measure int64) Params {
	p := params(load, 0, measure, 1)
	p.Allocator = Allocator{ISLIP: true, Iterations: 1}
	p.PacketFlits = 16
	p.Terminal, p.External, p.Internal = Buffer{VCs: 1, Flits: 512}, Buffer{VCs: 4, Flits: 128}, Buffer{VCs: 4, Flits: 128}
	return p
}

// The acceptance test: TSDOR never deadlocks at twice its saturation load
// (twice the analytic channel bound, an upper bound of the real saturation), for
// 100,000 cycles, on the four networks of issue 12, with the EXTOLL-style card; and it
// keeps its throughput: no 25,000-cycle window below 80 % of the best.
func TestTSDORNoDeadlockBeyondSaturation(t *testing.T) {
	if testing.Short() {
		t.Skip("4 runs of 100,000 cycles; run without -short")
	}
	for _, spec := range []string{"twin:4x4x2x2x2", "twin:4x4x2x4x4", "twin:2x2x2x2x2", "twin:4x4x4"} {
		net := topology.MustNew(spec)
		rt := routing.NewTSDOR(net, routing.TiePlus)
		bound, err := analysis.Load(context.Background(), rt)
		if err != nil {
			t.Fatal(err)
		}
		load := 2 * bound.Bound
		pat, err := traffic.ParsePattern("uniform", net)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Config{Net: net, Routing: rt, Pattern: pat, Params: extollLikeParams(load, 100000)})
		if err != nil {
			t.Fatal(err)
		}
		var windows []float64
		for w := 0; w < 4; w++ {
			before := e.m.ejectAll
			for end := e.now + 25000; e.now < end; {
				e.Step()
				if e.dl != nil {
					t.Fatalf("%s at load %.3f: %v", spec, load, e.dl)
				}
			}
			windows = append(windows, float64(e.m.ejectAll-before)/25000/float64(net.Terminals()))
		}
		best := 0.0
		for _, a := range windows {
			best = max(best, a)
		}
		for i, a := range windows {
			if a < 0.8*best {
				t.Errorf("%s: accepted traffic fell to %.4f in window %d (best %.4f): %v", spec, a, i, best, windows)
			}
		}
		if best >= 0.98*load {
			t.Errorf("%s: accepted %.4f of an offered %.4f: the run did not saturate", spec, best, load)
		}
		t.Logf("%s offered %.3f (bound %.4f), accepted per 25k-cycle window %.4f %.4f %.4f %.4f", spec, load, bound.Bound, windows[0], windows[1], windows[2], windows[3])
	}
}
