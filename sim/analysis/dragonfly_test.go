package analysis

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Every dragonfly routing is deadlock-free with its VC classes: the checker follows
// every route each may choose (the minimal one and a Valiant one through every other
// group, from every router where a decision is taken; every global link where several
// join two groups) with the packet's tag, and the channel dependency graph is acyclic,
// on both global-link arrangements and with one and two links between groups.
func TestDragonflyRoutingsDeadlockFree(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"dragonfly:2", "dragonfly:2/relative", "dragonfly:4,2,2,5", "dragonfly:3,1,2,4/relative", "dragonfly:3"} {
		net := topology.MustNew(spec)
		for _, name := range []string{"dfmin", "dfval", "dfugal-l", "dfugal-g", "dfpar"} {
			rt, err := routing.New(name, net, routing.SchemeNone, routing.TieDefault)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := CheckRouting(ctx, net, rt)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.DeadlockFree || rep.Problem != "" {
				t.Errorf("%s on %s: %+v (cycle %s)", name, spec, rep, rep.CycleString())
			}
		}
	}
}

// vcCap is a routing with its VCs cut to the first n: the classes merged.
type vcCap struct {
	routing.Func
	n int8
}

func (v vcCap) VCs(k topology.PortKind) int { return min(v.Func.VCs(k), int(v.n)) }

func (v vcCap) Route(s, in, vc int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = v.Func.Route(s, in, vc, h, out)
	for i := range out {
		out[i].VC = min(out[i].VC, v.n-1)
	}
	return out
}

// The check can fail: with fewer VC classes than a route has phases, the dependencies
// close a cycle (minimal routing on one VC; Valiant's on MIN's two, where a local
// channel used last by one packet and before its second global hop by another joins
// the global channels into a cycle).
func TestDragonflyTooFewClassesDeadlock(t *testing.T) {
	ctx := context.Background()
	net := topology.MustNew("dragonfly:2")
	for _, c := range []struct {
		name string
		vcs  int8
	}{{"dfmin", 1}, {"dfval", 2}, {"dfugal-g", 2}, {"dfpar", 3}} {
		rt, err := routing.New(c.name, net, routing.SchemeNone, routing.TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := CheckRouting(ctx, net, vcCap{rt, c.vcs})
		if err != nil {
			t.Fatal(err)
		}
		if rep.DeadlockFree || len(rep.Cycle) == 0 {
			t.Errorf("%s on %d VCs: %+v; want a cycle", c.name, c.vcs, rep)
		}
	}
}

func (v vcCap) Tags() int { return v.Func.(interface{ Tags() int }).Tags() }

// Minimal routing's uniform channel loads against their closed forms (g = a·h + 1):
// the global link from group G to group X carries the routes of all a·p PEs of G to
// all a·p of X, (a·p)²; the local link from router r to r′ carries r's PEs' routes to
// the h groups r′ links to (p·h·a·p), the routes arriving by r's h global links for
// those of r′ (h·a·p·p) and r's PEs' routes to r′'s (p²): p²·(2ah + 1) in all, the
// busiest channel. The uniform bound is (N − 1)/(p²(2ah + 1)), above 1 for balanced
// dragonflies, which inject at most 1 flit/cycle/PE.
func TestDragonflyMinimalLoad(t *testing.T) {
	for _, spec := range []string{"dragonfly:2", "dragonfly:3", "dragonfly:4", "dragonfly:4,3,2", "dragonfly:2/relative"} {
		net := topology.MustNew(spec)
		rt, err := routing.New("dfmin", net, routing.SchemeNone, routing.TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := net.Spec().Dragonfly()
		load, err := Load(context.Background(), rt.(routing.Pather))
		if err != nil {
			t.Fatal(err)
		}
		a, p, h := int64(l.A), int64(l.P), int64(l.H)
		maxGlobal, maxLocal := int64(0), int64(0)
		for s := 0; s < net.Switches(); s++ {
			for q := 0; q < net.Ports(s); q++ {
				port := net.Port(s, q)
				if port.Kind == topology.Terminal {
					continue
				}
				n := load.Routes(s, q)
				if net.Group(int(port.Peer)) != net.Group(s) {
					if n != a*p*a*p {
						t.Fatalf("%s: global channel %d/%d carries %d routes; want (ap)² = %d", spec, s, q, n, a*p*a*p)
					}
					maxGlobal = max(maxGlobal, n)
				} else {
					if n != p*p*(2*a*h+1) {
						t.Fatalf("%s: local channel %d/%d carries %d routes; want p²(2ah+1) = %d", spec, s, q, n, p*p*(2*a*h+1))
					}
					maxLocal = max(maxLocal, n)
				}
			}
		}
		if load.MaxRoutes != max(maxGlobal, maxLocal) {
			t.Errorf("%s: busiest channel %d routes", spec, load.MaxRoutes)
		}
		t.Logf("%s: uniform channel bound %.4f (global links alone %.4f)", spec, load.ChannelBound, float64(net.Terminals()-1)/float64(maxGlobal))
	}
}

// Valiant's channel loads under the dragonfly paper's adversarial traffic (every PE of
// group c to a PE of group c+1, uniformly): every route of dfval, from every source PE
// to every PE of the next group through every intermediate group, counted channel by
// channel (each of a source's a·p·(G−2) routes equally likely, so a channel's load per
// unit injection is its routes over one source's). With one global link per pair of
// groups, the link from group i to group j carries the first hops of i's PEs through j
// and the second hops of j−1's PEs through i, (a·p)² routes each, except the link to
// the next group, which no Valiant route takes (the intermediate is neither the
// source's group nor the destination's): Valiant's two global hops spread over G−2 of
// a group's G−1 links, so its bound is (G−2)/(2·a·p), below the paper's one half for
// balanced p = h (dragonfly:4: 31/64 = 0.484), which it reaches as G grows. No local
// channel carries more (docs/model.md's claims table reads the bound).
func TestDragonflyValiantShiftLoad(t *testing.T) {
	for _, c := range []struct{ spec string }{{"dragonfly:4,2,2"}, {"dragonfly:4,2,2/relative"}, {"dragonfly:2,1,1"}, {"dragonfly:4"}} {
		net := topology.MustNew(c.spec)
		rt, err := routing.NewDragonfly(net, routing.DFVal, routing.DragonflyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := net.Spec().Dragonfly()
		if err != nil {
			t.Fatal(err)
		}
		g, perGroup := net.Groups(), net.Terminals()/net.Groups()
		routes := valiantRoutesByPE(t, net, rt, l, 1)
		perSource := int64(perGroup * (g - 2))
		var global, local int64
		for s := 0; s < net.Switches(); s++ {
			for p := 0; p < net.Ports(s); p++ {
				pt := net.Port(s, p)
				if pt.Kind == topology.Terminal {
					continue
				}
				if v := routes[net.PortID(s, p)]; net.Group(int(pt.Peer)) != net.Group(s) {
					global = max(global, v)
				} else {
					local = max(local, v)
				}
			}
		}
		ap := int64(l.A * l.P)
		if perSource != ap*int64(g-2) || global != 2*ap*ap || local > global {
			t.Errorf("%s: %d routes per source (want a·p·(G−2) = %d); busiest global channel %d routes (want 2(a·p)² = %d), busiest local %d (want at most that)",
				c.spec, perSource, ap*int64(g-2), global, 2*ap*ap, local)
		}
		t.Logf("%s: VAL under groupshift: global channels %.3f, busiest local %.3f times the injection: bound %.3f",
			c.spec, float64(global)/float64(perSource), float64(local)/float64(perSource), float64(perSource)/float64(max(local, global)))
	}
}

// valiantRoutesByPE counts Valiant routes on every channel under groupshift:k PE by PE:
// every source PE, destination PE of group (c+k) mod G, intermediate group (neither's)
// and parallel link (salt), each route followed hop by hop through the routing.
func valiantRoutesByPE(t *testing.T, net *topology.Network, rt *routing.Dragonfly, l topology.Dragonfly, k int) []int64 {
	t.Helper()
	routes := make([]int64, net.TotalPorts())
	perGroup := l.A * l.P
	var buf [8]routing.Candidate
	for src := range net.Terminals() {
		c := net.Group(int(net.Attachment(src).Switch))
		d := (c + k) % l.G
		for dst := d * perGroup; dst < (d+1)*perGroup; dst++ {
			for i := range l.G {
				if i == c || i == d {
					continue
				}
				for salt := range l.M() {
					at := net.Attachment(src)
					s, in := int(at.Switch), int(at.Port)
					h := routing.Head{Src: int32(src), Dst: int32(dst), Tag: uint8(i + 1), Salt: uint32(salt)}
					for hop := 0; ; hop++ {
						if hop > 6 {
							t.Fatalf("%s: the Valiant route from PE %d to PE %d through group %d does not arrive", net, src, dst, i)
						}
						if l.M() == 1 { // one link per pair: a tagged packet has one way
							if all := rt.Route(s, in, 0, h, buf[:0]); len(all) != 1 {
								t.Fatalf("%s: %d candidates for a tagged packet at switch %d", net, len(all), s)
							}
						}
						cand := rt.Choose(s, in, 0, h, idle{}, buf[:0])
						pt := net.Port(s, int(cand[0].Port))
						if pt.Kind == topology.Terminal {
							if a := net.Attachment(dst); int(a.Switch) != s || int(a.Port) != int(cand[0].Port) {
								t.Fatalf("%s: the route from PE %d ends at switch %d port %d, not at PE %d", net, src, s, cand[0].Port, dst)
							}
							break
						}
						routes[net.PortID(s, int(cand[0].Port))]++
						s, in, h.Tag = int(pt.Peer), int(pt.PeerPort), cand[0].Tag
					}
				}
			}
		}
	}
	return routes
}
