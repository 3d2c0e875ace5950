package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// DESTRO is the deterministic, load-balanced routing of k-ary n-trees that the
// C-switch paper uses (its ref. [9]; [CS] §4.1): a packet
// to terminal h = h_{n−1}…h_0 climbs, taking up port k + h_s at stage s, until it
// reaches a switch above h, turns around there to down port h_s and descends along
// down ports h_s. Every decision reads only the destination, so the up ports of the
// traffic to different terminals are spread evenly, and routes ignore the source.
//
// On T-switches (ktree:K,N/CFG) a chip computes the T-switch's port the same way and
// takes it when it is its own, else crosses to its twin chip on internal link number
// (sum of h's digits) mod R: a destination-based choice, as a switch's forwarding
// table makes it, that spreads every crossing connection evenly over the R links.
//
// Deadlock freedom: with one chip per switch DESTRO is an up*/down* routing, whose
// channel dependency graph is acyclic. With T-switches the internal links carry
// ascending, turnaround and descending connections; when a configuration lets a
// descending connection cross in the same direction as an ascending one, a chain
// up the tree, across a turnaround and down again can close a cycle through an
// internal link, so such configurations use two internal-link VCs: VC 1 for packets
// that descend (they came from above), VC 0 for the rest. Descending channels then
// never lead back to ascending ones. The paper's configurations (cswitch, bad) never
// need the second VC. analysis.CheckRouting verifies the graph for every configuration
// of the small trees the tests build.
type DESTRO struct {
	net    *topology.Network
	l      *topology.KTree
	stage  []int8
	pos    []int32
	chip   []int8
	phases bool // internal links carry descending packets on VC 1
}

// NewDESTRO makes DESTRO for a network of the ktree family.
func NewDESTRO(net *topology.Network) (*DESTRO, error) {
	l, err := net.Spec().KTree()
	if err != nil {
		return nil, fmt.Errorf("destro: %w", err)
	}
	r := &DESTRO{net: net, l: l, stage: make([]int8, net.Switches()), pos: make([]int32, net.Switches()), chip: make([]int8, net.Switches())}
	for s := range r.stage {
		st, o, c := l.Locate(s)
		r.stage[s], r.pos[s], r.chip[s] = int8(st), int32(o), int8(c)
	}
	r.phases = l.Chips == 2 && descendingCrosses(l)
	return r, nil
}

// descendingCrosses reports whether some internal-link direction of a Type-A
// T-switch carries descending connections (up port l+k to down port l, Prop. 9) and
// ascending or turnaround ones too: only then can a cycle close through it.
func descendingCrosses(l *topology.KTree) bool {
	if l.N < 2 {
		return false
	}
	c, k := l.TypeA, l.K
	var desc, other [2]bool // by the chip the connection leaves from
	for a := 0; a < 2*k; a++ {
		for b := 0; b < k; b++ { // every connection ends at a down port...
			if a == b || c.Has(a) == c.Has(b) {
				continue
			}
			from := 0
			if !c.Has(a) {
				from = 1
			}
			if a >= k {
				desc[from] = desc[from] || a-k == b
				continue
			}
			other[from] = true // a turnaround
		}
		for b := k; b < 2*k && a < k; b++ { // ...or, ascending, at an up port
			if c.Has(a) != c.Has(b) {
				from := 0
				if !c.Has(a) {
					from = 1
				}
				other[from] = true
			}
		}
	}
	return desc[0] && other[0] || desc[1] && other[1]
}

// Name is "destro".
func (r *DESTRO) Name() string { return "destro" }

// Network is the network the routing was made for.
func (r *DESTRO) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: DESTRO needs no deadlock scheme.
func (r *DESTRO) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that DESTRO cannot deadlock: by construction (see the type).
func (r *DESTRO) DeadlockFree() bool { return true }

// SourceIndependent reports that routes depend only on the destination.
func (r *DESTRO) SourceIndependent() bool { return true }

// VCs is 1, and 2 on internal links of T-switches whose descending connections cross.
func (r *DESTRO) VCs(kind topology.PortKind) int {
	if kind == topology.Internal && r.phases {
		return 2
	}
	return 1
}

// Layout is the tree's layout.
func (r *DESTRO) Layout() *topology.KTree { return r.l }

// TPort is the T-switch port DESTRO takes at T-switch ⟨s, o⟩ towards terminal h.
func (r *DESTRO) TPort(s, o, h int) int {
	l := r.l
	if l.Below(s, o, h) {
		return l.Digit(h, s)
	}
	return l.K + l.Digit(h, s)
}

// Route appends DESTRO's port at switch s for packet h, which came in by port in.
func (r *DESTRO) Route(s, in, _ int, h Head, out []Candidate) []Candidate {
	l := r.l
	st, o, chip := int(r.stage[s]), int(r.pos[s]), int(r.chip[s])
	dst := int(h.Dst)
	tp := r.TPort(st, o, dst)
	c, q := l.Where(st, tp)
	if c == chip {
		return append(out, Candidate{Port: int16(q)})
	}
	sum := 0
	for x := dst; x > 0; x /= l.K {
		sum += x % l.K
	}
	cand := Candidate{Port: int16(l.InternalPort(st, chip, sum%l.R))}
	if r.phases && st < l.N-1 && l.TPort(st, chip, in) >= l.K {
		cand.VC = 1 // it came down from above: it descends
	}
	return append(out, cand)
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst.
func (r *DESTRO) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func destroRouting() RoutingDef {
	return RoutingDef{
		Name:    "destro",
		Summary: "DESTRO: up by the destination's digits, turn, down; k-ary n-trees and their T-switches",
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilyKTree {
				return fmt.Errorf("it routes k-ary n-trees (ktree:K,N); use min or updown")
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			r, err := NewDESTRO(net)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
	}
}

// OneCandidatePerHop reports that DESTRO offers one candidate per hop (see Selects).
func (*DESTRO) OneCandidatePerHop() bool { return true }
