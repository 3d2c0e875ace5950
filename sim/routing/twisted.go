package routing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// Vec is a displacement in the unfolded plane (space) of a twisted torus: the routing
// record (ΔX, ΔY, ΔZ) of [TT] §4. Unused dimensions are 0.
type Vec [3]int

// L1 is |ΔX| + |ΔY| + |ΔZ|, the hops of a record.
func (v Vec) L1() int { return abs(v[0]) + abs(v[1]) + abs(v[2]) }

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TwistedGeometry is the routing-record generator of a twisted-tori network ([TT]
// §4, Algorithm 1 of Cámara et al.): a network of side a is the lattice Z^n modulo
// L, and the displacement Δ = d − s of two nodes' coordinates stands for every
// Δ + t, t in L. Algorithm 1 tries a fixed set of translates t (7 for the RTT, 21 for
// the PTT, 23 for the PDTT; 9 and 27 for the standard RT and PT, where they are
// minimal routing per ring) and keeps one of smallest |·|₁: a minimal record.
//
// Ties. The paper fixes no rule; its throughput bound assumes ties split evenly
// between the tied records. A deterministic routing cannot split one pair, so the
// record is chosen per displacement (per destination node as seen from node 0: the
// network is vertex-transitive, so every pair with that displacement takes the same
// record and the routing is translation invariant). The choice balances the channel
// classes: the displacements with a single minimal record load each class (dimension
// and direction) as they must, and the tied ones, largest first, take the record that
// keeps the busiest class lowest. Under translation invariance every channel of a
// class carries the same load, so the routing's uniform-traffic bound is the even
// split's up to a few routes per channel (analysis.TwistedAnalysis and Load measure
// both: 0.3 % below it for the RTT at a = 16).
type TwistedGeometry struct {
	kind   topology.TwistedKind
	a      int
	dims   int
	coords []Vec // node -> coordinates
	cands  []Vec // the translates, in Algorithm 1's order
	// record[c] is the record from node 0 to node c: the routing record of every pair
	// whose destination is c as seen from its source.
	record [][3]int16
}

// maxTwistedTies bounds the minimal records of one pair (at most 8 in every kind).
const maxTwistedTies = 16

// TwistedCandidates is Algorithm 1's set of translates in units of a, for each kind:
// the seven tiles around the RTT's own (Proposition 12), times the Z ring's three for
// the PTT, the 23 of [TT] §4's "23 cases" for the PDTT, and per-ring minimal routing
// for RT and PT. analysis.ForcedTranslates derives the necessary sets independently.
func TwistedCandidates(kind topology.TwistedKind) []Vec {
	rtt := []Vec{{0, 0, 0}, {-1, -1, 0}, {1, -1, 0}, {2, 0, 0}, {-2, 0, 0}, {1, 1, 0}, {-1, 1, 0}}
	var rt []Vec
	for _, x := range []int{0, 2, -2} {
		for _, y := range []int{0, 1, -1} {
			rt = append(rt, Vec{x, y, 0})
		}
	}
	withZ := func(plane []Vec) []Vec {
		var out []Vec
		for _, z := range []int{0, 1, -1} {
			for _, p := range plane {
				out = append(out, Vec{p[0], p[1], z})
			}
		}
		return out
	}
	switch kind {
	case topology.KindRT:
		return rt
	case topology.KindRTT:
		return rtt
	case topology.KindPT:
		return withZ(rt)
	case topology.KindPTT:
		return withZ(rtt)
	case topology.KindPDTT: // [TT] §4's 23 cases: (0,0,0); (±2,0,0); (±1,±1,0); (±1,0,±1); (0,±1,±1); (±2,±1,±1)
		out := []Vec{{0, 0, 0}, {2, 0, 0}, {-2, 0, 0}}
		for _, s1 := range []int{1, -1} {
			for _, s2 := range []int{1, -1} {
				out = append(out, Vec{s1, s2, 0}, Vec{s1, 0, s2}, Vec{0, s1, s2}, Vec{2, s1, s2}, Vec{-2, s1, s2})
			}
		}
		return out
	}
	return nil
}

// NewTwistedGeometry makes the record generator of a twisted-tori network.
func NewTwistedGeometry(kind topology.TwistedKind, a int) *TwistedGeometry {
	g := &TwistedGeometry{kind: kind, a: a, dims: kind.Dims()}
	shape := kind.Shape(a)
	n := 1
	for _, k := range shape {
		n *= k
	}
	g.coords = make([]Vec, n)
	for o := range g.coords {
		g.coords[o] = Vec{o % (2 * a), o / (2 * a) % a}
		if g.dims == 3 {
			g.coords[o][2] = o / (2 * a * a)
		}
	}
	for _, t := range TwistedCandidates(kind) {
		g.cands = append(g.cands, Vec{t[0] * a, t[1] * a, t[2] * a})
	}
	g.chooseRecords()
	return g
}

// chooseRecords fills the record table: single minimal records first, then the tied
// displacements, those of most hops first, each taking the record that leaves the
// (dimension, direction) class loads most even (lowest sum of squares, then lowest
// maximum, then first in candidate order), repeated over all of them until no choice
// changes.
func (g *TwistedGeometry) chooseRecords() {
	n := len(g.coords)
	g.record = make([][3]int16, n)
	var load [6]int64 // 2d + (0 for +, 1 for −)
	add := func(v Vec, sign int64) {
		for d := 0; d < 3; d++ {
			switch {
			case v[d] > 0:
				load[2*d] += sign * int64(v[d])
			case v[d] < 0:
				load[2*d+1] -= sign * int64(v[d])
			}
		}
	}
	set := func(c int, v Vec) { g.record[c] = [3]int16{int16(v[0]), int16(v[1]), int16(v[2])} }
	var ties []int
	var buf [maxTwistedTies]Vec
	for c := 0; c < n; c++ {
		m := g.Minimal(g.delta(0, c), buf[:0])
		if len(m) == 1 {
			set(c, m[0])
			add(m[0], 1)
		} else {
			ties = append(ties, c)
		}
	}
	// Largest displacements first (stable: then by node id). Each tie's hops are
	// computed once: comparing them afresh inside an insertion sort made building
	// the 64×32×32 tori take minutes.
	hops := make([]int, n)
	for _, c := range ties {
		hops[c] = g.coordsL1(c)
	}
	slices.SortStableFunc(ties, func(x, y int) int { return hops[y] - hops[x] })
	// Greedy, then passes of local improvement: each tied displacement in turn takes
	// the record that is best given all the others, until none changes.
	choice := make([]int, len(ties))
	for i := range choice {
		choice[i] = -1
	}
	for pass := 0; pass < 20; pass++ {
		changed := false
		for i, c := range ties {
			m := g.Minimal(g.delta(0, c), buf[:0])
			if choice[i] >= 0 {
				add(m[choice[i]], -1)
			}
			best, bestMax, bestSq := 0, int64(-1), int64(-1)
			for j, v := range m {
				add(v, 1)
				mx, sq := int64(0), int64(0)
				for _, l := range load {
					mx = max(mx, l)
					sq += l * l
				}
				add(v, -1)
				if bestMax < 0 || sq < bestSq || sq == bestSq && mx < bestMax {
					best, bestMax, bestSq = j, mx, sq
				}
			}
			add(m[best], 1)
			if best != choice[i] {
				choice[i], changed = best, true
			}
		}
		if !changed {
			break
		}
	}
	for i, c := range ties {
		set(c, g.Minimal(g.delta(0, c), buf[:0])[choice[i]])
	}
}

// coordsL1 is the hops from node 0 to node c.
func (g *TwistedGeometry) coordsL1(c int) int {
	var buf [maxTwistedTies]Vec
	return g.Minimal(g.delta(0, c), buf[:0])[0].L1()
}

// class is the node reached from node 0 by the raw displacement delta: delta reduced
// modulo the lattice.
func (g *TwistedGeometry) class(delta Vec) int {
	a := g.a
	ty, tz := g.kind.Twists()
	x, y, z := delta[0], delta[1], delta[2]
	if fz := floorDiv(z, a); fz != 0 {
		z -= fz * a
		if tz {
			x -= fz * a
		}
	}
	if fy := floorDiv(y, a); fy != 0 {
		y -= fy * a
		if ty {
			x -= fy * a
		}
	}
	x -= floorDiv(x, 2*a) * 2 * a
	return x + 2*a*y + 2*a*a*z
}

// floorDiv is ⌊v/m⌋ for m > 0.
func floorDiv(v, m int) int {
	q := v / m
	if v%m != 0 && v < 0 {
		q--
	}
	return q
}

// Kind is the network's kind.
func (g *TwistedGeometry) Kind() topology.TwistedKind { return g.kind }

// A is the side parameter a.
func (g *TwistedGeometry) A() int { return g.a }

// Nodes is the number of nodes.
func (g *TwistedGeometry) Nodes() int { return len(g.coords) }

// Coord is the coordinates of node o.
func (g *TwistedGeometry) Coord(o int) Vec { return g.coords[o] }

// Candidates is Algorithm 1's translates for this a.
func (g *TwistedGeometry) Candidates() []Vec { return append([]Vec(nil), g.cands...) }

// Minimal appends to out the minimal records among the candidates for raw
// displacement delta, in candidate order.
func (g *TwistedGeometry) Minimal(delta Vec, out []Vec) []Vec {
	first := len(out)
	best := int(^uint(0) >> 1)
	for _, t := range g.cands {
		v := Vec{delta[0] + t[0], delta[1] + t[1], delta[2] + t[2]}
		switch l := v.L1(); {
		case l < best:
			best = l
			out = append(out[:first], v)
		case l == best:
			out = append(out, v)
		}
	}
	return out
}

func (g *TwistedGeometry) delta(src, dst int) Vec {
	s, d := g.coords[src], g.coords[dst]
	return Vec{d[0] - s[0], d[1] - s[1], d[2] - s[2]}
}

// Record is the routing record of the pair (src, dst), nodes: a minimal displacement,
// ties broken as the type's documentation says.
func (g *TwistedGeometry) Record(src, dst int) Vec {
	r := g.record[g.class(g.delta(src, dst))]
	return Vec{int(r[0]), int(r[1]), int(r[2])}
}

// Remaining is the part of the record of (src, dst) still to travel at node cur, which
// lies on a minimal path of that record: the one minimal record from cur to dst that
// has the record's signs and no more hops in any dimension. It is unique because two
// displacements of that box differ by less than the shortest lattice vector in every
// dimension; ok is false when cur is not on such a path.
func (g *TwistedGeometry) Remaining(src, dst, cur int) (rem Vec, ok bool) {
	return g.remainingOf(g.Record(src, dst), dst, cur, src)
}

// RecordDrawn is a minimal record of (src, dst) drawn by salt among the equally short
// ones (INSEE's rule: a tie is broken at random for each packet), in candidate order.
func (g *TwistedGeometry) RecordDrawn(src, dst int, salt uint32) Vec {
	var buf [maxTwistedTies]Vec
	m := g.Minimal(g.delta(src, dst), buf[:0])
	return m[int(salt%uint32(len(m)))]
}

// RemainingDrawn is Remaining for the record RecordDrawn draws.
func (g *TwistedGeometry) RemainingDrawn(src, dst, cur int, salt uint32) (rem Vec, ok bool) {
	return g.remainingOf(g.RecordDrawn(src, dst, salt), dst, cur, src)
}

// remainingOf is what is left of record r0 of a packet from src when it is at cur.
func (g *TwistedGeometry) remainingOf(r0 Vec, dst, cur, src int) (rem Vec, ok bool) {
	if cur == src {
		return r0, true
	}
	var buf [maxTwistedTies]Vec
	for _, v := range g.Minimal(g.delta(cur, dst), buf[:0]) {
		if within(v, r0) {
			return v, true
		}
	}
	return Vec{}, false
}

// within reports whether v lies in the box between 0 and r componentwise.
func within(v, r Vec) bool {
	for i := range v {
		if v[i] != 0 && (v[i] > 0) != (r[i] > 0) || abs(v[i]) > abs(r[i]) {
			return false
		}
	}
	return true
}

// twistedGeometryOf checks that a network is a twisted torus of the family and returns
// its geometry.
func twistedGeometryOf(net *topology.Network) (*TwistedGeometry, error) {
	kind, a, err := net.Spec().TwistedParams()
	if err != nil {
		return nil, fmt.Errorf("it routes twisted tori built from a twisted: spec, and %s is not one", net)
	}
	return NewTwistedGeometry(kind, a), nil
}

// TwistedDOR is dimension-order routing on the routing record ([TT] §4): at every
// hop the first dimension, in the order X, Y, Z, in which the remaining record is not
// zero, in the record's direction. It is the escape channel of the TPDS router and a
// deterministic routing of its own. Under bubble flow control (one VC) every ring of
// every dimension, the twisted 2a-node rings included, is protected by the bubble, and
// dimension order leaves no cycle between rings (analysis.CheckCDG checks both).
type TwistedDOR struct {
	geo    *TwistedGeometry
	net    *topology.Network
	scheme Scheme
	inDim  []int8  // global port -> dimension of a dimension port, -1 otherwise
	ring   []int32 // node*dims + d -> the ring of dimension d through the node (its lowest node)
}

// NewTwistedDOR makes dimension order on the record for a twisted-tori network, with
// bubble flow control or none.
func NewTwistedDOR(net *topology.Network, scheme Scheme) (*TwistedDOR, error) {
	geo, err := twistedGeometryOf(net)
	if err != nil {
		return nil, err
	}
	if scheme != SchemeBubble && scheme != SchemeNone {
		return nil, fmt.Errorf("dimension order on twisted tori runs under bubble flow control (or none); deadlock scheme %s is not offered", scheme)
	}
	r := &TwistedDOR{geo: geo, net: net, scheme: scheme}
	r.inDim = make([]int8, net.TotalPorts())
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			r.inDim[net.PortID(s, p)] = net.Port(s, p).Dim
		}
	}
	dims := net.Dims()
	r.ring = make([]int32, net.Switches()*dims)
	for i := range r.ring {
		r.ring[i] = -1
	}
	for s := 0; s < net.Switches(); s++ {
		for d := 0; d < dims; d++ {
			for cur := s; r.ring[cur*dims+d] < 0; cur = int(net.Port(cur, net.DimPort(cur, d, +1)).Peer) {
				r.ring[cur*dims+d] = int32(s)
			}
		}
	}
	return r, nil
}

// Name is "twisted-dor/bubble" or "twisted-dor/none".
func (r *TwistedDOR) Name() string { return "twisted-dor/" + r.scheme.String() }

// Network is the network the routing was made for.
func (r *TwistedDOR) Network() *topology.Network { return r.net }

// Geometry is the record generator.
func (r *TwistedDOR) Geometry() *TwistedGeometry { return r.geo }

// Scheme is the deadlock scheme.
func (r *TwistedDOR) Scheme() Scheme { return r.scheme }

// DeadlockFree reports that bubble flow control makes the routing deadlock-free.
func (r *TwistedDOR) DeadlockFree() bool { return r.scheme == SchemeBubble }

// VCs is 1 on every port.
func (r *TwistedDOR) VCs(topology.PortKind) int { return 1 }

// Route appends the one candidate.
func (r *TwistedDOR) Route(s, in, _ int, h Head, out []Candidate) []Candidate {
	return append(out, r.Next(s, in, int(h.Src), int(h.Dst)))
}

// Next is the dimension-order hop at switch s of a packet from PE src to PE dst that
// arrived by port in.
func (r *TwistedDOR) Next(s, in, src, dst int) Candidate {
	net := r.net
	at := net.Attachment(dst)
	if int(at.Switch) == s {
		return Candidate{Port: at.Port}
	}
	rem, ok := r.geo.Remaining(int(net.Attachment(src).Switch), int(at.Switch), s)
	if !ok {
		panic(fmt.Sprintf("twisted-dor on %s: switch %d is off every minimal path from PE %d to PE %d", net, s, src, dst))
	}
	d := 0
	for rem[d] == 0 {
		d++
	}
	dir := 1
	if rem[d] < 0 {
		dir = -1
	}
	c := Candidate{Port: int16(net.DimPort(s, d, dir))}
	c.Bubble = r.scheme == SchemeBubble && int(r.inDim[net.PortID(s, in)]) != d
	return c
}

// Ring is the bubble ring of channel (switch s, output port p, VC vc): the ring of the
// port's dimension and direction through s, or -1 for terminal ports.
func (r *TwistedDOR) Ring(s, p, _ int) int64 {
	port := r.net.Port(s, p)
	if r.scheme != SchemeBubble || port.Dir == 0 {
		return -1
	}
	dims := r.net.Dims()
	return (int64(r.ring[s*dims+int(port.Dim)])*int64(dims)+int64(port.Dim))*2 + int64(dirIndex(int(port.Dir)))
}

func dirIndex(dir int) int {
	if dir > 0 {
		return 0
	}
	return 1
}

// Path appends the route from PE src to PE dst, ending with the ejection port.
func (r *TwistedDOR) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func twistedDORRouting() RoutingDef {
	return RoutingDef{
		Name:    "twisted-dor",
		Summary: "twisted tori: dimension order X, Y, Z on the minimal routing record (Algorithm 1's candidate translates)",
		Scheme:  SchemeBubble,
		Fits: func(net *topology.Network) error {
			_, err := twistedGeometryOf(net)
			return err
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme == SchemeEscape {
				r, err := NewTwistedDOR(net, SchemeNone)
				if err != nil {
					return nil, err
				}
				return withScheme(r, net, SchemeEscape)
			}
			return NewTwistedDOR(net, o.Scheme)
		},
	}
}

// TwistedAdaptive is the router of the TPDS paper's simulations ([TT] §6.1, after
// the Adaptive Bubble Router of its ref. [19], as in BlueGene/L): VC 0 of every link is
// the escape channel, dimension order on the record with bubble flow control
// (TwistedDOR), and Adaptive more VCs (two in the paper) are fully adaptive: any
// dimension in which the record still has hops, in its direction. At every hop a
// packet is offered the adaptive VCs of every productive port and then the escape;
// entering the escape (from the PE, from another dimension or from an adaptive VC)
// asks for room for two packets, continuing in its ring for one. By Duato's theory the
// escape drains whatever the adaptive VCs hold. A packet that took the escape stays on
// it unless Return, INSEE's rule, which lets it take the adaptive VCs again at the
// next hop ([TT] does not say; see docs/architecture.md).
type TwistedAdaptive struct {
	esc        *TwistedDOR
	net        *topology.Network
	adaptive   int
	ret        bool
	randomTies bool
}

// TwistedAdaptiveOptions are the adaptive VCs per link, whether escaped packets may
// return to adaptive VCs, and whether a pair with several minimal records takes one at
// random for each packet (INSEE's rule) instead of the geometry's table.
type TwistedAdaptiveOptions struct {
	Adaptive   int
	Return     bool
	RandomTies bool
}

// NewTwistedAdaptive makes the TPDS router for a twisted-tori network.
func NewTwistedAdaptive(net *topology.Network, o TwistedAdaptiveOptions) (*TwistedAdaptive, error) {
	if o.Adaptive < 1 || o.Adaptive > 16 {
		return nil, fmt.Errorf("twisted adaptive routing with %d adaptive VCs: accepted are 1 to 16", o.Adaptive)
	}
	esc, err := NewTwistedDOR(net, SchemeBubble)
	if err != nil {
		return nil, err
	}
	return &TwistedAdaptive{esc: esc, net: net, adaptive: o.Adaptive, ret: o.Return, randomTies: o.RandomTies}, nil
}

// Name is "twisted-adaptive/bubble", with its options when they are not the paper's.
func (r *TwistedAdaptive) Name() string {
	name := "twisted-adaptive"
	var opts []string
	if r.ret {
		opts = append(opts, "return")
	}
	if r.adaptive != 2 {
		opts = append(opts, fmt.Sprintf("vcs=%d", r.adaptive))
	}
	if r.randomTies {
		opts = append(opts, "ties=random")
	}
	if len(opts) > 0 {
		name += ":" + strings.Join(opts, ",")
	}
	return name + "/bubble"
}

// Network is the network the routing was made for.
func (r *TwistedAdaptive) Network() *topology.Network { return r.net }

// Escape is the escape routing.
func (r *TwistedAdaptive) Escape() *TwistedDOR { return r.esc }

// Scheme is the escape's: bubble flow control.
func (r *TwistedAdaptive) Scheme() Scheme { return SchemeBubble }

// DeadlockFree reports that the escape makes the routing deadlock-free by Duato's
// theorem, with Return too. Bubble flow control runs only under virtual cut-through
// (the engine refuses wormhole), where a packet that leaves the escape for an adaptive
// VC releases the escape buffer whole; Duato's condition for cut-through networks then
// asks only that the escape channels' direct dependencies (twisted-dor's, bubble rings
// entered with room for two packets) be acyclic, the same graph as the sticky router's
// (analysis.CheckRoutingWith with CutThrough checks it; the wormhole form, with the
// indirect dependencies of returning packets, has cycles).
func (r *TwistedAdaptive) DeadlockFree() bool { return true }

// Salted reports whether Route reads Head.Salt (ties=random).
func (r *TwistedAdaptive) Salted() bool { return r.randomTies }

// Sticky reports whether a packet that took an escape VC stays on escape VCs.
func (r *TwistedAdaptive) Sticky() bool { return !r.ret }

// VCs is 1 + the adaptive VCs on links, 1 on terminal ports.
func (r *TwistedAdaptive) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal {
		return 1
	}
	return 1 + r.adaptive
}

// MaxCandidates bounds the candidates of one decision: the adaptive VCs of every
// dimension and the escape.
func (r *TwistedAdaptive) MaxCandidates() int { return r.net.Dims()*r.adaptive + 1 }

// IsEscapeVC reports whether VC vc of an input port of the given kind is the escape.
func (r *TwistedAdaptive) IsEscapeVC(kind topology.PortKind, vc int) bool {
	return kind == topology.Terminal || vc == 0
}

// Ring is the escape's bubble ring of channel (s, p, vc), -1 for adaptive VCs.
func (r *TwistedAdaptive) Ring(s, p, vc int) int64 {
	if vc != 0 {
		return -1
	}
	return r.esc.Ring(s, p, vc)
}

// Route appends the adaptive candidates, then the escape.
func (r *TwistedAdaptive) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	src, dst := int(h.Src), int(h.Dst)
	at := net.Attachment(dst)
	if int(at.Switch) == s {
		return append(out, Candidate{Port: at.Port})
	}
	var rem Vec
	var ok bool
	if r.randomTies {
		rem, ok = r.esc.geo.RemainingDrawn(int(net.Attachment(src).Switch), int(at.Switch), s, h.Salt)
	} else {
		rem, ok = r.esc.geo.Remaining(int(net.Attachment(src).Switch), int(at.Switch), s)
	}
	if !ok {
		panic(fmt.Sprintf("%s on %s: switch %d is off every minimal path from PE %d to PE %d", r.Name(), net, s, src, dst))
	}
	d := 0
	for rem[d] == 0 {
		d++
	}
	g := net.PortID(s, in)
	onEscape := net.Port(s, in).Kind != topology.Terminal && inVC == 0
	esc := Candidate{Port: int16(net.DimPort(s, d, sign(rem[d]))), Escape: true}
	esc.Bubble = !onEscape || int(r.esc.inDim[g]) != d
	if h.Escaped && !r.ret {
		return append(out, esc)
	}
	for e := d; e < 3; e++ {
		if rem[e] == 0 {
			continue
		}
		p := int16(net.DimPort(s, e, sign(rem[e])))
		for v := 1; v <= r.adaptive; v++ {
			out = append(out, Candidate{Port: p, VC: int8(v)})
		}
	}
	return append(out, esc)
}

func sign(v int) int {
	if v < 0 {
		return -1
	}
	return 1
}

// Path appends the route taking the first candidate at every hop.
func (r *TwistedAdaptive) Path(src, dst int, buf []Step) []Step {
	return firstPath(r.net, r, src, dst, buf)
}

// ParseTwistedAdaptiveOptions reads the argument of "twisted-adaptive:ARG":
// comma-separated "return", "sticky" (the default), "vcs=N" (adaptive VCs, 2) and
// "ties=table" (the default) or "ties=random".
func ParseTwistedAdaptiveOptions(arg string) (TwistedAdaptiveOptions, error) {
	o := TwistedAdaptiveOptions{Adaptive: 2}
	for _, item := range strings.Split(arg, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		key, val, _ := strings.Cut(item, "=")
		switch {
		case item == "":
		case item == "return":
			o.Return = true
		case item == "sticky":
			o.Return = false
		case key == "vcs":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || n < 1 || n > 16 {
				return o, fmt.Errorf("twisted-adaptive option %q: accepted are return, sticky, vcs=N (1 to 16 adaptive VCs) and ties=table or ties=random", item)
			}
			o.Adaptive = n
		case key == "ties" && (strings.TrimSpace(val) == "random" || strings.TrimSpace(val) == "table"):
			o.RandomTies = strings.TrimSpace(val) == "random"
		default:
			return o, fmt.Errorf("twisted-adaptive option %q: accepted are return, sticky, vcs=N (1 to 16 adaptive VCs) and ties=table or ties=random", item)
		}
	}
	return o, nil
}

func twistedAdaptiveRouting() RoutingDef {
	return RoutingDef{
		Name:    "twisted-adaptive",
		Summary: "twisted tori, the TPDS router: a bubble escape VC (twisted-dor) and fully adaptive VCs on the record's directions (twisted-adaptive:return,vcs=N,ties=random)",
		Scheme:  SchemeBubble,
		Fits: func(net *topology.Network) error {
			_, err := twistedGeometryOf(net)
			return err
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeBubble {
				return nil, fmt.Errorf("twisted-adaptive escapes by bubble flow control; deadlock scheme %s is not offered (use bubble)", o.Scheme)
			}
			opt, err := ParseTwistedAdaptiveOptions(o.Arg)
			if err != nil {
				return nil, err
			}
			return NewTwistedAdaptive(net, opt)
		},
	}
}

// OneCandidatePerHop reports that TwistedDOR offers one candidate per hop (see Selects).
func (*TwistedDOR) OneCandidatePerHop() bool { return true }
