package routing

import (
	"fmt"
	"math/bits"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/sim/topology"
)

// Tie is the direction DOR takes in a ring when both ways are equally short
// (distance k/2 with k even).
type Tie int8

const (
	// TiePlus sends ties in the + direction: the papers' rule, which reproduces Table 1.1.
	TiePlus Tie = +1
	// TieMinus sends ties in the - direction.
	TieMinus Tie = -1
)

// Direction is the direction (+1 or -1) of the shortest way from digit cur to digit dst
// in a ring of k nodes, or 0 when they are equal. In a mesh there is no wrap-around.
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
	return int(tie)
}

// DOR is dimension-order routing (ascending dimensions, shortest way per ring) on tori
// and meshes, and DORT on nDT twin tori: DOR on the node, crossing the internal link
// first when the wanted port is on the other card, and crossing it at the destination
// node when the destination PE is on the other card.
type DOR struct {
	net    *topology.Network
	tie    Tie
	mesh   bool
	digits []uint16 // the network's coordinate table
	radix  []int
	dims   int
	// packed[node] holds a node's coordinates one byte each, when every radix is at
	// most 256: the first dimension in which two nodes differ is then the lowest
	// non-zero byte of the XOR of their words.
	packed []uint64
}

// NewDOR makes DOR (DORT on twin tori) for a network.
func NewDOR(net *topology.Network, tie Tie) *DOR {
	r := &DOR{net: net, tie: tie, mesh: net.IsMesh(), digits: net.DigitTable(), radix: net.Radices(), dims: net.Dims()}
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

// Dest is what DOR reads of a packet's destination: its switch and port, and the
// coordinates of its node packed a byte each (when the network's radices allow). A
// caller that routes the same packet at every hop can look it up once (DOR.Dest) and
// route with NextTo: in a large network each lookup is a cache miss.
type Dest struct {
	packed uint64
	Switch int32
	Port   int16
}

// Dest looks up terminal dst's destination for NextTo.
func (r *DOR) Dest(dst int) Dest {
	at := r.net.Attachment(dst)
	d := r.switchDest(int(at.Switch))
	d.Port = at.Port
	return d
}

// switchDest is the destination of switch s itself, for hops before it (its Port,
// the PE's, is read only at s).
func (r *DOR) switchDest(s int) Dest {
	d := Dest{Switch: int32(s)}
	if r.packed != nil {
		d.packed = r.packed[r.net.Node(s)]
	}
	return d
}

// Next is the hop DOR takes at switch s for a packet to terminal dst.
func (r *DOR) Next(s, dst int) Hop { return r.NextTo(s, r.Dest(dst)) }

// NextTo is Next for a destination looked up by Dest.
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
		dir := Direction(c, t, r.radix[d], r.tie, r.mesh)
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
	for {
		h := r.Next(s, dst)
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
