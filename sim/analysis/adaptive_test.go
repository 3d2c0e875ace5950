package analysis

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func duato(t testing.TB, net *topology.Network, arg string, scheme routing.Scheme) routing.Func {
	t.Helper()
	rt, err := routing.New("adaptive"+arg, net, scheme, routing.TiePlus)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// Duato's condition holds for adaptive routing with the papers' sticky escape on
// rings of 2 to 5 nodes in 2, 3 and 5 dimensions (tori, meshes, twin tori), under both
// escapes: every situation offers the escape, escaped packets are offered only
// escape channels, and the escape channels' dependency graph (rings contracted under
// bubble flow control, every ring entry carrying the bubble) is acyclic. The escape
// subnetwork is DOR/DORT's: the same channels, and the same rings, as CheckCDG finds
// for DOR/DORT alone.
func TestDuatoCondition(t *testing.T) {
	specs := []string{"torus:2x2", "torus:3x3", "torus:4x4", "torus:5x5", "torus:2x2x2", "torus:3x3x3", "torus:4x4x4", "torus:5x5x5",
		"mesh:4x4", "mesh:3x5x2", "torus:2x3x4x5x2",
		"twin:2x2x2", "twin:3x3x3", "twin:4x4x4", "twin:5x5x5", "twin:4x2x4", "twin:8x4x4", "twin:3x3/x+,y-",
		"twin:2x2x2x2x2", "twin:3x3x3x3x3", "twin:4x2x2x4x2", "twin:5x2x3x2x2", "twin:4x4x2x4x2"}
	if testing.Short() {
		specs = specs[:12]
	}
	for _, spec := range specs {
		net := topology.MustNew(spec)
		for _, scheme := range []routing.Scheme{routing.SchemeVC, routing.SchemeBubble} {
			rt := duato(t, net, "", scheme)
			rep := checkRouting(t, net, rt)
			if !rep.DeadlockFree || !rep.Escape || rep.Problem != "" {
				t.Errorf("%s %s: %+v %s", spec, rt.Name(), rep, rep.CycleString())
				continue
			}
			det := routing.NewDeterministic(net, scheme, routing.TiePlus)
			cdg := check(t, net, det, det.Ring)
			if cdg.Channels != rep.Channels || cdg.Rings != rep.Rings || !cdg.Acyclic {
				t.Errorf("%s %s: escape subnetwork has %d channels and %d rings, DOR/DORT alone %d and %d", spec, rt.Name(), rep.Channels, rep.Rings, cdg.Channels, cdg.Rings)
			}
			if (scheme == routing.SchemeBubble && !net.IsMesh()) != (rep.Rings > 0) {
				t.Errorf("%s %s: %d rings", spec, rt.Name(), rep.Rings)
			}
		}
	}
}

// CheckRouting now knows bubble rings: on DOR and DORT under bubble flow control it
// agrees with CheckCDG, channels, dependencies, rings and verdict.
func TestCheckRoutingBubbleAgreesWithCheckCDG(t *testing.T) {
	for _, spec := range []string{"torus:4x4", "torus:5x3", "mesh:4x4", "twin:4x4x4/D", "twin:3x3x3/A", "twin:4x2x4/G", "twin:4x4x4/A"} {
		net := topology.MustNew(spec)
		rt := routing.NewDeterministic(net, routing.SchemeBubble, routing.TiePlus)
		a := check(t, net, rt, rt.Ring)
		b := checkRouting(t, net, rt)
		if a.Acyclic != b.DeadlockFree || b.Problem != "" || a.Channels != b.Channels || a.Dependencies != b.Dependencies || a.Rings != b.Rings {
			t.Errorf("%s: CheckCDG %+v, CheckRouting %+v", spec, a, b)
		}
	}
}

// withoutBubble drops the bubble condition from the escape candidates of packets that
// arrive on adaptive channels: their entries into escape rings are then unprotected.
type withoutBubble struct{ *routing.Duato }

func (w withoutBubble) Route(s, in, vc int, h routing.Head, out []routing.Candidate) []routing.Candidate {
	out = w.Duato.Route(s, in, vc, h, out)
	if !h.Escaped {
		out[len(out)-1].Bubble = false
	}
	return out
}

// The check can fail: an escape that enters its rings without the bubble, and
// escaped packets that return to adaptive channels (adaptive:return), whose extended
// dependency graph closes cycles on twin tori (through the internal link's VCs) and
// under bubble flow control on even rings; on tori under the dateline scheme it holds.
func TestDuatoConditionFails(t *testing.T) {
	net := topology.MustNew("twin:4x4x4")
	d := duato(t, net, "", routing.SchemeBubble).(*routing.Duato)
	rep := checkRouting(t, net, withoutBubble{d})
	if rep.DeadlockFree || !strings.Contains(rep.Problem, "without the bubble condition") {
		t.Errorf("unprotected ring entries: %+v", rep)
	}
	for _, c := range []struct {
		spec   string
		scheme routing.Scheme
		free   bool
	}{
		{"torus:4x4", routing.SchemeVC, true}, {"torus:3x3x3", routing.SchemeVC, true}, {"torus:3x3x3", routing.SchemeBubble, true},
		{"torus:4x4", routing.SchemeBubble, false}, {"twin:3x3x3", routing.SchemeVC, false}, {"twin:4x2x4", routing.SchemeVC, false},
		{"twin:2x2x2x2x2", routing.SchemeBubble, false},
	} {
		net := topology.MustNew(c.spec)
		rt := duato(t, net, ":return", c.scheme)
		rep := checkRouting(t, net, rt)
		if rep.DeadlockFree != c.free || rep.Problem != "" || !rep.Escape {
			t.Errorf("%s %s: %+v", c.spec, rt.Name(), rep)
		}
		if !rep.DeadlockFree {
			assertEscapeCycle(t, net, rep)
			if err := RequireDeadlockFree(context.Background(), net, rt); err == nil || !strings.Contains(err.Error(), "escape channels' dependencies close the cycle") {
				t.Errorf("%s %s: %v", c.spec, rt.Name(), err)
			}
		}
	}
}

// assertEscapeCycle checks a cycle of the extended graph: escape channels (or rings,
// one channel named per ring) that packets can hold one after another.
func assertEscapeCycle(t *testing.T, net *topology.Network, rep *RoutingReport) {
	t.Helper()
	if len(rep.Cycle) < 2 {
		t.Fatalf("%s: cycle %v", rep.Routing, rep.Cycle)
	}
	for _, c := range rep.Cycle {
		if c.VC < 0 || c.Port >= net.Ports(c.Switch) || net.Port(c.Switch, c.Port).Kind == topology.Terminal {
			t.Fatalf("%s: %s is not a switch-to-switch channel", rep.Routing, c.Name)
		}
	}
}

// The zero-load route lengths: DOR and DORT give the channel-load analysis's average
// hops (and the hop table's 4.795 on the 128-PE 3DT torus, claim R4); on tori every
// selection gives the same minimal routes; on twin tori no route beats the shortest
// path, 3 priority is the shortest of the selections and Round-Robin the longest, No
// internal and 2 priority take the same route lengths, and No internal alone takes
// escape channels at zero load (an internal hop it refuses sends the packet to the
// escape for good). A Monte Carlo walk with the same choices agrees with the exact
// expectation.
func TestZeroLoadHops(t *testing.T) {
	ctx := context.Background()
	sel := func(s string) routing.Selection {
		x, err := routing.ParseSelection(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, spec := range []string{"torus:8x8", "torus:4x3x5", "twin:4x4x4", "twin:4x2x4", "twin:8x4x4", "twin:4x4x2x4x2", "twin:5x5x5"} {
		net := topology.MustNew(spec)
		det := routing.NewDeterministic(net, routing.SchemeVC, routing.TiePlus)
		zd, err := ZeroLoadHops(ctx, net, det, routing.Selection{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := Load(ctx, det.DOR())
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(zd.Hops-l.AvgHops) > 1e-9 || math.Abs(zd.Internal-l.AvgInternalHops) > 1e-9 || zd.Max != l.MaxHops {
			t.Errorf("%s: DOR zero-load %+v, channel-load analysis %.6f hops (%.6f internal, max %d)", spec, zd, l.AvgHops, l.AvgInternalHops, l.MaxHops)
		}
		if spec == "twin:4x4x4" && math.Abs(zd.Hops-4.795) > 0.0005 {
			t.Errorf("DORT on twin:4x4x4: %.4f hops, the hop table says 4.795", zd.Hops)
		}
		dist, err := Distances(ctx, net)
		if err != nil {
			t.Fatal(err)
		}
		ad := duato(t, net, "", routing.SchemeVC)
		got := map[string]*RouteHops{}
		for _, name := range []string{"rr", "ref", "nointernal", "2prio", "3prio", "first", "random"} {
			h, err := ZeroLoadHops(ctx, net, ad, sel(name))
			if err != nil {
				t.Fatal(err)
			}
			if spec != "twin:5x5x5" && spec != "twin:4x4x2x4x2" { // translation symmetry against every pair
				all, err := ZeroLoadHopsAllPairs(ctx, net, ad, sel(name))
				if err != nil || math.Abs(all.Hops-h.Hops) > 1e-9 || math.Abs(all.Internal-h.Internal) > 1e-9 || all.Min != h.Min || all.Max != h.Max {
					t.Errorf("%s %s: with symmetry %+v, every pair %+v (%v)", spec, name, h, all, err)
				}
			}
			got[name] = h
			if h.Hops < dist.AvgDistance-1e-9 {
				t.Errorf("%s %s: %.4f hops, below the shortest-path average %.4f", spec, name, h.Hops, dist.AvgDistance)
			}
			if !net.IsTwin() && (math.Abs(h.Hops-zd.Hops) > 1e-9 || h.Escape != 0) {
				t.Errorf("%s %s: %.4f hops, DOR %.4f: on a torus every minimal route is as long", spec, name, h.Hops, zd.Hops)
			}
			if (h.Escape > 0) != (name == "nointernal" && net.IsTwin()) {
				t.Errorf("%s %s: %.4f escape hops per packet at zero load", spec, name, h.Escape)
			}
		}
		if !net.IsTwin() {
			continue
		}
		if !(got["3prio"].Hops < got["2prio"].Hops && got["2prio"].Hops < got["rr"].Hops && got["3prio"].Hops < zd.Hops) ||
			math.Abs(got["rr"].Hops-got["random"].Hops) > 1e-9 || math.Abs(got["rr"].Hops-got["ref"].Hops) > 1e-9 ||
			math.Abs(got["nointernal"].Hops-got["2prio"].Hops) > 0.02*zd.Hops {
			t.Errorf("%s: DORT %.4f, rr %.4f, nointernal %.4f, 2prio %.4f, 3prio %.4f", spec, zd.Hops, got["rr"].Hops, got["nointernal"].Hops, got["2prio"].Hops, got["3prio"].Hops)
		}
		for _, name := range []string{"rr", "3prio", "nointernal"} {
			mean, se := walkHops(t, net, ad, sel(name), 20000)
			if d := math.Abs(mean - got[name].Hops); d > 4*se+1e-9 {
				t.Errorf("%s %s: Monte Carlo %.4f ± %.4f, exact %.4f", spec, name, mean, se, got[name].Hops)
			}
		}
	}
}

// walkHops samples n random PE pairs and walks each route, choosing uniformly among
// routing.ZeroLoadChoices: the mean hops and its standard error.
func walkHops(t *testing.T, net *topology.Network, rt routing.Func, sel routing.Selection, n int) (mean, se float64) {
	t.Helper()
	sl, err := sel.Resolve(rt).New(net, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var sum, sq float64
	var choices []int
	for i := 0; i < n; i++ {
		src := rng.IntN(net.Terminals())
		dst := rng.IntN(net.Terminals() - 1)
		if dst >= src {
			dst++
		}
		at := net.Attachment(src)
		s, in, vc, escaped, hops := int(at.Switch), int(at.Port), 0, false, 0
		for {
			cands := rt.Route(s, in, vc, routing.Head{Dst: int32(dst), Escaped: escaped}, nil)
			choices = routing.ZeroLoadChoices(sl, s, cands, choices)
			c := cands[choices[rng.IntN(len(choices))]]
			port := net.Port(s, int(c.Port))
			if port.Kind == topology.Terminal {
				break
			}
			escaped = escaped || c.Escape
			s, in, vc = int(port.Peer), int(port.PeerPort), int(c.VC)
			hops++
		}
		sum += float64(hops)
		sq += float64(hops * hops)
	}
	mean = sum / float64(n)
	return mean, math.Sqrt((sq/float64(n) - mean*mean) / float64(n))
}

// Follow retraces paper (b)'s Example 3.4 on the 8x8x8 3DT torus (Card0: X+, X-, Y-):
// PE1 of <0,0,0> to PE0 of <1,0,1> in 3 hops Z+ first, and refuses a port the routing
// does not offer.
func TestFollow(t *testing.T) {
	net := topology.MustNew("twin:8x8x8/x+,x-,y-")
	rt := duato(t, net, "", routing.SchemeVC)
	pe := func(card int, c ...int) int { return card + 2*net.NodeAt(c) }
	hops, err := Follow(net, rt, pe(1, 0, 0, 0), pe(0, 1, 0, 1), "z+")
	var names []string
	for _, h := range hops {
		names = append(names, h.Name)
	}
	if err != nil || strings.Join(names, " ") != "z+ int x+" || hops[2].To != net.Switch(net.NodeAt([]int{1, 0, 1}), 0) {
		t.Errorf("Example 3.4: %v %v", names, err)
	}
	if _, err := Follow(net, rt, pe(0, 0, 0, 0), pe(0, 2, 0, 2), "int"); err == nil || !strings.Contains(err.Error(), "int is not offered at switch 0") {
		t.Errorf("Example 3.3's first internal hop: %v", err)
	}
}

// INSEE's escape-return on twisted tori (twisted-adaptive:return, issue 38) is
// deadlock-free under virtual cut-through, the only switching bubble flow control runs
// on: Duato's condition for cut-through networks holds (every situation offers the
// escape, every entry into a bubble ring from an adaptive VC carries the bubble, and the
// escape channels' direct dependencies are acyclic), and that graph is the sticky
// router's exactly (channels, dependencies, rings), since a packet that returns to the
// adaptive VCs releases its escape buffer. The wormhole form of the condition, which
// adds the indirect dependencies of packets that leave the escape and come back to it in
// another ring (x+ of row 0, an adaptive hop in y, x+ of row 1, and back), has cycles.
// Duato's adaptive:return on tori and twin tori behaves the same way.
func TestDuatoConditionCutThrough(t *testing.T) {
	ctx := context.Background()
	type pair struct {
		spec, sticky, ret string
		scheme            routing.Scheme
	}
	cases := []pair{
		{"twisted:rt:4", "twisted-adaptive", "twisted-adaptive:return", routing.SchemeBubble},
		{"twisted:rtt:4", "twisted-adaptive:ties=random", "twisted-adaptive:return,ties=random", routing.SchemeBubble},
		{"twisted:pt:4", "twisted-adaptive", "twisted-adaptive:return", routing.SchemeBubble},
		{"twisted:ptt:4", "twisted-adaptive:ties=random", "twisted-adaptive:return,ties=random", routing.SchemeBubble},
		{"twisted:pdtt:4", "twisted-adaptive:ties=random", "twisted-adaptive:return,ties=random", routing.SchemeBubble},
		{"twisted:rtt:8", "twisted-adaptive:ties=random", "twisted-adaptive:return,ties=random", routing.SchemeBubble},
		{"torus:4x4", "adaptive", "adaptive:return", routing.SchemeBubble},
		{"twin:4x4x4", "adaptive", "adaptive:return", routing.SchemeVC},
		{"twin:2x2x2x2x2", "adaptive", "adaptive:return", routing.SchemeBubble},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		net := topology.MustNew(c.spec)
		mk := func(name string) routing.Func {
			rt, err := routing.New(name, net, c.scheme, routing.TiePlus)
			if err != nil {
				t.Fatal(err)
			}
			return rt
		}
		sticky, ret := mk(c.sticky), mk(c.ret)
		check := func(rt routing.Func, cut bool) *RoutingReport {
			rep, err := CheckRoutingWith(ctx, net, rt, CheckOptions{CutThrough: cut})
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}
		s, r, w := check(sticky, true), check(ret, true), check(ret, false)
		if !r.DeadlockFree || !r.Escape || r.Problem != "" || !r.CutThrough {
			t.Errorf("%s %s under cut-through: %+v %s", c.spec, ret.Name(), r, r.CycleString())
		}
		if s.Channels != r.Channels || s.Dependencies != r.Dependencies || s.Rings != r.Rings || !s.DeadlockFree {
			t.Errorf("%s: the escape graph of %s under cut-through has %d channels, %d dependencies, %d rings; the sticky %s %d, %d, %d",
				c.spec, ret.Name(), r.Channels, r.Dependencies, r.Rings, sticky.Name(), s.Channels, s.Dependencies, s.Rings)
		}
		if w.DeadlockFree || w.Problem != "" || len(w.Cycle) == 0 || w.Dependencies <= r.Dependencies {
			t.Errorf("%s %s, wormhole form: %+v (cut-through %d dependencies)", c.spec, ret.Name(), w, r.Dependencies)
		} else {
			assertEscapeCycle(t, net, w)
		}
		if err := RequireDeadlockFreeWith(ctx, net, ret, CheckOptions{CutThrough: true}); err != nil {
			t.Errorf("%s %s: %v", c.spec, ret.Name(), err)
		}
		if df, ok := ret.(interface{ DeadlockFree() bool }); strings.HasPrefix(c.ret, "twisted") && (!ok || !df.DeadlockFree()) {
			t.Errorf("%s: %s does not declare itself deadlock-free", c.spec, ret.Name())
		}
	}
	// The cut-through form still fails what it should: ring entries without the bubble.
	net := topology.MustNew("torus:4x4")
	d := duato(t, net, ":return", routing.SchemeBubble).(*routing.Duato)
	rep, err := CheckRoutingWith(ctx, net, withoutBubble{d}, CheckOptions{CutThrough: true})
	if err != nil || rep.DeadlockFree || !strings.Contains(rep.Problem, "without the bubble condition") {
		t.Errorf("unprotected ring entries under cut-through: %+v %v", rep, err)
	}
}
