package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/topology/topotest"
)

func checkRouting(t *testing.T, net *topology.Network, rt routing.Func) *RoutingReport {
	t.Helper()
	rep, err := CheckRouting(context.Background(), net, rt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// CheckRouting and CheckCDG are separate implementations; on deterministic routing
// without bubble flow control they must agree, including the 3DT papers' cases.
func TestCheckRoutingAgreesWithCheckCDG(t *testing.T) {
	for _, spec := range []string{"torus:4x4", "torus:5x3", "mesh:4x4", "twin:4x4x4/D", "twin:3x3x3/A", "twin:4x2x4/G"} {
		net := topology.MustNew(spec)
		for _, scheme := range []routing.Scheme{routing.SchemeVC, routing.SchemeNone} {
			rt := routing.NewDeterministic(net, scheme, routing.TiePlus)
			a := check(t, net, rt, nil)
			b := checkRouting(t, net, rt)
			if a.Acyclic != b.DeadlockFree || b.Problem != "" || b.Escape || a.Channels != b.Channels || a.Dependencies != b.Dependencies {
				t.Errorf("%s %s: CheckCDG acyclic %v (%d channels, %d deps), CheckRouting %+v", spec, scheme, a.Acyclic, a.Channels, a.Dependencies, b)
			}
			if !b.DeadlockFree {
				assertCycle(t, net, b)
			}
		}
	}
}

// assertCycle checks that every step of a reported cycle is a real channel
// dependency: the next channel leaves the switch the previous one enters.
func assertCycle(t *testing.T, net *topology.Network, rep *RoutingReport) {
	t.Helper()
	if len(rep.Cycle) < 2 {
		t.Fatalf("%s: cycle %v", rep.Routing, rep.Cycle)
	}
	for i, c := range rep.Cycle {
		next := rep.Cycle[(i+1)%len(rep.Cycle)]
		if int(net.Port(c.Switch, c.Port).Peer) != next.Switch {
			t.Fatalf("%s: %s is not followed by %s", rep.Routing, c.Name, next.Name)
		}
	}
	if s := rep.CycleString(); !strings.HasPrefix(s, rep.Cycle[0].Name+" -> ") || !strings.HasSuffix(s, " -> "+rep.Cycle[0].Name) {
		t.Errorf("cycle string %q", s)
	}
}

// Minimal routing alone closes a torus's rings; on a mesh it is DOR and acyclic;
// up*/down* and every routing with the escape are deadlock-free, on tori and on random
// networks, and the escape verdict is Duato's.
func TestCheckRoutingGeneric(t *testing.T) {
	nets := []*topology.Network{topology.MustNew("torus:4x4"), topology.MustNew("twin:4x4x2/D")}
	for seed := uint64(1); seed <= 4; seed++ {
		nets = append(nets, randomNet(t, seed, 12))
	}
	for _, net := range nets {
		for _, c := range []struct {
			routing string
			scheme  routing.Scheme
			free    bool // known: deadlock-free
		}{{"updown", routing.SchemeNone, true}, {"min", routing.SchemeEscape, true}, {"adaptive", routing.SchemeEscape, true}} {
			rt, err := routing.New(c.routing, net, c.scheme, routing.TiePlus)
			if err != nil {
				t.Fatal(err)
			}
			rep := checkRouting(t, net, rt)
			if rep.DeadlockFree != c.free || rep.Problem != "" || rep.Escape != (c.scheme == routing.SchemeEscape) {
				t.Errorf("%s %s: %+v", net, rt.Name(), rep)
			}
			if err := RequireDeadlockFree(context.Background(), net, rt); err != nil {
				t.Errorf("%s %s: %v", net, rt.Name(), err)
			}
		}
	}
	torus := topology.MustNew("torus:4x4")
	min, _ := routing.NewMinimal(torus, true)
	rep := checkRouting(t, torus, min)
	if rep.DeadlockFree || rep.Escape {
		t.Fatalf("adaptive minimal routing on a torus without escape: %+v", rep)
	}
	assertCycle(t, torus, rep)
	err := RequireDeadlockFree(context.Background(), torus, min)
	if err == nil || !strings.Contains(err.Error(), "can deadlock: its channel dependencies close the cycle s") || strings.Contains(err.Error(), "\n") {
		t.Errorf("RequireDeadlockFree: %v", err)
	}
	mesh := topology.MustNew("mesh:5x4")
	det, _ := routing.NewMinimal(mesh, false)
	if rep := checkRouting(t, mesh, det); !rep.DeadlockFree {
		t.Errorf("min on a mesh: %+v", rep)
	}
}

func randomNet(t *testing.T, seed uint64, n int) *topology.Network {
	t.Helper()
	net, err := topotest.Random(seed, n)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// broken is a routing with one deliberate mistake, for the problems CheckRouting finds.
type broken struct {
	routing.Func
	net  *topology.Network
	kind string
}

func (b broken) Route(s, in, vc int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	first := len(out)
	out = b.Func.Route(s, in, vc, h, out)
	if s != 3 || len(out) == first {
		return out
	}
	switch b.kind {
	case "port":
		out[first].Port = 99
	case "vc":
		out[first].VC = 5
	case "none":
		return out[:first]
	case "no escape":
		if !h.Escaped && out[len(out)-1].Escape {
			return out[:len(out)-1] // drop the escape candidate
		}
	case "leave escape":
		if h.Escaped {
			out[first].Escape = false
		}
	case "wrong PE":
		if b.net.Port(s, int(out[first].Port)).Kind == topology.Terminal {
			out[first].Port = b.net.Attachment(int(h.Dst ^ 1)).Port // the other PE of the switch
		}
	}
	return out
}

func TestCheckRoutingProblems(t *testing.T) {
	net := topology.MustNew("torus:4x2@2")
	min, _ := routing.NewMinimal(net, false)
	esc, _ := routing.New("adaptive", net, routing.SchemeEscape, routing.TiePlus)
	cases := []struct {
		inner routing.Func
		kind  string
		want  string
	}{
		{min, "port", "is offered port 99, which does not exist"},
		{min, "vc", "is offered VC 5"},
		{min, "none", "is offered no port"},
		{min, "wrong PE", "is delivered to PE"},
		{esc, "no escape", "is offered no escape channel"},
		{esc, "leave escape", "which is not one"},
	}
	for _, c := range cases {
		rt := broken{c.inner, net, c.kind}
		rep := checkRouting(t, net, rt)
		if rep.DeadlockFree || !strings.Contains(rep.Problem, c.want) {
			t.Errorf("%s: %+v, want a problem with %q", c.kind, rep, c.want)
		}
		if err := RequireDeadlockFree(context.Background(), net, rt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.kind, err)
		}
	}
}

// BenchmarkCheckRouting times the check a run of a table routing goes through
// first: adaptive minimal routing with the escape on torus:8x8x8 (512 PEs).
func BenchmarkCheckRouting(b *testing.B) {
	net := topology.MustNew("torus:8x8x8")
	rt, err := routing.New("adaptive", net, routing.SchemeEscape, routing.TiePlus)
	if err != nil {
		b.Fatal(err)
	}
	var states int
	for b.Loop() {
		rep, err := CheckRouting(context.Background(), net, rt)
		if err != nil || !rep.DeadlockFree {
			b.Fatal(err)
		}
		states = rep.States
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "situations/s")
}
