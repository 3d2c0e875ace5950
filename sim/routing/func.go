package routing

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// Candidate is one way a head packet may leave a switch: the output port, the virtual
// channel it will occupy at the downstream input port, whether the bubble condition
// applies (the hop enters a ring, so the downstream VC must have room for two packets),
// and whether the VC is an escape channel (Duato: a packet that takes one stays on
// escape channels).
type Candidate struct {
	Port   int16
	VC     int8
	Bubble bool
	Escape bool
	// NonMin marks a non-minimal hop (a deroute: DAL on HyperX), which the minfirst
	// selection function takes only when the minimal candidates' VCs are high.
	NonMin bool
}

// Head describes the packet being routed.
type Head struct {
	Src, Dst int32 // terminals
	Escaped  bool  // the packet already travels on escape channels
	// Salt is random bits of the packet's own, the same at every hop, for routings
	// that choose per packet (twisted-adaptive:ties=random) and say so with a method
	// Salted() bool; the engine derives it from the run's seed and the message, so it
	// draws nothing from the run's stream.
	Salt uint32
}

// Func is a routing function. The engine calls Route once per packet per hop (not per
// flit), when the packet reaches the head of its input VC.
type Func interface {
	// Name is the routing's name as the command line spells it, e.g. "dort/bubble".
	Name() string
	// VCs is the number of virtual channels the routing uses on ports of a kind.
	VCs(kind topology.PortKind) int
	// Route appends to out the candidates for packet h at switch s, which arrived by
	// port in on virtual channel inVC, and returns the extended slice. Deterministic
	// routing appends exactly one.
	Route(s, in, inVC int, h Head, out []Candidate) []Candidate
}

// Scheme is the deadlock-avoidance scheme of deterministic routing.
type Scheme uint8

const (
	// SchemeVC uses dateline virtual channels: Up/Low classes on every external link
	// and, on the internal link, one VC per traffic type ([TR] §6.3.1).
	SchemeVC Scheme = iota
	// SchemeBubble uses one VC on external links with bubble flow control on ring
	// entry, and one internal-link VC per traffic type ([TR] §6.3.2).
	SchemeBubble
	// SchemeNone uses one VC everywhere and no bubble: it can deadlock, on purpose.
	SchemeNone
	// SchemeEscape adds an escape VC (VC 0) routed up*/down* on a BFS spanning tree to
	// the routing's own channels (Duato's method): a packet may take the escape VC at
	// any hop and then stays on it. Any routing on any network becomes deadlock-free.
	SchemeEscape
)

func (s Scheme) String() string {
	switch s {
	case SchemeVC:
		return "vc"
	case SchemeBubble:
		return "bubble"
	case SchemeNone:
		return "none"
	case SchemeEscape:
		return "escape"
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// ParseScheme reads "vc", "bubble", "escape" or "none".
func ParseScheme(s string) (Scheme, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "vc", "vcs":
		return SchemeVC, nil
	case "bubble":
		return SchemeBubble, nil
	case "none":
		return SchemeNone, nil
	case "escape", "updown":
		return SchemeEscape, nil
	}
	return 0, fmt.Errorf("unknown deadlock scheme %q: accepted are vc, bubble, escape and none", s)
}

// Pather is a deterministic routing that lists a route's hops: DOR (DORT), and the
// first choices of Minimal, UpDown and Table. The exact analyses route with it.
type Pather interface {
	Network() *topology.Network
	Path(src, dst int, buf []Step) []Step
}

// Option is a candidate with the state the engine sees through credits: the free
// flits and capacity of its downstream VC, whether that VC has room for the packet
// (two packets where the bubble condition applies), and whether the packet could
// start now (room, and the output port free).
type Option struct {
	Candidate
	Credits, Capacity int
	Room              bool
	Available         bool
}

// Selector is a selection function: it picks one of several available candidates for
// the head packet at input port in of switch s, and returns its index (or -1 to wait).
// Selectors may keep state (round-robin pointers); make one per run.
type Selector interface {
	Select(s, in int, opts []Option) int
}
