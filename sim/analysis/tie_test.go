package analysis

import (
	"context"
	"testing"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// tieNetworks are the twin tori every tie rule is checked on: the 3DT of 128 PEs, the
// 5DT of 64 (every dimension radix 2, every non-split tie a second link), and the
// EXTOLL paper's three 5DT tori of 256, 512 and 1,024 PEs (CBest, where TSDOR runs).
var tieNetworks = []string{"twin:4x4x4/cbest", "twin:2x2x2x2x2/cbest", "twin:4x4x2x2x2/cbest", "twin:4x4x2x4x2/cbest", "twin:4x4x2x4x4/cbest"}

// Every tie rule (plus, minus, mirror) keeps TSDOR and DORT deadlock-free: TSDOR's
// channel dependency graph and DORT's under the VC scheme are acyclic, and under
// bubble flow control DORT's graph of rings is acyclic with every ring entered under
// the bubble condition. Mirror changes only which of two equally short ways a tie
// takes, by source card, inside each routing's own classes; this is the check that
// the papers' proofs still hold.
//
// CheckRouting follows one route per destination and source card through each channel
// (the routes depend on the source only through its card: SourceClass), which is
// exact; on the networks of up to 256 PEs the dependencies it finds are checked
// against CheckCDG's, which routes every pair of PEs.
func TestTieRulesDeadlockFree(t *testing.T) {
	ctx := context.Background()
	for _, spec := range tieNetworks {
		net := topology.MustNew(spec)
		for _, tie := range []routing.Tie{routing.TiePlus, routing.TieMinus, routing.TieMirror} {
			ts := routing.NewTSDOR(net, tie)
			if ts.Tie() != tie {
				t.Fatalf("%s: TSDOR applies tie %q, asked for %q", spec, ts.Tie(), tie)
			}
			for _, rt := range []routing.Func{ts, routing.NewDeterministic(net, routing.SchemeVC, tie), routing.NewDeterministic(net, routing.SchemeBubble, tie)} {
				rep, err := CheckRouting(ctx, net, rt)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.DeadlockFree || rep.Problem != "" || (rt.Name() == "dort/bubble") != (rep.Rings > 0) {
					t.Errorf("%s %s, tie %s: deadlock-free %v, rings %d, problem %q, cycle %s", spec, rt.Name(), tie, rep.DeadlockFree, rep.Rings, rep.Problem, rep.CycleString())
				}
				if net.Terminals() > 256 || rt.Name() == "dort/bubble" {
					continue
				}
				all := check(t, net, rt, nil)
				if !all.Acyclic || all.Dependencies != rep.Dependencies || all.Channels != rep.Channels {
					t.Errorf("%s %s, tie %s: every pair gives acyclic %v, %d dependencies among %d channels; by source card %d among %d",
						spec, rt.Name(), tie, all.Acyclic, all.Dependencies, all.Channels, rep.Dependencies, rep.Channels)
				}
			}
		}
	}
}

// The check by source card still finds the cycles of TSDOR with both PEs' packets in
// one traffic class (oneClass, which keeps TSDOR's SourceClass).
func TestTieCheckFindsCycles(t *testing.T) {
	net := topology.MustNew("twin:4x4x4/cbest")
	for _, tie := range []routing.Tie{routing.TiePlus, routing.TieMirror} {
		rep, err := CheckRouting(context.Background(), net, oneClass{routing.NewTSDOR(net, tie)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.DeadlockFree || len(rep.Cycle) == 0 {
			t.Errorf("TSDOR in one traffic class, tie %s: deadlock-free %v by source card", tie, rep.DeadlockFree)
		}
	}
}

// tieLoadCase is a routing and tie rule whose uniform channel loads TestTieChannelLoads
// checks, with its busiest channel's routes.
type tieLoadCase struct {
	rt      routing.Pather
	tie     routing.Tie
	maxExt  int64 // routes on the busiest external channel
	maxLoad int64 // routes on the busiest channel
}

// On the EXTOLL paper's 256-PE 5DT (twin:4x4x2x2x2/cbest: Card0 d0±, d1±, d2+; Card1
// d2-, d3±, d4±), every pair of PEs routed (LoadAllPairs, no symmetry), every external
// channel of every node carries what a count by hand gives: a channel of dimension d
// (radix k) in direction σ carries (N/k)·(h_σ(PE0) + h_σ(PE1)) routes, h_σ(PE) being
// the hops of the offsets 1..k-1 that PE's packets travel σ (whatever the order of the
// dimensions, a route's leg in d starts at k/N of the PEs' pairs at each position of
// the ring). Radix 4: offsets 1 (+, 1 hop), 3 (-, 1 hop), 2 (a tie, 2 hops): under
// plus h+ = 3 and h- = 1 for both PEs, so the + channels carry three times the -
// channels' routes; under mirror PE1's tie goes -, and both carry (N/4)·4. Radix 2:
// offset 1 is a tie of 1 hop: under plus the - channel (the second link between the two
// nodes) carries nothing; under mirror each carries (N/2)·1. The split dimension d2
// follows TSDOR's own rule (the port on the source's card: PE0 d2+, PE1 d2-) and DORT's
// + under plus and mirror. The busiest channel falls from 384 routes to 256 under
// mirror, TSDOR's bound from 255/384 = 0.664 to 255/256 = 0.996 flits/cycle/PE.
func TestTieChannelLoads(t *testing.T) {
	ctx := context.Background()
	net := topology.MustNew("twin:4x4x2x2x2/cbest")
	n := int64(net.Terminals())
	if net.Config().Card(2, +1) != 0 || len(net.Config().Split(5)) != 1 {
		t.Fatalf("%s: want d2 split with d2+ on Card0", net)
	}
	for _, c := range []tieLoadCase{
		{routing.NewTSDOR(net, routing.TiePlus), routing.TiePlus, 384, 384},
		{routing.NewTSDOR(net, routing.TieMinus), routing.TieMinus, 384, 384},
		{routing.NewTSDOR(net, routing.TieMirror), routing.TieMirror, 256, 256},
		{routing.NewDOR(net, routing.TiePlus), routing.TiePlus, 384, 473},
		{routing.NewDOR(net, routing.TieMirror), routing.TieMirror, 256, 473},
	} {
		_, tsdor := c.rt.(*routing.TSDOR)
		name := map[bool]string{true: "tsdor", false: "dort"}[tsdor]
		// hops[pe][σ]: the hops of the offsets of a radix-k ring that PE pe's packets
		// travel in direction σ (0: +, 1: -) when its ties go tie[pe].
		hops := func(k int, d int) (h [2][2]int64) {
			for pe := 0; pe < 2; pe++ {
				tie := int(c.tie) // plus +1, minus -1
				switch {
				case d == 2 && tsdor: // the port on the source's card
					tie = 1 - 2*pe
				case d == 2 && c.tie == routing.TieMirror: // DORT's split dimension
					tie = +1
				case c.tie == routing.TieMirror:
					tie = 1 - 2*pe
				}
				for off := 1; off < k; off++ {
					switch {
					case 2*off < k:
						h[pe][0] += int64(off)
					case 2*off > k:
						h[pe][1] += int64(k - off)
					case tie > 0:
						h[pe][0] += int64(off)
					default:
						h[pe][1] += int64(off)
					}
				}
			}
			return h
		}
		all, err := LoadAllPairs(ctx, c.rt)
		if err != nil {
			t.Fatal(err)
		}
		sym, err := Load(ctx, c.rt)
		if err != nil {
			t.Fatal(err)
		}
		if !sym.Symmetric || sym.MaxRoutes != all.MaxRoutes || sym.MaxExternal != all.MaxExternal || sym.AvgHops != all.AvgHops {
			t.Errorf("%s, tie %s: by symmetry %d routes (external %d), every pair %d (%d)", name, c.tie, sym.MaxRoutes, sym.MaxExternal, all.MaxRoutes, all.MaxExternal)
		}
		for s := 0; s < net.Switches(); s++ {
			for p := 0; p < net.Ports(s); p++ {
				port := net.Port(s, p)
				if port.Kind != topology.External {
					continue
				}
				d, k := int(port.Dim), net.Radix(int(port.Dim))
				h := hops(k, d)
				dir := 0
				if port.Dir < 0 {
					dir = 1
				}
				if want := n / int64(k) * (h[0][dir] + h[1][dir]); all.Routes(s, p) != want {
					t.Fatalf("%s, tie %s: switch %d port %s carries %d routes, want (%d/%d)·(%d+%d) = %d",
						name, c.tie, s, port.Name(5), all.Routes(s, p), n, k, h[0][dir], h[1][dir], want)
				}
			}
		}
		if all.MaxExternal != c.maxExt || all.MaxRoutes != c.maxLoad {
			t.Errorf("%s, tie %s: busiest channel %d routes (external %d), want %d (%d)", name, c.tie, all.MaxRoutes, all.MaxExternal, c.maxLoad, c.maxExt)
		}
		// The statements themselves, on node 0's channels.
		s0, s1 := net.Switch(0, 0), net.Switch(0, 1)
		d0p, d0m, d3p, d3m := all.Routes(s0, net.DimPort(s0, 0, +1)), all.Routes(s0, net.DimPort(s0, 0, -1)), all.Routes(s1, net.DimPort(s1, 3, +1)), all.Routes(s1, net.DimPort(s1, 3, -1))
		switch c.tie {
		case routing.TiePlus:
			if d0p != 3*d0m || d3m != 0 || d3p == 0 {
				t.Errorf("%s, plus: d0+ %d routes, d0- %d (want 3×), d3+ %d, d3- %d (want 0: the second link idle)", name, d0p, d0m, d3p, d3m)
			}
		case routing.TieMirror:
			if d0p != d0m || d3p != d3m || d3m == 0 {
				t.Errorf("%s, mirror: d0+ %d routes, d0- %d, d3+ %d, d3- %d (want each pair equal, none idle)", name, d0p, d0m, d3p, d3m)
			}
		}
	}
}

// On the EXTOLL paper's three 5DT tori (256, 512, 1,024 PEs), TSDOR's busiest channel is
// a radix-4 ring's: (N/4)·(3+3) routes with both PEs' ties +, (N/4)·(3+1) with mirror
// (the internal links carry fewer), so its uniform-traffic bound (N−1)/max rises from
// about 2/3 to about 1 flit/cycle/PE.
func TestTieTSDORBounds(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"twin:4x4x2x2x2/cbest", "twin:4x4x2x4x2/cbest", "twin:4x4x2x4x4/cbest"} {
		net := topology.MustNew(spec)
		n := int64(net.Terminals())
		for tie, want := range map[routing.Tie]int64{routing.TiePlus: n / 4 * 6, routing.TieMirror: n / 4 * 4} {
			l, err := Load(ctx, routing.NewTSDOR(net, tie))
			if err != nil {
				t.Fatal(err)
			}
			if l.MaxRoutes != want || l.MaxInternal >= want || l.Bound != float64(n-1)/float64(want) {
				t.Errorf("%s, tie %s: busiest channel %d routes (internal %d), bound %.4f; want %d, bound %.4f", spec, tie, l.MaxRoutes, l.MaxInternal, l.Bound, want, float64(n-1)/float64(want))
			}
		}
	}
}
