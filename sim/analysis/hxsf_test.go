package analysis

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// oneVC is a routing with every hop moved to VC 0: the negative control of a VC
// scheme, which the check must find a cycle in.
type oneVC struct{ routing.Func }

func (r oneVC) VCs(topology.PortKind) int { return 1 }

func (r oneVC) Route(s, in, _ int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	n := len(out)
	out = r.Func.Route(s, in, 0, h, out)
	for i := n; i < len(out); i++ {
		out[i].VC = 0
	}
	return out
}

// SaltClasses passes the inner routing's salts on.
func (r oneVC) SaltClasses() int {
	if sc, ok := r.Func.(interface{ SaltClasses() int }); ok {
		return sc.SaltClasses()
	}
	return 1
}

// HyperX DOR (with and without trunking) and DAL, Slim Fly MIN, VAL and UGAL: every route
// delivers and the channel dependency graph over every candidate (every salt: each
// trunk, each Valiant intermediate) is acyclic; with all hops on one VC, DAL and MIN
// have cycles, so their VC classes are what makes them deadlock-free.
func TestHyperXSlimFlyDeadlockFree(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		spec, routing string
		oneVCCycle    bool
	}{
		{"hyperx:4x4@2", "hxdor", false},
		{"hyperx:3x4x2/2", "hxdor", false},
		{"hyperx:4x4@2", "dal", true},
		{"hyperx:3x3x3/2", "dal", true},
		{"slimfly:5@2", "sfmin", true},
		{"slimfly:4@1", "sfmin", true},
		{"slimfly:5@1", "sfval", false},
		{"slimfly:7@1", "sfval", false},
		{"slimfly:5@1", "sfugal", false},
		{"slimfly:7@1", "sfugal", false},
	} {
		net := topology.MustNew(c.spec)
		rt, err := routing.New(c.routing, net, routing.SchemeNone, routing.TieDefault)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := CheckRouting(ctx, net, rt)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.DeadlockFree || rep.Problem != "" || rep.Dependencies == 0 {
			t.Errorf("%s %s: deadlock-free %v, problem %q, cycle %s", c.spec, c.routing, rep.DeadlockFree, rep.Problem, rep.CycleString())
		}
		if !c.oneVCCycle {
			continue // DOR needs no classes; VAL reads its phase from the VC, so one VC is no VAL
		}
		one, err := CheckRouting(ctx, net, oneVC{rt})
		if err != nil {
			t.Fatal(err)
		}
		if one.Problem != "" || one.DeadlockFree {
			t.Errorf("%s %s on one VC: deadlock-free %v, problem %q; want a cycle", c.spec, c.routing, one.DeadlockFree, one.Problem)
		}
		t.Logf("%s %s: %d channels, %d dependencies; on one VC: cycle %s", c.spec, c.routing, rep.Channels, rep.Dependencies, one.CycleString())
	}
}

// The check follows each salt of a salted routing: VAL's dependencies grow with the
// intermediates it sees.
func TestCheckFollowsSalts(t *testing.T) {
	net := topology.MustNew("slimfly:5@1")
	rt, err := routing.New("sfval", net, routing.SchemeNone, routing.TieDefault)
	if err != nil {
		t.Fatal(err)
	}
	all, err := CheckRouting(context.Background(), net, rt)
	if err != nil {
		t.Fatal(err)
	}
	first, err := CheckRouting(context.Background(), net, saltZero{rt})
	if err != nil {
		t.Fatal(err)
	}
	if all.Dependencies <= first.Dependencies || all.States <= first.States {
		t.Errorf("every salt: %d dependencies, %d states; salt 0 only: %d, %d", all.Dependencies, all.States, first.Dependencies, first.States)
	}
}

// saltZero hides a routing's SaltClasses.
type saltZero struct{ routing.Func }
