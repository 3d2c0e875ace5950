package routing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// Duato is fully adaptive minimal routing by Duato's method on tori, meshes and nDT
// twin tori ([AR] §3): every link gets adaptive VCs on top of
// the escape VCs of DOR or DORT (the dateline pair or bubble flow control, as the
// deterministic routing uses them), and at every hop a packet is offered
//
//   - on a torus or mesh, the adaptive VCs of the minimal direction of every dimension
//     it still has to travel (both directions at a tie, distance k/2);
//   - on a twin torus, Algorithm 1 of paper (b): the adaptive VCs of the ports on the
//     packet's current card whose direction is minimal (for a dimension split between
//     the cards, only the port on this card, also at a tie), and the internal link's
//     adaptive VCs only when DORT's own output is the internal link;
//   - last, the escape: DOR/DORT's hop on its escape VC, marked Escape.
//
// A packet that takes an escape VC stays on escape VCs (the papers' rule, [AR] §3), unless
// the routing is made with Return, which offers it the adaptive VCs again at the next
// hop; analysis.CheckRouting then checks Duato's condition on the extended channel
// dependency graph (indirect dependencies through adaptive channels).
//
// VCs: the escape's VCs come first on every port (external: 2 under the dateline
// scheme, 1 under bubble or on a mesh; internal: DORT's), then the adaptive VCs:
// AdaptiveExternal on external links and AdaptiveInternal on the internal link (2 and
// 4 by default: Table 3 of paper (b), 4 = 2 + 2 and 8 = 4 + 4 under the dateline
// scheme).
type Duato struct {
	esc    *Deterministic
	net    *topology.Network
	opt    DuatoOptions
	escVCs [3]int8 // escape VCs per port kind (External, Internal, Terminal)
	mesh   bool
	digits []uint16
	radix  []int
	dims   int
}

// DuatoOptions are the choices of Duato's adaptive routing.
type DuatoOptions struct {
	// AdaptiveExternal and AdaptiveInternal are the adaptive VCs per external link and
	// per internal link (paper (b) Table 3: 2 and 4).
	AdaptiveExternal, AdaptiveInternal int
	// Return lets a packet that took an escape VC use adaptive VCs again; the papers'
	// rule (false) keeps it on escape VCs to its destination.
	Return bool
}

// DefaultDuatoOptions are paper (b)'s: 2 adaptive VCs per external link, 4 on the
// internal link, escape for good.
func DefaultDuatoOptions() DuatoOptions {
	return DuatoOptions{AdaptiveExternal: 2, AdaptiveInternal: 4}
}

// MaxAdaptiveVCs bounds the adaptive VCs per link.
const MaxAdaptiveVCs = 16

// NewDuato makes Duato's adaptive routing on a torus, mesh or twin torus with a DOR or
// DORT escape under scheme (SchemeVC or SchemeBubble).
func NewDuato(net *topology.Network, scheme Scheme, tie Tie, o DuatoOptions) (*Duato, error) {
	if err := gridFits(net); err != nil {
		return nil, fmt.Errorf("adaptive routing with a DOR escape: %w", err)
	}
	if scheme != SchemeVC && scheme != SchemeBubble {
		return nil, fmt.Errorf("adaptive routing with a DOR escape needs deadlock scheme vc or bubble, not %s", scheme)
	}
	if o.AdaptiveExternal < 1 || o.AdaptiveExternal > MaxAdaptiveVCs || o.AdaptiveInternal < 1 || o.AdaptiveInternal > MaxAdaptiveVCs {
		return nil, fmt.Errorf("adaptive VCs %d (external) and %d (internal): accepted are 1 to %d each", o.AdaptiveExternal, o.AdaptiveInternal, MaxAdaptiveVCs)
	}
	esc := NewDeterministic(net, scheme, tie)
	r := &Duato{esc: esc, net: net, opt: o, mesh: net.IsMesh(), digits: net.DigitTable(), radix: net.Radices(), dims: net.Dims()}
	for _, k := range []topology.PortKind{topology.External, topology.Internal, topology.Terminal} {
		r.escVCs[k] = int8(esc.VCs(k))
	}
	return r, nil
}

// Name is "adaptive/vc" or "adaptive/bubble", with the options that differ from the
// papers' after a colon, as the routing is named: "adaptive:return,vcs=1/2/vc".
func (r *Duato) Name() string {
	name := "adaptive"
	if arg := r.opt.arg(); arg != "" {
		name += ":" + arg
	}
	return name + "/" + r.esc.scheme.String()
}

// Options are the routing's options.
func (r *Duato) Options() DuatoOptions { return r.opt }

// Network is the network the routing was made for.
func (r *Duato) Network() *topology.Network { return r.net }

// Escape is the escape routing (DOR or DORT with its scheme).
func (r *Duato) Escape() *Deterministic { return r.esc }

// CacheRoutes tabulates the escape routing's decisions (Deterministic.CacheRoutes).
func (r *Duato) CacheRoutes() { r.esc.CacheRoutes() }

// RouteCacheEntries is the escape routing's (Deterministic.RouteCacheEntries).
func (r *Duato) RouteCacheEntries() int { return r.esc.RouteCacheEntries() }

// Scheme is the escape's deadlock scheme.
func (r *Duato) Scheme() Scheme { return r.esc.scheme }

// DeadlockFree reports that the escape makes the routing deadlock-free by construction
// (Duato's theorem; analysis.CheckRouting verifies the condition) when packets keep to
// the escape once on it. With Return the condition depends on the escape's extended
// dependencies, so a run checks it first.
func (r *Duato) DeadlockFree() bool { return !r.opt.Return }

// Sticky reports whether a packet that took an escape VC stays on escape VCs.
func (r *Duato) Sticky() bool { return !r.opt.Return }

// SourceIndependent reports whether routes depend only on the destination (and on the
// channel a packet holds), not on its source: always, but under mirror ties on a twin
// torus, where the escape's ties follow the source's card.
func (r *Duato) SourceIndependent() bool { return !r.esc.dor.mirror }

// DefaultSelection is the selection function paper (b) settles on: 3 priority on twin
// tori, the reference function on tori and meshes.
func (r *Duato) DefaultSelection() string {
	if r.net.IsTwin() {
		return "3prio"
	}
	return "ref"
}

// VCs is the escape's VCs plus the adaptive VCs on switch-to-switch ports.
func (r *Duato) VCs(kind topology.PortKind) int {
	switch kind {
	case topology.External:
		return int(r.escVCs[kind]) + r.opt.AdaptiveExternal
	case topology.Internal:
		return int(r.escVCs[kind]) + r.opt.AdaptiveInternal
	}
	return int(r.escVCs[kind])
}

// IsEscapeVC reports whether VC vc of an input port of the given kind is an escape VC.
func (r *Duato) IsEscapeVC(kind topology.PortKind, vc int) bool {
	return kind == topology.Terminal || vc < int(r.escVCs[kind])
}

// Ring is the escape's bubble ring of channel (switch s, output port p, VC vc), or -1
// for adaptive VCs and outside bubble flow control.
func (r *Duato) Ring(s, p, vc int) int64 {
	port := r.net.Port(s, p)
	if port.Kind == topology.Terminal || vc >= int(r.escVCs[port.Kind]) {
		return -1
	}
	return r.esc.Ring(s, p, vc)
}

// Route appends the adaptive candidates and then the escape for packet h at switch s,
// which arrived by port in on VC inVC.
func (r *Duato) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	dst := int(h.Dst)
	at := net.Attachment(dst)
	if int(at.Switch) == s {
		return append(out, Candidate{Port: at.Port})
	}
	inPort := net.Port(s, in)
	onEscape := inPort.Kind != topology.Terminal && inVC < int(r.escVCs[inPort.Kind])
	var esc Candidate
	if onEscape {
		esc = r.esc.Next(s, in, int(h.Src), dst) // continuing on the escape: DOR/DORT's own bubble rule
	} else {
		esc = r.esc.NextEntering(s, int(h.Src), dst) // entering the escape network here
	}
	esc.Escape = true
	if h.Escaped && !r.opt.Return {
		return append(out, esc)
	}
	dn := net.Node(int(at.Switch))
	if cur := net.Node(s); cur != dn {
		ci, di := cur*r.dims, dn*r.dims
		first := int16(r.escVCs[topology.External])
		for d := 0; d < r.dims; d++ {
			c, t := int(r.digits[ci+d]), int(r.digits[di+d])
			if c == t {
				continue
			}
			pos, neg := minimalDirs(c, t, r.radix[d], r.mesh)
			if pos {
				out = r.adaptive(out, net.DimPort(s, d, +1), first, r.opt.AdaptiveExternal)
			}
			if neg {
				out = r.adaptive(out, net.DimPort(s, d, -1), first, r.opt.AdaptiveExternal)
			}
		}
	}
	if ip := net.InternalPort(s); ip >= 0 && int(esc.Port) == ip {
		out = r.adaptive(out, ip, int16(r.escVCs[topology.Internal]), r.opt.AdaptiveInternal)
	}
	return append(out, esc)
}

// adaptive appends the n adaptive VCs from VC first of port p, when p is on this
// switch (p >= 0).
func (r *Duato) adaptive(out []Candidate, p int, first int16, n int) []Candidate {
	if p < 0 {
		return out
	}
	for v := 0; v < n; v++ {
		out = append(out, Candidate{Port: int16(p), VC: int8(first + int16(v))})
	}
	return out
}

// minimalDirs says which directions are minimal from digit c to digit t (c != t) in a
// ring of k (or a line, on a mesh): one of them, or both at distance k/2.
func minimalDirs(c, t, k int, mesh bool) (pos, neg bool) {
	if mesh {
		return t > c, t < c
	}
	fwd := t - c
	if fwd < 0 {
		fwd += k
	}
	return 2*fwd <= k, 2*fwd >= k
}

// Path appends the route of a packet from PE src to PE dst that takes, at every hop,
// the first adaptive candidate (the escape where there is none). Analyses that need
// every route follow Route themselves.
func (r *Duato) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

// arg is the options that differ from the papers', as the routing name's argument.
func (o DuatoOptions) arg() string {
	var parts []string
	if o.Return {
		parts = append(parts, "return")
	}
	d := DefaultDuatoOptions()
	if o.AdaptiveExternal != d.AdaptiveExternal || o.AdaptiveInternal != d.AdaptiveInternal {
		parts = append(parts, fmt.Sprintf("vcs=%d/%d", o.AdaptiveExternal, o.AdaptiveInternal))
	}
	return strings.Join(parts, ",")
}

// ParseDuatoOptions reads the argument of "adaptive:ARG": comma-separated items
// "return" (escaped packets may use adaptive VCs again), "sticky" (the default: they
// may not), and "vcs=A/B" (A adaptive VCs per external link, B on the internal link;
// default 2/4) or "vcs=A" (A and 2A, the papers' proportion).
func ParseDuatoOptions(arg string) (DuatoOptions, error) {
	o := DefaultDuatoOptions()
	const accepted = "accepted are return, sticky and vcs=A[/B] (adaptive VCs per external[/internal] link, 1 to 16), comma-separated"
	for _, item := range strings.Split(arg, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		key, val, hasVal := strings.Cut(item, "=")
		switch {
		case item == "":
		case item == "return":
			o.Return = true
		case item == "sticky":
			o.Return = false
		case key == "vcs" && hasVal:
			a, b, two := strings.Cut(val, "/")
			ea, err1 := strconv.Atoi(strings.TrimSpace(a))
			eb, err2 := ea, error(nil)
			if two {
				eb, err2 = strconv.Atoi(strings.TrimSpace(b))
			} else {
				eb = 2 * ea // the papers' proportion: twice as many on the internal link
			}
			if err1 != nil || err2 != nil || ea < 1 || eb < 1 || ea > MaxAdaptiveVCs || eb > MaxAdaptiveVCs {
				return o, fmt.Errorf("adaptive routing option %q: %s", item, accepted)
			}
			o.AdaptiveExternal, o.AdaptiveInternal = ea, eb
		default:
			return o, fmt.Errorf("adaptive routing option %q: %s", item, accepted)
		}
	}
	return o, nil
}

// adaptiveRouting is "adaptive": Duato's method. On tori, meshes and twin tori under
// the vc or bubble scheme it is Duato with the DOR/DORT escape; under escape or none,
// and on networks without a grid, it is the table routing over every shortest port
// (Minimal) with the up*/down* escape, as before this routing existed.
func adaptiveRouting() RoutingDef {
	return RoutingDef{
		Name: "adaptive",
		Summary: "Duato's minimal adaptive routing: under vc or bubble a DOR/DORT escape on tori, meshes and " +
			"twin tori (Algorithm 1 on twin tori; adaptive:return,vcs=A/B); under escape, any network: " +
			"every shortest port from a table, up*/down* escape",
		Scheme:    SchemeEscape,
		SchemeFor: adaptiveScheme,
		SchemeDoc: "vc on tori, meshes and twin tori; escape elsewhere",
		Fits:      func(*topology.Network) error { return nil },
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme == SchemeVC || o.Scheme == SchemeBubble {
				opt, err := ParseDuatoOptions(o.Arg)
				if err != nil {
					return nil, err
				}
				if err := gridFits(net); err != nil {
					return nil, fmt.Errorf("adaptive routing under scheme %s escapes by DOR/DORT, and %w; use deadlock scheme escape (an up*/down* escape VC)", o.Scheme, err)
				}
				return NewDuato(net, o.Scheme, o.Tie, opt)
			}
			if strings.TrimSpace(o.Arg) != "" {
				return nil, fmt.Errorf("adaptive routing options (%s) apply with a DOR/DORT escape, deadlock scheme vc or bubble, not %s", o.Arg, o.Scheme)
			}
			r, err := NewMinimal(net, true)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
		Checked: true,
	}
}

// adaptiveScheme is adaptive routing's default deadlock scheme: the dateline VCs of
// paper (b) where DOR/DORT can escape, the up*/down* escape elsewhere.
func adaptiveScheme(net *topology.Network) Scheme {
	if gridFits(net) == nil {
		return SchemeVC
	}
	return SchemeEscape
}

// MaxCandidates bounds the candidates Route appends: the adaptive VCs of two ports per
// dimension and of the internal link, and the escape.
func (r *Duato) MaxCandidates() int {
	return 2*r.dims*r.opt.AdaptiveExternal + r.opt.AdaptiveInternal + 1
}
