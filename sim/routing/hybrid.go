package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// HybridDOR is the deterministic routing of the KNS family (Peñaranda et al. §4): in
// routers, Hybrid-DOR, the first dimension (ascending) in which the destination
// router's coordinate differs, through the router's one port into that dimension's
// subnet; in a crossbar, the port of the destination's coordinate x_d; in a fat-tree
// subnet, the load-balanced routing of their ref. [18] on t = x_d: up port k_i + t_e
// at stage e until the switch is above router t, then down port t_e; in a RUFT, port
// t_e at every stage (every packet crosses all stages and returns to the routers).
//
// It is deadlock-free with one VC: dimensions are crossed in order, and inside a
// subnet fat-tree routes go up then down and RUFT routes go forward through the
// stages, so the channel dependency graph is acyclic (the paper's argument;
// analysis.CheckRouting verifies it on the tests' networks). Routes ignore the source.
type HybridDOR struct {
	net    *topology.Network
	l      *topology.KNS
	digits []uint16 // router coordinates, router*NH + d
	// Per subnet switch (index sw − Routers): dimension, stage, position in the stage.
	dim   []int8
	stage []int8
	pos   []int32
	ruft  bool
}

// NewHybridDOR makes Hybrid-DOR for a network of the kns family.
func NewHybridDOR(net *topology.Network) (*HybridDOR, error) {
	l, err := net.Spec().KNS()
	if err != nil {
		return nil, fmt.Errorf("hybrid-dor: %w", err)
	}
	n := l.SubnetSwitches()
	r := &HybridDOR{net: net, l: l, digits: net.DigitTable(), dim: make([]int8, n), stage: make([]int8, n), pos: make([]int32, n),
		ruft: l.Subnet == topology.SubnetRUFT}
	for i := range n {
		d, _, e, c := l.LocateSubnet(l.Routers + i)
		r.dim[i], r.stage[i], r.pos[i] = int8(d), int8(e), int32(c)
	}
	return r, nil
}

// Name is "hybrid-dor".
func (r *HybridDOR) Name() string { return "hybrid-dor" }

// Network is the network the routing was made for.
func (r *HybridDOR) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the routing needs no deadlock scheme.
func (r *HybridDOR) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the routing cannot deadlock: by construction.
func (r *HybridDOR) DeadlockFree() bool { return true }

// SourceIndependent reports that routes depend only on the destination.
func (r *HybridDOR) SourceIndependent() bool { return true }

// VCs is 1.
func (r *HybridDOR) VCs(topology.PortKind) int { return 1 }

// Route appends the one port towards h.Dst at switch s.
func (r *HybridDOR) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	l := r.l
	at := r.net.Attachment(int(h.Dst))
	x := int(at.Switch) // the destination's router
	nh := l.NH
	if s < l.Routers {
		if s == x {
			return append(out, Candidate{Port: at.Port})
		}
		for d := 0; d < nh; d++ {
			if r.digits[s*nh+d] != r.digits[x*nh+d] {
				return append(out, Candidate{Port: int16(l.RouterOut(d))})
			}
		}
	}
	i := s - l.Routers
	d, e, c := int(r.dim[i]), int(r.stage[i]), int(r.pos[i])
	t := int(r.digits[x*nh+d])
	if l.SH == 1 { // crossbar
		return append(out, Candidate{Port: int16(t)})
	}
	te := t / l.KIPow(e) % l.KI
	if r.ruft || c/l.KIPow(e) != t/l.KIPow(e+1) { // RUFT, or not yet above router t
		return append(out, Candidate{Port: int16(l.KI + te)})
	}
	return append(out, Candidate{Port: int16(te)})
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst.
func (r *HybridDOR) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func hybridRouting() RoutingDef {
	return RoutingDef{
		Name:    "hybrid-dor",
		Summary: "KNS: Hybrid-DOR in routers, destination digits in crossbars, fat-trees and RUFTs",
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilyKNS {
				return fmt.Errorf("it routes KNS networks (kns:KH,NH,SH); use min or updown")
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			r, err := NewHybridDOR(net)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
	}
}

// OneCandidatePerHop reports that HybridDOR offers one candidate per hop (see Selects).
func (*HybridDOR) OneCandidatePerHop() bool { return true }
