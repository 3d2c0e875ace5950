package analysis

import (
	"fmt"
	"sort"

	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

// Channel is one virtual channel of a link: the VC of the link leaving Switch by Port.
type Channel struct {
	Switch, Port, VC int
	Name             string // e.g. "s12 y+ vc1"
}

// CDGReport is the verdict of a channel dependency graph check.
type CDGReport struct {
	Channels     int  // channel VCs that some route uses
	Dependencies int  // distinct dependencies between consecutive channels of a route
	Rings        int  // bubble-protected rings (0 without bubble flow control)
	Acyclic      bool // no cycle (between rings, under bubble flow control)
	// Cycle is one cycle of channels when the graph is cyclic; under bubble flow
	// control each member is a channel of a ring on the cycle of rings.
	Cycle []Channel
	// Unprotected lists dependencies that enter a ring without the bubble condition
	// (bubble flow control does not cover them), as "from -> to".
	Unprotected []string
}

// RingFunc says which bubble-protected ring channel (switch s, output port p, VC vc)
// belongs to, or -1; routing.Deterministic.Ring is one.
type RingFunc func(s, p, vc int) int64

// CheckCDG builds the channel dependency graph of a deterministic routing function with
// its VC assignment: a node per channel VC, an edge from each channel of a route to the
// next, over the routes between every ordered pair of PEs (PE links excluded: a NIC
// always accepts and its source queue is outside the network).
//
// Without rings (ring nil, or returning -1 everywhere) the routing is deadlock-free iff
// the graph is acyclic (Dally and Seitz). With bubble flow control (ring from the
// routing) the check is Carrión's: every dependency into a ring from outside it must
// carry the bubble condition, and the graph with each ring contracted to one node must
// be acyclic; dependencies inside a ring may cycle, the bubble keeps the ring moving.
func CheckCDG(net *topology.Network, rt routing.Func, ring RingFunc) (*CDGReport, error) {
	maxVC := 0
	for _, k := range []topology.PortKind{topology.External, topology.Internal, topology.Terminal} {
		maxVC = max(maxVC, rt.VCs(k))
	}
	node := func(s, p, vc int) int64 { return int64(net.PortID(s, p))*int64(maxVC) + int64(vc) }
	ringOf := func(s, p, vc int) int64 {
		if ring == nil {
			return -1
		}
		return ring(s, p, vc)
	}
	type edge struct{ a, b int64 }
	edges := map[edge]bool{}
	used := map[int64]bool{}
	rep := &CDGReport{Acyclic: true}
	unprotected := map[string]bool{}
	var cands []routing.Candidate
	for src := 0; src < net.Terminals(); src++ {
		for dst := 0; dst < net.Terminals(); dst++ {
			if src == dst {
				continue
			}
			at := net.Attachment(src)
			s, in, inVC := int(at.Switch), int(at.Port), 0
			prev := int64(-1)
			prevRing := int64(-1)
			prevS, prevP, prevVC := -1, 0, 0 // the channel held, named only in a report
			for hops := 0; ; hops++ {
				if hops > 4*net.Switches() {
					return nil, fmt.Errorf("route from PE %d to PE %d does not reach it", src, dst)
				}
				cands = rt.Route(s, in, inVC, routing.Head{Src: int32(src), Dst: int32(dst)}, cands[:0])
				if len(cands) != 1 {
					return nil, fmt.Errorf("routing %s is not deterministic at switch %d for PE %d -> %d: the check needs exactly one candidate", rt.Name(), s, src, dst)
				}
				c := cands[0]
				port := net.Port(s, int(c.Port))
				if port.Kind == topology.Terminal {
					break
				}
				cur := node(s, int(c.Port), int(c.VC))
				used[cur] = true
				r := ringOf(s, int(c.Port), int(c.VC))
				if r >= 0 && r != prevRing && !c.Bubble {
					prevName := "injection"
					if prevS >= 0 {
						prevName = channelName(net, prevS, prevP, prevVC)
					}
					unprotected[fmt.Sprintf("%s -> %s", prevName, channelName(net, s, int(c.Port), int(c.VC)))] = true
				}
				if prev >= 0 {
					edges[edge{prev, cur}] = true
				}
				prev, prevRing = cur, r
				prevS, prevP, prevVC = s, int(c.Port), int(c.VC)
				s, in, inVC = int(port.Peer), int(port.PeerPort), int(c.VC)
			}
		}
	}
	rep.Channels, rep.Dependencies = len(used), len(edges)
	for u := range unprotected {
		rep.Unprotected = append(rep.Unprotected, u)
	}
	sort.Strings(rep.Unprotected)

	switchOf := make([]int32, net.TotalPorts())
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			switchOf[net.PortID(s, p)] = int32(s)
		}
	}
	decodeNode := func(n int64) (s, p, vc int) {
		g := int(n / int64(maxVC))
		s = int(switchOf[g])
		return s, g - net.PortID(s, 0), int(n % int64(maxVC))
	}
	// Contract rings: a graph node is a ring, or a channel outside every ring.
	id := map[int64]int{}        // channel node -> graph node
	members := map[int][]int64{} // graph node -> one channel node per ring, for the report
	rings := map[int64]int{}
	var keys []int64
	for n := range used {
		keys = append(keys, n)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, n := range keys {
		s, p, vc := decodeNode(n)
		if r := ringOf(s, p, vc); r >= 0 {
			g, ok := rings[r]
			if !ok {
				g = len(members)
				rings[r] = g
				members[g] = []int64{n}
			}
			id[n] = g
			continue
		}
		g := len(members)
		id[n] = g
		members[g] = []int64{n}
	}
	rep.Rings = len(rings)
	adj := make([][]int, len(members))
	for e := range edges {
		a, b := id[e.a], id[e.b]
		if a != b {
			adj[a] = append(adj[a], b)
		}
	}
	for _, l := range adj {
		sort.Ints(l)
	}
	if cycle := findCycle(adj); cycle != nil {
		rep.Acyclic = false
		for _, g := range cycle {
			s, p, vc := decodeNode(members[g][0])
			rep.Cycle = append(rep.Cycle, Channel{Switch: s, Port: p, VC: vc, Name: channelName(net, s, p, vc)})
		}
	}
	return rep, nil
}

func channelName(net *topology.Network, s, p, vc int) string {
	return fmt.Sprintf("s%d %s vc%d", s, net.PortName(s, p), vc)
}

// findCycle returns the nodes of one directed cycle, or nil if the graph is acyclic.
func findCycle(adj [][]int) []int {
	const white, grey, black = 0, 1, 2
	color := make([]int8, len(adj))
	parent := make([]int, len(adj))
	type frame struct{ v, next int }
	for start := range adj {
		if color[start] != white {
			continue
		}
		stack := []frame{{start, 0}}
		color[start] = grey
		parent[start] = -1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(adj[f.v]) {
				color[f.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := adj[f.v][f.next]
			f.next++
			switch color[w] {
			case white:
				color[w], parent[w] = grey, f.v
				stack = append(stack, frame{w, 0})
			case grey: // back edge: w ... f.v -> w
				cycle := []int{w}
				for v := f.v; v != w; v = parent[v] {
					cycle = append(cycle, v)
				}
				for i, j := 1, len(cycle)-1; i < j; i, j = i+1, j-1 {
					cycle[i], cycle[j] = cycle[j], cycle[i]
				}
				return cycle
			}
		}
	}
	return nil
}
