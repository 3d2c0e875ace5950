package engine

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// BookSim2's nca on ktree:4,3 at 1 flit/cycle/PE, under virtual cut-through (one VC of
// 128 flits) and wormhole (one VC of 8 flits, and of 2 flits, so that a 4-flit packet
// spans switches): no deadlock, the run goes its whole length, and with 128 or 8 flits
// the network accepts more than 0.4 flits/cycle/PE. That bound also shows the engine hands nca its packets' salts: with
// one salt for all, every packet leaving a stage-0 switch would take the same up link,
// shared by 4 PEs sending 60/63 of their traffic up, at most 1/(4·60/63) ≈ 0.26. The
// same seed gives the same result.
func TestNCARuns(t *testing.T) {
	net := topology.MustNew("ktree:4,3")
	rt, err := routing.New("nca", net, routing.SchemeNone, routing.TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sw       Switching
		flits    int
		accepted float64
	}{{CutThrough, 128, 0.4}, {Wormhole, 8, 0.4}, {Wormhole, 2, 0}} {
		sw := c.sw
		p := params(1, 1000, 5000, 7).StationaryOff()
		p.Switching = sw
		b := Buffer{VCs: 1, Flits: c.flits}
		p.Terminal, p.External = b, b
		var accepted [2]float64
		for i := range accepted {
			r, err := newEngine(t, Config{Net: net, Routing: rt, Params: p}, "uniform").Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if r.Deadlock != nil || r.Cycles < p.Warmup+p.Measure || r.Accepted <= c.accepted {
				t.Fatalf("%s, %d flits: %d cycles, accepted %.3f, deadlock %v", sw, c.flits, r.Cycles, r.Accepted, r.Deadlock)
			}
			accepted[i] = r.Accepted
			t.Logf("%s, %d flits: accepted %.4f flits/cycle/PE, %.3f hops", sw, c.flits, r.Accepted, r.Hops)
		}
		if accepted[0] != accepted[1] {
			t.Errorf("%s, %d flits: the same seed accepted %v", sw, c.flits, accepted)
		}
	}
}

// BookSim2's VC allocation (class_vcs) takes any routing with one candidate per hop,
// nca's one class among them (four VCs of a port spread its packets), and refuses one
// that offers several.
func TestClassVCsOneCandidate(t *testing.T) {
	net := topology.MustNew("ktree:4,3")
	p := params(0.3, 500, 2000, 3).StationaryOff()
	p.Switching, p.ClassVCs = Wormhole, true
	b := Buffer{VCs: 4, Flits: 8}
	p.Terminal, p.External = b, b
	for _, name := range []string{"nca", "min", "adaptive"} {
		def, _, _ := routing.LookupRouting(name)
		rt, err := routing.New(name, net, def.DefaultScheme(net), routing.TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		pat, err := traffic.ParsePattern("uniform", net)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Config{Net: net, Routing: rt, Params: p, Pattern: pat})
		if routing.Selects(rt) != (err != nil) {
			t.Fatalf("%s: %v", rt.Name(), err)
		}
		if err != nil {
			continue
		}
		r, err := e.Run(context.Background())
		if err != nil || r.Deadlock != nil || r.Saturated {
			t.Errorf("%s at 0.3 under class_vcs: %v, saturated %v, deadlock %v", rt.Name(), err, r.Saturated, r.Deadlock)
		}
	}
}
