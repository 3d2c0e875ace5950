package routing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/sim/topology"
)

// DragonflyMode is one of the dragonfly paper's routings ([DF] §4).
type DragonflyMode uint8

// The dragonfly routings.
const (
	// DFMin is minimal routing: a local hop to the router of the global link to the
	// destination's group, the global hop, a local hop to the destination's router.
	DFMin DragonflyMode = iota
	// DFVal is Valiant's: minimally to a random intermediate group, then minimally on.
	DFVal
	// DFUGALL is UGAL with local information: at the source router, the minimal route
	// or one Valiant route, whichever has the smaller output queue times hops.
	DFUGALL
	// DFUGALG is UGAL with global information: the queues compared are those of the
	// global channels the two routes would take, wherever in the group they are.
	DFUGALG
	// DFPAR is progressive adaptive routing: UGAL-L at the source router, and when it
	// chose the minimal route through another router of the group, once more there.
	DFPAR
)

// Dragonfly routes a dragonfly network (topology.FamilyDragonfly) by one of the paper's
// routings. Routes are local–global–local, minimal or through an intermediate group
// (local–global–local–global–local); a packet whose destination is in its own group
// takes the local link to it, under every routing.
//
// Deadlock freedom comes from VC classes that rise along every route (Dally and Seitz;
// [DF] §4 gives the counts): the local VC is the number of global hops taken so far
// (plus, under PAR, one for a second local hop in the source group), the global VC
// likewise, so the classes of a route's channels strictly increase:
//
//	MIN:      L0 G0 L1                      2 VCs per port (1 used on global links)
//	VAL/UGAL: L0 G0 L1 G1 L2                3 VCs per port (2 on global links)
//	PAR:      L0 (L1) G0 L2 G1 L3           4 VCs per port (2 on global links)
//
// The minimal route of a non-minimal routing takes the last local class in the
// destination group. The engine gives every switch-to-switch port the same number of
// VCs, the largest a routing needs; global links leave theirs unused.
//
// The intermediate group of a Valiant route is drawn from the packet's salt
// (Head.Salt) among the groups other than its source's and destination's, so nothing
// is drawn from the run's stream and every packet of a message takes the same
// intermediate group; a UGAL or PAR decision is the packet's Tag (its intermediate
// group + 1, or 0 for the minimal route), which the next routers read. Where several
// global links join two groups (g < a·h + 1), a router that holds one takes it, and
// another takes the salt's link.
type Dragonfly struct {
	net       *topology.Network
	l         topology.Dragonfly
	mode      DragonflyMode
	threshold int
	m         int // global links between two groups
	term0     int // first terminal port
	vcs       int
	lsrc2     int8 // local VC of PAR's second hop in the source group
	lint      int8 // local VC in the intermediate group
	ldst      int8 // local VC in the destination group
}

// DragonflyOptions are the options of the adaptive dragonfly routings.
type DragonflyOptions struct {
	// Threshold is added to the non-minimal side of the UGAL comparison, in flits ×
	// hops: the minimal route is taken when q_min·H_min ≤ q_non·H_non + Threshold. The
	// paper's rule has none (0).
	Threshold int
}

// NewDragonfly makes a dragonfly routing.
func NewDragonfly(net *topology.Network, mode DragonflyMode, o DragonflyOptions) (*Dragonfly, error) {
	l, err := net.Spec().Dragonfly()
	if err != nil {
		return nil, fmt.Errorf("dragonfly routing: %w", err)
	}
	if mode != DFMin && (l.G < 3 || l.G > 255) {
		return nil, fmt.Errorf("non-minimal dragonfly routing on %d groups: accepted are 3 to 255 groups (an intermediate group other than the source's and destination's, named in a packet's one-byte tag); use dfmin", l.G)
	}
	if o.Threshold < 0 {
		return nil, fmt.Errorf("UGAL threshold %d: accepted is 0 or more", o.Threshold)
	}
	r := &Dragonfly{net: net, l: l, mode: mode, threshold: o.Threshold, m: l.M(), term0: l.A - 1 + l.H}
	switch mode {
	case DFMin:
		r.vcs, r.ldst = 2, 1
	case DFPAR:
		r.vcs, r.lsrc2, r.lint, r.ldst = 4, 1, 2, 3
	default:
		r.vcs, r.lint, r.ldst = 3, 1, 2
	}
	return r, nil
}

var dfNames = [...]string{DFMin: "dfmin", DFVal: "dfval", DFUGALL: "dfugal-l", DFUGALG: "dfugal-g", DFPAR: "dfpar"}

// Name is the routing's name, with its threshold when it has one ("dfugal-l:threshold=8").
func (r *Dragonfly) Name() string {
	if r.threshold != 0 {
		return dfNames[r.mode] + ":threshold=" + strconv.Itoa(r.threshold)
	}
	return dfNames[r.mode]
}

// Network is the network the routing was made for.
func (r *Dragonfly) Network() *topology.Network { return r.net }

// Mode is the routing's mode.
func (r *Dragonfly) Mode() DragonflyMode { return r.mode }

// VCs is the largest VC class of a route plus one on switch-to-switch ports, 1 on
// terminal ports.
func (r *Dragonfly) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal {
		return 1
	}
	return r.vcs
}

// Scheme is SchemeNone: the VC classes are the routing's own.
func (r *Dragonfly) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the VC classes rise along every route (see the type;
// analysis.CheckRouting verifies it).
func (r *Dragonfly) DeadlockFree() bool { return true }

// Salted reports that routes read Head.Salt: the intermediate group, and the global
// link where several join two groups.
func (r *Dragonfly) Salted() bool { return r.mode != DFMin || r.m > 1 }

// SourceIndependent reports that routes depend on the destination, the packet's tag
// and where it is, not on its source.
func (r *Dragonfly) SourceIndependent() bool { return true }

// Tags is the number of tag values a packet may carry: 0 and an intermediate group + 1.
func (r *Dragonfly) Tags() int { return r.l.G + 1 }

// MaxCandidates is 1: Choose decides, once per hop.
func (r *Dragonfly) MaxCandidates() int { return 1 }

// OneCandidatePerHop reports that the engine gets one candidate per hop: the routing
// decides itself, no selection function.
func (*Dragonfly) OneCandidatePerHop() bool { return true }

// Route offers every candidate the routing may choose for packet h at switch s, which
// arrived by port in: at a decision, the minimal route and one Valiant route through
// every other group; where several global links join two groups, each of them.
func (r *Dragonfly) Route(s, in, _ int, h Head, out []Candidate) []Candidate {
	return r.next(s, in, h, nil, out)
}

// Choose is the candidate of the route the packet takes, given the queues in occ.
func (r *Dragonfly) Choose(s, in, _ int, h Head, occ Occupancy, out []Candidate) []Candidate {
	return r.next(s, in, h, occ, out)
}

// next is Route (occ nil: every choice) and Choose.
func (r *Dragonfly) next(s, in int, h Head, occ Occupancy, out []Candidate) []Candidate {
	l := r.l
	dst := int(h.Dst)
	ds := dst / l.P
	if ds == s {
		return append(out, Candidate{Port: int16(r.term0 + dst%l.P)})
	}
	c, x := s/l.A, s%l.A
	d := ds / l.A
	if c == d {
		return append(out, Candidate{Port: int16(l.LocalPort(x, ds%l.A)), VC: r.ldst, Tag: h.Tag})
	}
	all := occ == nil
	k := int(h.Salt % uint32(r.m))
	if h.Tag != 0 { // non-minimal
		i := int(h.Tag) - 1
		if c == i {
			return r.toward(out, s, d, k, all, 1, r.lint, h.Tag)
		}
		return r.toward(out, s, i, k, all, 0, r.srcLocal(in), h.Tag)
	}
	// Minimal so far, so still in the source group.
	fromPE := in >= r.term0
	if r.mode == DFMin || !fromPE && r.mode != DFPAR {
		return r.toward(out, s, d, k, all, 0, 0, 0)
	}
	if all {
		if r.mode != DFVal {
			out = r.toward(out, s, d, k, true, 0, 0, 0)
		}
		for i := 0; i < l.G; i++ {
			if i != c && i != d {
				out = r.toward(out, s, i, k, true, 0, r.srcLocal(in), uint8(i+1))
			}
		}
		return out
	}
	i := ValiantGroup(h.Salt, l.G, c, d)
	if r.mode == DFVal || !r.minimal(s, ds, i, k, occ) {
		return r.toward(out, s, i, k, false, 0, r.srcLocal(in), uint8(i+1))
	}
	return r.toward(out, s, d, k, false, 0, 0, 0)
}

// srcLocal is the local VC of a hop in the source group by a packet that arrived by
// port in: the first class from its PE, PAR's second from another router.
func (r *Dragonfly) srcLocal(in int) int8 {
	if in >= r.term0 {
		return 0
	}
	return r.lsrc2
}

// link is the global link from group c that a packet at router x takes towards group
// to: the router's own (its first) when it holds one, else link k of the pair.
func (r *Dragonfly) link(c, x, to, k int) int {
	l := r.l
	for j := 0; j < r.m; j++ {
		if o := l.Link(c, to, j); o/l.H == x {
			return o
		}
	}
	return l.Link(c, to, k)
}

// toward appends the hop from switch s towards group to: the global port of the link
// the router holds (on VC gvc), else the local port to the router of link k (on VC
// lvc; with all, to the router of every link of the pair).
func (r *Dragonfly) toward(out []Candidate, s, to, k int, all bool, gvc, lvc int8, tag uint8) []Candidate {
	l := r.l
	c, x := s/l.A, s%l.A
	o := r.link(c, x, to, k)
	if o/l.H == x {
		return append(out, Candidate{Port: int16(l.GlobalPort(o)), VC: gvc, Tag: tag})
	}
	if !all {
		return append(out, Candidate{Port: int16(l.LocalPort(x, o/l.H)), VC: lvc, Tag: tag})
	}
	for j := 0; j < r.m; j++ {
		o := l.Link(c, to, j)
		out = append(out, Candidate{Port: int16(l.LocalPort(x, o/l.H)), VC: lvc, Tag: tag})
	}
	return out
}

// hops is the number of router-to-router hops from switch s to switch ds through
// group i (i = ds's group: the minimal route), as toward takes them with link k.
func (r *Dragonfly) hops(s, ds, i, k int) int {
	l := r.l
	c, x := s/l.A, s%l.A
	o := r.link(c, x, i, k)
	n := 1
	if o/l.H != x {
		n++
	}
	land := l.Peer(c, o) / l.H
	if d := ds / l.A; i != d {
		o2 := r.link(i, land, d, k)
		n++
		if o2/l.H != land {
			n++
		}
		land = l.Peer(i, o2) / l.H
	}
	if land != ds%l.A {
		n++
	}
	return n
}

// minimal is the UGAL decision at switch s for a packet to switch ds: the minimal
// route, or (false) the Valiant route through group i. UGAL-L and PAR read the output
// queues of s that each route's first hop takes; UGAL-G the queues of the two global
// channels the routes would take out of the group.
func (r *Dragonfly) minimal(s, ds, i, k int, occ Occupancy) bool {
	l := r.l
	c, x := s/l.A, s%l.A
	oMin, oNon := r.link(c, x, ds/l.A, k), r.link(c, x, i, k)
	var qMin, qNon int
	if r.mode == DFUGALG {
		qMin = occ.Used(l.Switch(c, oMin/l.H), l.GlobalPort(oMin))
		qNon = occ.Used(l.Switch(c, oNon/l.H), l.GlobalPort(oNon))
	} else {
		qMin = occ.Used(s, r.firstPort(x, oMin))
		qNon = occ.Used(s, r.firstPort(x, oNon))
	}
	return UGALMinimal(qMin, r.hops(s, ds, ds/l.A, k), qNon, r.hops(s, ds, i, k), r.threshold)
}

// firstPort is the port of router x towards global link o of its group.
func (r *Dragonfly) firstPort(x, o int) int {
	l := r.l
	if o/l.H == x {
		return l.GlobalPort(o)
	}
	return l.LocalPort(x, o/l.H)
}

// Path appends the hops of the route that takes Route's first candidate at every
// switch, the packet's tag carried along: under dfmin the minimal route (through the
// first link of a pair when several join two groups), whose channel loads `twintorus
// analyze` reports; under the others one of their routes (UGAL's and PAR's minimal
// one, Valiant's through the first group it may take).
func (r *Dragonfly) Path(src, dst int, buf []Step) []Step {
	net := r.net
	at := net.Attachment(src)
	s, in := int(at.Switch), int(at.Port)
	h := Head{Src: int32(src), Dst: int32(dst)}
	var c [8]Candidate
	for range 8 {
		cand := r.Route(s, in, 0, h, c[:0])[0]
		buf = append(buf, Step{Switch: s, Port: int(cand.Port)})
		port := net.Port(s, int(cand.Port))
		if port.Kind == topology.Terminal {
			return buf
		}
		s, in, h.Tag = int(port.Peer), int(port.PeerPort), cand.Tag
	}
	panic(fmt.Sprintf("routing %s: the route from PE %d to PE %d does not arrive", r.Name(), src, dst))
}

// UGALMinimal is UGAL's decision (Singh's universal globally adaptive load-balanced
// routing, as the dragonfly paper states it, [DF] §4): take the minimal route when
// its queue occupancy times its hop count is at most the non-minimal route's, plus a
// threshold. Any network's UGAL uses it; what queues and hops are is the routing's.
func UGALMinimal(qMin, hMin, qNon, hNon, threshold int) bool {
	return qMin*hMin <= qNon*hNon+threshold
}

// ValiantGroup is the intermediate group (or router, in a network without groups) of
// a Valiant route with the given salt: uniform among the n of them other than src and
// dst (which may be equal), the same at every hop of the packet, drawn from nothing
// but the salt. n must exceed the number of distinct excluded ones.
func ValiantGroup(salt uint32, n, src, dst int) int {
	lo, hi := min(src, dst), max(src, dst)
	choices := n - 2
	if lo == hi {
		choices = n - 1
	}
	j := int(splitmix.Hash(uint64(salt)^0x76616c) % uint64(choices)) // "val"
	if j >= lo {
		j++
	}
	if lo != hi && j >= hi {
		j++
	}
	return j
}

// ParseDragonflyOptions reads the argument of "dfugal-l:ARG" (and dfugal-g, dfpar):
// "threshold=T", T ≥ 0 flits × hops (default 0, the paper's rule).
func ParseDragonflyOptions(arg string) (DragonflyOptions, error) {
	var o DragonflyOptions
	for _, item := range strings.Split(arg, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		key, val, _ := strings.Cut(item, "=")
		switch {
		case item == "":
		case key == "threshold":
			t, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || t < 0 {
				return o, fmt.Errorf("UGAL option %q: accepted is threshold=T, T an integer from 0 (flits × hops)", item)
			}
			o.Threshold = t
		default:
			return o, fmt.Errorf("UGAL option %q: accepted is threshold=T, T an integer from 0 (flits × hops)", item)
		}
	}
	return o, nil
}

func dragonflyRouting(mode DragonflyMode, summary string) RoutingDef {
	name := dfNames[mode]
	return RoutingDef{
		Name:    name,
		Summary: summary,
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilyDragonfly {
				return fmt.Errorf("it routes dragonflies (dragonfly:A,P,H); use min or adaptive")
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone {
				return nil, fmt.Errorf("routing %s: deadlock scheme %s: its own VC classes make it deadlock-free; accepted is none", name, o.Scheme)
			}
			var opt DragonflyOptions
			if mode == DFMin || mode == DFVal {
				if strings.TrimSpace(o.Arg) != "" {
					return nil, fmt.Errorf("routing %s takes no options (%q); the UGAL threshold applies to dfugal-l, dfugal-g and dfpar", name, o.Arg)
				}
			} else {
				var err error
				if opt, err = ParseDragonflyOptions(o.Arg); err != nil {
					return nil, err
				}
			}
			return NewDragonfly(net, mode, opt)
		},
	}
}

func dfMinRouting() RoutingDef {
	return dragonflyRouting(DFMin, "dragonfly minimal: local, global, local hop; 2 VCs")
}

func dfValRouting() RoutingDef {
	return dragonflyRouting(DFVal, "dragonfly Valiant: minimally to a random intermediate group (the packet's draw), then on; 3 VCs")
}

func dfUGALLRouting() RoutingDef {
	return dragonflyRouting(DFUGALL, "dragonfly UGAL-L: minimal or Valiant at the source router by local queue × hops (dfugal-l:threshold=T); 3 VCs")
}

func dfUGALGRouting() RoutingDef {
	return dragonflyRouting(DFUGALG, "dragonfly UGAL-G: minimal or Valiant by the queues of the two global channels × hops; 3 VCs")
}

func dfPARRouting() RoutingDef {
	return dragonflyRouting(DFPAR, "dragonfly progressive adaptive: UGAL-L at the source router, revisited at the next router of the group; 4 VCs")
}
