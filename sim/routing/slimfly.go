package routing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// SlimFlyMode is one of the Slim Fly paper's routings ([SF] §3.2).
type SlimFlyMode uint8

// The Slim Fly routings.
const (
	// SFMin is minimal routing: a shortest path, at most two hops.
	SFMin SlimFlyMode = iota
	// SFVal is Valiant's: a shortest path to an intermediate router, then to the
	// destination.
	SFVal
	// SFUGAL is UGAL with local information: at the source router, the MIN path or the
	// packet's VAL path, whichever has the smaller output queue times hops.
	SFUGAL
)

var sfNames = [...]string{SFMin: "sfmin", SFVal: "sfval", SFUGAL: "sfugal"}

// SlimFlyRouting is MIN, VAL or UGAL on a Slim Fly ([SF] §3.2), from a table of hop
// distances:
//
//   - MIN: a shortest path, at most two hops (diameter 2), the lowest-numbered
//     minimal port at each switch;
//   - VAL (Valiant): a shortest path to an intermediate router drawn from the
//     packet's salt (uniform over the routers, so a run stays deterministic), then a
//     shortest path to the destination, at most four hops. A packet that meets its
//     destination router on the way is delivered there.
//   - UGAL (UGAL-L): at the source router, the MIN path or the packet's VAL path,
//     whichever has the smaller q·H (H its hops, q the flits sent through the output
//     port its first hop takes and not yet credited back), by the dragonfly's rule
//     (UGALMinimal, ties minimal). The packet carries the decision as its Tag (1:
//     VAL), so the next routers follow the path it chose. [SF] draws several random
//     intermediates and compares each; ours compares one, the packet's salt's (as the
//     dragonfly paper's UGAL does), which keeps the choice deterministic.
//
// Deadlock freedom: a packet's h-th hop uses VC h ([SF] §3.2's VC per hop), so every
// dependency goes to a higher VC: 2 VCs for MIN, 4 for VAL and UGAL (whose MIN path
// uses VCs 0 and 1 of the same four). The hop is read from the VC the packet arrived
// on, so routes depend on nothing else but the salt and, under UGAL, the tag.
type SlimFlyRouting struct {
	net       *topology.Network
	mode      SlimFlyMode
	threshold int
	dests     distTable
}

// NewSlimFlyRouting makes MIN (valiant false) or VAL routing on a slimfly network.
func NewSlimFlyRouting(net *topology.Network, valiant bool) (*SlimFlyRouting, error) {
	mode := SFMin
	if valiant {
		mode = SFVal
	}
	return NewSlimFly(net, mode, DragonflyOptions{})
}

// NewSlimFly makes a Slim Fly routing; o.Threshold applies to SFUGAL (added to the
// non-minimal side, as on the dragonfly).
func NewSlimFly(net *topology.Network, mode SlimFlyMode, o DragonflyOptions) (*SlimFlyRouting, error) {
	if net.Spec().Family != topology.FamilySlimFly {
		return nil, fmt.Errorf("Slim Fly routing on %s: not a slimfly network", net)
	}
	if o.Threshold < 0 {
		return nil, fmt.Errorf("UGAL threshold %d: accepted is 0 or more", o.Threshold)
	}
	t, err := newDistTable(net)
	if err != nil {
		return nil, fmt.Errorf("Slim Fly routing on %s: %w", net, err)
	}
	if len(t.sw) != net.Switches() {
		return nil, fmt.Errorf("Slim Fly routing on %s: every router needs PEs (intermediates are routers)", net)
	}
	return &SlimFlyRouting{net: net, mode: mode, threshold: o.Threshold, dests: t}, nil
}

// Name is "sfmin", "sfval" or "sfugal" (with its threshold when it has one).
func (r *SlimFlyRouting) Name() string {
	if r.threshold != 0 {
		return sfNames[r.mode] + ":threshold=" + strconv.Itoa(r.threshold)
	}
	return sfNames[r.mode]
}

// Mode is the routing's mode.
func (r *SlimFlyRouting) Mode() SlimFlyMode { return r.mode }

// Network is the network the routing was made for.
func (r *SlimFlyRouting) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the hop-class VCs are the routing's own.
func (r *SlimFlyRouting) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that the hop classes make the routing deadlock-free.
func (r *SlimFlyRouting) DeadlockFree() bool { return true }

// SourceIndependent reports whether routes depend only on the destination: MIN's.
func (r *SlimFlyRouting) SourceIndependent() bool { return r.mode == SFMin }

// Salted reports whether routes read Head.Salt: VAL's and UGAL's intermediate.
func (r *SlimFlyRouting) Salted() bool { return r.mode != SFMin }

// SaltClasses is the number of salts 0…n−1 whose routes cover all: one per router
// for VAL and UGAL.
func (r *SlimFlyRouting) SaltClasses() int {
	if r.mode != SFMin {
		return r.net.Switches()
	}
	return 1
}

// Tags is the number of tag values a packet may carry: UGAL's 0 (MIN) and 1 (VAL).
func (r *SlimFlyRouting) Tags() int {
	if r.mode == SFUGAL {
		return 2
	}
	return 1
}

// MaxCandidates is 1: under UGAL, Choose decides.
func (*SlimFlyRouting) MaxCandidates() int { return 1 }

// OneCandidatePerHop reports that the engine gets one candidate per hop.
func (*SlimFlyRouting) OneCandidatePerHop() bool { return true }

// VCs is 2 (MIN) or 4 (VAL, UGAL) on network ports, 1 on terminal ports.
func (r *SlimFlyRouting) VCs(kind topology.PortKind) int {
	switch {
	case kind == topology.Terminal:
		return 1
	case r.mode != SFMin:
		return 4
	}
	return 2
}

// Intermediate is VAL's intermediate router for a packet with this salt.
func (r *SlimFlyRouting) Intermediate(salt uint32) int { return int(salt % uint32(r.net.Switches())) }

// Route appends the ports packet h may take at switch s, which arrived by port in on
// VC inVC: one, but under UGAL at the source router both the MIN and the VAL path's.
func (r *SlimFlyRouting) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	return r.next(s, in, inVC, h, nil, out)
}

// SlimFlyUGAL is the UGAL mode of SlimFlyRouting, the one that decides as it goes
// (a Chooser): MIN and VAL stay plain routings, which the engine may run on several
// threads.
type SlimFlyUGAL struct{ *SlimFlyRouting }

// Choose is the candidate of the path the packet takes, given the queues in occ (read
// at the source router only).
func (r SlimFlyUGAL) Choose(s, in, inVC int, h Head, occ Occupancy, out []Candidate) []Candidate {
	return r.next(s, in, inVC, h, occ, out)
}

// next is Route (occ nil: every choice) and Choose.
func (r *SlimFlyRouting) next(s, in, inVC int, h Head, occ Occupancy, out []Candidate) []Candidate {
	net := r.net
	at := net.Attachment(int(h.Dst))
	dsw := int(at.Switch)
	if s == dsw {
		return append(out, Candidate{Port: at.Port})
	}
	hop := 0
	if net.Port(s, in).Kind != topology.Terminal {
		hop = inVC + 1
	}
	mid := r.Intermediate(h.Salt)
	switch {
	case r.mode == SFVal || r.mode == SFUGAL && h.Tag == 1:
		src := int(net.Attachment(int(h.Src)).Switch)
		if hop < int(r.dests.at(mid, src)) && mid != s { // still on the way to the intermediate
			return r.toward(out, s, mid, hop, h.Tag)
		}
		return r.toward(out, s, dsw, hop, h.Tag)
	case r.mode == SFMin || hop > 0 || mid == s || mid == dsw:
		return r.toward(out, s, dsw, hop, 0) // minimal, or a VAL path that is the MIN one
	}
	// UGAL at the source router.
	if occ == nil {
		out = r.toward(out, s, dsw, 0, 0)
		return r.toward(out, s, mid, 0, 1)
	}
	pMin := r.firstPort(s, dsw)
	pNon := r.firstPort(s, mid)
	hMin := int(r.dests.at(dsw, s))
	hNon := int(r.dests.at(mid, s)) + int(r.dests.at(dsw, mid))
	if UGALMinimal(occ.Used(s, pMin), hMin, occ.Used(s, pNon), hNon, r.threshold) {
		return append(out, Candidate{Port: int16(pMin)})
	}
	return append(out, Candidate{Port: int16(pNon), Tag: 1})
}

// toward appends the next hop from switch s on a shortest path to switch target, on
// VC hop.
func (r *SlimFlyRouting) toward(out []Candidate, s, target, hop int, tag uint8) []Candidate {
	return append(out, Candidate{Port: int16(r.firstPort(s, target)), VC: int8(hop), Tag: tag})
}

// firstPort is the lowest-numbered port of switch s on a shortest path to switch
// target (s ≠ target).
func (r *SlimFlyRouting) firstPort(s, target int) int {
	net := r.net
	want := r.dests.at(target, s) - 1
	for p := 0; p < net.Ports(s); p++ {
		if peer := net.Port(s, p).Peer; peer >= 0 && r.dests.at(target, int(peer)) == want {
			return p
		}
	}
	panic(fmt.Sprintf("%s: switch %d has no port towards switch %d", r.Name(), s, target)) // the table says one exists
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst
// (VAL: with salt 0's intermediate).
func (r *SlimFlyRouting) Path(src, dst int, buf []Step) []Step {
	return firstPath(r.net, r, src, dst, buf)
}

var sfSummaries = [...]string{
	SFMin:  "Slim Fly MIN: shortest paths (at most 2 hops), a VC per hop (2)",
	SFVal:  "Slim Fly VAL: shortest paths to an intermediate router from the packet's salt, then to the destination; a VC per hop (4)",
	SFUGAL: "Slim Fly UGAL-L: MIN or the packet's VAL path at the source router by local queue × hops (sfugal:threshold=T); a VC per hop (4)",
}

func slimflyRouting(mode SlimFlyMode) RoutingDef {
	name := sfNames[mode]
	return RoutingDef{
		Name:    name,
		Summary: sfSummaries[mode],
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilySlimFly {
				return fmt.Errorf("%s routes Slim Fly networks (slimfly:Q); use min", name)
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone {
				return nil, fmt.Errorf("%s is deadlock-free by its VC per hop; use deadlock scheme none, not %s", name, o.Scheme)
			}
			var opt DragonflyOptions
			if mode != SFUGAL {
				if strings.TrimSpace(o.Arg) != "" {
					return nil, fmt.Errorf("routing %s takes no options (%q); the UGAL threshold applies to sfugal", name, o.Arg)
				}
			} else {
				var err error
				if opt, err = ParseDragonflyOptions(o.Arg); err != nil {
					return nil, err
				}
			}
			r, err := NewSlimFly(net, mode, opt)
			switch {
			case err != nil:
				return nil, err
			case mode == SFUGAL:
				return SlimFlyUGAL{r}, nil
			}
			return r, nil
		},
	}
}
