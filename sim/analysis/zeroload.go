package analysis

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// RouteHops is the exact zero-load route length of a routing with a selection
// function under uniform traffic: the mean over ordered pairs of distinct PEs of the
// expected number of switch-to-switch hops (internal links included), with the
// internal-link crossings and the hops on escape channels counted apart. At zero load
// every downstream VC is empty, so a selection function takes one of
// routing.ZeroLoadChoices, each with equal probability (round-robin pointers taken as
// equally likely anywhere).
type RouteHops struct {
	Routing, Selection string
	PEs                int
	Hops               float64 // mean hops per packet
	Internal           float64 // mean internal-link crossings per packet
	Escape             float64 // mean hops on escape channels per packet
	// Min and Max are the shortest and longest route a packet may take between any
	// two PEs with the selection's zero-load choices.
	Min, Max int
}

// ZeroLoadHops computes RouteHops for a routing whose routes do not depend on the
// source (DOR/DORT, adaptive, min, tables). The recursion runs once per destination
// over (switch, arrival port, escaped) states; on a network with translation symmetry
// DOR/DORT and Duato's routing route alike from every node, so only the destinations
// on node 0 are needed (ZeroLoadHopsAllPairs routes to every PE, the reference the
// tests compare with).
func ZeroLoadHops(ctx context.Context, net *topology.Network, rt routing.Func, sel routing.Selection) (*RouteHops, error) {
	return zeroLoadHops(ctx, net, rt, sel, translationInvariant(net, rt))
}

// ZeroLoadHopsAllPairs is ZeroLoadHops routing to every destination, with no symmetry.
func ZeroLoadHopsAllPairs(ctx context.Context, net *topology.Network, rt routing.Func, sel routing.Selection) (*RouteHops, error) {
	return zeroLoadHops(ctx, net, rt, sel, false)
}

// translationInvariant reports whether rt routes every translate of a route alike on
// net: DOR/DORT and Duato's routing decide by coordinate differences in rings, and the
// selection functions by port classes, which translation keeps.
func translationInvariant(net *topology.Network, rt routing.Func) bool {
	switch rt.(type) {
	case *routing.Deterministic, *routing.Duato:
		return net.Translational() && !net.IsMesh()
	}
	return false
}

func zeroLoadHops(ctx context.Context, net *topology.Network, rt routing.Func, sel routing.Selection, symmetric bool) (*RouteHops, error) {
	if _, det := rt.(*routing.Deterministic); !det {
		if si, ok := rt.(interface{ SourceIndependent() bool }); !ok || !si.SourceIndependent() {
			return nil, fmt.Errorf("zero-load route lengths of %s: its routes depend on the source", rt.Name())
		}
	}
	sel = sel.Resolve(rt)
	sl, err := sel.New(net, 1)
	if err != nil {
		return nil, err
	}
	z := &zeroLoad{net: net, rt: rt, sel: sl, memo: make([]hopState, 2*net.TotalPorts())}
	rep := &RouteHops{Routing: rt.Name(), Selection: sel.String(), PEs: net.Terminals(), Min: -1}
	var sum, sumInt, sumEsc float64
	weight := 1.0
	for dst := 0; dst < net.Terminals(); dst++ {
		if symmetric && net.Node(int(net.Attachment(dst).Switch)) != 0 {
			continue // its translate on node 0 stands for it
		}
		if symmetric {
			weight = float64(net.Nodes())
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("zero-load route lengths of %s on %s: %w", rt.Name(), net, err)
		}
		z.stamp++
		z.dst = dst
		for src := 0; src < net.Terminals(); src++ {
			if src == dst {
				continue
			}
			at := net.Attachment(src)
			h, err := z.expect(int(at.Switch), int(at.Port), 0, false, 0)
			if err != nil {
				return nil, fmt.Errorf("zero-load route lengths of %s on %s, PE %d to %d: %w", rt.Name(), net, src, dst, err)
			}
			sum, sumInt, sumEsc = sum+weight*h.hops, sumInt+weight*h.internal, sumEsc+weight*h.escape
			if rep.Min < 0 || int(h.min) < rep.Min {
				rep.Min = int(h.min)
			}
			rep.Max = max(rep.Max, int(h.max))
		}
	}
	pairs := float64(net.Terminals()) * float64(net.Terminals()-1)
	if pairs > 0 {
		rep.Hops, rep.Internal, rep.Escape = sum/pairs, sumInt/pairs, sumEsc/pairs
	}
	if rep.Min < 0 {
		rep.Min = 0
	}
	return rep, nil
}

type hopState struct {
	stamp                  uint32
	busy                   bool // on the recursion's stack: reaching it again is a loop
	hops, internal, escape float64
	min, max               int32
}

type zeroLoad struct {
	net   *topology.Network
	rt    routing.Func
	sel   routing.Selector
	dst   int
	stamp uint32
	memo  []hopState // (global arrival port, escaped), for the current destination
}

// expect is the expected remaining route from switch s, entered by port in on VC vc.
func (z *zeroLoad) expect(s, in, vc int, escaped bool, depth int) (hopState, error) {
	net := z.net
	key := 2 * net.PortID(s, in)
	if escaped {
		key++
	}
	m := &z.memo[key]
	if m.stamp == z.stamp {
		if m.busy {
			return hopState{}, fmt.Errorf("the route loops through switch %d", s)
		}
		return *m, nil
	}
	if depth > 4*net.Switches() {
		return hopState{}, fmt.Errorf("the route is longer than %d hops", 4*net.Switches())
	}
	*m = hopState{stamp: z.stamp, busy: true}
	cands := z.rt.Route(s, in, vc, routing.Head{Dst: int32(z.dst), Escaped: escaped}, nil)
	if len(cands) == 0 {
		return hopState{}, fmt.Errorf("switch %d offers no port", s)
	}
	choices := routing.ZeroLoadChoices(z.sel, s, cands, nil)
	var r hopState
	r.min = -1
	p := 1 / float64(len(choices))
	for _, i := range choices {
		c := cands[i]
		port := net.Port(s, int(c.Port))
		if port.Kind == topology.Terminal {
			if int(port.Terminal) != z.dst {
				return hopState{}, fmt.Errorf("switch %d delivers to PE %d", s, port.Terminal)
			}
			r.min = 0
			continue
		}
		next, err := z.expect(int(port.Peer), int(port.PeerPort), int(c.VC), escaped || c.Escape, depth+1)
		if err != nil {
			return hopState{}, err
		}
		r.hops += p * (1 + next.hops)
		r.internal += p * next.internal
		r.escape += p * next.escape
		if port.Kind == topology.Internal {
			r.internal += p
		}
		if c.Escape {
			r.escape += p
		}
		if r.min < 0 || next.min+1 < r.min {
			r.min = next.min + 1
		}
		r.max = max(r.max, next.max+1)
	}
	r.stamp = z.stamp
	z.memo[key] = r
	return r, nil
}
