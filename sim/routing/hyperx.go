package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// HyperXDOR is dimension-order routing on a HyperX ([HX] §4): at a switch, the lowest
// dimension in which the destination switch's coordinate differs, straight to the
// switch of the line with that coordinate; one hop per dimension. Under trunking (K
// parallel links per pair) the packet's salt chooses the link, the same one at every
// hop, so that a message's packets keep their order and a run stays deterministic.
// One VC: a packet's dimensions ascend, so the channel dependency graph is acyclic.
type HyperXDOR struct {
	net    *topology.Network
	l      topology.HyperX
	digits []uint16
}

// NewHyperXDOR makes dimension-order routing on a hyperx (or flatfly) network.
func NewHyperXDOR(net *topology.Network) (*HyperXDOR, error) {
	l, err := net.Spec().HyperX()
	if err != nil {
		return nil, fmt.Errorf("hxdor: %w", err)
	}
	return &HyperXDOR{net: net, l: l, digits: net.DigitTable()}, nil
}

// Name is "hxdor".
func (r *HyperXDOR) Name() string { return "hxdor" }

// Network is the network the routing was made for.
func (r *HyperXDOR) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the routing needs no deadlock scheme.
func (r *HyperXDOR) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the routing cannot deadlock: by construction.
func (r *HyperXDOR) DeadlockFree() bool { return true }

// SourceIndependent reports that routes depend only on the destination (and salt).
func (r *HyperXDOR) SourceIndependent() bool { return true }

// Salted reports whether routes read Head.Salt: under trunking.
func (r *HyperXDOR) Salted() bool { return r.l.K > 1 }

// SaltClasses is the number of salts 0…K−1 whose routes cover every route.
func (r *HyperXDOR) SaltClasses() int { return r.l.K }

// OneCandidatePerHop reports that the routing offers one candidate per hop.
func (*HyperXDOR) OneCandidatePerHop() bool { return true }

// VCs is 1.
func (r *HyperXDOR) VCs(topology.PortKind) int { return 1 }

// Route appends the one port towards h.Dst at switch s.
func (r *HyperXDOR) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	at := r.net.Attachment(int(h.Dst))
	x, n := int(at.Switch), len(r.l.S)
	if s == x {
		return append(out, Candidate{Port: at.Port})
	}
	for d := 0; d < n; d++ {
		if own, want := int(r.digits[s*n+d]), int(r.digits[x*n+d]); own != want {
			return append(out, Candidate{Port: int16(r.l.Port(d, own, want, int(h.Salt%uint32(r.l.K))))})
		}
	}
	panic("hxdor: unreachable") // s != x differ in some dimension
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst (on
// the first parallel link under trunking).
func (r *HyperXDOR) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

// DAL is Ahn et al.'s dimensionally-adaptive, load-balanced routing on a HyperX ([HX]
// §4.3): a packet may travel its unaligned dimensions in any order; in each it either
// takes the minimal hop to the destination's coordinate or first one deroute to
// another switch of that line (at most one per dimension), then the minimal hop. The
// routing offers, at every switch, the minimal hop of every unaligned dimension
// (every parallel link) and the deroutes of every unaligned dimension the packet has
// not moved in yet (its coordinate is still the source's), marked NonMin; the choice
// among them is the selection function's, from the downstream VCs' occupancy
// (minfirst by default: minimal while its VCs are low).
//
// Deadlock freedom: a route has at most two hops per unaligned dimension, so at most
// 2L hops (L dimensions); a packet's h-th hop uses VC h (hop classes, as Gunther's
// distance classes), so every dependency goes to a higher VC and the channel
// dependency graph is acyclic. This is the VC scheme we implement; [HX] does not
// give the scheme in a form we could check against its text here (see docs/model.md).
// It needs 2L VCs per network port.
type DAL struct {
	net    *topology.Network
	l      topology.HyperX
	digits []uint16
	hops   int // 2L: the VCs
}

// NewDAL makes DAL routing on a hyperx (or flatfly) network.
func NewDAL(net *topology.Network) (*DAL, error) {
	l, err := net.Spec().HyperX()
	if err != nil {
		return nil, fmt.Errorf("dal: %w", err)
	}
	return &DAL{net: net, l: l, digits: net.DigitTable(), hops: 2 * len(l.S)}, nil
}

// Name is "dal".
func (r *DAL) Name() string { return "dal" }

// Network is the network the routing was made for.
func (r *DAL) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the hop classes are the routing's own.
func (r *DAL) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the hop classes make the routing deadlock-free.
func (r *DAL) DeadlockFree() bool { return true }

// DefaultSelection is minfirst: minimal while its VCs are low, else a deroute.
func (r *DAL) DefaultSelection() string { return "minfirst" }

// VCs is 2L on network ports (one per hop class), 1 on terminal ports.
func (r *DAL) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal {
		return 1
	}
	return r.hops
}

// MaxCandidates bounds the candidates: K per other switch of every line.
func (r *DAL) MaxCandidates() int { return r.l.NetworkPorts() + 1 }

// Route appends the minimal hops, then the deroutes, for packet h at switch s, which
// arrived by port in on VC inVC.
func (r *DAL) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	at := net.Attachment(int(h.Dst))
	x, n := int(at.Switch), len(r.l.S)
	if s == x {
		return append(out, Candidate{Port: at.Port})
	}
	vc := int8(0)
	if net.Port(s, in).Kind != topology.Terminal {
		vc = int8(inVC + 1)
	}
	src := int(net.Attachment(int(h.Src)).Switch)
	k := r.l.K
	for d := 0; d < n; d++ {
		if own, want := int(r.digits[s*n+d]), int(r.digits[x*n+d]); own != want {
			for j := 0; j < k; j++ {
				out = append(out, Candidate{Port: int16(r.l.Port(d, own, want, j)), VC: vc})
			}
		}
	}
	for d := 0; d < n; d++ {
		own, want := int(r.digits[s*n+d]), int(r.digits[x*n+d])
		if own == want || own != int(r.digits[src*n+d]) {
			continue // aligned, or derouted in d already
		}
		for w := 0; w < r.l.S[d]; w++ {
			if w == own || w == want {
				continue
			}
			for j := 0; j < k; j++ {
				out = append(out, Candidate{Port: int16(r.l.Port(d, own, w, j)), VC: vc, NonMin: true})
			}
		}
	}
	return out
}

// Path appends the route that takes the first candidate at every hop: the minimal
// hop of the lowest unaligned dimension, i.e. dimension order.
func (r *DAL) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func hyperxFits(name string) func(net *topology.Network) error {
	return func(net *topology.Network) error {
		if _, err := net.Spec().HyperX(); err != nil {
			return fmt.Errorf("%s routes HyperX networks (hyperx:S1xS2x...[@T][/K], flatfly:K,N); use min", name)
		}
		return nil
	}
}

func hyperxDORRouting() RoutingDef {
	return RoutingDef{
		Name:    "hxdor",
		Summary: "dimension order on HyperX, one hop per dimension, the parallel link by the packet's salt; 1 VC",
		Scheme:  SchemeNone,
		Fits:    hyperxFits("hxdor"),
		New: func(net *topology.Network, o Options) (Func, error) {
			r, err := NewHyperXDOR(net)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
	}
}

func dalRouting() RoutingDef {
	return RoutingDef{
		Name:    "dal",
		Summary: "HyperX DAL: any unaligned dimension, minimal or one deroute per dimension, adaptively; 2L hop-class VCs",
		Scheme:  SchemeNone,
		Fits:    hyperxFits("dal"),
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone {
				return nil, fmt.Errorf("dal is deadlock-free by its hop-class VCs; use deadlock scheme none, not %s", o.Scheme)
			}
			return NewDAL(net)
		},
	}
}
