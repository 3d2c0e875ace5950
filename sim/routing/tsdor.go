package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// TSDOR is Twin Source Dimension Order Routing ([EXT] §3.1–3.2): deterministic routing
// for nDT twin tori whose cards have only two deterministic VCs per traffic class, as
// EXTOLL's do, where DORT needs four on the internal link.
//
//   - A packet from PE0 (Card0) travels the dimensions in ascending order, d0 first; a
//     packet from PE1 in descending order, d_{n-1} first. As DORT, it crosses the
//     internal link when the port it wants is on the other card, and at the destination
//     node when the destination PE is on the other card.
//   - Each group has its own traffic class: VCs 0–1 carry PE0's packets, VCs 2–3 PE1's,
//     so the two orders never share a channel. Within a class, VC 2·TC+1 is the upper
//     VC and 2·TC the lower one (the order of DOR's dateline classes).
//   - External link in dimension i: upper when the destination's digit t_i is greater
//     than the current one c_i, else lower (Dally–Seitz).
//   - Internal link: as part of the split dimension's ring (the next port is the split
//     dimension's port on the other card), upper when t_mid > c_mid, else lower; for
//     any other reason (another dimension's port, the other PE), the paper's rule is
//     upper from Card0 to Card1 and lower from Card1 to Card0, in its configuration
//     (Card0 holds d_mid−). Generally: upper towards the card that holds d_mid+, the
//     class a crossing of the split ring in that direction takes when it does not
//     wrap. In the mirror configuration (d_mid+ on Card0, our CBest for even k_mid)
//     that is lower from Card0 to Card1: the paper's rule taken literally there closes
//     cycles (on twin:4x4x4, z → internal lower to PE0 → y+ lower → … → z; analysis
//     tests), its mirror image is acyclic. Without a split dimension (n even) the
//     paper's rule applies.
//   - Ties (distance k/2 in a ring of even k): in the split dimension a packet takes
//     the port on its source's card (the paper's "PE0 d_mid−, PE1 d_mid+" in its
//     configuration, where Card0 holds d_mid−; in ours, CBest with d_mid+ on Card0 for
//     even k, it is the mirror image, with the same hop counts); in other dimensions
//     both ports are on one card and the Tie rule decides. TSDOR's own rule
//     (TieDefault) is mirror: + for PE0's packets and - for PE1's, since the paper
//     makes PE1's traffic classes the mirror image of PE0's ("identical", with the
//     split dimension's tie mirrored); plus and minus send both PEs' ties one way.
//
// The route depends on the packet's source card as well as on its destination. The
// channel dependency graph over every ordered PE pair is acyclic (analysis tests: n = 3
// and 5, radices 2–8).
type TSDOR struct {
	net    *topology.Network
	tie    Tie     // resolved: plus, minus or mirror
	ties   [2]int8 // the direction of a tie outside the split dimension, by source card
	digits []uint16
	radix  []int
	dims   int
	split  int     // the split dimension, or -1
	midTie [2]int8 // direction a tie in the split dimension takes, by source card
	// crossVC is, by card, the class of a crossing to the other card that is not part
	// of the split dimension's ring.
	crossVC [2]int8
}

// NewTSDOR makes TSDOR for a twin torus TSDORFits accepts, with a tie rule for the
// dimensions that are not split (TieDefault: TSDOR's own, mirror).
func NewTSDOR(net *topology.Network, tie Tie) *TSDOR {
	tie = tie.Resolve(tsdorTie, net)
	r := &TSDOR{net: net, tie: tie, ties: tie.bySource(), digits: net.DigitTable(), radix: net.Radices(), dims: net.Dims(), split: -1}
	cfg := net.Config()
	r.crossVC = [2]int8{vcUp, vcLow}
	if s := cfg.Split(r.dims); len(s) == 1 {
		r.split = s[0]
		plusCard := cfg.Card(r.split, +1)
		for card := 0; card < 2; card++ {
			r.midTie[card] = -1
			if plusCard == card {
				r.midTie[card] = +1
			}
			r.crossVC[card] = vcLow
			if plusCard != card { // towards d_mid+
				r.crossVC[card] = vcUp
			}
		}
	}
	return r
}

// TSDOR's VCs: two traffic classes (by source card) of a lower and an upper VC.
const tsdorVCs = 4

// tsdorTie is TSDOR's own tie rule (docs/model.md): PE1's traffic classes mirror PE0's.
const tsdorTie = TieMirror

// Name is "tsdor".
func (r *TSDOR) Name() string { return "tsdor" }

// Network is the network the routing was made for.
func (r *TSDOR) Network() *topology.Network { return r.net }

// Tie is the tie rule TSDOR applies outside the split dimension, resolved.
func (r *TSDOR) Tie() Tie { return r.tie }

// Scheme is SchemeVC: TSDOR avoids deadlock with its traffic classes and upper/lower VCs.
func (r *TSDOR) Scheme() Scheme { return SchemeVC }

// DeadlockFree: by construction (the paper's proof; analysis checks the CDG).
func (r *TSDOR) DeadlockFree() bool { return true }

// PathsTranslationInvariant: moving source and destination by the same offset moves
// the route's ports (the source's card, which decides the order, does not change); its
// VCs do not move with it (the dateline classes compare absolute coordinates).
func (r *TSDOR) PathsTranslationInvariant() bool { return r.net.Translational() }

// VCs is 4 on external and internal links (two classes of two), 1 at the NIC.
func (r *TSDOR) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal {
		return 1
	}
	return tsdorVCs
}

// SourceClass is the card of terminal src: TSDOR's routes depend on their source only
// through it (its dimension order, traffic class and ties), so an analysis may follow
// one route per card and destination through each channel.
func (r *TSDOR) SourceClass(src int) int { return r.net.Card(int(r.net.Attachment(src).Switch)) }

// MaxCandidates is 1: TSDOR offers one candidate, which depends only on the switch,
// the source and the destination, so an engine may keep it while the head waits.
func (r *TSDOR) MaxCandidates() int { return 1 }

// OneCandidatePerHop reports that TSDOR offers one candidate per hop (see Selects): it
// has no selection axis and no adaptive hop share.
func (*TSDOR) OneCandidatePerHop() bool { return true }

// Route appends the one TSDOR candidate.
func (r *TSDOR) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	return append(out, r.Next(s, int(h.Src), int(h.Dst)))
}

// Next is TSDOR's decision at switch s for a packet from terminal src to terminal dst.
func (r *TSDOR) Next(s, src, dst int) Candidate {
	net := r.net
	tc := net.Card(int(net.Attachment(src).Switch))
	dsw := int(net.Attachment(dst).Switch)
	card := net.Card(s)
	// The class of an internal hop that is not part of the split dimension's ring.
	crossing := Candidate{Port: int16(net.InternalPort(s)), VC: int8(2*tc) + r.crossVC[card]}
	cur, dn := net.Node(s), net.Node(dsw)
	if cur == dn {
		if s == dsw {
			return Candidate{Port: int16(net.Attachment(dst).Port)}
		}
		return crossing
	}
	ci, di := cur*r.dims, dn*r.dims
	for j := 0; j < r.dims; j++ {
		d := j
		if tc == 1 {
			d = r.dims - 1 - j
		}
		c, t := int(r.digits[ci+d]), int(r.digits[di+d])
		if c == t {
			continue
		}
		k := r.radix[d]
		fwd := t - c
		if fwd < 0 {
			fwd += k
		}
		var dir int
		switch {
		case 2*fwd < k:
			dir = +1
		case 2*fwd > k:
			dir = -1
		case d == r.split:
			dir = int(r.midTie[tc])
		default:
			dir = int(r.ties[tc])
		}
		class := int8(2*tc + vcLow)
		if t > c {
			class = int8(2*tc + vcUp)
		}
		if p := net.DimPort(s, d, dir); p >= 0 {
			return Candidate{Port: int16(p), VC: class}
		}
		if d == r.split {
			return Candidate{Port: crossing.Port, VC: class}
		}
		return crossing
	}
	panic("unreachable: nodes differ in no dimension")
}

// Path appends to buf the (switch, output port) hops of the TSDOR route from terminal
// src to terminal dst, ending with the ejection port at the destination switch.
func (r *TSDOR) Path(src, dst int, buf []Step) []Step {
	s := int(r.net.Attachment(src).Switch)
	for {
		c := r.Next(s, src, dst)
		buf = append(buf, Step{Switch: s, Port: int(c.Port)})
		if r.net.Port(s, int(c.Port)).Kind == topology.Terminal {
			return buf
		}
		s = int(r.net.Port(s, int(c.Port)).Peer)
	}
}

// TSDORFits reports whether TSDOR can route a network: a twin torus on a proper grid
// whose Card0 holds the lower dimensions and Card1 the higher ones, with at most one
// dimension split between them (CBest in either orientation), so that the ascending
// order starts on Card0 and the descending one on Card1.
func TSDORFits(net *topology.Network) error {
	if !net.IsTwin() {
		return fmt.Errorf("it is for nDT twin tori, where each PE's packets take their own dimension order; use dor")
	}
	if err := gridFits(net); err != nil {
		return err
	}
	n, cfg := net.Dims(), net.Config()
	last := 0 // the highest card seen so far, scanning dimensions upwards
	for d := 0; d < n; d++ {
		lo, hi := cfg.Card(d, -1), cfg.Card(d, +1)
		if lo > hi {
			lo, hi = hi, lo
		}
		if lo < last || lo != hi && last == 1 {
			return fmt.Errorf("configuration %s does not keep the lower dimensions on Card0 and the higher ones on Card1 (tsdor needs cbest, %s)", cfg.Ports(n), topology.CBest(net.Radices()).Ports(n))
		}
		last = hi
	}
	if len(cfg.Split(n)) > 1 {
		return fmt.Errorf("configuration %s splits %d dimensions; tsdor needs at most one (cbest, %s)", cfg.Ports(n), len(cfg.Split(n)), topology.CBest(net.Radices()).Ports(n))
	}
	return nil
}

// tsdorRouting is TSDOR in the routing table.
func tsdorRouting() RoutingDef {
	return RoutingDef{
		Name:    "tsdor",
		Summary: "twin source dimension order (EXTOLL cards): PE0 ascending, PE1 descending, a traffic class each",
		Scheme:  SchemeVC,
		Fits:    TSDORFits,
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeVC {
				return nil, fmt.Errorf("tsdor avoids deadlock with its own traffic classes and upper/lower VCs: use the deadlock scheme vc (--deadlock vc, or deadlock: vc in a spec), not %s", o.Scheme)
			}
			return NewTSDOR(net, o.Tie), nil
		},
		Tie: tsdorTie,
	}
}
