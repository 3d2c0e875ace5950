package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// FlatDOR is minimal dimension-order routing on a flattened butterfly: at a switch,
// the first dimension (ascending) in which the destination switch's coordinate
// differs, straight to the switch of the line with that coordinate; one hop per
// dimension. The KNS paper does not state its FB routing; minimal DOR is the usual
// one. With one VC it is deadlock-free: a packet's dimensions ascend, so the channel
// dependency graph is acyclic. Routes ignore the source.
type FlatDOR struct {
	net    *topology.Network
	l      topology.FlatFly
	digits []uint16
}

// NewFlatDOR makes minimal DOR for a network of the flatfly family.
func NewFlatDOR(net *topology.Network) (*FlatDOR, error) {
	l, err := net.Spec().FlatFly()
	if err != nil {
		return nil, fmt.Errorf("fbdor: %w", err)
	}
	return &FlatDOR{net: net, l: l, digits: net.DigitTable()}, nil
}

// Name is "fbdor".
func (r *FlatDOR) Name() string { return "fbdor" }

// Network is the network the routing was made for.
func (r *FlatDOR) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the routing needs no deadlock scheme.
func (r *FlatDOR) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the routing cannot deadlock: by construction.
func (r *FlatDOR) DeadlockFree() bool { return true }

// SourceIndependent reports that routes depend only on the destination.
func (r *FlatDOR) SourceIndependent() bool { return true }

// VCs is 1.
func (r *FlatDOR) VCs(topology.PortKind) int { return 1 }

// Route appends the one port towards h.Dst at switch s.
func (r *FlatDOR) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	at := r.net.Attachment(int(h.Dst))
	x, n := int(at.Switch), r.l.N
	if s == x {
		return append(out, Candidate{Port: at.Port})
	}
	for d := 0; d < n; d++ {
		if own, want := int(r.digits[s*n+d]), int(r.digits[x*n+d]); own != want {
			return append(out, Candidate{Port: int16(r.l.Port(d, own, want))})
		}
	}
	panic("fbdor: unreachable") // s != x differ in some dimension
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst.
func (r *FlatDOR) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func flatDORRouting() RoutingDef {
	return RoutingDef{
		Name:    "fbdor",
		Summary: "minimal dimension order on flattened butterflies, one hop per dimension",
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilyFlatFly {
				return fmt.Errorf("it routes flattened butterflies (flatfly:K,N); use min")
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			r, err := NewFlatDOR(net)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
	}
}

// OneCandidatePerHop reports that FlatDOR offers one candidate per hop (see Selects).
func (*FlatDOR) OneCandidatePerHop() bool { return true }
