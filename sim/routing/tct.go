package routing

import (
	"fmt"

	"github.com/twintorus/twintorus/sim/topology"
)

// ClusterTorus is the geometry of Bossard's torus-connected toroids TCT(n, k), of the
// torus-connected cycles TCC(n, k) and of a toroid alone (k = 1): k^n clusters of 2n
// nodes on a k-ary n-torus, node 2n·m + i being cluster node i of meta node m (meta
// index u_0 + k·u_1 + …), cluster node 2α + 1 carrying dimension α's + link to node 2α
// of meta node m + e_α. Inside a cluster packets follow shortest paths from a table
// (lowest neighbour first on ties), as the paper's toroid-spr does in length.
//
// Algorithm R ([TCT] §3.2) is dimension order on the meta torus, ascending α, the
// shorter way round each ring (the + way at k/2): from the current node, go inside
// the cluster to the node that carries dimension α's link in that direction, cross,
// and in every intermediate cluster take the one hop from the arrival node to the
// next exit; after the last dimension, go inside the cluster to the destination.
// Next is that routing, memoryless: the same decisions from the current node only.
type ClusterTorus struct {
	fam     topology.Family
	n, k    int
	size    int // 2n cluster nodes
	metas   int
	stride  []int
	adj     [][]int
	portTo  [][]int16 // [i][j]: port of cluster node i towards cluster node j, or -1
	dist    [][]int8  // cluster distances
	next    [][]int8  // [i][j]: the neighbour of i on the table's shortest path to j
	maxDist int       // cluster diameter τ
}

// NewClusterTorus makes the geometry of tct:n,k, tcc:n,k or toroid:n.
func NewClusterTorus(fam topology.Family, n, k int) (*ClusterTorus, error) {
	if n < 1 || n > topology.MaxToroidN || k < 1 {
		return nil, fmt.Errorf("cluster torus n = %d, k = %d: accepted are n 1 to %d and k >= 1", n, k, topology.MaxToroidN)
	}
	g := &ClusterTorus{fam: fam, n: n, k: k, size: 2 * n, metas: 1, stride: make([]int, n)}
	for a := range n {
		g.stride[a] = g.metas
		g.metas *= k
	}
	switch fam {
	case topology.FamilyTCT, topology.FamilyToroid:
		g.adj = topology.ToroidAdjacency(n)
	case topology.FamilyTCC:
		g.adj = topology.CycleAdjacency(n)
	default:
		return nil, fmt.Errorf("family %s is not a torus of clusters", fam)
	}
	g.portTo = make([][]int16, g.size)
	g.dist = make([][]int8, g.size)
	g.next = make([][]int8, g.size)
	for i := range g.size {
		g.portTo[i] = make([]int16, g.size)
		for j := range g.portTo[i] {
			g.portTo[i][j] = -1
		}
		for p, j := range g.adj[i] {
			g.portTo[i][j] = int16(p)
		}
	}
	for j := range g.size { // BFS towards j
		d := make([]int8, g.size)
		for i := range d {
			d[i] = -1
		}
		d[j] = 0
		queue := []int{j}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, u := range g.adj[v] {
				if d[u] < 0 {
					d[u] = d[v] + 1
					queue = append(queue, u)
				}
			}
		}
		for i := range g.size {
			if g.dist[i] == nil {
				g.dist[i] = make([]int8, g.size)
				g.next[i] = make([]int8, g.size)
			}
			g.dist[i][j] = d[i]
			g.maxDist = max(g.maxDist, int(d[i]))
			g.next[i][j] = -1
			for _, u := range g.adj[i] { // lowest neighbour one hop closer
				if d[u] == d[i]-1 {
					g.next[i][j] = int8(u)
					break
				}
			}
		}
	}
	return g, nil
}

// N, K: the network's parameters; Nodes = 2n·k^n.
func (g *ClusterTorus) N() int { return g.n }

// K is the radix of the meta torus.
func (g *ClusterTorus) K() int { return g.k }

// Nodes is the number of nodes.
func (g *ClusterTorus) Nodes() int { return g.size * g.metas }

// ClusterDistance is the distance between cluster nodes i and j inside a cluster.
func (g *ClusterTorus) ClusterDistance(i, j int) int { return int(g.dist[i][j]) }

// ClusterDiameter is the cluster's diameter (τ(n) for a toroid, n for a cycle).
func (g *ClusterTorus) ClusterDiameter() int { return g.maxDist }

// Meta is the coordinate α of meta node m.
func (g *ClusterTorus) Meta(m, alpha int) int { return m / g.stride[alpha] % g.k }

// Hop kinds of Algorithm R.
const (
	hopEject   = iota
	hopRing    // a hop of dimension α's ring: the external link, or the one hop through an intermediate cluster
	hopSegment // a hop inside a cluster towards the exit of dimension α (Level α) or towards the destination (Level n)
)

// RHop is one decision of Algorithm R at a node.
type RHop struct {
	Kind  int
	Next  int // the next node (cluster node of the same meta node, or across the external link)
	Alpha int // the dimension of a ring hop
	Level int // a segment hop: α when heading for dimension α's exit, n for the destination
	Ext   bool
}

// Next is Algorithm R's hop at node cur for destination dst. A hop from the node where
// dimension α's link arrives to the neighbouring exit of the same dimension is marked a
// ring hop; Route tells whether the packet is on the ring (it came over the link) or
// starts there.
func (g *ClusterTorus) Next(cur, dst int) RHop {
	mc, ic := cur/g.size, cur%g.size
	md, id := dst/g.size, dst%g.size
	for a := 0; a < g.n; a++ {
		c, t := g.Meta(mc, a), g.Meta(md, a)
		if c == t {
			continue
		}
		delta := (t - c + g.k) % g.k
		exit := 2*a + 1 // + way: the shorter one, or a tie (δ = k/2)
		step := +1
		if 2*delta > g.k {
			exit, step = 2*a, -1
		}
		if ic == exit {
			u := g.Meta(mc, a)
			nm := mc + g.stride[a]*(((u+step+g.k)%g.k)-u)
			return RHop{Kind: hopRing, Next: nm*g.size + (exit ^ 1), Alpha: a, Ext: true}
		}
		nx := mc*g.size + int(g.next[ic][exit])
		if ic == exit^1 && g.next[ic][exit] == int8(exit) {
			// At the arrival node of dimension α with more of α to go: the next exit is
			// the neighbour, and the hop is part of α's ring. (At the source the same
			// hop is an ordinary segment hop; Route tells them apart by the VC.)
			return RHop{Kind: hopRing, Next: nx, Alpha: a, Level: a}
		}
		return RHop{Kind: hopSegment, Next: nx, Alpha: a, Level: a}
	}
	if ic == id {
		return RHop{Kind: hopEject, Next: cur}
	}
	return RHop{Kind: hopSegment, Next: mc*g.size + int(g.next[ic][id]), Level: g.n}
}

// Length is the number of hops of Algorithm R's route from node src to node dst.
func (g *ClusterTorus) Length(src, dst int) int {
	hops := 0
	for cur := src; ; hops++ {
		h := g.Next(cur, dst)
		if h.Kind == hopEject {
			return hops
		}
		cur = h.Next
	}
}

// TCT is Algorithm R on a TCT, TCC or toroid network as a routing function. Under
// bubble flow control (the default; the paper says nothing on deadlock) it uses n + 2
// VCs: VC 0 for the rings of the meta torus (each dimension's external links and the
// one hop through every intermediate cluster, protected by the bubble), and VC 1 + l
// for the hops inside clusters at level l: towards dimension l's exit (l < n) or
// towards the destination (l = n). A route's levels only grow and every level's
// in-cluster hops follow shortest-path trees, so no cycle of dependencies can close
// (analysis.CheckCDG checks it) as long as each level's in-cluster routes are acyclic,
// which holds for the toroids of n ≤ 8 (every TCT the paper sizes) and the TCC of n ≤ 2;
// larger clusters have rings of 5 or more nodes that shortest paths close, and NewTCT
// refuses them under bubble (the escape scheme runs them). Under none, everything is
// on one VC.
type TCT struct {
	geo    *ClusterTorus
	net    *topology.Network
	scheme Scheme
}

// NewTCT makes Algorithm R for a network built from a tct:, tcc: or toroid: spec.
func NewTCT(net *topology.Network, scheme Scheme) (*TCT, error) {
	n, k, err := net.Spec().ClusterTorusParams()
	if err != nil {
		return nil, fmt.Errorf("Algorithm R routes TCT, TCC and toroid networks built from their specs; %s is not one", net)
	}
	if scheme != SchemeBubble && scheme != SchemeNone {
		return nil, fmt.Errorf("Algorithm R runs under bubble flow control on its rings (or none); deadlock scheme %s is not offered", scheme)
	}
	geo, err := NewClusterTorus(net.Spec().Family, n, k)
	if err != nil {
		return nil, err
	}
	if scheme == SchemeBubble {
		if l := geo.cyclicLevel(); l >= 0 {
			return nil, fmt.Errorf("Algorithm R's shortest paths inside the clusters of %s close a cycle of channel dependencies at level %d (clusters with a ring of 5 or more nodes: toroids with n >= 9, TCC with n >= 3), which its level VCs do not break; run it with deadlock scheme escape (an up*/down* escape VC)", net, l)
		}
	}
	return &TCT{geo: geo, net: net, scheme: scheme}, nil
}

// cyclicLevel returns the first level whose in-cluster routes (from every cluster node
// to that level's targets: dimension l's two exits, or every node for l = n) have a
// cyclic channel dependency graph, or -1. The levels and the bubble rings order
// everything else, so the whole network's graph is acyclic exactly when no level is.
func (g *ClusterTorus) cyclicLevel() int {
	size := g.size
	ch := func(u, v int) int { return u*size + v } // the cluster channel u -> v
	for l := 0; l <= g.n; l++ {
		targets := []int{2 * l, 2*l + 1}
		if l == g.n {
			targets = targets[:0]
			for j := range size {
				targets = append(targets, j)
			}
		}
		adj := make([][]int, size*size)
		for _, t := range targets {
			for src := range size {
				prev := -1
				for u := src; u != t; u = int(g.next[u][t]) {
					c := ch(u, int(g.next[u][t]))
					if prev >= 0 {
						adj[prev] = append(adj[prev], c)
					}
					prev = c
				}
			}
		}
		if hasCycle(adj) {
			return l
		}
	}
	return -1
}

// hasCycle reports whether a directed graph has a cycle.
func hasCycle(adj [][]int) bool {
	state := make([]uint8, len(adj)) // 0 new, 1 on the stack, 2 done
	var visit func(v int) bool
	visit = func(v int) bool {
		state[v] = 1
		for _, w := range adj[v] {
			if state[w] == 1 || state[w] == 0 && visit(w) {
				return true
			}
		}
		state[v] = 2
		return false
	}
	for v := range adj {
		if state[v] == 0 && visit(v) {
			return true
		}
	}
	return false
}

// Name is "tct/bubble" or "tct/none".
func (r *TCT) Name() string { return "tct/" + r.scheme.String() }

// Network is the network the routing was made for.
func (r *TCT) Network() *topology.Network { return r.net }

// Geometry is the network's geometry.
func (r *TCT) Geometry() *ClusterTorus { return r.geo }

// Scheme is the deadlock scheme.
func (r *TCT) Scheme() Scheme { return r.scheme }

// DeadlockFree reports that the bubble rings and the levels make the routing
// deadlock-free.
func (r *TCT) DeadlockFree() bool { return r.scheme == SchemeBubble }

// SourceIndependent reports that routes depend only on the destination.
func (r *TCT) SourceIndependent() bool { return true }

// VCs is n + 2 on switch-to-switch ports under bubble flow control, else 1.
func (r *TCT) VCs(kind topology.PortKind) int {
	if kind == topology.Terminal || r.scheme == SchemeNone {
		return 1
	}
	return r.geo.n + 2
}

// Route appends Algorithm R's one candidate.
func (r *TCT) Route(s, in, inVC int, h Head, out []Candidate) []Candidate {
	net := r.net
	at := net.Attachment(int(h.Dst))
	hop := r.geo.Next(s, int(at.Switch))
	if hop.Kind == hopEject {
		return append(out, Candidate{Port: at.Port})
	}
	i := s % r.geo.size
	c := Candidate{}
	if hop.Ext {
		c.Port = int16(len(r.geo.adj[i]))
	} else {
		c.Port = r.geo.portTo[i][hop.Next%r.geo.size]
	}
	if r.scheme == SchemeNone {
		return append(out, c)
	}
	onRing := net.Port(s, in).Kind != topology.Terminal && inVC == 0
	switch {
	case hop.Kind == hopRing && hop.Ext:
		c.Bubble = !onRing // entering the ring at its first external hop
	case hop.Kind == hopRing && onRing:
		// the hop through an intermediate cluster, on the ring
	default:
		c.VC = int8(1 + hop.Level)
	}
	return append(out, c)
}

// Ring is the bubble ring of channel (switch s, port p, VC vc): VC 0 of a cluster
// node's external port, or of the cluster hop from dimension α's arrival node to its
// exit, belongs to α's ring in that direction through the meta node's line; -1
// otherwise.
func (r *TCT) Ring(s, p, vc int) int64 {
	if r.scheme != SchemeBubble || vc != 0 {
		return -1
	}
	g := r.geo
	m, i := s/g.size, s%g.size
	alpha := i / 2
	var dir int // 0 for the + ring, 1 for the − ring
	switch {
	case p == len(g.adj[i]) && g.k > 1: // external: node 2α+1 sends +, node 2α sends −
		dir = 1 - i%2
	case p < len(g.adj[i]) && g.adj[i][p] == i^1: // arrival -> exit: 2α -> 2α+1 on the + ring
		dir = i % 2
	default:
		return -1
	}
	line := m - g.stride[alpha]*g.Meta(m, alpha)
	return (int64(line)*int64(g.n)+int64(alpha))*2 + int64(dir)
}

// Path appends Algorithm R's route from PE src to PE dst, ending with the ejection.
func (r *TCT) Path(src, dst int, buf []Step) []Step { return firstPath(r.net, r, src, dst, buf) }

func tctRouting() RoutingDef {
	return RoutingDef{
		Name:    "tct",
		Summary: "Algorithm R (Bossard 2023): dimension order on the meta torus through the clusters' ports; TCT, TCC, toroid",
		Scheme:  SchemeBubble,
		Fits: func(net *topology.Network) error {
			if _, _, err := net.Spec().ClusterTorusParams(); err != nil {
				return fmt.Errorf("it routes tct:, tcc: and toroid: networks; %s is not one", net)
			}
			return nil
		},
		New: func(net *topology.Network, o Options) (Func, error) {
			if o.Scheme == SchemeEscape {
				r, err := NewTCT(net, SchemeNone)
				if err != nil {
					return nil, err
				}
				return withScheme(r, net, SchemeEscape)
			}
			return NewTCT(net, o.Scheme)
		},
	}
}

// OneCandidatePerHop reports that TCT offers one candidate per hop (see Selects).
func (*TCT) OneCandidatePerHop() bool { return true }
