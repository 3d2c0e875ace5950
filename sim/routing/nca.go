package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/internal/splitmix"
	"github.com/twintorus/twintorus/sim/topology"
)

// NCA is the nearest-common-ancestor routing of k-ary n-trees that BookSim2 runs on its
// fat-tree (routing_function = nca): a packet climbs until it reaches a switch whose
// subtree holds its destination, the nearest common ancestor of source and
// destination, and descends from there by the destination's digits (down port h_s at
// stage s, as DESTRO descends). On the way up it takes any of the k up ports at
// random; BookSim2 draws one uniformly at every upward hop. Ours draws the up port of
// stage s from the packet's salt (Head.Salt) hashed with s: every stage's draw is
// uniform and independent of the others, as BookSim2's, and the run's random stream is
// left alone, so choosing nca moves no other random choice of a run. Packets of one
// message share a salt and so a route.
//
// The route is minimal: it climbs to the lowest stage s at which source and
// destination share a subtree (stage 0 at the terminals) and turns there, 2·s links
// between switches. It takes up links, then down links, never up after down
// (up*/down*), so its channel dependency graph is acyclic and one VC suffices.
//
// NCA routes trees of single switches only; T-switch trees (ktree:K,N/CFG) use DESTRO,
// whose crossing of the internal links a random up port would defeat.
type NCA struct {
	net   *topology.Network
	l     *topology.KTree
	stage []int8
	pos   []int32
}

// NewNCA makes NCA for a k-ary n-tree of single switches.
func NewNCA(net *topology.Network) (*NCA, error) {
	l, err := net.Spec().KTree()
	if err != nil {
		return nil, fmt.Errorf("nca: %w", err)
	}
	if l.Chips != 1 {
		return nil, fmt.Errorf("nca: %s has T-switches of two chips; nca routes trees of single switches (ktree:K,N), use destro", net)
	}
	r := &NCA{net: net, l: l, stage: make([]int8, net.Switches()), pos: make([]int32, net.Switches())}
	for s := range r.stage {
		st, o, _ := l.Locate(s)
		r.stage[s], r.pos[s] = int8(st), int32(o)
	}
	return r, nil
}

// Name is "nca".
func (r *NCA) Name() string { return "nca" }

// Network is the network the routing was made for.
func (r *NCA) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: up*/down* needs no deadlock scheme.
func (r *NCA) Scheme() Scheme { return SchemeNone }

// DeadlockFree reports that NCA cannot deadlock: it is up*/down* (see the type).
func (r *NCA) DeadlockFree() bool { return true }

// Salted reports that routes read Head.Salt: the up ports are the packet's draws.
func (r *NCA) Salted() bool { return true }

// VCs is 1.
func (r *NCA) VCs(topology.PortKind) int { return 1 }

// OneCandidatePerHop reports that NCA offers one candidate per hop (see Selects): the
// packet's own draw, not a choice among free ports.
func (*NCA) OneCandidatePerHop() bool { return true }

// UpPort is the up port (0…k−1, the switch's port k+j) a packet with this salt takes
// when it climbs from stage s.
func (r *NCA) UpPort(salt uint32, s int) int {
	return int(splitmix.Hash(uint64(salt)<<8|uint64(s)) % uint64(r.l.K))
}

// Route appends NCA's port at switch s for packet h.
func (r *NCA) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	l := r.l
	st, o, dst := int(r.stage[s]), int(r.pos[s]), int(h.Dst)
	if l.Below(st, o, dst) {
		// One chip: a switch's local ports are its tree ports, down ports 0…k−1 (at
		// stage 0 the terminals o·k…o·k+k−1), up ports k…2k−1.
		return append(out, Candidate{Port: int16(l.Digit(dst, st))})
	}
	return append(out, Candidate{Port: int16(l.K + r.UpPort(h.Salt, st))})
}

// PathSalted appends the (switch, output port) hops of the route of a packet with the
// given salt from PE src to PE dst, ending with the ejection port. NCA is no Pather:
// its routes differ between packets, so the exact analyses, which route every pair
// once, do not apply to it.
func (r *NCA) PathSalted(src, dst int, salt uint32, buf []Step) []Step {
	at := r.net.Attachment(src)
	s := int(at.Switch)
	h := Head{Src: int32(src), Dst: int32(dst), Salt: salt}
	var c [1]Candidate
	for range 2 * r.l.N {
		cand := r.Route(s, 0, 0, h, c[:0])[0]
		buf = append(buf, Step{Switch: s, Port: int(cand.Port)})
		port := r.net.Port(s, int(cand.Port))
		if port.Kind == topology.Terminal {
			return buf
		}
		s = int(port.Peer)
	}
	panic(fmt.Sprintf("nca: the route from PE %d to PE %d (salt %d) does not arrive", src, dst, salt))
}

func ncaRouting() RoutingDef {
	return RoutingDef{
		Name:    "nca",
		Summary: "BookSim2's nearest common ancestor: up by random ports (a draw per packet and stage), turn, down; k-ary n-trees",
		Scheme:  SchemeNone,
		Fits: func(net *topology.Network) error {
			if net.Spec().Family != topology.FamilyKTree {
				return fmt.Errorf("it routes k-ary n-trees (ktree:K,N); use min or updown")
			}
			if net.Spec().Config != "" {
				return fmt.Errorf("it routes trees of single switches (ktree:K,N); on T-switches use destro")
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone {
				return nil, fmt.Errorf("routing nca: deadlock scheme %s: nca is up*/down* on the tree, deadlock-free with one VC; accepted is none", o.Scheme)
			}
			return NewNCA(net)
		},
	}
}
