package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// Escape makes any routing deadlock-free by Duato's method: its own candidates move
// up one VC, and VC 0 of every switch-to-switch port becomes an escape channel routed
// up*/down* (UpDown). At every hop a packet is offered its routing's candidates first
// and then the escape; once it takes the escape it stays on escape channels
// (Head.Escaped). Up*/down* is acyclic and always offered, so the escape subnetwork
// drains whatever the other channels do; analysis.CheckRouting verifies exactly that.
type Escape struct {
	inner Func
	esc   *UpDown
	net   *topology.Network
}

// WithEscape wraps a routing with an up*/down* escape VC on a spanning tree from
// switch 0.
func WithEscape(net *topology.Network, inner Func) (*Escape, error) {
	esc, err := NewUpDown(net, 0)
	if err != nil {
		return nil, err
	}
	return &Escape{inner: inner, esc: esc, net: net}, nil
}

// withScheme applies a deadlock scheme to a routing that has none of its own.
func withScheme(r Func, net *topology.Network, scheme Scheme) (Func, error) {
	switch scheme {
	case SchemeNone:
		return r, nil
	case SchemeEscape:
		return WithEscape(net, r)
	}
	return nil, fmt.Errorf("routing %s: deadlock scheme %s works with DOR and DORT's rings; accepted here are escape (an up*/down* escape VC) and none", r.Name(), scheme)
}

// Name is the inner routing's name with "+escape".
func (r *Escape) Name() string { return r.inner.Name() + "+escape" }

// Inner is the routing the escape protects.
func (r *Escape) Inner() Func { return r.inner }

// Scheme is SchemeEscape.
func (r *Escape) Scheme() Scheme { return SchemeEscape }

// DeadlockFree reports that the escape makes the routing deadlock-free by construction.
func (r *Escape) DeadlockFree() bool { return true }

// SourceIndependent reports whether the inner routing's routes ignore the source.
func (r *Escape) SourceIndependent() bool {
	si, ok := r.inner.(interface{ SourceIndependent() bool })
	return ok && si.SourceIndependent()
}

// VCs is the inner routing's VCs plus the escape VC on switch-to-switch ports.
func (r *Escape) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal {
		return r.inner.VCs(kind)
	}
	return r.inner.VCs(kind) + 1
}

// Route appends the inner routing's candidates (one VC up) and then the escape.
func (r *Escape) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	if h.Escaped {
		c := r.esc.next(s, r.esc.cameDown(s, in), int(h.Dst))
		c.Escape = true
		return append(out, c)
	}
	if r.net.Port(s, in).Kind != topology.Terminal {
		inVC-- // the inner routing's own numbering
	}
	first := len(out)
	out = r.inner.Route(s, in, inVC, h, out)
	for i := first; i < len(out); i++ {
		if r.net.Port(s, int(out[i].Port)).Kind == topology.Terminal {
			return out // at the destination: eject
		}
		out[i].VC++
	}
	c := r.esc.next(s, false, int(h.Dst)) // a fresh up*/down* route from here
	c.Escape = true
	return append(out, c)
}
