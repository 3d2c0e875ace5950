package routing

import (
	"fmt"
	"math"

	"github.com/twintorus/twintorus/sim/topology"
)

// MaxTableEntries bounds the distance and routing tables of the table-based routings
// (destination switches × switches).
const MaxTableEntries = 1 << 28

// Minimal is shortest-path routing on any network, from a table of hop distances to
// every destination switch (those with PEs), computed by breadth-first search along
// the links' directions. At a switch it offers the ports whose far end is one hop
// closer to the destination: all of them when adaptive, else the one with the lowest
// port index (the deterministic tie rule; a network file's port order is the order
// its author wrote). It uses one VC; alone it is deadlock-free only where its channel
// dependency graph is acyclic (analysis.CheckRouting says), and with the escape
// scheme (WithEscape) it is always.
type Minimal struct {
	net      *topology.Network
	adaptive bool
	dests    distTable
}

// distTable holds hop distances from every switch to every switch that has PEs.
type distTable struct {
	index []int32  // switch -> destination index, or -1 when it has no PEs
	sw    []int32  // destination index -> switch
	dist  []uint16 // destination index * switches + switch -> hops (math.MaxUint16: unreachable)
	n     int      // switches
}

func (t *distTable) at(dst, s int) uint16 { return t.dist[int(t.index[dst])*t.n+s] }

// newDistTable measures hop distances to every switch with PEs.
func newDistTable(net *topology.Network) (distTable, error) {
	t, err := newDestIndex(net)
	if err != nil {
		return distTable{}, err
	}
	n := t.n
	t.dist = make([]uint16, len(t.sw)*n)
	queue := make([]int32, n)
	for i, d32 := range t.sw {
		d := int(d32)
		dist := t.dist[i*n : (i+1)*n]
		for s := range dist {
			dist[s] = math.MaxUint16
		}
		dist[d] = 0
		queue[0] = int32(d)
		head, tail := 0, 1
		for head < tail { // backwards along links: who reaches d in one more hop
			v := int(queue[head])
			head++
			for p := 0; p < net.Ports(v); p++ {
				u := net.Port(v, p).From
				if u >= 0 && dist[u] == math.MaxUint16 {
					dist[u] = dist[v] + 1
					queue[tail] = u
					tail++
				}
			}
		}
		for s, h := range dist {
			if h == math.MaxUint16 {
				return distTable{}, fmt.Errorf("switch %d cannot reach switch %d", s, d)
			}
		}
	}
	return t, nil
}

// NewMinimal makes shortest-path routing for a network: adaptive (every minimal port)
// or deterministic (the lowest-numbered minimal port).
func NewMinimal(net *topology.Network, adaptive bool) (*Minimal, error) {
	t, err := newDistTable(net)
	if err != nil {
		return nil, fmt.Errorf("minimal routing on %s: %w", net, err)
	}
	return &Minimal{net: net, adaptive: adaptive, dests: t}, nil
}

// Name is "min" or "adaptive".
func (r *Minimal) Name() string {
	if r.adaptive {
		return "adaptive"
	}
	return "min"
}

// Network is the network the routing was made for.
func (r *Minimal) Network() *topology.Network { return r.net }

// Scheme is SchemeNone: the routing alone has no deadlock avoidance of its own.
func (r *Minimal) Scheme() Scheme { return SchemeNone }

// VCs is 1: the routing alone uses one VC per port.
func (r *Minimal) VCs(topology.PortKind) int { return 1 }

// SourceIndependent reports that routes depend only on the destination (analyses
// then explore once per destination).
func (r *Minimal) SourceIndependent() bool { return true }

// Distance is the number of switch-to-switch hops from switch s to the switch of PE dst.
func (r *Minimal) Distance(s, dst int) int {
	return int(r.dests.at(int(r.net.Attachment(dst).Switch), s))
}

// Route appends the minimal ports towards h.Dst, on VC 0.
func (r *Minimal) Route(s, _, _ int, h Head, out []Candidate) []Candidate {
	at := r.net.Attachment(int(h.Dst))
	if int(at.Switch) == s {
		return append(out, Candidate{Port: at.Port})
	}
	return r.minimal(s, int(at.Switch), out)
}

func (r *Minimal) minimal(s, dsw int, out []Candidate) []Candidate {
	want := r.dests.at(dsw, s) - 1
	for p := 0; p < r.net.Ports(s); p++ {
		port := r.net.Port(s, p)
		if port.Peer >= 0 && r.dests.at(dsw, int(port.Peer)) == want {
			out = append(out, Candidate{Port: int16(p)})
			if !r.adaptive {
				break
			}
		}
	}
	return out
}

// Path appends the (switch, output port) hops of the deterministic route (the first
// candidate at every switch) from PE src to PE dst, ending with the ejection port.
func (r *Minimal) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

// firstPath follows the first candidate of a source-independent routing.
func firstPath(net *topology.Network, rt Func, src, dst int, buf []Step) []Step {
	at := net.Attachment(src)
	s, in := int(at.Switch), int(at.Port)
	var c [4]Candidate
	for hops := 0; hops <= net.Switches(); hops++ {
		cand := rt.Route(s, in, 0, Head{Src: int32(src), Dst: int32(dst)}, c[:0])[0]
		buf = append(buf, Step{Switch: s, Port: int(cand.Port)})
		port := net.Port(s, int(cand.Port))
		if port.Kind == topology.Terminal {
			return buf
		}
		s, in = int(port.Peer), int(port.PeerPort)
	}
	panic(fmt.Sprintf("routing %s: the route from PE %d to PE %d does not arrive", rt.Name(), src, dst))
}

// minRouting is "min": deterministic shortest paths on any network. The table
// routing over every shortest port is "adaptive" under the escape and none schemes
// (adaptiveRouting).
func minRouting() RoutingDef {
	return RoutingDef{
		Name:    "min",
		Summary: "shortest paths from a table, lowest port first; any network",
		Scheme:  SchemeEscape,
		Fits:    func(*topology.Network) error { return nil },
		New: func(net *topology.Network, o Options) (Func, error) {
			r, err := NewMinimal(net, false)
			if err != nil {
				return nil, err
			}
			return withScheme(r, net, o.Scheme)
		},
		Auto:    true,
		Checked: true,
	}
}

// OneCandidatePerHop reports whether the routing offers one candidate per hop: the
// deterministic variant does, the adaptive one offers every minimal port (see Selects).
func (r *Minimal) OneCandidatePerHop() bool { return !r.adaptive }
