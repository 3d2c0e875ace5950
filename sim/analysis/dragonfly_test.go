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
