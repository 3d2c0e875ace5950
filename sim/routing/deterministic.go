package routing

import (
	"fmt"
	"sync"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/topology"
)

// Deterministic is DOR (tori, meshes) or DORT (twin tori) with a deadlock-avoidance
// scheme. It is one function for every family and every twin configuration: the
// internal-link traffic types of [TR] §6.2.1 (Fig. 10) are derived from which
// dimensions the configuration splits.
//
// Internal-link VCs, for a configuration with S split dimensions:
//   - type 1 (crossing to reach a dimension that is not split): one VC, present only
//     when some dimension is not split;
//   - type 2 (the internal link is part of split dimension d's ring): Up and Low VCs per
//     split dimension under SchemeVC, one VC per split dimension under SchemeBubble;
//   - type 3 (the destination is the other PE of the node): one VC.
//
// That gives 4 VCs for SC1 and 7 for SC0 under SchemeVC, 3 and 4 under SchemeBubble,
// and for CBest 2 (n even) or 4/3 (n odd), as the papers state.
type Deterministic struct {
	dor    *DOR
	scheme Scheme
	// Internal-link VC layout.
	type1     int   // VC of type-1 traffic, or -1 when every dimension is split
	type2Base int   // first type-2 VC
	type3     int   // VC of traffic to the other PE
	splitIdx  []int // per dimension: index among split dimensions, or -1
	intVCs    int
	// inDim[g] for global port g: its dimension if it has one, -1 if internal, -2
	// otherwise (a terminal port, a port without a dimension); read once per hop to
	// decide the bubble flag.
	inDim []int8
	// routes[((dsw*switches+s)*ties+i)*classes + k] is next's decision at switch s for
	// a packet to a PE of switch dsw (s != dsw) whose ties go + (i = 0) or - (i = 1),
	// packed by packRoute; ties is 2 under mirror ties (the direction depends on the
	// packet's source), else 1 and i is 0; k is 0 when the decision does not depend on
	// the arrival port, else the arrival's inDim+2. nil when the table would not stay
	// in a core's cache (routeCacheBytes), where computing the hop is cheaper than a
	// miss, or a decision does not fit 16 bits, or before CacheRoutes.
	routes    []uint16
	switches  int
	ties      int
	classes   int
	cacheOnce sync.Once
}

// routeCacheBytes bounds the route cache: above it a lookup misses the core's L2
// cache more often than computing the hop costs.
const routeCacheBytes = 1 << 20

// packRoute packs a candidate of next (Escape is always false there) into 16 bits:
// the port in 8, the VC in 7, the bubble flag in 1; false when it does not fit.
func packRoute(c Candidate) (uint16, bool) {
	if c.Port < 0 || c.Port > 0xff || c.VC < 0 || c.VC > 0x7f {
		return 0, false
	}
	v := uint16(c.Port) | uint16(c.VC)<<8
	if c.Bubble {
		v |= 1 << 15
	}
	return v, true
}

func unpackRoute(v uint16) Candidate {
	return Candidate{Port: int16(v & 0xff), VC: int8(v >> 8 & 0x7f), Bubble: v>>15 != 0}
}

// CacheRoutes prepares the routing for a caller that routes many packets (the engine,
// once it has made RouteCacheEntries decisions): on a network small enough for the
// table to stay in a core's cache it tabulates every decision, from next itself, so a
// cached decision is the computed one by construction. It costs a few milliseconds
// (n² decisions for n switches), which analyses that ask for a few routes do not pay.
// Safe to call from several goroutines and more than once.
func (r *Deterministic) CacheRoutes() { r.cacheOnce.Do(r.buildRouteCache) }

// RouteCacheEntries is the number of decisions CacheRoutes tabulates, 0 when the
// network is too large for the table: a caller can wait until it has made that many
// decisions, so that the table never costs more than twice what it saves.
func (r *Deterministic) RouteCacheEntries() int {
	if r.dor.random { // a packet's ties vary by dimension: 2^dims variants per route
		return 0
	}
	n, ties, classes := r.routeCacheShape()
	if int64(n)*int64(n)*int64(ties*classes)*2 > routeCacheBytes {
		return 0
	}
	return n * n * ties * classes
}

// routeCacheShape is the table's switches, tie directions and arrival classes.
func (r *Deterministic) routeCacheShape() (switches, ties, classes int) {
	classes, ties = 1, 1
	if r.scheme == SchemeBubble { // only the bubble flag depends on the arrival port
		classes = r.dor.net.Dims() + 2
	}
	if r.dor.mirror {
		ties = 2
	}
	return r.dor.net.Switches(), ties, classes
}

func (r *Deterministic) buildRouteCache() {
	if r.RouteCacheEntries() == 0 {
		return
	}
	dests, err := newDestIndex(r.dor.net) // the switches with PEs
	if err != nil {
		return
	}
	n, ties, classes := r.routeCacheShape()
	routes := make([]uint16, n*n*ties*classes)
	for _, d := range dests.sw {
		dsw := int(d)
		for i := 0; i < ties; i++ {
			to := r.dor.switchDest(dsw, r.dor.ties[0])
			if i == 1 {
				to.tie = -1
			}
			for s := 0; s < n; s++ {
				if s == dsw {
					continue
				}
				hop := r.dor.NextTo(s, to)
				for k := 0; k < classes; k++ {
					v, ok := packRoute(r.decide(hop, int8(k-2))) // k-2 = -2 under one class: any arrival
					if !ok {
						return
					}
					routes[((dsw*n+s)*ties+i)*classes+k] = v
				}
			}
		}
	}
	r.routes, r.switches, r.ties, r.classes = routes, n, ties, classes
}

// NewDeterministic makes DOR/DORT with the given scheme and tie rule (TieDefault: plus).
func NewDeterministic(net *topology.Network, scheme Scheme, tie Tie) *Deterministic {
	r := &Deterministic{dor: NewDOR(net, tie), scheme: scheme, type1: -1}
	r.inDim = sysmem.MakeHuge[int8](net.TotalPorts())
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			switch port := net.Port(s, p); {
			case port.Kind == topology.External && port.Dim >= 0:
				r.inDim[net.PortID(s, p)] = port.Dim
			case port.Kind == topology.Internal:
				r.inDim[net.PortID(s, p)] = -1
			default: // a PE's port, or a port without a dimension (an express link): entering
				r.inDim[net.PortID(s, p)] = -2
			}
		}
	}
	r.splitIdx = make([]int, net.Dims())
	for d := range r.splitIdx {
		r.splitIdx[d] = -1
	}
	if !net.IsTwin() {
		return r
	}
	cfg := net.Config()
	split := cfg.Split(net.Dims())
	for i, d := range split {
		r.splitIdx[d] = i
	}
	next := 0
	if len(split) < net.Dims() {
		r.type1 = 0
		next = 1
	}
	r.type2Base = next
	perSplit := 1
	if scheme == SchemeVC {
		perSplit = 2
	}
	r.type3 = next + perSplit*len(split)
	r.intVCs = r.type3 + 1
	return r
}

// Name is "dor/vc", "dort/bubble", ...
func (r *Deterministic) Name() string {
	base := "dor"
	if r.dor.net.IsTwin() {
		base = "dort"
	}
	return base + "/" + r.scheme.String()
}

// Scheme is the deadlock-avoidance scheme.
func (r *Deterministic) Scheme() Scheme { return r.scheme }

// Network is the network the routing was made for.
func (r *Deterministic) Network() *topology.Network { return r.dor.net }

// DOR is the underlying next-hop function.
func (r *Deterministic) DOR() *DOR { return r.dor }

// VCs is the number of VCs used on ports of a kind.
func (r *Deterministic) VCs(kind topology.PortKind) int {
	if r.scheme == SchemeNone {
		return 1
	}
	switch kind {
	case topology.External:
		if r.scheme == SchemeVC && !r.dor.mesh {
			return 2
		}
		return 1
	case topology.Internal:
		return r.intVCs
	}
	return 1
}

// External-link VC classes of the dateline scheme.
const (
	vcLow = 0 // destination digit <= current digit: may still cross the wrap-around link
	vcUp  = 1 // destination digit > current digit
)

// Route appends the one DOR/DORT candidate.
func (r *Deterministic) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	to := r.dor.DestSalted(int(h.Src), int(h.Dst), h.Salt)
	return append(out, r.nextCached(s, r.inDim[r.dor.net.PortID(s, in)], to))
}

// Salted reports whether routes read the packet's salt: under TieRandom, whose
// packets draw their ties from it (DestSalted).
func (r *Deterministic) Salted() bool { return r.dor.random }

// DestSalted is Dest for a packet with salt h.Salt (DOR.DestSalted).
func (r *Deterministic) DestSalted(src, dst int, salt uint32) Dest {
	return r.dor.DestSalted(src, dst, salt)
}

// Next is the DOR/DORT decision at switch s for a packet from terminal src to
// terminal dst that arrived by port in (the source matters only under mirror ties).
func (r *Deterministic) Next(s, in, src, dst int) Candidate {
	return r.nextCached(s, r.inDim[r.dor.net.PortID(s, in)], r.dor.Dest(src, dst))
}

// NextAt is Next for a packet that arrived by global port g (the network's
// PortID(s, in)) and that was looked up by Dest, for a caller that knows both: in a
// large network each table lookup it saves is a cache miss per hop.
func (r *Deterministic) NextAt(s, g int, to Dest) Candidate { return r.nextCached(s, r.inDim[g], to) }

// nextCached is next, read from the route cache when there is one.
func (r *Deterministic) nextCached(s int, inDim int8, to Dest) Candidate {
	if r.routes != nil && s != int(to.Switch) {
		k := 0
		if r.classes > 1 {
			k = int(inDim) + 2
		}
		i := 0
		if r.ties > 1 && to.tie < 0 {
			i = 1
		}
		return unpackRoute(r.routes[((int(to.Switch)*r.switches+s)*r.ties+i)*r.classes+k])
	}
	return r.next(s, inDim, to)
}

// SourceClass is the class of terminal src that DOR/DORT's routes depend on: its card
// under mirror ties on a twin torus (the direction of its ties), else 0 for every
// source (routes depend only on the destination).
func (r *Deterministic) SourceClass(src int) int {
	if !r.dor.mirror {
		return 0
	}
	return r.dor.net.Card(int(r.dor.net.Attachment(src).Switch))
}

// Dest looks up what NextAt reads of a packet from terminal src to terminal dst (its
// destination, and its ties' direction), once per packet.
func (r *Deterministic) Dest(src, dst int) Dest { return r.dor.Dest(src, dst) }

// NextEntering is the DOR/DORT decision for a packet from terminal src to terminal
// dst that enters the routing's channels at switch s, as if injected there: under
// bubble flow control every ring hop is then a ring entry. Adaptive routing takes its
// escape this way when the packet arrived on an adaptive channel.
func (r *Deterministic) NextEntering(s, src, dst int) Candidate {
	return r.nextCached(s, -2, r.dor.Dest(src, dst))
}

// next decides for a packet that arrived by a port of dimension inDim (-1: the
// internal link, -2: anything else: a PE, an express link, an adaptive channel).
func (r *Deterministic) next(s int, inDim int8, to Dest) Candidate {
	return r.decide(r.dor.NextTo(s, to), inDim)
}

// decide turns DOR/DORT's hop into the candidate, for a packet that arrived by a port
// of dimension inDim.
func (r *Deterministic) decide(hop Hop, inDim int8) Candidate {
	c := Candidate{Port: hop.Port}
	if r.scheme == SchemeNone || hop.Kind == topology.Terminal {
		return c
	}
	sameRing := inDim >= 0 && inDim == hop.Dim
	if hop.Kind == topology.External {
		switch {
		case r.dor.mesh: // DOR on a mesh has no cyclic dependency: one VC, no bubble
		case r.scheme == SchemeVC:
			c.VC = upLow(hop.Up)
		default:
			// A packet already in this dimension's ring continues; so does one that
			// crossed the internal link as part of a split dimension's ring (its bubble
			// was checked on the internal link). Everything else enters the ring.
			viaSplitRing := inDim == -1 && r.splitIdx[hop.Dim] >= 0
			c.Bubble = !sameRing && !viaSplitRing
		}
		return c
	}
	// Internal link.
	switch {
	case hop.Dim < 0: // type 3: the destination is the other PE
		c.VC = int8(r.type3)
	case r.splitIdx[hop.Dim] < 0: // type 1: reach a dimension on the other card
		c.VC = int8(r.type1)
	case r.scheme == SchemeVC: // type 2, dateline classes: Up first, then Low
		c.VC = int8(r.type2Base + 2*r.splitIdx[hop.Dim])
		if !hop.Up {
			c.VC++
		}
	default: // type 2, bubble: entering the ring unless already travelling in it
		c.VC = int8(r.type2Base + r.splitIdx[hop.Dim])
		c.Bubble = !sameRing
	}
	return c
}

// upLow is the dateline class of an external hop ([TR] §6.3.1, Algorithm 4): Up
// when the destination digit is greater than the current one, Low otherwise. Low may
// still cross the wrap-around link; Up never does.
func upLow(up bool) int8 {
	if up {
		return vcUp
	}
	return vcLow
}

// Ring identifies the ring that channel (switch s, output port p, VC vc) belongs to
// under bubble flow control, or -1 when it is in none: the channels of one dimension
// and direction along one line of nodes, with, for a split dimension of a twin torus,
// the internal-link VC that carries that ring across each node. Bubble flow control
// keeps each ring from deadlocking on its own; what must be acyclic is the graph
// of dependencies between rings (analysis.CheckCDG).
func (r *Deterministic) Ring(s, p, vc int) int64 {
	net := r.dor.net
	if r.scheme != SchemeBubble || r.dor.mesh {
		return -1
	}
	port := net.Port(s, p)
	var d, dir int
	switch {
	case port.Kind == topology.External && port.Dim >= 0:
		d, dir = int(port.Dim), int(port.Dir)
	case port.Kind == topology.Internal:
		i := vc - r.type2Base
		if i < 0 || vc == r.type3 {
			return -1
		}
		for d = 0; r.splitIdx[d] != i; d++ {
		}
		// The + ring crosses a node from the card holding d- to the card holding d+.
		dir = -1
		if net.Card(s) == net.Config().Card(d, -1) {
			dir = +1
		}
	default:
		return -1
	}
	node := net.Node(s)
	coord := net.Coord(node)
	coord[d] = 0
	di := 0
	if dir < 0 {
		di = 1
	}
	return int64(net.NodeAt(coord))*int64(2*net.Dims()) + int64(2*d+di)
}

// InternalVCs describes the internal-link VCs: for each, its traffic type (1, 2 or 3,
// [TR] §6.2.1) and, for type 2, the split dimension and class ("up", "low", or
// "" under bubble flow control).
func (r *Deterministic) InternalVCs() []InternalVC {
	var out []InternalVC
	if r.scheme == SchemeNone {
		return []InternalVC{{Type: 0}}
	}
	if r.type1 >= 0 {
		out = append(out, InternalVC{Type: 1, Dim: -1})
	}
	for d, i := range r.splitIdx { // in VC order: split dimensions ascending
		if i < 0 {
			continue
		}
		if r.scheme == SchemeVC {
			out = append(out, InternalVC{Type: 2, Dim: d, Class: "up"}, InternalVC{Type: 2, Dim: d, Class: "low"})
		} else {
			out = append(out, InternalVC{Type: 2, Dim: d})
		}
	}
	return append(out, InternalVC{Type: 3, Dim: -1})
}

// InternalVC is one internal-link virtual channel's use.
type InternalVC struct {
	Type  int    // 1: to reach another card's dimension; 2: part of a split dimension's ring; 3: to the other PE; 0: everything (no avoidance)
	Dim   int    // the split dimension of a type-2 VC, else -1
	Class string // "up" or "low" for type-2 VCs under the VC scheme
}

// dorRouting is DOR on tori and meshes (and on any network built on a grid with a
// dimension port for every direction).
func dorRouting() RoutingDef {
	return RoutingDef{
		Name:    "dor",
		Summary: "dimension order, tori and meshes",
		Scheme:  SchemeBubble,
		Fits: func(net *topology.Network) error {
			if net.IsTwin() {
				return fmt.Errorf("twin tori route with dort")
			}
			return gridFits(net)
		},
		New:  newDeterministic,
		Auto: true,
	}
}

// dortRouting is DORT on nDT twin tori.
func dortRouting() RoutingDef {
	return RoutingDef{
		Name:    "dort",
		Summary: "dimension order across twin-torus cards",
		Scheme:  SchemeBubble,
		Fits: func(net *topology.Network) error {
			if !net.IsTwin() {
				return fmt.Errorf("it is for twin tori; use dor")
			}
			return gridFits(net)
		},
		New:  newDeterministic,
		Auto: true,
	}
}

func newDeterministic(net *topology.Network, o Options) (Func, error) {
	if o.Scheme == SchemeEscape { // DOR's own channels, plus an up*/down* escape VC
		return withScheme(NewDeterministic(net, SchemeNone, o.Tie), net, SchemeEscape)
	}
	return NewDeterministic(net, o.Scheme, o.Tie), nil
}

// DeadlockFree reports whether the routing cannot deadlock by construction: under the
// VC and bubble schemes (the papers' proofs; analysis.CheckCDG verifies them), and DOR
// on a mesh under any (its lines have no wrap-around, so dimension order leaves no
// cycle of channel dependencies: Dally and Seitz).
func (r *Deterministic) DeadlockFree() bool {
	return r.scheme != SchemeNone || r.dor.mesh && !r.dor.net.IsTwin()
}

// OneCandidatePerHop reports that Deterministic offers one candidate per hop (see Selects).
func (*Deterministic) OneCandidatePerHop() bool { return true }
