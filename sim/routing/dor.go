package routing

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/topology"
)

// Tie is the rule that decides the direction a deterministic routing (DOR, DORT,
// TSDOR) takes in a ring when both ways are equally short: distance k/2 in a ring of
// even radix k.
type Tie int8

const (
	// TieDefault is the routing's own rule (RoutingDef.Tie): mirror for TSDOR, plus
	// for DOR and DORT. It is the zero value, so an Options or a call that names no
	// rule gets the routing's.
	TieDefault Tie = 0
	// TiePlus sends ties in the + direction: the 3DT papers' rule ("we take always
	// the positive direction"), which reproduces their Table 1.1.
	TiePlus Tie = +1
	// TieMinus sends ties in the - direction.
	TieMinus Tie = -1
	// TieMirror sends the ties of packets from Card0 (PE0) in the + direction and
	// those of packets from Card1 (PE1) in the - direction: PE1's traffic is the
	// mirror image of PE0's, as [EXT] §3.1 builds TSDOR's two traffic classes. On a
	// network without twin cards every packet comes from a Card0, so mirror is plus.
	TieMirror Tie = 2
	// TieRandom lets each packet draw the direction of its ties, per dimension, from
	// its own salt (Head.Salt): BookSim2's dim_order_torus draws one at random when a
	// packet turns into a ring at distance k/2. Ties then split evenly between the two
	// directions, as in expectation in BookSim2.
	TieRandom Tie = 3
)

// tieNames are the tie rules by name, in the order help texts list them.
var tieNames = []struct {
	tie  Tie
	name string
}{{TiePlus, "plus"}, {TieMinus, "minus"}, {TieMirror, "mirror"}, {TieRandom, "random"}}

// String is the rule's name as specs and the command line spell it: plus, minus,
// mirror, or "" for TieDefault.
func (t Tie) String() string {
	for _, n := range tieNames {
		if n.tie == t {
			return n.name
		}
	}
	if t == TieDefault {
		return ""
	}
	return fmt.Sprintf("tie(%d)", int8(t))
}

// TieNames lists the accepted tie rules for help texts and errors: "plus, minus and
// mirror".
func TieNames() string {
	names := make([]string, len(tieNames))
	for i, n := range tieNames {
		names[i] = n.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ParseTie reads a tie rule: plus (or +), minus (or -), mirror, or nothing for the
// routing's own rule (TieDefault).
func ParseTie(s string) (Tie, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "":
		return TieDefault, nil
	case "+":
		return TiePlus, nil
	case "-":
		return TieMinus, nil
	default:
		for _, n := range tieNames {
			if n.name == v {
				return n.tie, nil
			}
		}
	}
	return 0, fmt.Errorf("unknown tie rule %q: accepted are %s (or nothing: the routing's own, mirror for tsdor, plus otherwise)", s, TieNames())
}

// Valid reports whether t is one of the rules (TieDefault included).
func (t Tie) Valid() bool {
	return t == TieDefault || t == TiePlus || t == TieMinus || t == TieMirror || t == TieRandom
}

// Resolve is the rule a routing whose own rule is def applies on net when asked for
// t: TieDefault becomes def (plus when def is TieDefault too), and mirror becomes plus
// on a network without twin cards, where every packet leaves from a Card0. Two
// points whose rules resolve alike run the same routes.
func (t Tie) Resolve(def Tie, net *topology.Network) Tie {
	if t == TieDefault {
		t = def
	}
	if t == TieDefault {
		t = TiePlus
	}
	if t == TieMirror && !net.IsTwin() {
		t = TiePlus
	}
	return t
}

// bySource is the direction (+1 or -1) the ties of packets from each card take under
// a resolved rule.
func (t Tie) bySource() [2]int8 {
	switch t {
	case TieMinus:
		return [2]int8{-1, -1}
	case TieMirror:
		return [2]int8{+1, -1}
	}
	return [2]int8{+1, +1}
}

// Direction is the direction (+1 or -1) of the shortest way from digit cur to digit dst
// in a ring of k nodes, or 0 when they are equal. In a mesh there is no wrap-around.
// At a tie, TieMinus goes -1 and every other rule +1: a per-source rule (mirror) must
// be resolved to the packet's own direction first.
func Direction(cur, dst, k int, tie Tie, mesh bool) int {
	if cur == dst {
		return 0
	}
	if mesh {
		if dst > cur {
			return +1
		}
		return -1
	}
	fwd := dst - cur // hops in the + direction
	if fwd < 0 {
		fwd += k
	}
	switch {
	case 2*fwd < k:
		return +1
	case 2*fwd > k:
		return -1
	}
	if tie == TieMinus {
		return -1
	}
	return +1
}

// DOR is dimension-order routing (ascending dimensions, shortest way per ring) on tori
// and meshes, and DORT on nDT twin tori: DOR on the node, crossing the internal link
// first when the wanted port is on the other card, and crossing it at the destination
// node when the destination PE is on the other card.
//
// Ties (distance k/2 in a ring of even k) follow the Tie rule. Plus and minus apply in
// every dimension, the split ones of a twin torus included (as before mirror existed).
// Mirror applies in the dimensions whose two ports are on one card; in a split
// dimension ties go +, DORT's rule: DORT travels the dimensions in one order from both
// PEs, so its split ring has no mirror image, and sending PE1's ties there - would take
// the port on the other card (CBest with d_mid+ on Card0: a crossing to reach it and
// one more after it, +0.41 internal hops per packet on twin:4x4x2x2x2). Under mirror a
// packet's ties depend on its source's card; DOR reads that once per packet, with its
// destination (Dest), so a hop costs the same under every rule.
type DOR struct {
	net  *topology.Network
	tie  Tie     // resolved: plus, minus, or mirror on a twin torus
	ties [2]int8 // the direction of a tie by the packet's source card
	mesh bool
	// mirror: ties depend on the source card (TieMirror on a twin torus), except in
	// the split dimensions (bits of split), where they go +.
	mirror bool
	// random: ties follow the packet's salt (TieRandom, DestSalted).
	random bool
	split  uint16
	digits []uint16 // the network's coordinate table
	radix  []int
	dims   int
	// packed[node] holds a node's coordinates one byte each, when every radix is at
	// most 256: the first dimension in which two nodes differ is then the lowest
	// non-zero byte of the XOR of their words.
	packed []uint64
}

// NewDOR makes DOR (DORT on twin tori) for a network with a tie rule (TieDefault:
// plus, the 3DT papers').
func NewDOR(net *topology.Network, tie Tie) *DOR {
	tie = tie.Resolve(TiePlus, net)
	r := &DOR{net: net, tie: tie, ties: tie.bySource(), mirror: tie == TieMirror, random: tie == TieRandom, mesh: net.IsMesh(), digits: net.DigitTable(), radix: net.Radices(), dims: net.Dims()}
	if r.mirror {
		for _, d := range net.Config().Split(r.dims) {
			r.split |= 1 << d // d < topology.MaxTwinDims
		}
	}
	small := r.dims <= 8 // a byte per coordinate in a word
	for _, k := range r.radix {
		small = small && k <= 256
	}
	if small {
		r.packed = sysmem.MakeHuge[uint64](net.Nodes())
		for o := range r.packed {
			for d := 0; d < r.dims; d++ {
				r.packed[o] |= uint64(r.digits[o*r.dims+d]) << (8 * d)
			}
		}
	}
	return r
}

// Network is the network the routing was made for.
func (r *DOR) Network() *topology.Network { return r.net }

// Tie is the tie rule DOR applies, resolved (never TieDefault; mirror only on twin tori).
func (r *DOR) Tie() Tie { return r.tie }

// Hop is one routing decision: the output port and its kind, and the dimension and
// direction the packet travels in (Dim = -1 when it leaves by the internal link to the
// destination PE or by a terminal port). Up says the destination's digit in Dim is
// greater than the current one: the dateline class of the hop.
type Hop struct {
	Port int16
	Kind topology.PortKind
	Dim  int8
	Dir  int8
	Up   bool
}

// Dest is what DOR reads of a packet: its destination's switch and port, the
// coordinates of its node packed a byte each (when the network's radices allow), and
// the direction its ties take (by its source's card under mirror). A caller that
// routes the same packet at every hop can look it up once (DOR.Dest) and route with
// NextTo: in a large network each lookup is a cache miss.
type Dest struct {
	packed uint64
	Switch int32
	Port   int16
	tie    int8 // +1 or -1 (0 reads as +1)
	// tieBits: under TieRandom, bit d&7 set sends the packet's ties in dimension d
	// the - way (DestSalted).
	tieBits uint8
}

// Dest looks up the destination of a packet from terminal src to terminal dst for
// NextTo. The source matters only under mirror ties.
func (r *DOR) Dest(src, dst int) Dest {
	at := r.net.Attachment(dst)
	d := r.switchDest(int(at.Switch), r.tieOf(src))
	d.Port = at.Port
	return d
}

// DestSalted is Dest for a packet with salt (Head.Salt): under TieRandom its ties
// take the directions its salt draws, else it is Dest.
func (r *DOR) DestSalted(src, dst int, salt uint32) Dest {
	d := r.Dest(src, dst)
	if r.random {
		d.tieBits = uint8(salt)
	}
	return d
}

// Random reports whether the packets' ties follow their salts (TieRandom).
func (r *DOR) Random() bool { return r.random }

// tieOf is the direction of the ties of a packet from terminal src.
func (r *DOR) tieOf(src int) int8 {
	if !r.mirror {
		return r.ties[0]
	}
	return r.ties[r.net.Card(int(r.net.Attachment(src).Switch))&1]
}

// switchDest is the destination of switch s itself, for hops before it (its Port,
// the PE's, is read only at s), for a packet whose ties go tie.
func (r *DOR) switchDest(s int, tie int8) Dest {
	d := Dest{Switch: int32(s), tie: tie}
	if r.packed != nil {
		d.packed = r.packed[r.net.Node(s)]
	}
	return d
}

// Next is the hop DOR takes at switch s for a packet from terminal src to terminal dst.
func (r *DOR) Next(s, src, dst int) Hop { return r.NextTo(s, r.Dest(src, dst)) }

// NextTo is Next for a packet looked up by Dest.
func (r *DOR) NextTo(s int, to Dest) Hop {
	net := r.net
	dsw := int(to.Switch)
	cur, dn := net.Node(s), net.Node(dsw)
	if cur != dn {
		var d, c, t int
		if r.packed != nil {
			pc, pd := r.packed[cur], to.packed
			d = bits.TrailingZeros64(pc^pd) / 8
			c, t = int(pc>>(8*d))&0xff, int(pd>>(8*d))&0xff
		} else {
			ci, di := cur*r.dims, dn*r.dims
			for d = 0; r.digits[ci+d] == r.digits[di+d]; d++ {
			}
			c, t = int(r.digits[ci+d]), int(r.digits[di+d])
		}
		tie := Tie(to.tie)
		switch {
		case r.split>>d&1 != 0:
			tie = TiePlus // mirror's ties in a split dimension
		case r.random && to.tieBits>>(d&7)&1 != 0:
			tie = TieMinus
		}
		dir := Direction(c, t, r.radix[d], tie, r.mesh)
		if p := net.DimPort(s, d, dir); p >= 0 {
			return Hop{Port: int16(p), Kind: topology.External, Dim: int8(d), Dir: int8(dir), Up: t > c}
		}
		return Hop{Port: int16(net.InternalPort(s)), Kind: topology.Internal, Dim: int8(d), Dir: int8(dir), Up: t > c}
	}
	if s == dsw {
		return Hop{Port: to.Port, Kind: topology.Terminal, Dim: -1}
	}
	return Hop{Port: int16(net.InternalPort(s)), Kind: topology.Internal, Dim: -1}
}

// Path appends to buf the (switch, output port) hops of the DOR route from terminal src
// to terminal dst, ending with the ejection port at the destination switch.
func (r *DOR) Path(src, dst int, buf []Step) []Step {
	s := int(r.net.Attachment(src).Switch)
	to := r.Dest(src, dst)
	for {
		h := r.NextTo(s, to)
		buf = append(buf, Step{Switch: s, Port: int(h.Port)})
		if h.Kind == topology.Terminal {
			return buf
		}
		s = int(r.net.Port(s, int(h.Port)).Peer)
	}
}

// Step is one hop of a path: the switch and the port the packet leaves it by.
type Step struct {
	Switch, Port int
}

// gridFits checks what DOR and DORT assume of a network: every switch on a grid; at
// every node, for each dimension and direction, one port (on either card of a twin
// node, which then has an internal link to the other card) that links to the next
// node in that direction and arrives there by the opposite port; every ring closed
// (torus) or every line open at its ends (mesh); on twin tori, the same
// configuration at every node. Every family on a grid passes; networks from a Builder
// or a file pass when they are such grids.
func gridFits(net *topology.Network) error {
	dims := net.Dims()
	if dims == 0 {
		return fmt.Errorf("it needs node coordinates (a grid), and %s has none; use min or adaptive", net)
	}
	if !net.OnGrid(net.Switches() - 1) {
		return fmt.Errorf("switch %d is off the grid; use min or adaptive", net.Switches()-1)
	}
	twin := net.IsTwin()
	for s := 0; s < net.Switches(); s++ {
		node := net.Node(s)
		if twin {
			if p := net.InternalPort(s); p < 0 || int(net.Port(s, p).Peer) != s^1 {
				return fmt.Errorf("switch %d has no internal link to the other card of its node", s)
			}
		}
		for d := 0; d < dims; d++ {
			for _, dir := range []int{+1, -1} {
				// Named only for an error: naming every port was half of checking it,
				// and a spec's validation checks a network once per routing and scheme.
				name := func() string { return topology.DimPortName(d, dir, dims) }
				p := net.DimPort(s, d, dir)
				if twin && (p >= 0) != (net.Card(s) == net.Config().Card(d, dir)) {
					return fmt.Errorf("switch %d does not have configuration %s's ports (see its %s port)", s, net.Config().Ports(dims), name())
				}
				if p < 0 {
					if !twin {
						return fmt.Errorf("switch %d has no %s port", s, name())
					}
					continue
				}
				port := net.Port(s, p)
				edge := dir > 0 && net.Digit(node, d) == net.Radix(d)-1 || dir < 0 && net.Digit(node, d) == 0
				if !port.Connected() || !port.Receives() {
					if net.IsMesh() && edge && !port.Receives() && !port.Connected() {
						continue
					}
					return fmt.Errorf("switch %d port %s is not linked both ways", s, name())
				}
				peer := int(port.Peer)
				back := net.Port(peer, int(port.PeerPort))
				if net.Node(peer) != net.Neighbor(node, d, dir) || int(back.Dim) != d || int(back.Dir) != -dir {
					return fmt.Errorf("switch %d port %s reaches switch %d port %s, not the %s port of the next node along %s", s, name(), peer, back.Name(dims), topology.DimPortName(d, -dir, dims), name())
				}
			}
		}
	}
	return nil
}
