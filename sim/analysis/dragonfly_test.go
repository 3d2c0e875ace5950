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
