package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// SlimFlyRouting is MIN or VAL on a Slim Fly ([SF] §3.2), from a table of hop
// distances:
//
//   - MIN: a shortest path, at most two hops (diameter 2), the lowest-numbered
//     minimal port at each switch;
//   - VAL (Valiant): a shortest path to an intermediate router drawn from the
//     packet's salt (uniform over the routers, so a run stays deterministic), then a
//     shortest path to the destination, at most four hops. A packet that meets its
//     destination router on the way is delivered there.
//
// Deadlock freedom: a packet's h-th hop uses VC h ([SF] §3.2's VC per hop), so every
// dependency goes to a higher VC: 2 VCs for MIN, 4 for VAL. The hop is read from the
// VC the packet arrived on, so routes depend on nothing else.
//
// UGAL (choosing between the MIN and a VAL path at the source from queue
// occupancy, [SF] §3.2) is left to the min-vs-nonmin decision the dragonfly's UGAL
// uses: it would offer the first hop of both paths here (the VAL one marked NonMin,
// on the same hop-class VCs, 4 of them) and let that decision pick; not built yet.
type SlimFlyRouting struct {
	net     *topology.Network
	valiant bool
	dests   distTable
}

// NewSlimFlyRouting makes MIN (valiant false) or VAL routing on a slimfly network.
func NewSlimFlyRouting(net *topology.Network, valiant bool) (*SlimFlyRouting, error) {
	if net.Spec().Family != topology.FamilySlimFly {
		return nil, fmt.Errorf("Slim Fly routing on %s: not a slimfly network", net)
	}
	t, err := newDistTable(net)
	if err != nil {
		return nil, fmt.Errorf("Slim Fly routing on %s: %w", net, err)
	}
	if len(t.sw) != net.Switches() {
		return nil, fmt.Errorf("Slim Fly routing on %s: every router needs PEs (intermediates are routers)", net)
	}
	return &SlimFlyRouting{net: net, valiant: valiant, dests: t}, nil
}

// Name is "sfmin" or "sfval".
func (r *SlimFlyRouting) Name() string {
	if r.valiant {
		return "sfval"
	}
	return "sfmin"
}

// Network is the network the routing was made for.
func (r *SlimFlyRouting) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the hop-class VCs are the routing's own.
func (r *SlimFlyRouting) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the hop classes make the routing deadlock-free.
func (r *SlimFlyRouting) DeadlockFree() bool { return true }

// SourceIndependent reports whether routes depend only on the destination: MIN's.
func (r *SlimFlyRouting) SourceIndependent() bool { return !r.valiant }

// Salted reports whether routes read Head.Salt: VAL's intermediate.
func (r *SlimFlyRouting) Salted() bool { return r.valiant }

// SaltClasses is the number of salts 0…n−1 whose routes cover all: one per router
// for VAL.
func (r *SlimFlyRouting) SaltClasses() int {
	if r.valiant {
		return r.net.Switches()
	}
	return 1
}

// OneCandidatePerHop reports that the routing offers one candidate per hop.
func (*SlimFlyRouting) OneCandidatePerHop() bool { return true }

// VCs is 2 (MIN) or 4 (VAL) on network ports, 1 on terminal ports.
func (r *SlimFlyRouting) VCs(kind topology.PortKind) int {
	switch {
	case kind == topology.Terminal:
		return 1
	case r.valiant:
		return 4
	}
	return 2
}

// Intermediate is VAL's intermediate router for a packet with this salt.
func (r *SlimFlyRouting) Intermediate(salt uint32) int { return int(salt % uint32(r.net.Switches())) }

// Route appends the one port for packet h at switch s, which arrived by port in on
// VC inVC.
func (r *SlimFlyRouting) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	at := net.Attachment(int(h.Dst))
	dsw := int(at.Switch)
	if s == dsw {
		return append(out, Candidate{Port: at.Port})
	}
	hop := 0
	if net.Port(s, in).Kind != topology.Terminal {
		hop = inVC + 1
	}
	target := dsw
	if r.valiant {
		src := int(net.Attachment(int(h.Src)).Switch)
		mid := r.Intermediate(h.Salt)
		if hop < int(r.dests.at(mid, src)) && mid != s { // still on the way to the intermediate
			target = mid
		}
	}
	want := r.dests.at(target, s) - 1
	for p := 0; p < net.Ports(s); p++ {
		if peer := net.Port(s, p).Peer; peer >= 0 && r.dests.at(target, int(peer)) == want {
			return append(out, Candidate{Port: int16(p), VC: int8(hop)})
		}
	}
	panic(fmt.Sprintf("%s: switch %d has no port towards switch %d", r.Name(), s, target)) // the table says one exists
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst
// (VAL: with salt 0's intermediate).
func (r *SlimFlyRouting) Path(src, dst int, buf []Step) []Step {
	return firstPath(r.net, r, src, dst, buf)
}

func slimflyRouting(valiant bool) RoutingDef {
	name, summary := "sfmin", "Slim Fly MIN: shortest paths (at most 2 hops), a VC per hop (2)"
	if valiant {
		name, summary = "sfval", "Slim Fly VAL: shortest paths to an intermediate router from the packet's salt, then to the destination; a VC per hop (4)"
	}
	return RoutingDef{
		Name:    name,
		Summary: summary,
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilySlimFly {
				return fmt.Errorf("%s routes Slim Fly networks (slimfly:Q); use min", name)
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone {
				return nil, fmt.Errorf("%s is deadlock-free by its VC per hop; use deadlock scheme none, not %s", name, o.Scheme)
			}
			return NewSlimFlyRouting(net, valiant)
		},
	}
}
