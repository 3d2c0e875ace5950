package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/traffic"
)

// booksimLike is the wormhole switch the booksim mapping sets up: 4 VCs of 8 flits,
// BookSim2's VC allocation and its head pipeline.
func booksimLike(p *Params) {
	p.Switching = Wormhole
	b := Buffer{VCs: 4, Flits: 8}
	p.Terminal, p.External, p.Internal = b, b, b
	p.ClassVCs = true
}

// Under class_vcs a class owns its share of a port's VCs: dimension order on a torus
// names two dateline classes, so each owns two of 4 VCs (the lower and the upper
// half, as BookSim2's dim_order_torus splits them); on a mesh its one class owns all 4.
func TestClassRange(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		scheme routing.Scheme
		want   [][2]int32 // per class: first VC of the port, count
	}{
		{"torus:8x8", routing.SchemeVC, [][2]int32{{0, 2}, {2, 2}}},
		{"mesh:8x8", routing.SchemeNone, [][2]int32{{0, 4}}},
	} {
		p := params(0.1, 10, 10, 1)
		booksimLike(&p)
		e := newRun(t, tc.spec, tc.scheme, "uniform", p)
		for s := 0; s < e.net.Switches(); s++ {
			for q := 0; q < e.net.Ports(s); q++ {
				out := int(e.sw[s].base) + q
				if e.ports[out].down < 0 {
					continue
				}
				for c, w := range tc.want {
					first, n := e.classRange(out, int8(c))
					if first-e.ports[out].down != w[0] || n != w[1] {
						t.Fatalf("%s switch %d port %d class %d: VCs %d+%d, want %d+%d", tc.spec, s, q, c, first-e.ports[out].down, n, w[0], w[1])
					}
				}
			}
		}
	}
}

// With one VC class on a mesh, the routing's one VC leaves the other three of each
// port idle unless class_vcs spreads packets over them: past saturation an 8x8 mesh
// under dimension order then accepts far more (BookSim2's 0.391 flits/cycle/PE on this
// configuration, datasets/booksim), and neither deadlocks a torus at full load.
func TestClassVCsSpreadPackets(t *testing.T) {
	accepted := func(spec string, scheme routing.Scheme, class bool) float64 {
		p := params(1.0, 2000, 3000, 1)
		booksimLike(&p)
		p.ClassVCs = class
		r := runClean(t, newRun(t, spec, scheme, "uniform", p))
		if r.Deadlock != nil {
			t.Fatalf("%s class_vcs %v: deadlock", spec, class)
		}
		return r.Accepted
	}
	one, spread := accepted("mesh:8x8", routing.SchemeNone, false), accepted("mesh:8x8", routing.SchemeNone, true)
	if spread < 1.15*one || spread > 0.5 {
		t.Errorf("mesh 8x8 at load 1: accepted %.3f with one VC per class, %.3f with class VCs; want at least 15 %% more, below the bisection bound 0.5", one, spread)
	}
	if a := accepted("torus:8x8", routing.SchemeVC, true); a < 0.3 {
		t.Errorf("torus 8x8 at load 1 with class VCs: accepted %.3f", a)
	}
}

// class_vcs needs wormhole and a deterministic routing, and says so.
func TestClassVCsRefusals(t *testing.T) {
	net := topology.MustNew("torus:4x4")
	p := params(0.1, 10, 10, 1)
	p.ClassVCs = true
	q := p.withDefaults()
	if err := q.validate(); err == nil || !strings.Contains(err.Error(), "wormhole") {
		t.Errorf("class_vcs under VCT: %v, want a refusal naming wormhole", err)
	}
	booksimLike(&p)
	rt, err := routing.New("adaptive", net, routing.SchemeVC, routing.TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := traffic.ParsePattern("uniform", net)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Net: net, Routing: rt, Params: p, Pattern: pat}); err == nil || !strings.Contains(err.Error(), "not deterministic") {
		t.Errorf("class_vcs with adaptive routing: %v, want a refusal", err)
	}
}

// front_delay makes a VC's next head wait that many cycles after the tail before it:
// one flow of 1-flit packets through VCs of one VC each (pairs: PE 0 to PE 5 of a 4x4
// mesh, offered one flit per cycle) then moves one packet per front_delay cycles, so it
// delivers 1/front_delay flits per cycle; without it, one per cycle.
func TestFrontDelayPacesAVC(t *testing.T) {
	for _, front := range []int{0, 2, 3, 5, 8} {
		p := params(1.0, 1000, 6000, 1)
		p.Switching, p.PacketFlits = Wormhole, 1
		b := Buffer{VCs: 1, Flits: 8}
		p.Terminal, p.External, p.Internal = b, b, b
		p.FrontDelay = front
		r := runClean(t, newRun(t, "mesh:4x4", routing.SchemeNone, "pairs:0>5", p))
		got := r.Accepted * 16 // flits/cycle of the one flow
		want := 1 / float64(max(front, 1))
		if math.Abs(got-want) > 0.02*want {
			t.Errorf("front_delay %d: the flow delivers %.4f flits/cycle, want %.4f", front, got, want)
		}
	}
}
