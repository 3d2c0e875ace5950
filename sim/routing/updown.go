package routing

import (
	"fmt"
	"math"

	"github.com/twintorus/twintorus/sim/topology"
)

// UpDown is up*/down* routing (Autonet): a breadth-first spanning tree from a root
// switch orders the switches by (depth, id); a link is "up" towards the smaller end.
// A legal route takes up links, then down links, never up after down, so no cycle of
// channel dependencies can close. Among legal routes it takes a shortest one, the
// lowest-numbered port on ties. Only bidirectional links are used.
//
// Alone it is a deterministic routing with one VC; as the escape of WithEscape it is
// the escape subnetwork of Duato's method.
type UpDown struct {
	net   *topology.Network
	root  int
	depth []int32
	dests distTable // index only: destination switches
	// dist[phase][dest*n + s]: shortest legal hops from s to dest while up links are
	// still allowed (phase 0) or after a down link (phase 1).
	dist [2][]uint16
}

// NewUpDown makes up*/down* routing on a spanning tree from the given root.
func NewUpDown(net *topology.Network, root int) (*UpDown, error) {
	n := net.Switches()
	if root < 0 || root >= n {
		return nil, fmt.Errorf("up*/down* root %d: the switches are 0 to %d", root, n-1)
	}
	r := &UpDown{net: net, root: root, depth: make([]int32, n)}
	// The tree: BFS over bidirectional links.
	for s := range r.depth {
		r.depth[s] = -1
	}
	r.depth[root] = 0
	queue := []int32{int32(root)}
	for len(queue) > 0 {
		s := int(queue[0])
		queue = queue[1:]
		for p := 0; p < net.Ports(s); p++ {
			port := net.Port(s, p)
			if t := port.Peer; t >= 0 && !port.OneWay() && r.depth[t] < 0 {
				r.depth[t] = r.depth[s] + 1
				queue = append(queue, t)
			}
		}
	}
	for s, d := range r.depth {
		if d < 0 {
			return nil, fmt.Errorf("up*/down* on %s: switch %d is not reachable from root %d over bidirectional links", net, s, root)
		}
	}
	index, err := newDestIndex(net)
	if err != nil {
		return nil, fmt.Errorf("up*/down* on %s: %w", net, err)
	}
	r.dests = index
	for ph := range r.dist {
		r.dist[ph] = make([]uint16, len(index.sw)*n)
		for i := range r.dist[ph] {
			r.dist[ph][i] = math.MaxUint16
		}
	}
	// Backwards from each destination over (switch, phase) states.
	type state struct {
		s     int32
		phase int8
	}
	q := make([]state, 0, 2*n)
	for i, d32 := range index.sw {
		d := int(d32)
		up, down := r.dist[0][i*n:(i+1)*n], r.dist[1][i*n:(i+1)*n]
		up[d], down[d] = 0, 0
		q = append(q[:0], state{int32(d), 0}, state{int32(d), 1})
		for head := 0; head < len(q); head++ {
			v, ph := int(q[head].s), q[head].phase
			hops := up[v]
			if ph == 1 {
				hops = down[v]
			}
			for p := 0; p < net.Ports(v); p++ {
				port := net.Port(v, p)
				u := int(port.From)
				if u < 0 || port.OneWay() {
					continue
				}
				if r.isUp(u, v) { // u -> v goes up: only from phase 0, to phase 0
					if ph == 0 && up[u] == math.MaxUint16 {
						up[u] = hops + 1
						q = append(q, state{int32(u), 0})
					}
					continue
				}
				// u -> v goes down: from either phase, to phase 1.
				if ph == 1 {
					if down[u] == math.MaxUint16 {
						down[u] = hops + 1
						q = append(q, state{int32(u), 1})
					}
					if up[u] == math.MaxUint16 {
						up[u] = hops + 1
						q = append(q, state{int32(u), 0})
					}
				}
			}
		}
		for s := 0; s < n; s++ {
			if up[s] == math.MaxUint16 {
				return nil, fmt.Errorf("up*/down* on %s: no legal route from switch %d to switch %d", net, s, d)
			}
		}
	}
	return r, nil
}

// newDestIndex numbers the switches that have PEs, in the order of their first PE.
func newDestIndex(net *topology.Network) (distTable, error) {
	n := net.Switches()
	t := distTable{index: make([]int32, n), n: n}
	for s := range t.index {
		t.index[s] = -1
	}
	for pe := 0; pe < net.Terminals(); pe++ {
		if s := int(net.Attachment(pe).Switch); t.index[s] < 0 {
			t.index[s] = int32(len(t.sw))
			t.sw = append(t.sw, int32(s))
		}
	}
	if int64(len(t.sw))*int64(n)*2 > MaxTableEntries {
		return distTable{}, fmt.Errorf("tables of %d destination switches by %d switches are more than the %d entries accepted", len(t.sw), n, MaxTableEntries)
	}
	return t, nil
}

// isUp reports whether the link from u to v goes up the tree: towards the smaller
// (depth, id).
func (r *UpDown) isUp(u, v int) bool {
	return r.depth[v] < r.depth[u] || r.depth[v] == r.depth[u] && v < u
}

// Name is "updown".
func (r *UpDown) Name() string { return "updown" }

// Network is the network the routing was made for.
func (r *UpDown) Network() *topology.Network { return r.net }

// Root is the root switch of the spanning tree.
func (r *UpDown) Root() int { return r.root }

// Depth is switch s's depth in the spanning tree.
func (r *UpDown) Depth(s int) int { return int(r.depth[s]) }

// Scheme is SchemeNone: the routing alone has no deadlock avoidance of its own.
func (r *UpDown) Scheme() Scheme { return SchemeNone }

// VCs is 1.
func (r *UpDown) VCs(topology.PortKind) int { return 1 }

// SourceIndependent reports that routes depend only on the destination and the port a
// packet came in by.
func (r *UpDown) SourceIndependent() bool { return true }

// DeadlockFree reports that up*/down* cannot deadlock: by construction.
func (r *UpDown) DeadlockFree() bool { return true }

// Route appends the up*/down* port towards h.Dst on VC 0. A packet that came down a
// link (by input port in) may only go on down.
func (r *UpDown) Route(s, in, _ int, h Head, out []Candidate) []Candidate {
	return append(out, r.next(s, r.cameDown(s, in), int(h.Dst)))
}

// cameDown reports whether input port in of switch s is the lower end of a link from
// above (a packet arriving there has gone down).
func (r *UpDown) cameDown(s, in int) bool {
	u := int(r.net.Port(s, in).From)
	return u >= 0 && !r.isUp(u, s)
}

// next is the up*/down* hop at switch s; afterDown restricts it to down links.
func (r *UpDown) next(s int, afterDown bool, dst int) Candidate {
	at := r.net.Attachment(dst)
	d := int(at.Switch)
	if d == s {
		return Candidate{Port: at.Port}
	}
	n, i := r.dests.n, int(r.dests.index[d])
	up, down := r.dist[0][i*n:(i+1)*n], r.dist[1][i*n:(i+1)*n]
	want := up[s] - 1
	if afterDown {
		want = down[s] - 1
	}
	for p := 0; p < r.net.Ports(s); p++ {
		port := r.net.Port(s, p)
		t := int(port.Peer)
		if t < 0 || port.OneWay() {
			continue
		}
		if r.isUp(s, t) {
			if !afterDown && up[t] == want {
				return Candidate{Port: int16(p)}
			}
		} else if down[t] == want {
			return Candidate{Port: int16(p)}
		}
	}
	panic(fmt.Sprintf("up*/down*: no hop from switch %d to switch %d", s, d))
}

// Path appends the (switch, output port) hops of the route from PE src to PE dst.
func (r *UpDown) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func upDownRouting() RoutingDef {
	return RoutingDef{
		Name:    "updown",
		Summary: "up*/down* on a BFS spanning tree from switch 0; any network",
		Scheme:  SchemeNone,
		Fits:    func(*topology.Network) error { return nil },
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme != SchemeNone && o.Scheme != SchemeEscape {
				return nil, fmt.Errorf("routing updown is deadlock-free by itself; use deadlock scheme none, not %s", o.Scheme)
			}
			return NewUpDown(net, 0)
		},
	}
}

// OneCandidatePerHop reports that UpDown offers one candidate per hop (see Selects).
func (*UpDown) OneCandidatePerHop() bool { return true }
